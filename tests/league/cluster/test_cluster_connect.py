"""Joining a Ray cluster: what goes wrong is one line before anything is written, and its CPUs count.

Every bad address (malformed, a web address, refused, something other than a Ray head, a refused
token, a cluster without CPUs) is one line and exit status 2 with the report folder left byte for
byte as it was. On a cluster the default concurrency is its CPUs divided by the cores a game needs,
and `league validate --cluster` checks as a run would. A run that waits for a CPU says so; Ray's own
messages never reach stdout. The heads are real `ray start` heads on 127.0.0.1 (``LoopbackCluster``),
each with a token and a temporary folder of its own, stopped by their process groups.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from league.plan import cores
from tests.conftest import BOTS, processes_below, write_league
from tests.league.cluster.test_cluster import ROOT, LoopbackCluster, _free_port, _group_members
from tests.league.plan.test_tables import nimmt_league

HOLD_CPUS = """
import sys, time, ray
ray.init(address=sys.argv[1], log_to_driver=False)
holder = ray.remote(num_cpus=int(sys.argv[2]))(type("Hold", (), {"ok": lambda self: 1})).remote()
ray.get(holder.ok.remote())
print("holding", flush=True)
time.sleep(600)
"""
"""A driver whose actor holds the given CPUs of a cluster (another league, as far as ours can tell)."""


@pytest.fixture(scope="module")
def heads() -> Iterator[dict[str, LoopbackCluster]]:
    """Two one-node clusters: ``empty`` (``--num-cpus=0``) and ``four`` (4 CPUs)."""
    folder = Path(tempfile.mkdtemp(prefix="lc-", dir="/tmp"))  # short: Ray's socket paths must fit
    clusters = {"empty": LoopbackCluster(folder / "e"), "four": LoopbackCluster(folder / "f")}
    try:
        for name, cluster in clusters.items():
            cluster.folder.mkdir()
            cluster.start("head", cpus=0 if name == "empty" else 4)
        yield clusters
    finally:
        for cluster in clusters.values():
            cluster.stop()
        groups = [group for cluster in clusters.values() for group in cluster.groups.values()]
        left = [pid for group in groups for pid in _group_members(group)]
        shutil.rmtree(folder, ignore_errors=True)
        assert not left, f"processes of the heads outlived their stop: {left}"


def with_token_of(monkeypatch, cluster: LoopbackCluster) -> None:
    """This process (and what it starts) joins ``cluster`` as its driver would."""
    for key, value in cluster.driver_env().items():
        if key.startswith("RAY_"):
            monkeypatch.setenv(key, value)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)


def finished_league(folder: Path) -> tuple[Path, dict[str, bytes]]:
    """A league whose report folder holds an earlier run's files, and those files' bytes."""
    path = write_league(folder)
    output = folder / "out"
    output.mkdir()
    for name in ("games.jsonl", "moves.jsonl", "league.json", "index.html", "report.md", "standings.csv"):
        (output / name).write_text(f"an earlier run's {name}\n")
    return path, snapshot(output)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*"))}


def refused(league_cli, *args: str) -> str:
    """Run ``league ARGS``: it must stop with one line and exit status 2; that line."""
    status, out, err = league_cli(*args)
    assert (status, out) == (2, ""), err
    assert err.count("\n") == 1 and err.startswith("league: error: "), err
    return err.strip()


@pytest.mark.parametrize(
    ("address", "words"),
    [
        ("garbage", "expected the head's HOST:PORT"),
        ("127.0.0.1:notaport", "expected the head's HOST:PORT, e.g. 127.0.0.1:6379"),
        ("http://127.0.0.1:8265", "a web address (Ray's dashboard) is not where a driver joins"),
        ("127.0.0.1:0", "port 0 is not a port"),
        ("refused", "no Ray head answers there (Connection refused)"),
    ],
)
def test_a_bad_address_is_one_line_and_leaves_the_report_folder_as_it_was(tmp_path, league_cli, address, words):
    path, before = finished_league(tmp_path)
    address = f"127.0.0.1:{_free_port()}" if address == "refused" else address
    line = refused(league_cli, "run", str(path), "--address", address, "--quiet")
    assert line.startswith("league: error: --address ") and words in line, line
    assert snapshot(tmp_path / "out") == before


def test_an_unreachable_head_makes_no_report_folder(tmp_path, league_cli):
    path = write_league(tmp_path)
    refused(league_cli, "run", str(path), "--address", f"127.0.0.1:{_free_port()}", "--quiet")
    assert not (tmp_path / "out").exists()


def test_something_else_listening_is_not_taken_for_a_head(tmp_path, league_cli):
    path, before = finished_league(tmp_path)
    with socket.socket() as other:  # a port that accepts and never speaks Ray
        other.bind(("127.0.0.1", 0))
        other.listen()
        started = time.monotonic()
        line = refused(league_cli, "run", str(path), "--address", f"127.0.0.1:{other.getsockname()[1]}")
    assert "no Ray head answered" in line and "not the dashboard's (8265)" in line
    assert time.monotonic() - started < 35
    assert snapshot(tmp_path / "out") == before


def test_validate_cluster_checks_the_head_and_plain_validate_does_not(tmp_path, league_cli, monkeypatch):
    path = write_league(tmp_path)
    monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{_free_port()}")
    line = refused(league_cli, "validate", str(path), "--cluster", "--no-estimate")
    assert "RAY_ADDRESS 127.0.0.1:" in line and "no Ray head answers there" in line
    status, out, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 0 and out.endswith("ok\n") and "cannot be checked from here" in err
    monkeypatch.delenv("RAY_ADDRESS")
    assert "port 99999" in refused(league_cli, "validate", str(path), "--address", "127.0.0.1:99999")


def test_a_cluster_without_cpus_is_one_line(heads, tmp_path, league_cli, monkeypatch):
    with_token_of(monkeypatch, heads["empty"])
    path, before = finished_league(tmp_path)
    address = heads["empty"].address
    run = refused(league_cli, "run", str(path), "--address", address)
    validate = refused(league_cli, "validate", str(path), "--address", address, "--no-estimate")
    for line in (run, validate):
        assert "has no CPU for workers" in line and f"ray start --address={address}" in line, line
    assert snapshot(tmp_path / "out") == before


def test_a_refused_token_is_one_line_at_once(heads, tmp_path, league_cli, monkeypatch):
    with_token_of(monkeypatch, heads["four"])
    path, before = finished_league(tmp_path)
    monkeypatch.setenv("RAY_AUTH_TOKEN", "ab" * 32)
    started = time.monotonic()
    line = refused(league_cli, "run", str(path), "--address", heads["four"].address)
    assert time.monotonic() - started < 10, "no 20 tries of Ray's"
    assert "refused this machine's token" in line and "~/.ray/auth_token" in line
    monkeypatch.delenv("RAY_AUTH_MODE")
    line = refused(league_cli, "validate", str(path), "--address", heads["four"].address)
    assert "RAY_AUTH_MODE=token is not set here" in line
    assert snapshot(tmp_path / "out") == before


def test_on_a_cluster_the_default_concurrency_is_its_cpus_over_a_game_s_cores(heads, tmp_path, league_cli, monkeypatch):
    with_token_of(monkeypatch, heads["four"])
    monkeypatch.setattr(cores, "usable_cores", lambda: 2)  # this machine: 2 cores, the cluster 4 CPUs
    address = heads["four"].address
    plain = write_league(tmp_path)
    data = yaml.safe_load(plain.read_text())
    del data["concurrency"]
    plain.write_text(yaml.safe_dump(data))
    status, out, err = league_cli("validate", str(plain), "--address", address, "--no-estimate")
    assert status == 0, err
    assert "concurrency 4 (the cluster's 4 CPUs / 1 core a game)" in out
    assert err.startswith("league: note: ") and "on the cluster's 4 CPUs" in err and "WARNING" not in err
    tables = tmp_path / "tables"
    tables.mkdir()
    programs = [{"name": f"p{k}", "command": f"python3 {BOTS / 'nimmt_hostile.py'} plain"} for k in range(3)]
    shared = {"cluster": {"shared_path": True}}  # the bots' files are not shipped: every node has the same paths
    nimmt = nimmt_league(tables, bots=programs, players_per_table=3, output=str(tables / "out"), **shared)
    data = yaml.safe_load(nimmt.read_text())
    data.pop("concurrency", None)
    nimmt.write_text(yaml.safe_dump(data))
    status, out, err = league_cli("validate", str(nimmt), "--address", address, "--no-estimate")
    assert status == 0, err
    assert "concurrency 1 (the cluster's 4 CPUs / 3 cores a game)" in out


def test_validate_cluster_weighs_the_cluster_s_cpus_not_this_machine_s_cores(heads, tmp_path, league_cli, monkeypatch):
    with_token_of(monkeypatch, heads["four"])
    monkeypatch.setattr(cores, "usable_cores", lambda: 2)
    path = write_league(tmp_path, concurrency=32)
    monkeypatch.setenv("RAY_ADDRESS", heads["four"].address)
    status, out, err = league_cli("validate", str(path), "--cluster", "--no-estimate")
    assert status == 0, err
    assert "concurrency 32 (the league file's)" in out
    assert err.count("\n") == 1 and "on 2 cores" not in err and "WARNING" not in err
    assert "32 games at once on the cluster's 4 CPUs: 4 play (a CPU each) while the others wait" in err


def test_a_league_on_the_cluster_plays_with_its_cpus_and_stdout_holds_only_the_report(heads, tmp_path):
    path = write_league(tmp_path, games_per_pair=2, variants={"short": {"turns_per_player": 5}})
    data = yaml.safe_load(path.read_text())
    data["bots"] = data["bots"][:2]  # one pair of games: few workers to start
    del data["concurrency"]
    path.write_text(yaml.safe_dump(data))
    command = [sys.executable, "-m", "league", "run", str(path), "--address", heads["four"].address, "--quiet"]
    run = subprocess.run(command, cwd=ROOT, env=heads["four"].driver_env(), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout == f"report: {tmp_path / 'out' / 'index.html'}\n"
    assert "concurrency 4 (the cluster's 4 CPUs / 1 core a game)" in run.stderr


def test_a_run_waiting_for_a_cpu_says_so_in_one_line(heads, tmp_path):
    cluster = heads["four"]
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_CPUS, cluster.address, "4"],
        cwd=ROOT,
        env=cluster.driver_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    path = write_league(tmp_path, games_per_pair=2)
    waiting = (
        "import sys, league.cluster.session as r; r.WORKER_WAIT_NOTE_S = 1;"
        " from league.cli.main import main; sys.exit(main())"
    )
    command = [sys.executable, "-c", waiting, "run", str(path), "--address", cluster.address, "--quiet"]
    driver = None
    try:
        assert holder.stdout.readline().strip() == "holding"
        driver = subprocess.Popen(
            command, cwd=ROOT, env=cluster.driver_env(), stderr=subprocess.PIPE, text=True, start_new_session=True
        )
        deadline = time.monotonic() + 300  # far beyond the second it needs, for a busy machine
        notes = []
        while not notes and time.monotonic() < deadline:
            line = driver.stderr.readline()
            assert line, "the run ended before it said it waits"
            notes = [line] if "no worker has started" in line else []
        assert notes, "no note within a minute"
        assert "the cluster has 4 CPUs, 0 free" in notes[0] and "ray status" in notes[0]
        assert driver.poll() is None, "it goes on waiting"
        driver.send_signal(signal.SIGTERM)
        _, rest = driver.communicate(timeout=60)
        assert driver.returncode == 130, rest
    finally:
        for process in (driver, holder):
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def test_ray_s_message_about_a_killed_worker_stays_off_stdout(tmp_path):
    tmp_path.chmod(0o755)
    slow = {"name": "slow", "command": f"{sys.executable} {BOTS / 'v2048_slow.py'} 25"}
    bots = [slow, {"name": "greedy", "builtin": "versus2048.greedy"}]
    path = write_league(
        tmp_path, bots=bots, games_per_pair=2, concurrency=1, sandbox="none", variants={"v": {"turns_per_player": 40}}
    )
    command = [sys.executable, "-m", "league", "run", str(path), "--quiet"]
    driver = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300  # Ray's start on a busy machine: far beyond the few seconds it needs
    while not (bots_running := processes_below(driver.pid, "v2048_slow.py")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert bots_running, "no game started"
    worker = int(Path(f"/proc/{bots_running[0]}/stat").read_text().rsplit(")", 1)[1].split()[1])
    os.kill(worker, signal.SIGKILL)  # the worker refereeing the game
    out, err = driver.communicate(timeout=120)
    assert driver.returncode == 0, err
    assert out == f"report: {tmp_path / 'out' / 'index.html'}\n", "Ray's messages never reach stdout"
    assert "\x1b[" not in out + err
    told = [line for line in err.splitlines() if "A worker died" in line]
    assert told, "Ray's message is told"
    assert all(line.startswith("league: ray: A worker died or was killed") for line in told), told
