"""Bot folders shipped to a cluster's nodes: packed the same way every time, unpacked once a node, paths rewritten.

No Ray here: the packed bytes are handed over as they are (a cluster run puts them in Ray's object
store; tests/league/cluster/test_cluster.py runs that on two real nodes).
"""

import io
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import threading
import time
from pathlib import Path

import pytest
import yaml

from league.cluster import bot_cache, shipping
from league.cluster.bot_cache import ShippedPath, unpacked
from league.cluster.runner import league_setup, schedule
from league.cluster.shipping import localized, pack, shipping_problem
from league.cluster.worker import play_game
from league.plan.config import load_league
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
    data, digest = shipping.packed(path)
    return ShippedPath(str(path), digest, path.is_dir(), data)


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
    real_fetch = bot_cache._fetch

    def slow_fetch(data):
        fetched.append(1)
        time.sleep(0.2)  # the others reach the lock meanwhile
        return real_fetch(data)

    monkeypatch.setattr(bot_cache, "_fetch", slow_fetch)
    monkeypatch.setattr(bot_cache, "_unpacked_here", {})
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
    monkeypatch.setattr(bot_cache, "_unpacked_here", {})  # another worker process, a later run
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
    monkeypatch.setenv(bot_cache.CACHE_VARIABLE, str(tmp_path / "node-cache"))
    monkeypatch.setattr(bot_cache, "_unpacked_here", {})
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
    path = str(bot_league(tmp_path / "league", {**bot, "shared_folder": True}))  # its cwd holds the league file
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


def members(packed: bytes) -> list[str]:
    with tarfile.open(fileobj=io.BytesIO(packed)) as archive:
        return archive.getnames()


def league_folder_with_reports(folder: Path) -> Path:
    """A league's folder as it is after a few leagues ran there: reports, a store elsewhere, caches, a repository."""
    bot_folder(folder / "bots" / "mine")
    (folder / "bots" / "mine" / "__pycache__").mkdir()
    (folder / "bots" / "mine" / "__pycache__" / "botio.cpython-311.pyc").write_bytes(b"\0" * 100)
    for report in ("reports/older", "reports/other"):
        (folder / report).mkdir(parents=True)
        (folder / report / "games.jsonl").write_text('{"game_id": "x"}\n')
        (folder / report / "index.html").write_text("<html>")
    (folder / "results" / "by-hand").mkdir(parents=True)  # a report folder under another name
    (folder / "results" / "by-hand" / "games.jsonl").write_text("{}\n")
    (folder / "results" / "notes.txt").write_text("kept: not a report folder")
    (folder / ".git").mkdir()
    (folder / ".git" / "HEAD").write_text("ref")
    (folder / ".venv" / "bin").mkdir(parents=True)
    (folder / "other.yaml").write_text("name: other\n")
    return folder


def test_a_bot_without_cwd_ships_only_the_folder_of_its_script_never_the_leagues_reports(tmp_path):
    folder = league_folder_with_reports(tmp_path / "league")
    bot = {"name": "mine", "command": ["python3", "bots/mine/v2048_slow.py", "1"]}
    league = load_league(bot_league(folder, bot))
    assert shipping_problem(league) is None
    [(source, entry)] = shipping.pack_all(league).items()
    assert source == str(folder) and entry.is_folder
    assert members(entry.data) == ["bots", "bots/mine", *(f"bots/mine/{name}" for name in sorted(BOT_FILES))]
    (folder / "reports" / "shipped").mkdir()  # this league's own run, and more leagues: the same bytes
    (folder / "reports" / "shipped" / "games.jsonl").write_text("{}\n")
    (folder / "reports" / "newer").mkdir()
    (folder / "reports" / "newer" / "ratings.csv").write_text("a,b\n")
    assert shipping.pack_all(load_league(folder / "league.yaml"))[source].digest == entry.digest
    (folder / "bots" / "mine" / "v2048lib.py").write_text((BOTS / "v2048lib.py").read_text() + "\n# changed\n")
    assert shipping.pack_all(load_league(folder / "league.yaml"))[source].digest != entry.digest


def test_a_script_beside_the_league_file_ships_the_folder_without_reports_stores_caches_or_repositories(tmp_path):
    folder = league_folder_with_reports(tmp_path / "league")
    for name in BOT_FILES:
        shutil.copy(BOTS / name, folder / name)
    (folder / "__pycache__").mkdir()
    (folder / "moves.jsonl").write_text("{}\n")
    league = load_league(bot_league(folder, {"name": "mine", "command": ["python3", "v2048_slow.py"]}))
    names = members(shipping.pack_all(league)[str(folder)].data)
    assert {*BOT_FILES, "league.yaml", "other.yaml", "results/notes.txt", "bots/mine/botio.py"} <= set(names)
    left = [name for name in names if {"reports", ".git", ".venv", "__pycache__", "by-hand"} & set(name.split("/"))]
    assert left == [] and "moves.jsonl" not in names


def test_a_command_that_names_no_file_of_its_own_ships_an_empty_folder_to_run_in(tmp_path, league_cli):
    folder = league_folder_with_reports(tmp_path / "league")
    bots = [
        {"name": "inline", "command": ["python3", "-c", "print(1)"]},
        {"name": "system", "command": ["/usr/bin/env", "true"]},
    ]
    path = bot_league(folder, bots[0], bots=bots)
    [(source, entry)] = shipping.pack_all(load_league(path)).items()
    assert source == str(folder) and members(entry.data) == []
    status, out, _ = league_cli("validate", str(path), "--no-estimate", "--cluster")
    assert status == 0, out
    assert f"    {folder} (none of it: the command names no file there; an empty folder to run in)" in out
    assert "for bots[0] (inline), bots[1] (system): 0 files, 0 KB" in out


def test_validate_for_a_cluster_lists_each_folder_shipped_its_part_and_what_stays_behind(tmp_path, league_cli):
    folder = league_folder_with_reports(tmp_path / "league")
    bot_folder(tmp_path / "bots" / "slow")
    (folder / "bots" / "mine" / "weights").mkdir()
    (folder / "bots" / "mine" / "weights" / "w.bin").write_bytes(b"\1" * 3000)
    bots = [{"name": "mine", "command": ["python3", "bots/mine/v2048_slow.py", "1"]}, SLOW]
    status, out, _ = league_cli("validate", str(bot_league(folder, bots[0], bots=bots)), "--no-estimate", "--cluster")
    assert status == 0
    lines = out.splitlines()
    head = next(index for index, line in enumerate(lines) if line.startswith("  cluster: "))
    assert re.fullmatch(
        r"  cluster: 2 bot folders \(\d+ KB\) shipped to the nodes through Ray's object store", lines[head]
    )
    assert re.fullmatch(
        rf"    {folder} \(only bots/mine\) for bots\[0\] \(mine\): 4 files, \d+ KB; left behind: bots/mine/__pycache__",
        lines[head + 1],
    )
    assert re.fullmatch(rf"    {tmp_path}/bots/slow for bots\[1\] \(slow\): 3 files, \d+ KB", lines[head + 2])


def test_a_command_naming_what_is_never_shipped_is_refused_on_a_cluster(tmp_path):
    folder = league_folder_with_reports(tmp_path / "league")
    (folder / ".venv" / "bin" / "python").symlink_to("/usr/bin/python3")
    bot = {"name": "mine", "command": [".venv/bin/python", "bots/mine/v2048_slow.py"]}
    problem = shipping_problem(load_league(bot_league(folder, bot)))
    assert problem is not None and problem.startswith("bots[0] (mine): its command names .venv/bin/python, which is")
    assert "never shipped" in problem and "cluster: {shared_path: true}" in problem
    shared = load_league(bot_league(folder, bot, cluster={"shared_path": True}))
    assert shipping_problem(shared) is None


def test_a_node_plays_a_bot_without_cwd_from_its_copy_with_the_helpers_beside_its_script(tmp_path, monkeypatch):
    folder = league_folder_with_reports(tmp_path / "league")
    bot = {"name": "mine", "command": [sys.executable, "bots/mine/v2048_slow.py", "1"]}
    clocks = {"pregame_time_ms": 20000, "turn_time_ms": 10000}  # a loaded machine never decides this game
    path = bot_league(folder, bot, variants={"short": {"turns_per_player": 8, **clocks}})
    league = load_league(path)
    setup = league_setup(league, shipping.pack_all(league))
    folder.rename(tmp_path / "elsewhere")  # this "node" has none of the driver's files
    monkeypatch.setenv(bot_cache.CACHE_VARIABLE, str(tmp_path / "node-cache"))
    monkeypatch.setattr(bot_cache, "_unpacked_here", {})
    record = play_game(schedule(league)[0].to_json(), setup)
    assert record["result"]["termination"] == "NORMAL", (record["result"]["detail"], record.get("stderr"))
    assert any(move[0] == record["spec"]["seats"].index("mine") for move in record["moves"])
    [copy] = [entry for entry in (tmp_path / "node-cache").iterdir() if entry.is_dir()]
    assert sorted(entry.name for entry in copy.rglob("*")) == sorted(["bots", "mine", *BOT_FILES])


def cache_entries(tmp_path: Path, count: int) -> list[ShippedPath]:
    """``count`` small bot folders, packed: each has a file of its own and a larger one."""
    entries = []
    for number in range(count):
        folder = tmp_path / "sources" / f"bot{number}"
        folder.mkdir(parents=True)
        (folder / "name.txt").write_text(f"bot {number}")
        (folder / "weights.bin").write_bytes(bytes([number]) * 200_000)
        entries.append(shipped_as_bytes(folder))
    return entries


HOLDER = """
import fcntl, os, sys
from league.cluster import bot_cache
digest, unpacking, cache = sys.argv[1:]
bot_cache.unpacked(bot_cache.ShippedPath("", digest, True, b""), bot_cache.Path(cache))  # its copy exists: no fetch
fd = os.open(os.path.join(cache, unpacking + ".unpack"), os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("holding", flush=True)
sys.stdin.read()
"""
"""Another worker process: it uses one copy and is unpacking another (killed halfway, as far as we can tell)."""


def test_a_sweep_removes_old_and_surplus_copies_and_what_killed_workers_left_never_a_copy_in_use(tmp_path, monkeypatch):
    monkeypatch.setattr(bot_cache, "KEEP_COPIES", 2)
    monkeypatch.setattr(bot_cache, "_unpacked_here", {})
    cache = tmp_path / "cache"
    entries = cache_entries(tmp_path, 5)
    copies = [unpacked(entry, cache) for entry in entries]
    bot_cache.release_copies()
    now = time.time()
    ages_days = [30, 10, 1, 0.5, 0]  # bot0 is the oldest, yet another process uses it
    for copy, days in zip(copies, ages_days, strict=True):
        os.utime(copy, (now - days * 86400, now - days * 86400))
    dead, busy = "d" * 32, "b" * 32
    (cache / f"{dead}.part-x1").mkdir()  # unpacking when its worker was killed
    (cache / f"{busy}.part-x2").mkdir()  # being unpacked right now
    (cache / f"{entries[1].digest}.gone-1-2").mkdir()  # a removal cut short
    (cache / f"{dead}.lock").touch()  # a lock without a copy
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, entries[0].digest, busy, str(cache)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(bot_cache.__file__).parents[2],
    )
    try:
        assert holder.stdout.readline() == "holding\n"
        os.utime(copies[0], (now - 30 * 86400, now - 30 * 86400))  # a worker of a long league: used long ago
        removed = bot_cache.sweep_cache(cache, now)
        left = sorted(path.name for path in cache.iterdir())
    finally:
        holder.communicate("", timeout=30)
    gone = [entries[number].digest for number in (1, 2)]  # 10 days old; not among the 2 used last
    assert sorted(removed) == sorted([*gone, f"{dead}.part-x1", f"{entries[1].digest}.gone-1-2", f"{dead}.lock"])
    kept = [entries[number].digest for number in (0, 3, 4)]
    assert left == sorted([*kept, *(f"{digest}.lock" for digest in kept), f"{busy}.part-x2", f"{busy}.unpack"])
    assert (copies[0] / "name.txt").read_text() == "bot 0", "a copy in use is whole"
    removed = bot_cache.sweep_cache(cache, now)  # its worker has ended
    assert sorted(removed) == sorted([entries[0].digest, f"{busy}.part-x2", f"{busy}.unpack"])
    again = unpacked(entries[1], cache)  # a copy swept is unpacked again when a later run needs it
    assert again == copies[1] and (again / "name.txt").read_text() == "bot 1"
    bot_cache.release_copies()


def _unpack_and_check(entries: list[ShippedPath], cache: Path, seed: int, failures) -> None:
    """One worker process: unpack every entry in its own order, check the copy while using it, let go."""
    import random

    order = entries * 3
    random.Random(seed).shuffle(order)
    bot_cache._unpacked_here.clear()
    try:
        for entry in order:
            copy = unpacked(entry, cache)
            number = int((copy / "name.txt").read_text().split()[1])
            assert (copy / "weights.bin").read_bytes() == bytes([number]) * 200_000
            assert entry.digest == copy.name
            bot_cache.release_copies()
    except BaseException as error:  # noqa: BLE001 - reported to the test
        failures.put(f"{type(error).__name__}: {error}")


def test_workers_of_a_node_unpacking_and_sweeping_at_once_always_get_a_whole_copy(tmp_path, monkeypatch):
    import multiprocessing

    monkeypatch.setattr(bot_cache, "KEEP_COPIES", 1)  # every copy made sweeps all the others nobody holds
    entries = cache_entries(tmp_path, 6)
    cache = tmp_path / "cache"
    context = multiprocessing.get_context("fork")
    failures, made = context.Queue(), context.Value("i", 0)
    real_unpack = bot_cache._unpack

    def counted_unpack(*args):
        with made.get_lock():
            made.value += 1
        real_unpack(*args)

    monkeypatch.setattr(bot_cache, "_unpack", counted_unpack)
    workers = [context.Process(target=_unpack_and_check, args=(entries, cache, seed, failures)) for seed in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert [worker.exitcode for worker in workers] == [0] * 4
    assert failures.empty(), failures.get()
    assert made.value > len(entries), "copies were swept and made again while other workers used theirs"
    bot_cache.sweep_cache(cache)
    left = sorted(path.name for path in cache.iterdir())
    assert len([name for name in left if "." not in name]) == 1, left
    assert not [name for name in left if ".part-" in name or ".gone-" in name], left
