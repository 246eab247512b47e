"""Nothing left behind: bots' scratch folders go on every exit path, and stale ones are swept."""

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sandbox.jail import SCRATCH_PREFIX, make_scratch, sweep_stale_scratch
from tests.conftest import bot_command

ROOT = Path(__file__).resolve().parents[2]
TMP = Path(tempfile.gettempdir())


def scratch_of(pid: int) -> list[Path]:
    return sorted(TMP.glob(f"{SCRATCH_PREFIX}{pid}-*"))


def a_dead_pid() -> int:
    gone = subprocess.Popen(["true"])
    gone.wait()
    return gone.pid


def test_sweeping_removes_folders_of_dead_owners_and_keeps_live_ones():
    stale = TMP / f"{SCRATCH_PREFIX}{a_dead_pid()}-12345-abc"
    stale.mkdir()
    (stale / "left.txt").write_text("a bot's file")
    live = make_scratch()
    unknown = TMP / f"{SCRATCH_PREFIX}oldformat"  # not named by an owner: not ours to judge
    unknown.mkdir()
    try:
        assert sweep_stale_scratch() >= 1
        assert not stale.exists()
        assert live.exists() and unknown.exists()
    finally:
        for folder in (live, unknown, stale):
            subprocess.run(["rm", "-rf", str(folder)], check=True)


def _league_play_waiting_on_a_silent_bot() -> subprocess.Popen:
    command = [sys.executable, "-m", "league", "play", "versus2048", bot_command("v2048_unflushed.py"), "greedy"]
    command += ["--set", "pregame_time_ms=60000"]
    player = subprocess.Popen(command, cwd=ROOT, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not scratch_of(player.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert scratch_of(player.pid), "the bot's scratch folder is named after the process that made it"
    return player


def test_ctrl_c_during_a_game_removes_the_scratch_folder():
    player = _league_play_waiting_on_a_silent_bot()
    player.send_signal(signal.SIGINT)
    _, err = player.communicate(timeout=60)
    assert player.returncode == 130, err
    assert b"Traceback" not in err
    assert scratch_of(player.pid) == []


def test_a_killed_run_leaves_a_folder_that_the_next_run_sweeps():
    player = _league_play_waiting_on_a_silent_bot()
    os.killpg(player.pid, signal.SIGKILL)
    player.wait()
    left = scratch_of(player.pid)
    assert left, "SIGKILL leaves no chance to clean up"
    subprocess.run(
        [sys.executable, "-m", "league", "play", "versus2048", "greedy", "greedy", "--set", "turns_per_player=2"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    assert [folder for folder in left if folder.exists()] == []


def test_a_cgroup_left_by_a_killed_run_is_made_anew():
    """A reused cgroup would keep an old peak memory and blame the next bot for hitting its cap."""
    from sandbox.cgroups import CgroupSlot, cgroups_problem

    if cgroups_problem() is not None:
        import pytest

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
