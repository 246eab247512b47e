"""A real two-node Ray cluster on loopback: `ray start` twice, `league run --address`, a node lost mid-league.

And an address where no head answers: one line, nothing played.

Each node is its own `ray start` (its own process group, CPUs, temp folder and bot cache), as on
two machines. Everything binds to 127.0.0.1: Ray turns a loopback node address into the host's
own address, so the nodes start through `ray start` with that one lookup left alone, and the
driver connects with Ray's single-machine switch (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``), which
keeps its own address on loopback. The cluster has a token of its own. Each test stops the nodes
it started by their process groups; the test session's own Ray is never touched.
"""

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.conftest import BOTS, write_league

ROOT = Path(__file__).resolve().parents[3]
RAY_ON_LOOPBACK = (
    "import sys; from ray._private import services; services.resolve_ip_for_localhost = lambda host: host;"
    " from ray.scripts.scripts import main; sys.argv[0] = 'ray'; main()"
)
"""`ray start` keeping 127.0.0.1 as the node's address (Ray would swap in the host's own address)."""
BOT_FILES = ("v2048_slow.py", "v2048lib.py", "botio.py")
GENEROUS_CLOCKS = {"pregame_time_ms": 20000, "turn_time_ms": 10000, "total_time_ms": 600000}
"""Time limits no loaded test machine reaches: these games end by the rules, never on time."""

needs_bubblewrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="program bots need bubblewrap")


class LoopbackCluster:
    """Ray nodes started with `ray start` on 127.0.0.1, each a process group of its own."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_")}
        self.env |= {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)}
        self.address = ""
        self.groups: dict[str, int] = {}
        self.node_ids: dict[str, str] = {}

    def start(self, name: str, cpus: int = 1) -> None:
        """Start node ``name`` (the first one is the head) with ``cpus`` CPUs and a bot cache of its own."""
        options = [f"--num-cpus={cpus}", "--object-store-memory=100000000", "--disable-usage-stats"]
        options += [f"--temp-dir={self.folder / name}", "--node-ip-address=127.0.0.1"]
        if not self.address:
            port = _free_port()
            options += ["--head", f"--port={port}", "--include-dashboard=false"]
            self.address = f"127.0.0.1:{port}"
        else:
            options += [f"--address={self.address}"]
        env = self.env | {"LEAGUE_BOT_CACHE": str(self.cache(name))}
        log = self.folder / f"{name}.log"
        with log.open("w") as output:
            starter = subprocess.Popen(
                [sys.executable, "-c", RAY_ON_LOOPBACK, "start", *options],
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.groups[name] = starter.pid
        assert starter.wait(timeout=60) == 0, log.read_text()[-3000:]
        self.node_ids[name] = self._node_id(starter.pid)

    def cache(self, name: str) -> Path:
        """Where node ``name`` unpacks shipped bot folders."""
        return self.folder / f"cache-{name}"

    def kill(self, name: str) -> None:
        """Kill every process of node ``name`` at once, as when its machine goes down."""
        _signal_group(self.groups[name], signal.SIGKILL)

    def stop(self) -> None:
        """Stop every node: SIGTERM to each group, SIGKILL to what is left after a few seconds, then wait for it."""
        for number, grace in ((signal.SIGTERM, 3), (signal.SIGKILL, 10)):
            for group in self.groups.values():
                _signal_group(group, number)
            deadline = time.monotonic() + grace
            while any(_group_members(group) for group in self.groups.values()) and time.monotonic() < deadline:
                time.sleep(0.1)

    def driver_env(self) -> dict[str, str]:
        """The environment of a driver on this machine: the token, and its own address kept on loopback."""
        return self.env | {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}

    def _node_id(self, group: int) -> str:
        """The first 12 hex digits of the Ray node id of the raylet in process group ``group``."""
        for pid in _group_members(group):
            try:
                arguments = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            for argument in arguments:
                if argument.startswith(b"--node_id="):
                    return argument.removeprefix(b"--node_id=").decode()[:12]
        raise AssertionError(f"no raylet in process group {group}")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _group_members(group: int) -> list[int]:
    """Live (not zombie) processes of process group ``group``."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            members.append(int(entry.name))
    return members


def _signal_group(group: int, number: int) -> None:
    if _group_members(group):
        try:
            os.killpg(group, number)
        except ProcessLookupError:
            pass


@pytest.fixture
def cluster() -> Iterator[LoopbackCluster]:
    """A head and a second node, each with one CPU; stopped afterwards by their own process groups."""
    folder = Path(tempfile.mkdtemp(prefix="lg-", dir="/tmp"))  # short: Ray's socket paths must fit
    nodes = LoopbackCluster(folder)
    try:
        nodes.start("head")
        nodes.start("second")
        yield nodes
    finally:
        nodes.stop()
        left = [pid for group in nodes.groups.values() for pid in _group_members(group)]
        shutil.rmtree(folder, ignore_errors=True)
        assert not left, f"processes of the nodes outlived their stop: {left}"


def program_league(folder: Path, games_per_pair: int, turns: int, delay_ms: int) -> Path:
    """A league of a program bot whose folder lies outside the league's folder against a built-in."""
    bot = folder / "bots" / "slow"
    bot.mkdir(parents=True)
    for name in BOT_FILES:
        shutil.copy(BOTS / name, bot / name)
    for path in (folder, folder / "bots", bot, *bot.iterdir()):
        path.chmod(0o755 if path.is_dir() else 0o644)
    (folder / "league").mkdir()
    config = {
        "name": "clustered",
        "game": "versus2048",
        "variants": {"short": {"turns_per_player": turns, **GENEROUS_CLOCKS}},
        "bots": [
            {"name": "slow", "command": ["python3", "v2048_slow.py", str(delay_ms)], "cwd": "../bots/slow"},
            {"name": "greedy", "builtin": "versus2048.greedy"},
        ],
        "games_per_pair": games_per_pair,
        "concurrency": 2,
        "seed": 11,
    }
    path = folder / "league" / "league.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def stored(path: Path) -> list[dict]:
    """The results lines of a league's store (a line still being written is left out)."""
    games = path.parent / "reports" / "clustered" / "games.jsonl"
    if not games.exists():
        return []
    return [json.loads(line) for line in games.read_text().splitlines() if line.endswith("}")]


def league_run(cluster: LoopbackCluster, path: Path) -> list[str]:
    return [sys.executable, "-m", "league", "run", str(path), "--address", cluster.address, "--quiet"]


@needs_bubblewrap
def test_a_league_of_program_bots_runs_on_both_nodes_with_the_bots_folder_shipped(cluster, tmp_path):
    path = program_league(tmp_path, games_per_pair=6, turns=20, delay_ms=5)
    run = subprocess.run(
        league_run(cluster, path), cwd=ROOT, env=cluster.driver_env(), capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert "cluster: 1 bot folder" in run.stderr
    records = stored(path)
    assert len(records) == 6 and set(Counter(record["game_id"] for record in records).values()) == {1}
    assert {record["result"]["termination"] for record in records} == {"NORMAL"}, [r["result"] for r in records]
    assert {record["node"] for record in records} == set(cluster.node_ids.values()), "games on both nodes"
    moves = (path.parent / "reports" / "clustered" / "moves.jsonl").read_text().splitlines()
    for line in map(json.loads, moves):
        seat = next(record for record in records if record["game_id"] == line["game_id"])["spec"]["seats"].index("slow")
        assert any(move[0] == seat for move in line["moves"]), "the program bot played"
    for name in cluster.node_ids:  # each node unpacked the bot's folder once, into its own cache
        copies = [entry for entry in cluster.cache(name).iterdir() if entry.is_dir()]
        assert len(copies) == 1, (name, copies)
        assert (copies[0] / "v2048_slow.py").read_bytes() == (tmp_path / "bots" / "slow" / "v2048_slow.py").read_bytes()


@needs_bubblewrap
def test_a_node_removed_mid_league_still_leaves_every_game_stored_once(cluster, tmp_path):
    path = program_league(tmp_path, games_per_pair=8, turns=30, delay_ms=20)
    driver = subprocess.Popen(
        league_run(cluster, path),
        cwd=ROOT,
        env=cluster.driver_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        second = cluster.node_ids["second"]
        deadline = time.monotonic() + 60
        while not any(record.get("node") == second for record in stored(path)):
            assert driver.poll() is None and time.monotonic() < deadline, "no game finished on the second node"
            time.sleep(0.05)
        cluster.kill("second")
        at_kill = len(stored(path))
        _, err = driver.communicate(timeout=120)
    finally:
        if driver.poll() is None:
            os.killpg(driver.pid, signal.SIGKILL)
            driver.wait()
    assert driver.returncode == 0, err
    assert at_kill < 8, "the node must go while games are left"
    records = stored(path)
    ids = [record["game_id"] for record in records]
    assert len(ids) == 8 and set(Counter(ids).values()) == {1}, "every game stored exactly once"
    assert {record["result"]["termination"] for record in records} == {"NORMAL"}, [r["result"] for r in records]


def test_an_address_where_no_head_answers_is_one_line_and_nothing_is_played(tmp_path, league_cli):
    path = write_league(tmp_path)
    address = f"127.0.0.1:{_free_port()}"  # nothing listens there
    status, out, err = league_cli("run", str(path), "--address", address, "--quiet")
    assert status == 2 and out == ""
    last = err.splitlines()[-1]
    assert last.startswith(f"league: error: --address {address}: no Ray head answers there (Connection refused)")
    assert "ray start --head" in last
    assert not (tmp_path / "out" / "games.jsonl").exists()
