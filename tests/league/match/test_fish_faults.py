"""fish through ``league play --json`` with real misbehaving programs (rules/fish.md sections 7 and 8).

The programs are tests/bots/fish_hostile.py in one MODE each. A table is written as one letter a
seat: ``H`` the hostile program, ``P`` the same program in mode ``plain``, ``R`` the ``random``
built-in. The hostile program places and moves like the fallback policy until it misbehaves, so
the game the rules make after its fault (its seat played by the fallback) is exactly the game of
the same table with ``P`` in its place: every seat's fish and tiles must be the same, only the
ranks differ (faulted seats last, a later fault better). The ``P`` seats write the end lines they
received to stderr, which the result keeps. Time limits are small: the file runs in seconds.
"""

import time

import pytest

from engine.fish import Fish
from league.match.bot_spec import parse_bot_argument
from league.match.players import make_launcher
from league.match.referee import play_match
from sandbox.process import LaunchError
from tests.conftest import bot_processes
from tests.league.match.hostile_tables import HostileTables, end_line

FAST = ["--set", "timeout_ms=300"]
SCRIPT = "fish_hostile.py"
TABLES = HostileTables("fish", SCRIPT)
play = TABLES.play
clean_game = TABLES.clean


def expected_ranks(fish, tiles, turns):
    """Ranks by rules/fish.md 5 and 7.4: clean seats by fish then tiles, then faulted seats, later faults better."""
    keys = [(1, -turns[seat]) if seat in turns else (0, -fish[seat], -tiles[seat]) for seat in range(len(fish))]
    return [1 + sum(other < key for other in keys) for key in keys]


def assert_played_on(data, clean, faults):
    """The faulted seats ranked by the rules; fish and tiles those of the clean game, played to its end.

    Args:
        data: The ``--json`` result with the hostile seats.
        clean: The same table's clean game.
        faults: Per faulted seat, (termination, kind, turn).
    """
    result, expected = data["result"], clean["result"]
    assert result["offenders"] == sorted(faults, key=lambda seat: faults[seat][2])
    first = min(faults, key=lambda seat: faults[seat][2])
    assert (result["termination"], result["reason_code"]) == faults[first][:2]
    records = {record["seat"]: record for record in result["extra"]["faults"]}
    assert {seat: (records[seat]["kind"], records[seat]["turn"]) for seat in records} == {
        seat: (kind, turn) for seat, (_, kind, turn) in faults.items()
    }
    for seat, (_, _, turn) in faults.items():
        assert f"seat {seat} " in result["detail"] and f"turn {turn}" in result["detail"]
    assert result["extra"]["end"] == "no_move", "played to its normal end"
    assert data["plies"] == clean["plies"]
    assert (result["scores"], result["extra"]["tiles"]) == (expected["scores"], expected["extra"]["tiles"])
    turns = {seat: turn for seat, (_, _, turn) in faults.items()}
    ranks = expected_ranks(expected["scores"], expected["extra"]["tiles"], turns)
    assert result["ranks"] == ranks
    words = [" ".join(map(str, values)) for values in (result["scores"], result["extra"]["tiles"], ranks)]
    for seat, letter in enumerate(data["layout"]):
        if letter == "P":  # a live program was told the final scores, tiles and ranks
            assert end_line(data, seat).startswith(f"got SCORES {words[0]} TILES {words[1]} END {words[2]} after ")
    assert bot_processes(SCRIPT) == [], "no process outlives its game"


CASES = [
    # layout (H: the hostile seat), mode, seed, options, termination, kind, turn, words of the detail
    ("PHR", "two_fish", 3, [], "ILLEGAL_MOVE", "illegal", 2, ["'0 2' is illegal: only a free 1-fish tile"]),
    ("HPRR", "gap", 4, [], "ILLEGAL_MOVE", "illegal", 17, ["'1 2 1 5' is illegal: the path crosses a gap at (1, 3)"]),
    ("RHP", "penguin", 5, [], "ILLEGAL_MOVE", "illegal", 11, ["'0 5 3 4' is illegal: the path crosses a penguin at"]),
    ("RPRH", "bent 2", 6, [], "ILLEGAL_MOVE", "illegal", 16, ["'0 4 1 6' is illegal: the cells are not on a straight"]),
    ("HPR", "malformed 2", 7, [], "BAD_OUTPUT", "bad_output", 13, ["its MOVE request for turn 13 ('1,2->3,3')"]),
    ("PRH", "crash 3", 8, [], "CRASH", "crash", 18, ["exited with status 3 before answering its MOVE request"]),
    ("RPHR", "sleep 2", 9, FAST, "TIMEOUT", "timeout", 15, ["ms for turn 15, over the 300 ms it had"]),
    ("PHR", "hang 2", 10, FAST, "TIMEOUT", "timeout", 14, ["over the 300 ms it had"]),
    # An extra line is the answer to the next request (8.1): the first placement again, now taken.
    ("RPHR", "twice", 11, [], "ILLEGAL_MOVE", "illegal", 7, ["'0 2' is illegal: a penguin stands there"]),
]


@pytest.mark.parametrize(
    ("layout", "mode", "seed", "options", "termination", "kind", "turn", "words"), CASES, ids=[c[1] for c in CASES]
)
def test_a_faulted_seat_ranks_last_and_the_others_play_on(
    play_json, layout, mode, seed, options, termination, kind, turn, words
):
    data = play(play_json, layout, [mode], seed, options)
    seat = layout.index("H")
    assert_played_on(data, clean_game(play_json, layout, seed), {seat: (termination, kind, turn)})
    assert data["result"]["ranks"][seat] == len(layout), "a lone offender ranks last"
    for word in words:
        assert word in data["result"]["detail"], data["result"]["detail"]
    if termination == "TIMEOUT":
        assert 300 < data["time_used_ms"][seat] < 600, "charged its limit and a little, not the wait for its kill"


def test_a_crashing_bot_keeps_its_stderr(play_json):
    data = play(play_json, "PRH", ["crash 3"], 8)
    [tail] = [tail for tail in data["stderr"] if tail["seat"] == 2]
    assert tail["text"] == "fish_hostile: fell through the ice at move 3\n"


def test_two_faults_rank_by_turn_and_two_live_seats_play_on(play_json):
    data = play(play_json, "HRPH", ["crash 4", "penguin"], 5)
    turns = {record["seat"]: record["turn"] for record in data["result"]["extra"]["faults"]}
    assert turns[3] < turns[0], turns  # seat 3's wrong move comes first
    faults = {0: ("CRASH", "crash", turns[0]), 3: ("ILLEGAL_MOVE", "illegal", turns[3])}
    assert_played_on(data, clean_game(play_json, "HRPH", 5), faults)
    assert (data["result"]["ranks"][0], data["result"]["ranks"][3]) == (3, 4)


def test_early_stop_in_the_movement_phase(play_json):
    # 3 penguins each: placements are turns 1-9. Seat 1 faults at its 2nd move (turn 14) and the
    # fallback plays on; seat 2 crashes at its 3rd (turn 18): one live seat, the game stops, the
    # move of turn 18 is not made and no penguin's tile is credited.
    data = play(play_json, "PHH", ["malformed 2", "crash 3"], 12)
    result = data["result"]
    assert result["extra"]["end"] == "early_stop" and data["plies"] == 17
    assert result["extra"]["faults"] == [
        {"seat": 1, "kind": "bad_output", "turn": 14},
        {"seat": 2, "kind": "crash", "turn": 18},
    ]
    assert (result["termination"], result["reason_code"], result["offenders"]) == ("BAD_OUTPUT", "bad_output", [1, 2])
    assert result["ranks"] == [1, 3, 2], "the live seat first, the later fault second"
    assert sum(result["extra"]["tiles"]) == 17 - 9, "only the tiles of the 8 moves made, no end credit"
    assert "fewer than two seats were live" in result["detail"]
    scores, tiles = (" ".join(map(str, values)) for values in (result["scores"], result["extra"]["tiles"]))
    line = end_line(data, 0)
    assert line.startswith(f"got SCORES {scores} TILES {tiles} END 1 3 2 after 'MOVED 1 "), line  # turn 17, seat 1's
    assert bot_processes(SCRIPT) == []


def test_early_stop_in_the_placement_phase(play_json):
    # Seat 0 places on a 2-fish tile at turn 1; seat 2 repeats its first placement at turn 6.
    data = play(play_json, "HPH", ["two_fish", "twice"], 13)
    result = data["result"]
    assert result["extra"]["end"] == "early_stop" and data["plies"] == 5
    assert [(f["seat"], f["kind"], f["turn"]) for f in result["extra"]["faults"]] == [
        (0, "illegal", 1),
        (2, "illegal", 6),
    ]
    assert result["ranks"] == [3, 1, 2] and result["scores"] == [0, 0, 0] and result["extra"]["tiles"] == [0, 0, 0]
    assert end_line(data, 1).startswith("got SCORES 0 0 0 TILES 0 0 0 END 3 1 2 after 'PLACED 1 ")
    assert bot_processes(SCRIPT) == []


def test_a_slow_seat_does_not_charge_the_others(play_json):
    # Seat 1 takes 0.1 s for each of its requests, within 300 ms; each seat's clock runs from its
    # own request only, so the others are charged their own quick replies.
    data = play(play_json, "PHPP", ["slow 0.1"], 14, FAST)
    result = data["result"]
    assert result["termination"] == "NORMAL" and result["offenders"] == [], result["detail"]
    clean = clean_game(play_json, "PHPP", 14)["result"]
    assert (result["scores"], result["ranks"]) == (clean["scores"], clean["ranks"])
    assert data["time_used_ms"][1] >= 100 * 8, data["time_used_ms"]
    assert all(data["time_used_ms"][seat] < 200 for seat in (0, 2, 3)), data["time_used_ms"]
    assert bot_processes(SCRIPT) == []


def test_an_offender_is_killed_at_once(play_json):
    # The rules kill a faulted bot at once (7.2): no closed stdin to notice, no grace. This one
    # sleeps through both from its 2nd move on, so any grace given to it would add a second or
    # more to the game; without it, the game lasts the clean one plus the 300 ms it was waited for.
    began = time.monotonic()
    clean_game(play_json, "PHR", 15)
    clean_s = time.monotonic() - began
    began = time.monotonic()
    data = play(play_json, "PHR", ["hang 2"], 15, FAST)
    elapsed = time.monotonic() - began
    assert data["result"]["extra"]["faults"][0]["kind"] == "timeout"
    assert elapsed < clean_s + 0.3 + 0.6, (elapsed, clean_s)
    assert bot_processes(SCRIPT) == []


def unstartable(key):
    raise LaunchError("cannot start './gone': No such file or directory")


def play_with_unstartable_seats(players, seed, dead):
    """A game of ``random`` built-ins, in process, in which the seats in ``dead`` cannot be started."""
    game = Fish()
    specs = [parse_bot_argument(Fish, "random") for _ in range(players)]
    launchers = [
        unstartable if seat in dead else make_launcher(game, spec, seat, seed) for seat, spec in enumerate(specs)
    ]
    return play_match(game, launchers, seed)


def test_a_program_that_cannot_start_is_charged_at_its_own_first_turn():
    # 7.1: a bot that died before its request is charged at that request. Seat 3's first request
    # is turn 4; seat 0's first is turn 1. Two faults never share a turn (7.4).
    result = play_with_unstartable_seats(4, 2016, {3}).result
    assert result.extra["faults"] == [{"seat": 3, "kind": "crash", "turn": 4}]
    assert result.ranks[3] == 4 and result.extra["end"] == "no_move"
    assert "cannot start './gone'" in result.detail


def test_unstartable_seats_fault_in_turn_order():
    result = play_with_unstartable_seats(4, 2016, {0, 3}).result
    assert result.extra["faults"] == [
        {"seat": 0, "kind": "crash", "turn": 1},
        {"seat": 3, "kind": "crash", "turn": 4},
    ]
    assert (result.ranks[3], result.ranks[0]) == (3, 4), "the later fault ranks better"


def test_two_players_one_unstartable_the_other_is_told_the_end_after_its_first_turn():
    record = play_with_unstartable_seats(2, 7, {1})
    result = record.result
    assert result.extra["faults"] == [{"seat": 1, "kind": "crash", "turn": 2}]
    assert result.extra["end"] == "early_stop" and result.plies == 1 and result.ranks == [1, 2]
    assert [move.seat for move in record.moves] == [0], "seat 0 placed once, then the game stopped"


@pytest.mark.parametrize(("value", "shown"), [("5", "5"), ("0", "0"), ("two", "'two'"), ("true", "true")])
def test_a_bad_penguin_count_is_one_sentence(league_cli, value, shown):
    status, _, err = league_cli("play", "fish", "random", "random", "--set", f"penguins={value}")
    assert status == 2
    assert err.strip().endswith(f"penguins must be auto or an integer 1 to 4, not {shown}"), err
    assert "literal" not in err and "Traceback" not in err


def test_the_seed_must_fit_the_rules():
    with pytest.raises(ValueError, match="0 .. 2"):
        Fish().new_state(-1, 2)
