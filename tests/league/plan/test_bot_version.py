"""A bot is its content: versions of program bots (files, modes, cache) and of built-ins."""

import json
import os
import shutil
import sys
import time

from league.cluster import shipping
from league.plan import bot_version
from league.plan.bot_files import members
from league.plan.bot_version import bot_versions, builtin_code, changed_lines, folder_digest
from league.plan.config import load_league
from league.plan.file_digests import RACY_NS, DigestCache, tree_digest
from league.stats.game_record import GameRecord
from tests.league.cluster.test_shipping import bot_folder, bot_league

LATER = 10 * RACY_NS
"""How far past now a test writes its cache, so that every entry in it is settled."""


def slow_league(tmp_path):
    """A league of tmp_path/league with the program bot of tmp_path/bots/slow (its own folder) and a built-in."""
    folder = bot_folder(tmp_path / "bots" / "slow")
    bot = {"name": "slow", "command": [sys.executable, "v2048_slow.py", "1"], "cwd": "../bots/slow"}
    return folder, bot_league(tmp_path / "league", bot)


def versions(path, cache_file):
    cache = DigestCache(cache_file)
    found = bot_versions(load_league(path), cache)
    cache.save(now=time.time_ns() + LATER)
    return found, cache.reads


def test_an_unchanged_folder_has_the_same_version_cold_warm_and_without_a_cache(tmp_path):
    _, path = slow_league(tmp_path)
    cache_file = tmp_path / "cache" / "digests.json"
    cold, cold_reads = versions(path, cache_file)
    warm, warm_reads = versions(path, cache_file)
    none = bot_versions(load_league(path), DigestCache(None))
    assert cold == warm == none
    assert cold_reads == 3 and warm_reads == 0, "a warm cache reads no file of an unchanged folder"
    assert set(cold) == {"slow", "greedy"} and all(len(version) == 32 for version in cold.values())


def test_a_damaged_or_missing_cache_means_reading_again_never_a_failure(tmp_path):
    _, path = slow_league(tmp_path)
    cache_file = tmp_path / "digests.json"
    first, _ = versions(path, cache_file)
    for damage in ("{not json", json.dumps({"format": 1, "files": {"x": 3}}), json.dumps([1, 2]), ""):
        cache_file.write_text(damage)
        assert versions(path, cache_file)[0] == first
    cache_file.unlink()
    cache_file.mkdir()  # a folder where the file should be: cannot be read or written
    assert versions(path, cache_file)[0] == first


def test_an_edited_file_an_added_file_and_a_mode_bit_alone_are_each_a_new_version(tmp_path):
    folder, path = slow_league(tmp_path)
    cache_file = tmp_path / "digests.json"
    seen = [versions(path, cache_file)[0]["slow"]]
    (folder / "v2048lib.py").write_text((folder / "v2048lib.py").read_text() + "\n# tuned\n")
    seen.append(versions(path, cache_file)[0]["slow"])
    (folder / "book.txt").write_text("e4\n")
    seen.append(versions(path, cache_file)[0]["slow"])
    (folder / "book.txt").chmod(0o600)
    seen.append(versions(path, cache_file)[0]["slow"])
    (folder / "book.txt").chmod(0o644)
    assert versions(path, cache_file)[0]["slow"] == seen[2], "the same content is the same version again"
    assert len(set(seen)) == 4


def test_what_a_run_writes_or_is_never_shipped_is_no_new_version(tmp_path):
    folder, path = slow_league(tmp_path)
    before = versions(path, None)[0]
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "botio.cpython-312.pyc").write_bytes(b"\0")
    (folder / ".git").mkdir()
    (folder / "games.jsonl").write_text("{}\n")
    (folder / "old-run").mkdir()
    (folder / "old-run" / "games.jsonl").write_text("{}\n")  # a league's folder
    assert versions(path, None)[0] == before


def test_the_version_digests_the_very_entries_and_bytes_that_shipping_packs(tmp_path):
    folder, path = slow_league(tmp_path)
    (folder / "sub").mkdir()
    (folder / "sub" / "data.bin").write_bytes(os.urandom(3000))
    os.symlink("sub/data.bin", folder / "link")
    (folder / "__pycache__").mkdir()
    league = load_league(path)
    [entry] = shipping.pack_all(league).values()
    [side] = league.bots["slow"].sides()
    assert entry.digest == folder_digest(side, (league.output.resolve(),), DigestCache(None))


def test_an_edit_that_keeps_size_and_mtime_is_found_by_a_warm_cache(tmp_path):
    folder = tmp_path / "bot"
    folder.mkdir()
    script = folder / "bot.py"
    script.write_text("print('a')\n")
    os.utime(script, ns=(1_000_000_000, 1_000_000_000))
    cache_file = tmp_path / "digests.json"

    def digest():
        cache = DigestCache(cache_file)
        value = tree_digest(folder, members(folder, (), None), cache)
        cache.save(now=time.time_ns() + LATER)
        return value, cache.reads

    first, _ = digest()
    assert digest() == (first, 0), "warm: not read again"
    script.write_text("print('b')\n")  # the same size
    os.utime(script, ns=(1_000_000_000, 1_000_000_000))  # and the same mtime: its ctime moved
    second, reads = digest()
    assert reads == 1 and second != first


def test_a_file_changed_close_to_the_caches_writing_is_not_kept_and_is_read_again(tmp_path):
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text("print('a')\n")
    cache_file = tmp_path / "digests.json"
    for _ in range(2):  # its ctime is now: racily clean, never trusted by its stat
        cache = DigestCache(cache_file)
        tree_digest(folder, members(folder, (), None), cache)
        assert cache.reads == 1
        cache.save()
    assert str(folder / "bot.py") not in json.loads(cache_file.read_text())["files"]
    later = DigestCache(cache_file)
    tree_digest(folder, members(folder, (), None), later)
    later.save(now=time.time_ns() + LATER)
    assert str(folder / "bot.py") in json.loads(cache_file.read_text())["files"], "settled: kept"


def test_a_builtins_version_is_the_digest_of_the_code_that_plays_it(tmp_path):
    greedy, minimax = builtin_code("versus2048.greedy", "versus2048"), builtin_code("minimax", "versus2048")
    assert greedy == minimax, "one package plays both: their params tell them apart"
    assert greedy != builtin_code("fish.greedy", "fish")
    package = tmp_path / "engine_copy"
    package.mkdir()
    (package / "bots.py").write_text("from engine.core import plural\n")
    before = bot_version._code_digest((package,))
    (package / "bots.py").write_text("from engine.core import plural\n# stronger\n")
    bot_version._code_digest.cache_clear()  # taken once a process: the code it imported
    assert bot_version._code_digest((package,)) != before
    shutil.rmtree(package)


def test_a_bot_is_told_changed_only_while_none_of_its_stored_games_are_of_its_version_now():
    def game(*seats, **played):
        return GameRecord.from_json({"game_id": "g", "spec": {"seats": list(seats), "versions": played}})

    old = [game("mine", "greedy", mine="a" * 32, greedy="g" * 32)] * 3
    versions = {"mine": "b" * 32, "greedy": "g" * 32, "new": "n" * 32}
    assert changed_lines(versions, old) == [
        "mine changed since its 3 stored games (version aaaaaaaa -> bbbbbbbb): they are kept apart and its games"
        " are played again"
    ]
    assert changed_lines(versions, [*old, game("mine", "greedy", mine="b" * 32, greedy="g" * 32)]) == []
    [line] = changed_lines(versions, [GameRecord.from_json({"game_id": "g", "spec": {"seats": ["mine"]}})])
    assert line.startswith("mine changed since its 1 stored game (version unknown: stored before bots had versions")
