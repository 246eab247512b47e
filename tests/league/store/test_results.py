"""The split results store: short results lines, a move log read by pointer, crash safety, old stores."""

import copy
import gc
import json
import os
import sys
from pathlib import Path

import pytest

import league.store.results as store_module
from league.cluster.worker import LeagueSetup, infra_record, play_game
from league.store.results import RESULT_FIELDS, ResultStore, StoreBusy, StoreWriteError, fingerprint
from tests.conftest import BOTS

SETUP = LeagueSetup(
    game="versus2048",
    variants={"short": {"turns_per_player": 12}},
    bots={
        "crash": {"name": "crash", "command": [sys.executable, str(BOTS / "v2048_traceback.py")]},
        "greedy": {"name": "greedy", "builtin": "versus2048.greedy"},
        "random": {"name": "random", "builtin": "versus2048.random"},
    },
)
SEATINGS = [["greedy", "random"], ["random", "greedy"], ["crash", "greedy"], ["random", "random"]]


@pytest.fixture(scope="module")
def played() -> list[dict]:
    """Real records as the worker returns them: three normal games and a crash with its traceback."""
    records = []
    for index, seats in enumerate(SEATINGS):
        spec = {"game_id": f"g{index}", "index": index, "league": "t", "variant": "short", "seats": seats}
        records.append(play_game({**spec, "seed": 11 + index, "round": 0}, SETUP))
    assert records[2]["result"]["termination"] == "CRASH" and records[2]["stderr"], "the crash keeps its stderr"
    assert all(len(records[i]["moves"]) > 4 for i in (0, 1, 3)) and records[2]["moves"]
    return records


def games(tmp_path: Path) -> Path:
    return tmp_path / "games.jsonl"


def stored(tmp_path: Path, records: list[dict]) -> ResultStore:
    store = ResultStore(games(tmp_path))
    for record in records:
        store.append(record)
    store.close()
    return ResultStore(games(tmp_path))


def write_old_store(path: Path, records: list[dict]) -> None:
    """A store as written before the split: whole records, moves inside, one a line."""
    path.write_text("".join(json.dumps(record, separators=(",", ":")) + "\n" for record in records))


def test_results_lines_are_short_and_details_come_back_by_pointer(tmp_path, played):
    store = stored(tmp_path, played)
    lines = games(tmp_path).read_text().splitlines()
    assert len(lines) == 4 and not any('"moves"' in line or '"stderr"' in line for line in lines)
    records = store.records()
    assert [r.game_id for r in records] == ["g0", "g1", "g2", "g3"]
    for record, original in zip(records, played, strict=True):
        assert {key: record.to_json().get(key) for key in RESULT_FIELDS} == {
            key: original.get(key) for key in RESULT_FIELDS
        }
        assert record.fingerprint == fingerprint(original["spec"]["seats"], original["moves"])
    details = store.details(["g2", "g0", "nope"])
    assert sorted(details) == ["g0", "g2"], "an id not stored is left out"
    for game_id in ("g0", "g2"):
        original = next(r for r in played if r["game_id"] == game_id)
        assert details[game_id] == {key: value for key, value in original.items() if key not in RESULT_FIELDS}
        assert {"moves", "stderr", "rules", "bots"} <= set(details[game_id]), "what a replay needs, beside the moves"
    assert "RuntimeError" in details["g2"]["stderr"][0]["text"]


def test_a_log_pointer_is_the_byte_range_of_its_games_line(tmp_path, played):
    records = stored(tmp_path, played).records()
    log = (tmp_path / "moves.jsonl").read_bytes()
    for record, original in zip(records, played, strict=True):
        offset, length = record.log
        line = log[offset : offset + length]
        assert line.endswith(b"\n") and json.loads(line)["moves"] == original["moves"]


def test_details_need_no_earlier_read_and_follow_appends(tmp_path, played):
    store = stored(tmp_path, played[:2])
    assert store.details(["g1"])["g1"]["moves"] == played[1]["moves"]
    store.append(played[2])
    assert store.details(["g2"])["g2"]["stderr"] == played[2]["stderr"]
    store.close()


def test_the_fingerprint_is_the_game_not_its_timings(played):
    game = played[0]
    same_replies = [[seat, role, reply, elapsed + 7, fault] for seat, role, reply, elapsed, fault in game["moves"]]
    assert fingerprint(game["spec"]["seats"], same_replies) == fingerprint(game["spec"]["seats"], game["moves"])
    other_reply = copy.deepcopy(game["moves"])
    other_reply[-1][2] = other_reply[-1][2] + " 1"
    assert fingerprint(game["spec"]["seats"], other_reply) != fingerprint(game["spec"]["seats"], game["moves"])
    swapped = list(reversed(game["spec"]["seats"]))
    assert fingerprint(swapped, game["moves"]) != fingerprint(game["spec"]["seats"], game["moves"])
    assert fingerprint(game["spec"]["seats"], game["moves"][:-1]) != fingerprint(game["spec"]["seats"], game["moves"])


def test_identical_games_share_a_fingerprint_in_the_store(tmp_path, played):
    twin = {**copy.deepcopy(played[0]), "game_id": "twin", "time_used_ms": [3, 9]}
    records = stored(tmp_path, [played[0], twin, played[1]]).records()
    assert records[0].fingerprint == records[1].fingerprint != records[2].fingerprint


def test_a_crash_between_the_log_line_and_the_results_line_replays_the_game_once(tmp_path, played, monkeypatch):
    stored(tmp_path, played[:1])
    real_write = store_module.write_durably
    writes = []

    def dies_before_the_results_line(handle, lines):
        writes.append(handle.name)
        if handle.name.endswith("games.jsonl"):
            raise KeyboardInterrupt  # the driver killed after the move log was made durable
        real_write(handle, lines)

    monkeypatch.setattr(store_module, "write_durably", dies_before_the_results_line)
    store = ResultStore(games(tmp_path))
    with pytest.raises(KeyboardInterrupt):
        store.append(played[1])
    store.close()
    assert [Path(name).name for name in writes] == ["moves.jsonl", "games.jsonl"], "the log line goes first"
    monkeypatch.setattr(store_module, "write_durably", real_write)
    orphan_end = (tmp_path / "moves.jsonl").stat().st_size
    reopened = ResultStore(games(tmp_path))
    assert reopened.done_ids() == {"g0"}, "a game with only its log line is not stored"
    reopened.append(played[1])  # the rerun plays it again
    reopened.close()
    records = ResultStore(games(tmp_path)).records()
    assert [r.game_id for r in records] == ["g0", "g1"]
    assert records[1]["log"][0] == orphan_end, "the pointer is the new log line, past the orphan"
    assert ResultStore(games(tmp_path)).details(["g1"])["g1"]["moves"] == played[1]["moves"]
    assert len((tmp_path / "moves.jsonl").read_text().splitlines()) == 3


def test_a_torn_results_line_is_ignored_and_cut_before_the_next_append(tmp_path, played):
    stored(tmp_path, played[:1])
    whole = games(tmp_path).read_bytes()
    with games(tmp_path).open("ab") as handle:
        handle.write(b'{"game_id":"g1","spec":{"ind')
    assert [r.game_id for r in ResultStore(games(tmp_path)).records()] == ["g0"]
    store = ResultStore(games(tmp_path))
    store.append(played[1])
    store.close()
    assert games(tmp_path).read_bytes().startswith(whole + b'{"game_id":"g1","spec":{"game_id"')
    reread = ResultStore(games(tmp_path))
    assert [r.game_id for r in reread.records()] == ["g0", "g1"]
    assert reread.details(["g1"])["g1"]["moves"] == played[1]["moves"]


def test_a_torn_log_line_is_cut_before_the_next_append(tmp_path, played):
    stored(tmp_path, played[:1])
    log = tmp_path / "moves.jsonl"
    whole = log.read_bytes()
    with log.open("ab") as handle:
        handle.write(b'{"game_id":"g1","moves":[[0,"pl')  # died writing the log line: no results line
    store = ResultStore(games(tmp_path))
    assert store.done_ids() == {"g0"}
    store.append(played[1])
    store.close()
    assert log.read_bytes().startswith(whole + b'{"game_id":"g1","rules":')
    assert all(json.loads(line) for line in log.read_text().splitlines())
    details = ResultStore(games(tmp_path)).details(["g0", "g1"])
    assert [details[g]["moves"] for g in ("g0", "g1")] == [played[0]["moves"], played[1]["moves"]]


def test_a_last_line_without_its_newline_is_torn_even_when_it_decodes(tmp_path, played):
    stored(tmp_path, played[:2])
    whole = games(tmp_path).read_bytes()
    games(tmp_path).write_bytes(whole[:-1])  # the crash came just before the newline
    store = ResultStore(games(tmp_path))
    assert [r.game_id for r in store.records()] == ["g0"] and store.done_ids() == {"g0"}


def test_undecodable_lines_are_skipped_never_fatal(tmp_path, played):
    stored(tmp_path, played[:1])
    with games(tmp_path).open("ab") as handle:
        handle.write(b"not json at all\n\xff\xfe\n[1, 2]\n")
    store = ResultStore(games(tmp_path))
    store.append(played[1])
    store.close()
    records = ResultStore(games(tmp_path)).records()
    assert [r.game_id for r in records] == ["g0", "g1"]


def test_torn_last_lines_are_told_when_read_and_when_cut_off(tmp_path, played):
    stored(tmp_path, played[:1])
    with games(tmp_path).open("ab") as handle:
        handle.write(b'{"game_id":"g1","spec":{"ind')
    with (tmp_path / "moves.jsonl").open("ab") as handle:
        handle.write(b'{"game_id":"g1","moves":[[0,"pl')
    [read] = ResultStore(games(tmp_path)).problems()
    assert read.startswith("games.jsonl: the last line is incomplete (torn by a crash while it was written")
    store = ResultStore(games(tmp_path))
    store.lock()
    assert store.problems() == [
        "games.jsonl: the last line was torn (a crash while it was written); it was cut off and its game is played"
        " again",
        "moves.jsonl: the last line was torn (a crash while it was written); it was cut off (its game's result was"
        " never stored, so the game is played again)",
    ]
    assert store.done_ids() == {"g0"}
    store.close()
    assert ResultStore(games(tmp_path)).problems() == [], "whole again"


def test_damaged_lines_are_told_by_number(tmp_path, played):
    stored(tmp_path, played[:2])
    first, second = games(tmp_path).read_bytes().splitlines(keepends=True)
    games(tmp_path).write_bytes(first + b"not json\n" + b'{"no": "game id"}\n' + b"\xff\n" + second + b"[1]\n" * 2)
    store = ResultStore(games(tmp_path))
    assert [r.game_id for r in store.records()] == ["g0", "g1"]
    assert store.problems() == [
        "games.jsonl: 5 lines (2, 3, 4 and 2 more) are damaged (not a game record) and skipped; a game stored only"
        " there is left out and played again by `league run`"
    ]
    games(tmp_path).write_bytes(first + b"{oops\n" + second)
    [note] = ResultStore(games(tmp_path)).problems()
    assert note.startswith("games.jsonl: line 2 is damaged (not a game record) and skipped")


def test_fresh_forgets_what_was_torn(tmp_path, played):
    stored(tmp_path, played[:1])
    with games(tmp_path).open("ab") as handle:
        handle.write(b'{"game_id":"g1"')
    store = ResultStore(games(tmp_path))
    store.reset()
    assert store.problems() == []
    store.close()


def test_a_damaged_or_missing_move_log_loses_only_details(tmp_path, played):
    store = stored(tmp_path, played[:2])
    log = tmp_path / "moves.jsonl"
    first = log.read_bytes().index(b"\n") + 1
    log.write_bytes(b"x" * first + log.read_bytes()[first:])  # g0's log line overwritten
    assert sorted(store.details(["g0", "g1"])) == ["g1"]
    log.unlink()
    assert store.details(["g0", "g1"]) == {}
    assert [r.game_id for r in store.records()] == ["g0", "g1"]


def test_a_log_line_of_another_game_is_never_served(tmp_path, played):
    twin = {**copy.deepcopy(played[0]), "game_id": "g9"}  # its log line is as long as g0's
    store = stored(tmp_path, [played[0], twin])
    log = tmp_path / "moves.jsonl"
    first, second = log.read_bytes().splitlines(keepends=True)
    assert len(first) == len(second)
    log.write_bytes(second + first)
    assert store.details(["g0", "g9"]) == {}


def test_an_old_single_file_store_is_read_with_the_same_fingerprints(tmp_path, played):
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    write_old_store(games(old), played)
    old_store, new_records = ResultStore(games(old)), stored(new, played).records()
    old_records = old_store.records()
    assert [r["fingerprint"] for r in old_records] == [r["fingerprint"] for r in new_records]
    assert all("moves" not in record and "stderr" not in record for record in old_records)
    assert old_store.done_ids() == {"g0", "g1", "g2", "g3"}
    details = old_store.details(["g2", "g3"])
    assert details["g2"] == {key: value for key, value in played[2].items() if key not in RESULT_FIELDS}
    assert details["g3"]["moves"] == played[3]["moves"]


def test_an_old_store_takes_new_games_in_the_new_format(tmp_path, played):
    write_old_store(games(tmp_path), played[:2])
    store = ResultStore(games(tmp_path))
    store.append(played[2])
    store.close()
    assert (tmp_path / "moves.jsonl").read_text().count("\n") == 1, "only the new game has a log line"
    reread = ResultStore(games(tmp_path))
    assert [r.game_id for r in reread.records()] == ["g0", "g1", "g2"]
    details = reread.details(["g1", "g2"])
    assert details["g1"]["moves"] == played[1]["moves"] and details["g2"]["stderr"] == played[2]["stderr"]


def test_a_replayed_infra_error_gives_way_and_the_first_real_record_wins(tmp_path, played):
    failed = infra_record(played[0]["spec"], "RuntimeError: no jail")
    second = {**copy.deepcopy(played[1]), "game_id": "g0", "spec": played[0]["spec"]}
    store = stored(tmp_path, [failed])
    assert store.done_ids() == set()
    store = stored(tmp_path, [played[0], second])
    [kept] = store.records()
    assert kept.result.to_json() == played[0]["result"] and store.done_ids() == {"g0"}
    assert store.details(["g0"])["g0"]["moves"] == played[0]["moves"]


def test_bulk_writes_keep_every_pointer_right(tmp_path, played, monkeypatch):
    monkeypatch.setattr(store_module, "WRITE_CHUNK", 3)
    many = [{**copy.deepcopy(played[i % 4]), "game_id": f"bulk{i}"} for i in range(8)]
    store = ResultStore(games(tmp_path))
    store.extend(many)
    store.close()
    reread = ResultStore(games(tmp_path))
    assert [r.game_id for r in reread.records()] == [r["game_id"] for r in many]
    details = reread.details(r["game_id"] for r in many)
    assert [details[r["game_id"]]["moves"] for r in many] == [r["moves"] for r in many]


def test_reset_clears_results_and_move_log(tmp_path, played):
    store = stored(tmp_path, played[:2])
    store.reset()
    store.append(played[3])
    store.close()
    reread = ResultStore(games(tmp_path))
    [record] = reread.records()
    assert record.game_id == "g3" and record.log == [0, (tmp_path / "moves.jsonl").stat().st_size]
    assert reread.details(["g0", "g3"]) == {
        "g3": {key: value for key, value in played[3].items() if key not in RESULT_FIELDS}
    }


def test_one_writer_at_a_time(tmp_path, played):
    first = ResultStore(games(tmp_path))
    first.lock()
    with pytest.raises(StoreBusy, match="another league run is writing it"):
        ResultStore(games(tmp_path)).append(played[0])
    first.close()


def test_results_lines_copied_into_another_store_keep_their_identity(tmp_path, played):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    records = stored(first, played).records()
    copy_store = ResultStore(games(second))
    copy_store.extend(records)
    copy_store.close()
    copied = ResultStore(games(second)).records()
    assert [r["fingerprint"] for r in copied] == [r["fingerprint"] for r in records]
    assert all("log" not in record for record in copied), "no pointer into another store's move log"


@pytest.mark.parametrize("failing", ["games.jsonl", "moves.jsonl"])
def test_a_write_that_fails_is_taken_back_and_the_store_goes_on(tmp_path, played, monkeypatch, failing):
    store = ResultStore(games(tmp_path))
    store.append(played[0])
    sizes = {name: (tmp_path / name).stat().st_size for name in ("games.jsonl", "moves.jsonl")}
    real_fsync = store_module.os.fsync

    def disk_full(fd):
        if os.readlink(f"/proc/self/fd/{fd}").endswith(failing):
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(store_module.os, "fsync", disk_full)
    with pytest.raises(StoreWriteError, match=f"cannot write {tmp_path / failing}: No space left on device"):
        store.append(played[1])
    assert (tmp_path / failing).stat().st_size == sizes[failing], "no partial line left behind"
    monkeypatch.setattr(store_module.os, "fsync", real_fsync)
    store.append(played[2])
    store.close()
    reread = ResultStore(games(tmp_path))
    assert [r.game_id for r in reread.records()] == ["g0", "g2"]
    assert reread.details(["g2"])["g2"]["moves"] == played[2]["moves"]


def test_reading_leaves_the_garbage_collector_as_it_was(tmp_path, played):
    store = stored(tmp_path, played)
    assert gc.isenabled()
    store.records()
    assert gc.isenabled(), "collection is paused while lines are decoded, never left off"
    gc.disable()
    try:
        store.done_ids()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_ctrl_c_during_the_fsync_keeps_the_whole_lines_and_during_the_write_takes_them_back(tmp_path, monkeypatch):
    path = tmp_path / "lines.jsonl"
    real_fsync = store_module.os.fsync
    calls = []

    def interrupted_once(fd):
        calls.append(fd)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return real_fsync(fd)

    with open(path, "ab", buffering=0) as handle:
        monkeypatch.setattr(store_module.os, "fsync", interrupted_once)
        with pytest.raises(KeyboardInterrupt):
            store_module.write_durably(handle, [b'{"a":1}\n', b'{"b":2}\n'])
        monkeypatch.setattr(store_module.os, "fsync", real_fsync)
    assert path.read_bytes() == b'{"a":1}\n{"b":2}\n', "every line was written: kept"
    assert len(calls) == 2, "and made durable after all"

    class HalfWritten:
        name = str(path)

        def __init__(self, handle):
            self.handle = handle

        def seek(self, *args):
            return self.handle.seek(*args)

        def write(self, data):
            self.handle.write(bytes(data[:3]))
            raise KeyboardInterrupt

        def truncate(self, size):
            return self.handle.truncate(size)

        def fileno(self):
            return self.handle.fileno()

    with open(path, "ab", buffering=0) as handle, pytest.raises(KeyboardInterrupt):
        store_module.write_durably(HalfWritten(handle), [b'{"c":3}\n'])
    assert path.read_bytes() == b'{"a":1}\n{"b":2}\n', "a line cut by Ctrl-C is taken back"


def test_results_lines_are_the_bytes_written_before_the_record_had_a_type_and_read_back_the_same(tmp_path, played):
    infra = {**infra_record(played[0]["spec"], "RuntimeError: no jail"), "game_id": "gx", "worker": "h:1"}
    records = [*played, infra]
    stored(tmp_path, records)
    written = games(tmp_path).read_bytes().splitlines(keepends=True)
    end, expected = 0, []
    for record in records:  # what the store wrote before GameRecord: the results fields, fingerprint, log
        line = {key: record[key] for key in RESULT_FIELDS if key in record}
        line["fingerprint"] = fingerprint(record["spec"]["seats"], record["moves"])
        rest = {"game_id": record["game_id"], **{k: v for k, v in record.items() if k not in line}}
        length = len(json.dumps(rest, separators=(",", ":")).encode()) + 1
        line["log"], end = [end, length], end + length
        expected.append(json.dumps(line, separators=(",", ":")).encode() + b"\n")
    assert written == expected
    again = [
        json.dumps(r.to_json(), separators=(",", ":")).encode() + b"\n" for r in ResultStore(games(tmp_path)).records()
    ]
    assert again == written, "a stored line read and written again is the same bytes"


def test_a_line_whose_spec_or_result_is_not_an_object_is_damage(tmp_path, played):
    stored(tmp_path, played[:1])
    with games(tmp_path).open("ab") as handle:
        handle.write(b'{"game_id":"g9","spec":[1],"result":{},"fingerprint":"f"}\n')
    store = ResultStore(games(tmp_path))
    assert [r.game_id for r in store.records()] == ["g0"]
    assert store.problems() == [
        "games.jsonl: line 2 is damaged (not a game record) and skipped; a game stored only there is left out and"
        " played again by `league run`"
    ]
