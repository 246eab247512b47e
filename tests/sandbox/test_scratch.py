"""The scratch folder: capped in total, never on the host's disk, gone with the jail on every exit path."""

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import sandbox.jail
from sandbox.jail import SCRATCH_PREFIX, jail_problem, sweep_stale_scratch
from sandbox.procfs import START_TIME, stat_fields
from tests.conftest import BOTS, alive, bot_command, processes_below, seated, with_ctrl_c

ROOT = Path(__file__).resolve().parents[2]
TMP = Path(tempfile.gettempdir())
CAP_MB = 8
SILENT = "v2048_unflushed.py"


def scratch_of(pid: int) -> list[Path]:
    """Host scratch folders named after process ``pid`` (as earlier versions made them)."""
    return sorted(TMP.glob(f"{SCRATCH_PREFIX}{pid}-*"))


def a_dead_pid() -> int:
    gone = subprocess.Popen(["true"])
    gone.wait()
    return gone.pid


def test_sweeping_removes_folders_of_dead_owners_and_keeps_live_ones():
    stale = TMP / f"{SCRATCH_PREFIX}{a_dead_pid()}-12345-abc"
    stale.mkdir()
    (stale / "left.txt").write_text("a bot's file")
    fields = stat_fields(os.getpid())
    assert fields is not None
    live = TMP / f"{SCRATCH_PREFIX}{os.getpid()}-{fields[START_TIME]}-live"
    live.mkdir()
    unknown = TMP / f"{SCRATCH_PREFIX}oldformat"  # not named by an owner: not ours to judge
    unknown.mkdir()
    try:
        assert sweep_stale_scratch() >= 1
        assert not stale.exists()
        assert live.exists() and unknown.exists()
    finally:
        for folder in (live, unknown, stale):
            subprocess.run(["rm", "-rf", str(folder)], check=True)


def _league_play_waiting_on_a_silent_bot() -> tuple[subprocess.Popen, list[int]]:
    """``league play`` with a jailed bot that never answers; the player and the bot's processes."""
    command = [sys.executable, "-m", "league", "play", "versus2048", bot_command(SILENT), "greedy"]
    command += ["--set", "pregame_time_ms=60000", "--sandbox", "strict"]
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    player = subprocess.Popen(command, cwd=ROOT, start_new_session=True, preexec_fn=with_ctrl_c, **pipes)
    deadline = time.monotonic() + 60
    while not processes_below(player.pid, f"{BOTS / SILENT}") and time.monotonic() < deadline:
        time.sleep(0.05)
    bot = processes_below(player.pid, f"{BOTS / SILENT}")
    assert bot, "the bot started"
    return player, bot


def _gone(pids: list[int]) -> bool:
    deadline = time.monotonic() + 30
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(alive(pid) for pid in pids)


@pytest.fixture
def jailed():
    if jail_problem() is not None:
        pytest.skip(f"the full jail cannot run here: {jail_problem()}")


def test_ctrl_c_during_a_game_leaves_nothing_behind(jailed):
    player, bot = _league_play_waiting_on_a_silent_bot()
    player.send_signal(signal.SIGINT)
    _, err = player.communicate(timeout=60)
    assert player.returncode == 130, err
    assert b"Traceback" not in err
    assert _gone(bot), "the bot's processes are stopped"
    assert scratch_of(player.pid) == [], "no scratch folder on the host"


def test_a_killed_run_leaves_no_scratch_on_the_host(jailed):
    player, bot = _league_play_waiting_on_a_silent_bot()
    os.killpg(player.pid, signal.SIGKILL)
    player.wait()
    assert _gone(bot), "the jail dies with its referee"
    assert scratch_of(player.pid) == [], "the scratch was the jail's own: nothing is left to sweep"


def play_filler(play_json, mode: str) -> dict:
    """A game of the scratch filler (seat 0, allowed to try 4 times its cap) against greedy, jailed."""
    filler = f"{bot_command('v2048_scratch_filler.py')} {mode} {4 * CAP_MB}"
    args = [*seated(filler, 0), "--set", "turns_per_player=5", "--sandbox", "strict", "--limit", f"scratch_mb={CAP_MB}"]
    return play_json("versus2048", *args)


def filler_report(data: dict) -> tuple[int, str]:
    """How many bytes the filler wrote to its scratch, and its whole stderr tail."""
    [tail] = [entry["text"] for entry in data["stderr"] if entry["seat"] == 0]
    found = re.search(r"wrote (\d+) bytes in \d+ files: (.*)", tail)
    assert found, tail
    return int(found[1]), tail


def assert_capped(written: int, tail: str) -> None:
    """The filler's writes stopped at the cap, refused by a full disk (never on the host's, never past the cap)."""
    assert (CAP_MB - 1) << 20 < written <= CAP_MB << 20, tail
    assert "files: [Errno 28] No space left on device" in tail


def test_a_bot_that_fills_its_scratch_is_capped_and_its_crash_is_a_forfeit(jailed, play_json):
    data = play_filler(play_json, "crash")
    result = data["result"]
    assert (result["termination"], result["offenders"], result["winner"]) == ("CRASH", [0], 1), result["detail"]
    written, tail = filler_report(data)
    assert_capped(written, tail)
    assert "OSError: [Errno 28] No space left on device" in tail, "its traceback is kept with the game"
    assert scratch_of(os.getpid()) == []


def test_a_bot_that_fills_its_scratch_and_plays_on_loses_nothing(jailed, play_json):
    data = play_filler(play_json, "play")
    result = data["result"]
    assert (result["termination"], result["offenders"]) == ("NORMAL", []), result["detail"]
    assert_capped(*filler_report(data))


@pytest.mark.parametrize("target", ["/dev/shm/pwned", "/dev/pwned", "/var/tmp/pwned"])
def test_the_scratch_is_the_only_place_a_bot_can_write(jailed, play_json, target):
    hostile = f"{bot_command('hostile.py')} write {target}"
    args = [*seated(hostile, 0), "--set", "turn_time_ms=600", "--sandbox", "strict"]
    result = play_json("versus2048", *args)["result"]
    assert result["offenders"] == [0] and "cannot write" in result["detail"], result["detail"]


def test_a_bubblewrap_that_cannot_cap_the_scratch_is_refused_with_the_reason(jailed, league_cli, tmp_path, monkeypatch):
    old = tmp_path / "bwrap"
    old.write_text(
        '#!/bin/sh\nfor a; do [ "$a" = --size ] && { echo "bwrap: Unknown option --size" >&2; exit 1; }; done\n'
        'exec bwrap "$@"\n'
    )
    old.chmod(0o755)
    monkeypatch.setenv("LEAGUE_BWRAP", str(old))  # as bubblewrap 0.4 answers
    status, _, err = league_cli("play", "versus2048", bot_command("v2048_judge_style.py"), "greedy")
    assert status == 2 and err.count("\n") == 1, err
    assert "bubblewrap is too old (bwrap: Unknown option --size): 0.5 or later caps a bot's scratch folder" in err


def test_sandbox_none_says_what_it_cannot_cap(league_cli, monkeypatch):
    monkeypatch.setattr(sandbox.jail, "_warned", set())
    bot = bot_command("v2048_judge_style.py")
    status, _, err = league_cli("play", "versus2048", bot, "greedy", "--set", "turns_per_player=3", "--sandbox", "none")
    assert status == 0, err
    assert "league: WARNING: sandbox none: bots run as plain processes, neither jailed nor capped" in err
    assert "fill the disk (no scratch_mb)" in err


def test_a_cgroup_left_by_a_killed_run_is_made_anew():
    """A reused cgroup would keep an old peak memory and blame the next bot for hitting its cap."""
    from sandbox.cgroups import CgroupSlot, cgroups_problem

    if cgroups_problem() is not None:
        pytest.skip(f"no cgroups here: {cgroups_problem()}")
    name = f"stale{os.getpid()}"
    first = CgroupSlot.create(name, 64, 8)
    left = subprocess.Popen(["sleep", "60"])  # what a killed run left in its slot
    for procs in first.procs_files:
        Path(procs).write_text(str(left.pid))
    try:
        second = CgroupSlot.create(name, 128, 8)
        assert left.wait(timeout=5) == -signal.SIGKILL, "the stale slot's processes are killed"
        assert second.pids() == set() and second.memory_limit == 128 << 20
        second.destroy()
        assert not any(folder.exists() for folder in second.dirs)
    finally:
        left.kill()
        left.wait()
