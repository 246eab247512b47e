"""nimmt through ``league play --json`` with real misbehaving programs (rules/nimmt.md sections 7 and 8).

The programs are tests/bots/nimmt_hostile.py in one MODE each. A table is written as one letter
a seat: ``H`` the hostile program, ``P`` the same program in mode ``plain``, ``R`` the ``random``
built-in. The hostile program plays like the fallback policy until it misbehaves, so the game
the rules make after its fault (its seat played by the fallback) is exactly the game of the
same table with ``P`` in its place: every seat's total must be the same, only the ranks differ
(faulted seats last, a later fault better, faults at the same moment sharing a rank). The
``P`` seats write the ``END`` line they received to stderr, which the result keeps, so the tests
also see what the live bots were told and when. Time limits are small: the file runs in seconds.
"""

import time

import pytest

from tests.conftest import bot_processes
from tests.league.match.hostile_tables import HostileTables, end_line

FAST = ["--set", "timeout_ms=300"]
SCRIPT = "nimmt_hostile.py"
TABLES = HostileTables("nimmt", SCRIPT)
play = TABLES.play
clean_game = TABLES.clean


def expected_ranks(totals, moments):
    """Ranks by rules/nimmt.md 5 and 7.4: clean seats by total, then faulted seats, later faults better."""
    keys = [(1, *(-x for x in moments[seat])) if seat in moments else (0, total) for seat, total in enumerate(totals)]
    return [1 + sum(other < key for other in keys) for key in keys]


def assert_played_on(data, clean, faults):
    """The faulted seats ranked by the rules; every total that of the clean game, played to its end.

    Args:
        data: The ``--json`` result with the hostile seats.
        clean: The same table's clean game.
        faults: Per faulted seat, (termination, reason code, moment).
    """
    result = data["result"]
    assert result["offenders"] == sorted(faults)
    first = min(faults, key=lambda seat: (faults[seat][2], seat))
    assert (result["termination"], result["reason_code"]) == faults[first][:2]
    for seat, (termination, reason, moment) in faults.items():
        record = result["extra"]["faults"][seat]
        assert (record["termination"], record["reason"], record["moment"]) == (termination, reason, moment)
        assert record["detail"].startswith(f"seat {seat} ") and record["detail"] in result["detail"]
    assert result["extra"]["end"] == "match_complete" and result["extra"]["deals"] == 1
    assert result["scores"] == clean["result"]["scores"], "the others' game is the fallback's game, played out"
    moments = {seat: moment for seat, (_, _, moment) in faults.items()}
    assert result["ranks"] == expected_ranks(clean["result"]["scores"], moments)
    for seat, letter in enumerate(data["layout"]):
        if letter == "P":  # a live program was told the final ranks after round 10's SCORES
            assert end_line(data, seat).startswith(f"got END {' '.join(map(str, result['ranks']))} after 'SCORES ")
    assert bot_processes(SCRIPT) == [], "no process outlives its game"


CASES = [
    # layout (H: the hostile seat), mode, seed, options, termination, reason code, moment, words of the detail
    ("PHR", "not_in_hand 3", 0, [], "ILLEGAL_MOVE", "illegal", [1, 3, 0], ["PLAY of deal 1, round 3: played "]),
    ("RPHR", "take_row 4", 1, [], "ILLEGAL_MOVE", "illegal", [1, 1, 1], ["TAKE of deal 1, round 1: chose row 4"]),
    ("RRPRH", "take_row 7", 4, [], "ILLEGAL_MOVE", "illegal", [1, 3, 1], ["TAKE of deal 1, round 3: chose row 7"]),
    ("RPRH", "malformed 2", 0, [], "BAD_OUTPUT", "bad_output", [1, 2, 0], ["PLAY of deal 1, round 2 ('play 17')"]),
    ("PRHRR", "crash 5", 2, [], "CRASH", "crash", [1, 5, 0], ["status 3 before answering PLAY of deal 1, round 5"]),
    ("RRRPH", "sleep 4", 3, FAST, "TIMEOUT", "timeout", [1, 4, 0], ["PLAY of deal 1, round 4, over the 300 ms"]),
    ("RPHR", "sleep_take", 2, FAST, "TIMEOUT", "timeout", [1, 1, 1], ["TAKE of deal 1, round 1, over the 300 ms"]),
    ("HPR", "hang 2", 5, FAST, "TIMEOUT", "timeout", [1, 2, 0], ["PLAY of deal 1, round 2, over the 300 ms"]),
    # An extra line is the answer to the next request (8.1): a card already played, then a card as a row.
    ("RHPRR", "twice", 1, [], "ILLEGAL_MOVE", "illegal", [1, 2, 0], ["round 2: played ", "not in its hand"]),
    ("HPR", "ahead", 6, [], "ILLEGAL_MOVE", "illegal", [1, 1, 1], ["TAKE of deal 1, round 1: chose row 14"]),
    # The line cap (8.5): more than 1024 bytes before the LF, a CR counted, is bad output.
    ("PHR", "padded 1025", 0, [], "BAD_OUTPUT", "bad_output", [1, 1, 0], ["over 1024 bytes"]),
    ("RRH", "padded_cr 1025", 1, [], "BAD_OUTPUT", "bad_output", [1, 1, 0], ["over 1024 bytes"]),
]


@pytest.mark.parametrize("mode", ["padded 1024", "padded_cr 1024"])
def test_a_reply_of_exactly_1024_bytes_is_read(play_json, mode):
    data = play(play_json, "PHR", [mode], 0)
    result = data["result"]
    assert result["termination"] == "NORMAL" and result["offenders"] == [], result["detail"]
    assert result["scores"] == clean_game(play_json, "PHR", 0)["result"]["scores"]


@pytest.mark.parametrize(
    ("layout", "mode", "seed", "options", "termination", "reason", "moment", "words"), CASES, ids=[c[1] for c in CASES]
)
def test_a_faulted_seat_ranks_last_and_the_others_play_on(
    play_json, layout, mode, seed, options, termination, reason, moment, words
):
    data = play(play_json, layout, [mode], seed, options)
    seat = layout.index("H")
    assert_played_on(data, clean_game(play_json, layout, seed, options), {seat: (termination, reason, moment)})
    assert data["result"]["ranks"][seat] == len(layout), "a lone offender ranks last"
    for word in words:
        assert word in data["result"]["detail"], data["result"]["detail"]
    if termination == "TIMEOUT":
        # Its limit and a little: the referee's own lateness on a busy machine (up to 0.5 s seen), never the
        # wait for its kill (its stdin closed, SIGTERM, a second's grace before SIGKILL).
        assert 300 < data["time_used_ms"][seat] < 1300, "charged its limit and a little, not the wait for its kill"


def test_a_crashing_bot_keeps_its_stderr(play_json):
    data = play(play_json, "PRHRR", ["crash 5"], 2)
    [tail] = [tail for tail in data["stderr"] if tail["seat"] == 2]
    assert tail["text"] == "nimmt_hostile: out of cards in round 5\n"


def test_an_extra_line_that_is_legal_answers_the_next_request_and_the_game_is_clean(play_json):
    # Two cards at PLAY 1, then one card a request ahead: every line is read one request early,
    # each one the seat's lowest card then (seat 2 gets no TAKE in this game), so the game is the
    # clean one, and each reply was already waiting when its request went out.
    data = play(play_json, "RPHR", ["ahead"], 3)
    clean = clean_game(play_json, "RPHR", 3)
    result = data["result"]
    assert result["termination"] == "NORMAL" and result["offenders"] == [], result["detail"]
    assert (result["scores"], result["ranks"]) == (clean["result"]["scores"], clean["result"]["ranks"])
    assert data["time_used_ms"][2] < 100, "ten replies read from the queue, not thought about (room for load)"
    assert bot_processes(SCRIPT) == []


def test_two_faults_at_one_moment_share_a_rank_and_two_live_seats_play_on(play_json):
    data = play(play_json, "HRHP", ["crash 2", "not_in_hand 2"], 7)
    faults = {0: ("CRASH", "crash", [1, 2, 0]), 2: ("ILLEGAL_MOVE", "illegal", [1, 2, 0])}
    assert_played_on(data, clean_game(play_json, "HRHP", 7), faults)
    assert data["result"]["ranks"][0] == data["result"]["ranks"][2] == 3


def test_a_later_fault_ranks_better_even_in_the_same_round(play_json):
    # Seat 1 sends garbage for PLAY 6; seat 4's low card of that round asks it TAKE, which it
    # answers with 4: moment (1, 6, 1) is after (1, 6, 0), so seat 4 ranks above seat 1.
    data = play(play_json, "RHPRH", ["malformed 6", "take_row 4"], 7)
    faults = {1: ("BAD_OUTPUT", "bad_output", [1, 6, 0]), 4: ("ILLEGAL_MOVE", "illegal", [1, 6, 1])}
    assert_played_on(data, clean_game(play_json, "RHPRH", 7), faults)
    assert (data["result"]["ranks"][1], data["result"]["ranks"][4]) == (5, 4)


def test_early_stop_when_one_live_seat_is_left(play_json):
    # Seat 1 faults in round 2, seat 2 in round 4: seat 0 alone is live, the game stops there.
    data = play(play_json, "PHH", ["not_in_hand 2", "crash 4"], 6)
    result = data["result"]
    assert result["extra"]["end"] == "early_stop" and result["offenders"] == [1, 2]
    assert (result["termination"], result["reason_code"]) == ("ILLEGAL_MOVE", "illegal")
    assert result["ranks"] == [1, 3, 2], "the live seat first, the later fault second"
    clean_rounds = end_line(clean_game(play_json, "PHH", 6), 0).split("; scores ")[1].strip().split("|")
    assert " ".join(map(str, result["scores"])) == clean_rounds[2], "round 4 abandoned: totals after round 3"
    # The live bot answered PLAY 4 and got END as its next line, with the totals of round 3.
    assert end_line(data, 0) == f"got END 1 3 2 after 'PLAY 4'; scores {'|'.join(clean_rounds[:3])}\n"
    assert "nimmt_hostile: out of cards in round 4" in [t["text"].strip() for t in data["stderr"] if t["seat"] == 2]
    assert bot_processes(SCRIPT) == []


def test_early_stop_after_two_faults_at_one_moment(play_json):
    data = play(play_json, "HPH", ["malformed 3", "sleep 3"], 6, FAST)
    result = data["result"]
    assert result["extra"]["end"] == "early_stop" and result["ranks"] == [2, 1, 2]
    assert [f and f["moment"] for f in result["extra"]["faults"]] == [[1, 3, 0], None, [1, 3, 0]]
    assert (result["termination"], result["reason_code"]) == ("BAD_OUTPUT", "bad_output"), "seat order breaks the tie"
    assert end_line(data, 1).startswith("got END 2 1 2 after 'PLAY 3'; ")
    assert bot_processes(SCRIPT) == []


SLOW = ["--set", "timeout_ms=400"]


def test_slow_seats_neither_delay_nor_charge_the_others(play_json):
    # Seats 1 and 3 take 0.25 s for every PLAY, within their 400 ms; the three others answer at
    # once. The requests of a round go out together and each seat's clock runs from its own
    # request: a round lasts as long as its slowest reply (not the sum: 10 x 0.5 s), and the quick
    # seats are charged only their own replies.
    began = time.monotonic()
    data = play(play_json, "PHPHP", ["slow 0.25", "slow 0.25"], 8, SLOW)
    elapsed = time.monotonic() - began
    result = data["result"]
    assert result["termination"] == "NORMAL" and result["offenders"] == [], result["detail"]
    began = time.monotonic()  # the same game with no slow seat: what starting and playing costs on this machine now
    clean = clean_game(play_json, "PHPHP", 8, SLOW)["result"]
    overhead = time.monotonic() - began
    assert (result["scores"], result["ranks"]) == (clean["scores"], clean["ranks"])
    used = data["time_used_ms"]
    # Ten 0.25 s replies each (the referee may note a request's start a little late on a busy machine).
    assert all(2000 <= used[seat] < 4000 for seat in (1, 3)), used
    assert all(used[seat] < 250 for seat in (0, 2, 4)), used
    # Together the slow seats add 2.5 s to the game; one after the other, 5 s: the middle tells them apart.
    assert elapsed - overhead < 3.75, f"{elapsed:.2f} s against {overhead:.2f}: the slow seats were waited for in turn"


def test_a_seat_that_times_out_faults_alone_beside_a_slow_one(play_json):
    # Seat 1 never answers PLAY 3 (400 ms allowed); seat 3 takes 0.2 s every round and is fine.
    data = play(play_json, "PHPHP", ["sleep 3", "slow 0.2"], 8, SLOW)
    faults = {1: ("TIMEOUT", "timeout", [1, 3, 0])}
    assert_played_on(data, clean_game(play_json, "PHPHP", 8, SLOW), faults)
    assert data["result"]["ranks"][1] == 5
    used = data["time_used_ms"]
    # Ten 0.2 s replies, each rounded down to whole ms (and noted a little late on a busy machine).
    assert 400 < used[1] < 1400 and used[3] >= 1500, used
    assert all(used[seat] < 250 for seat in (0, 2, 4)), used


def test_an_offender_is_killed_at_once(play_json):
    # The rules kill a faulted bot at once (7.2): no closed stdin to notice, no grace. This one
    # sleeps through both from PLAY 2 on, so any grace given to it would add a second or more
    # to the game; without it, the game lasts the clean one plus the 300 ms it was waited for.
    began = time.monotonic()
    clean_game(play_json, "HPR", 9, FAST)
    clean_s = time.monotonic() - began
    began = time.monotonic()
    data = play(play_json, "HPR", ["hang 2"], 9, FAST)
    elapsed = time.monotonic() - began
    assert data["result"]["extra"]["faults"][0]["moment"] == [1, 2, 0]
    assert elapsed < clean_s + 0.3 + 0.6, (elapsed, clean_s)
    assert bot_processes(SCRIPT) == []
