"""Bot folders shipped to a cluster's nodes: packed the same way every time, unpacked once a node, paths rewritten.

No Ray here: the packed bytes are handed over as they are (a cluster run puts them in Ray's object
store; tests/league/test_cluster.py runs that on two real nodes).
"""

import io
import os
import re
import shutil
import stat
import sys
import tarfile
import threading
import time
from pathlib import Path

import pytest
import yaml

from league import shipping
from league.config import load_league
from league.runner import league_setup, schedule
from league.shipping import ShippedPath, localized, pack, shipping_problem, unpacked
from league.worker import play_game
from tests.conftest import BOTS

BOT_FILES = ("v2048_slow.py", "v2048lib.py", "botio.py")
SLOW = {"name": "slow", "command": ["python3", "v2048_slow.py"], "cwd": "../bots/slow"}
"""The bot of ``bot_folder(tmp_path / "bots" / "slow")`` in a league of ``tmp_path / "league"``."""


def bot_folder(where: Path) -> Path:
    """A program bot's own folder: a legal versus2048 bot and its helpers, readable by the jailed bot."""
    where.mkdir(parents=True)
    for name in BOT_FILES:
        shutil.copy(BOTS / name, where / name)
    for path in (where, *where.iterdir()):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return where


def bot_league(folder: Path, bot: dict, **overrides) -> Path:
    """A league file in ``folder``: ``bot`` against a built-in."""
    folder.mkdir(parents=True, exist_ok=True)
    config = {
        "name": "shipped",
        "game": "versus2048",
        "variants": {"short": {"turns_per_player": 8}},
        "bots": [bot, {"name": "greedy", "builtin": "versus2048.greedy"}],
        "games_per_pair": 2,
        "concurrency": 1,
        **overrides,
    }
    path = folder / "league.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def shipped_as_bytes(path: Path) -> ShippedPath:
    packed = pack(path)
    return ShippedPath(str(path), shipping._digest(packed), path.is_dir(), packed)


def test_a_folder_packs_to_the_same_bytes_whatever_its_file_times_and_to_others_when_a_file_changes(tmp_path):
    folder = bot_folder(tmp_path / "bot")
    (folder / "run").write_text("#!/bin/sh\n")
    (folder / "run").chmod(0o755)
    (folder / "lib").mkdir()
    (folder / "lib" / "data.txt").write_text("weights")
    (folder / "latest").symlink_to("lib/data.txt")
    (folder / ".git").mkdir()
    (folder / ".git" / "HEAD").write_text("ref")
    (folder / "reports").mkdir()
    (folder / "reports" / "games.jsonl").write_text("{}")
    first = pack(folder, skip=(folder / "reports",))
    os.utime(folder / "lib" / "data.txt", (1, 1))
    assert pack(folder, skip=(folder / "reports",)) == first
    with tarfile.open(fileobj=io.BytesIO(first)) as archive:
        members = {member.name: member for member in archive.getmembers()}
    assert sorted(members) == sorted(
        ["botio.py", "latest", "lib", "lib/data.txt", "run", "v2048_slow.py", "v2048lib.py"]
    )
    assert members["run"].mode == 0o755 and members["latest"].issym() and members["latest"].linkname == "lib/data.txt"
    assert {(member.uid, member.mtime) for member in members.values()} == {(0, 0)}
    (folder / "lib" / "data.txt").write_text("weights 2")
    assert pack(folder, skip=(folder / "reports",)) != first


def test_the_workers_of_a_node_unpack_a_shipped_folder_once_and_later_runs_find_it(tmp_path, monkeypatch):
    folder = bot_folder(tmp_path / "bot")
    (folder / "run").write_text("#!/bin/sh\n")
    (folder / "run").chmod(0o755)
    entry = shipped_as_bytes(folder)
    fetched = []
    real_fetch = shipping._fetch

    def slow_fetch(data):
        fetched.append(1)
        time.sleep(0.2)  # the others reach the lock meanwhile
        return real_fetch(data)

    monkeypatch.setattr(shipping, "_fetch", slow_fetch)
    monkeypatch.setattr(shipping, "_unpacked_here", {})
    cache = tmp_path / "cache"
    copies = []
    workers = [threading.Thread(target=lambda: copies.append(unpacked(entry, cache))) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(fetched) == 1 and len(set(copies)) == 1 and len(copies) == 4
    copy = copies[0]
    assert copy == cache / entry.digest
    assert sorted(path.name for path in copy.iterdir()) == sorted([*BOT_FILES, "run"])
    assert (copy / "v2048_slow.py").read_bytes() == (folder / "v2048_slow.py").read_bytes()
    assert os.access(copy / "run", os.X_OK)
    assert all(path.stat().st_mode & stat.S_IROTH for path in (copy, *copy.iterdir())), "jailed bots run as others"
    assert [path.name for path in cache.iterdir() if ".part-" in path.name] == []
    monkeypatch.setattr(shipping, "_unpacked_here", {})  # another worker process, a later run
    assert unpacked(entry, cache) == copy and len(fetched) == 1


def test_paths_under_a_shipped_folder_become_paths_in_its_copy_the_innermost_folder_first(tmp_path):
    outer = tmp_path / "league"
    inner = bot_folder(outer / "bots" / "mine")
    (outer / "packs.txt").write_text("packs")
    shipped = {str(path): shipped_as_bytes(path) for path in (outer, inner, outer / "packs.txt")}
    data = {
        "name": "mine",
        "command": ["python3", f"{inner}/v2048_slow.py", "5", "/usr/bin/env"],
        "cwd": str(inner),
        "params": {},
    }
    cache = tmp_path / "cache"
    local = localized(data, shipped, cache)
    inner_copy = cache / shipped[str(inner)].digest
    assert local["cwd"] == str(inner_copy)
    assert local["command"] == ["python3", f"{inner_copy}/v2048_slow.py", "5", "/usr/bin/env"]
    assert local["name"] == "mine" and local["params"] == {}
    variant = localized({"packs_file": str(outer / "packs.txt"), "turns": 3}, shipped, cache)
    assert Path(variant["packs_file"]).read_text() == "packs" and variant["turns"] == 3
    assert localized(data, {}, cache) is data


def test_a_game_on_a_node_plays_the_bot_from_its_copy_when_the_drivers_folder_is_not_there(tmp_path, monkeypatch):
    folder = bot_folder(tmp_path / "bots" / "slow")
    path = bot_league(
        tmp_path / "league", {"name": "slow", "command": [sys.executable, "v2048_slow.py", "1"], "cwd": "../bots/slow"}
    )
    league = load_league(path)
    setup = league_setup(league, {str(folder): shipped_as_bytes(folder)})
    folder.rename(tmp_path / "elsewhere")  # this "node" has no such folder: only the shipped bytes
    monkeypatch.setenv(shipping.CACHE_VARIABLE, str(tmp_path / "node-cache"))
    monkeypatch.setattr(shipping, "_unpacked_here", {})
    record = play_game(schedule(league)[0].to_json(), setup)
    assert record["result"]["termination"] == "NORMAL", record["result"]["detail"]
    assert any(move[0] == record["spec"]["seats"].index("slow") for move in record["moves"])
    assert len(list((tmp_path / "node-cache").glob("*/v2048_slow.py"))) == 1


def test_a_bot_folder_outside_the_leagues_folder_can_be_shipped(tmp_path):
    bot_folder(tmp_path / "bots" / "slow")
    path = bot_league(
        tmp_path / "league", {"name": "slow", "command": ["python3", "v2048_slow.py"], "cwd": "../bots/slow"}
    )
    assert shipping_problem(load_league(path)) is None


def test_a_file_named_outside_the_bots_folder_is_refused_on_a_cluster_unless_paths_are_shared(tmp_path):
    folder = bot_folder(tmp_path / "bots" / "slow")
    bot = {"name": "slow", "command": ["python3", str(folder / "v2048_slow.py")], "cwd": "."}
    league = load_league(bot_league(tmp_path / "league", bot))
    problem = shipping_problem(league)
    assert problem is not None and "\n" not in problem
    assert problem.startswith("bots[0] (slow): its command names")
    assert str(folder / "v2048_slow.py") in problem and "cluster: {shared_path: true}" in problem
    shared = load_league(bot_league(tmp_path / "shared", bot, cluster={"shared_path": True}))
    assert shipping_problem(shared) is None


def test_a_folder_too_large_to_ship_is_refused_with_the_fix(tmp_path, monkeypatch):
    bot_folder(tmp_path / "bots" / "slow")
    (tmp_path / "bots" / "slow" / "weights.bin").write_bytes(b"\0" * 5000)
    path = bot_league(
        tmp_path / "league", {"name": "slow", "command": ["python3", "v2048_slow.py"], "cwd": "../bots/slow"}
    )
    monkeypatch.setattr(shipping, "MAX_SHIPPED_BYTES", 4096)
    problem = shipping_problem(load_league(path))
    assert problem is not None and problem.startswith("bots[0] (slow): its folder")
    assert "too much to ship" in problem and "give the bot a folder of its own" in problem


def test_validate_for_a_cluster_refuses_what_cannot_be_shipped_in_one_line_and_locally_accepts_it(tmp_path, league_cli):
    folder = bot_folder(tmp_path / "bots" / "slow")
    bot = {"name": "slow", "command": [sys.executable, str(folder / "v2048_slow.py"), "1"], "cwd": "."}
    path = str(bot_league(tmp_path / "league", bot))
    status, out, err = league_cli("validate", path, "--no-estimate", "--cluster")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"league: error: {path}: bots[0] (slow): its command names")
    status, out, _ = league_cli("validate", path, "--no-estimate")
    assert status == 0 and out.endswith("ok\n") and "cluster:" not in out


def test_validate_for_a_cluster_says_what_it_ships(tmp_path, league_cli):
    bot_folder(tmp_path / "bots" / "slow")
    status, out, _ = league_cli("validate", str(bot_league(tmp_path / "league", SLOW)), "--no-estimate", "--cluster")
    assert status == 0
    assert re.search(r"^  cluster: 1 bot folder \(\d+ KB\) shipped to the nodes through Ray's object store$", out, re.M)


@pytest.mark.parametrize("kind", ["fifo", "socket"])
def test_what_is_neither_file_folder_nor_link_stays_behind(tmp_path, kind):
    folder = bot_folder(tmp_path / "bot")
    if kind == "fifo":
        os.mkfifo(folder / "pipe")
    else:
        import socket

        listener = socket.socket(socket.AF_UNIX)
        listener.bind(str(folder / "pipe"))
        listener.close()
    with tarfile.open(fileobj=io.BytesIO(pack(folder))) as archive:
        assert "pipe" not in archive.getnames()
