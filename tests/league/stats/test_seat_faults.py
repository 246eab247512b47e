"""Faults at tables are each seat's own, and a faulted seat ranks below every live seat (league.stats.placing).

The league is real: nimmt at tables of 2 and 4 with two misbehaving programs of tests/bots/,
``sleepy`` (never answers ``PLAY 2``: a timeout) and ``writer`` (exits at ``PLAY 2``: a crash), and
two built-ins. Both fault at the same request, so the rules (rules/nimmt.md 7.4) give them a
shared rank: rank 1 of 1 1 where the two meet alone, 3 of 2 3 1 3 at a table of four. The league
counts each its own fault and ranks both last (2, and 4), a loss each, never a draw.
"""

import contextlib
import io
import re
import sys

import pandas as pd
import pytest
import yaml

from league.cli.main import main
from league.report.tables import faults_by_bot
from league.stats.game_record import GameRecord, RecordResult
from league.stats.pairwise import DRAW, LOSS, pairwise_results
from league.stats.placing import place_points, places, seat_faults
from league.stats.ratings import league_table
from league.store.results import ResultStore
from tests.conftest import BOTS, bot_command, script_bot, typed

SLEEPY = {"name": "sleepy", "command": [sys.executable, "nimmt_hostile.py", "sleep", "2"], "cwd": str(BOTS)}
WRITER = {"name": "writer", "command": [sys.executable, "nimmt_hostile.py", "crash", "2"], "cwd": str(BOTS)}


@pytest.fixture(scope="module")
def league(tmp_path_factory):
    """The played league's folder, its stored records and what ``league run`` wrote to stderr."""
    import ray

    if not ray.is_initialized():
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    folder = tmp_path_factory.mktemp("seat_faults")
    config = {
        "name": "seat-faults",
        "game": "nimmt",
        # The sleeper's PLAY 2 ends after timeout_ms; everything else has far more time than it needs.
        "variants": {"default": {"timeout_ms": 3000, "first_timeout_ms": 60000}},
        "bots": [
            SLEEPY,
            WRITER,
            {"name": "r0", "builtin": "nimmt.random"},
            {"name": "r1", "builtin": "nimmt.random"},
        ],
        "format": "tables",
        "players_per_table": [2, 4],
        "tables": 2,
        "seed": 3,  # its tables of two: sleepy and writer, r0 and r1
        "concurrency": 2,
        "output": str(folder / "out"),
    }
    path = folder / "league.yaml"
    path.write_text(yaml.safe_dump(config))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["run", str(path), "--quiet"])
    assert status == 0, err.getvalue()
    output = folder / "out"
    return output, ResultStore(output / "games.jsonl").records(), err.getvalue()


def test_the_league_holds_the_shared_ranks_the_rules_give(league):
    _, records, _ = league
    alone = [record for record in records if sorted(record.spec.seats) == ["sleepy", "writer"]]
    assert len(alone) == 2 and all(record.result.ranks == [1, 1] for record in alone), "the engine's ranks"
    for record in records:
        seats, result = record.spec.seats, record.result
        faulted = sorted(seats.index(name) for name in ("sleepy", "writer") if name in seats)
        assert result.offenders == faulted
        if len(seats) == 4:
            assert sorted(result.ranks[seat] for seat in faulted) == [3, 3]
        kinds = {seats[seat]: fault.termination for seat, fault in given_faults(result.to_json()).items()}
        assert kinds == {name: kind for name, kind in (("sleepy", "TIMEOUT"), ("writer", "CRASH")) if name in seats}


def test_each_bot_is_charged_its_own_faults_in_faults_csv_the_standings_and_the_list(league):
    output, _, _ = league
    faults = pd.read_csv(output / "faults.csv").set_index("bot")
    assert faults.loc["sleepy"].to_dict() == {"games": 10, "TIMEOUT": 10, "CRASH": 0, "total": 10}
    assert faults.loc["writer"].to_dict() == {"games": 10, "TIMEOUT": 0, "CRASH": 10, "total": 10}
    standings = pd.read_csv(output / "standings.csv").set_index("bot")
    assert standings["faults"].to_dict() == {"sleepy": 10, "writer": 10, "r0": 0, "r1": 0}
    report = (output / "report.md").read_text()
    listed = re.findall(r"\): (\w+) \(seat (\d)\), (\w+) `(\w+)`: seat (\d) ", report)
    assert len(listed) == 20, "each faulted seat of the 10 faulted games, with its own detail"
    for bot, seat, termination, reason, detail_seat in listed:
        assert (termination, reason) == (("TIMEOUT", "timeout") if bot == "sleepy" else ("CRASH", "crash"))
        assert detail_seat == seat


def test_faulted_seats_rank_below_every_live_seat_and_share_the_last_places(league):
    output, _, _ = league
    standings = pd.read_csv(output / "standings.csv").set_index("bot")
    for bot in ("sleepy", "writer"):
        row = standings.loc[bot]
        # 2 games at a table of two (rank 2 of 2 2) and 8 at tables of four (rank 4 of 2 4 1 4)
        assert (row["games"], row["wins"], row["draws"], row["losses"]) == (10, 0, 0, 10)
        assert row["mean_rank"] == (2 * 2 + 8 * 4) / 10 and row["points"] == 0
    assert set(standings.index[:2]) == {"r0", "r1"}
    report = (output / "report.md").read_text()
    assert "a faulted seat ranks below every seat without a fault" in report
    assert "two seats that fault at the same moment in a game of two both rank 2" in report


def test_the_end_of_a_run_names_each_faulted_bot_with_a_hint_and_the_faults_section(league):
    output, _, err = league
    lines = err.splitlines()
    assert (
        "sleepy: timed out in 10 of 10 games; is its stdout flushed after every reply, and is it fast enough"
        " for timeout_ms and first_timeout_ms?"
    ) in lines
    assert "writer: crashed in 10 of 10 games; its exit status and what it wrote to stderr are in the report" in lines
    assert f"faults: {output / 'index.html'}#faults (report.md beside it: section Faults)" in lines
    assert 'id="faults"' in (output / "index.html").read_text()
    assert not any(line.startswith(("r0:", "r1:")) for line in lines)


def test_standings_and_both_ratings_read_the_same_ranks():
    # A faulted seat level with a live one (codevs21 versus: both ended in one turn, equal scores).
    level = {"ranks": [1, 1], "scores": [5, 5], "termination": "CRASH", "offenders": [0]}
    beaten = {"ranks": [2, 1], "scores": [5, 5], "termination": "CRASH", "offenders": [0]}
    both = {"ranks": [1, 1], "scores": [0, 0], "termination": "TIMEOUT", "offenders": [0, 1]}
    draw = {"ranks": [1, 1], "scores": [0, 0], "termination": "NORMAL", "offenders": []}

    def record(result):
        line = {"game_id": "g", "spec": {"seats": ["a", "b"], "index": 0, "round": 0, "variant": "v"}, "result": result}
        return GameRecord.from_json(line)

    for result, same_as, outcome in ((level, beaten, LOSS), (both, draw, DRAW)):
        table, expected = league_table([record(result)], "ab"), league_table([record(same_as)], "ab")
        assert table.ratings == expected.ratings, "TrueSkill: a faulted seat level with a live one loses"
        assert pairwise_results("ab", [record(result)]).row_outcome.tolist() == [outcome]
    table = league_table([record(level)], "ab")
    assert (table.standings["a"].losses, table.standings["b"].wins, table.standings["a"].mean_rank) == (1, 1, 2)
    table = league_table([record(both)], "ab")  # a double fault: a loss and no points each, a draw between them
    assert [(s.losses, s.draws, s.points, s.rank_sum) for s in table.standings.values()] == [(1, 0, 0.0, 2)] * 2
    assert table.pair_points == {("a", "b"): [0.5, 1], ("b", "a"): [0.5, 1]}


@pytest.mark.parametrize(
    ("ranks", "offenders", "expected", "points"),
    [
        ([1, 2], [], [1, 2], [1, 0]),
        ([1, 1], [0, 1], [2, 2], [0, 0]),  # a double fault
        ([2, 3, 1, 3], [1, 3], [2, 4, 1, 4], [2 / 3, 0, 1, 0]),  # two of four failing the same request
        ([1, 1, 1, 1], [0, 1, 2, 3], [4, 4, 4, 4], [0, 0, 0, 0]),  # the whole table at once
        ([1, 2, 2], [0, 1, 2], [1, 3, 3], [1, 0, 0]),  # all faulted, seat 0 last: it ranks first of them
        ([1, 2, 2, 4], [0], [4, 1, 1, 3], [0, 5 / 6, 5 / 6, 1 / 3]),  # the game ranked a faulted seat first
    ],
)
def test_places_and_points_of_faulted_seats(ranks, offenders, expected, points):
    assert places(RecordResult(ranks=ranks, offenders=offenders)) == expected
    assert [place_points(expected, offenders, seat) for seat in range(len(ranks))] == pytest.approx(points)


def charged(result, seats):
    """``faults.csv``'s rows (``faults_by_bot``) for one game played by ``seats``: bot -> its counts."""
    record = {"game_id": "g", "spec": {"seats": seats, "index": 0, "round": 0, "variant": "v"}, "result": result}
    return faults_by_bot(typed([record]), seats).set_index("bot").to_dict("index")


def given_faults(result):
    """The result's own ``faults`` (one an offender, as the game gave them), checked against an older store's reading.

    A result stored before ``Result.faults`` existed is read from its ``extra``: both readings agree on
    each seat's kind and code, and each seat's own detail is part of the game's.
    """
    assert [fault["seat"] for fault in result["faults"]] == result["offenders"]
    given = seat_faults(RecordResult.from_json(result))
    before = seat_faults(RecordResult.from_json({key: value for key, value in result.items() if key != "faults"}))
    assert {seat: (f.termination, f.reason_code) for seat, f in before.items()} == {
        seat: (f.termination, f.reason_code) for seat, f in given.items()
    }
    assert all(fault.detail in result["detail"] for fault in given.values())
    return given


def test_fish_seats_are_each_charged_their_own_fault(play_json):
    table = [bot_command("fish_hostile.py crash 1"), bot_command("fish_hostile.py sleep 2"), "random"]
    result = play_json("fish", *table, "--set", "timeout_ms=3000", "--set", "first_timeout_ms=60000")["result"]
    assert result["offenders"] == [0, 1] and result["termination"] == "CRASH", "the game's first fault"
    assert charged(result, ["crasher", "sleeper", "random"]) == {
        "crasher": {"games": 1, "CRASH": 1, "TIMEOUT": 0, "total": 1},
        "sleeper": {"games": 1, "CRASH": 0, "TIMEOUT": 1, "total": 1},
    }
    assert given_faults(result)[1].reason_code == "timeout"
    assert places(RecordResult.from_json(result)) == [3, 2, 1]


def test_codevs21_versus_seats_are_each_charged_their_own_fault(play_json, tmp_path):
    for folder in ("a", "b"):  # folders apart: each bot sees only its own
        (tmp_path / folder).mkdir()
    quits = script_bot(tmp_path / "a", "quits.py", "import sys\nsys.exit(3)\n")
    chats = script_bot(tmp_path / "b", "chats.py", "import sys\nprint('hello referee', flush=True)\nsys.stdin.read()\n")
    result = play_json("codevs21", quits, chats, "--set", "mode=versus")["result"]
    assert result["offenders"] == [0, 1] and result["ranks"] == [1, 1] and result["termination"] == "CRASH"
    assert charged(result, ["quits", "chats"]) == {
        "quits": {"games": 1, "CRASH": 1, "BAD_OUTPUT": 0, "total": 1},
        "chats": {"games": 1, "CRASH": 0, "BAD_OUTPUT": 1, "total": 1},
    }
    assert (given_faults(result)[0].reason_code, given_faults(result)[1].reason_code) == ("eof", "format")
    assert places(RecordResult.from_json(result)) == [2, 2]


def test_geister_double_fault_charges_each_seat_its_own_kind(play_json):
    # Seat 0's SET names a ghost twice (BAD_OUTPUT or ILLEGAL_MOVE); seat 1 never sends one (TIMEOUT).
    duplicate, sleeper = (bot_command(f"geister_hostile.py {mode}") for mode in ("duplicate", "sleep_setup"))
    result = play_json("geister", duplicate, sleeper, "--set", "setup_timeout_s=3")["result"]
    assert result["reason_code"] == "double_fault" and result["offenders"] == [0, 1]
    kinds = {seat: fault.termination for seat, fault in given_faults(result).items()}
    assert kinds[1] == "TIMEOUT" and kinds[0] != "TIMEOUT", kinds
    assert charged(result, ["duplicate", "sleeper"])["sleeper"]["TIMEOUT"] == 1
    assert places(RecordResult.from_json(result)) == [2, 2]
