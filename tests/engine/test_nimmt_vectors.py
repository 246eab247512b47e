"""The test vectors of section 10 of rules/nimmt.md, at the state level and byte-exact on the wire.

State level: games are played through ``NimmtState`` with reply lines judged the referee's way
(``line_fault``: parse, then check), faults recorded as they arrive and the phase applied after,
as league/match/referee.py does. Wire level: the same scripts are played through the real ``Referee``
with in-process scripted seats, and the bytes a seat receives are compared with the transcripts.
"""

import random

import pytest

from engine.core import Fault, Request, Termination
from engine.nimmt import Nimmt
from engine.nimmt.protocol import NimmtDriver, NimmtReferee, parse_reply
from engine.nimmt.rules import PlayObservation, bullheads, shuffled_deck
from engine.protocol import ParseError
from league.match.record import ClockSettings
from league.match.referee import Referee
from tests.engine.scripted import ScriptedTransport, line_fault

REFEREE = NimmtReferee()


# -- helpers ----------------------------------------------------------------------------------
def fallback_line(state, request):
    """The reply the fallback policy would give (7.3), as a line."""
    if isinstance(state.observation(request), PlayObservation):
        return str(state.fallback_card(request.seat))
    return str(state.fallback_row())


def play(state, answer=fallback_line):
    """Play to the end, the referee's way; returns per seat the reply lines it sent, in order."""
    sent = [[] for _ in range(state.players)]
    while not state.is_over():
        actions = {}
        for request in state.to_act():
            line = answer(state, request)
            sent[request.seat].append(line)
            fault = line_fault(REFEREE, state, request, line)
            if fault is not None:
                state.fault(fault)
                if state.is_over():
                    break
            else:
                actions[request] = REFEREE.parse(state, request, line)
        if actions:
            state.apply(actions)
    return sent


def rounds(state):
    """(rows, totals) after each round, from the state's log."""
    return [(event[1], event[2]) for event in state.log if event[0] == "round"]


def deal_totals(state):
    """The totals after round 10 of each deal."""
    return [totals for _, totals in rounds(state)[9::10]]


def overriding(replies):
    """Fallback answers, except ``replies[(seat, nth reply of that seat)] = line``."""
    count = {}

    def answer(state, request):
        nth = count[request.seat] = count.get(request.seat, 0) + 1
        return replies.get((request.seat, nth), fallback_line(state, request))

    return answer


class Seat(ScriptedTransport):
    """A scripted seat that answers only bytes ending in a request (``PLAY``/``TAKE``)."""

    def send(self, data):
        last = data.rstrip(b"\n").rsplit(b"\n", 1)[-1]
        self.unanswered = () if last.startswith((b"PLAY ", b"TAKE ")) else (data,)
        super().send(data)


def wire(scripts, seed=6, **variant):
    """Play scripts (per seat, reply lines) through the real Referee; (result, per seat its text)."""
    seats = [Seat([f"{line}\n".encode() for line in script], key=s) for s, script in enumerate(scripts)]
    clock = ClockSettings(startup_wait_ms=0)
    record = Referee(Nimmt(**variant), [lambda key: seats[key.seat]] * len(seats), seed, clock).play()
    return record.result, [b"".join(seat.received).decode("ascii") for seat in seats]


def transcript_sent(text):
    """The referee's lines of a ``>``/``<`` transcript, each ending LF."""
    return "".join(line[2:] + "\n" for line in text.strip().splitlines() if line.startswith("> "))


# -- 10.1 bullheads ---------------------------------------------------------------------------
CARDS = [1, 5, 10, 11, 15, 22, 50, 55, 65, 66, 85, 95, 99, 100, 104]
GPCC = [1, 1, 3, 5, 1, 5, 3, 7, 1, 5, 1, 1, 5, 3, 1]
CLASSIC = [1, 2, 3, 5, 2, 5, 3, 7, 2, 5, 2, 2, 5, 3, 1]


def test_10_1_bullhead_tables():
    assert [bullheads(c, "gpcc") for c in CARDS] == GPCC
    assert [bullheads(c, "classic") for c in CARDS] == CLASSIC
    assert sum(bullheads(c, "gpcc") for c in range(1, 105)) == 162
    assert sum(bullheads(c, "classic") for c in range(1, 105)) == 171


# -- 10.2 shuffle and deal --------------------------------------------------------------------
def test_10_2_shuffles_of_seed_6():
    first = "96 64 93 88 14 49 4 65 22 44 30 90 51 50 9 89 75 10 80 104 21 40 56 29"
    second = "84 15 64 98 56 44 22 31 13 74 57 46 48 6 27 70 37 82 95 17 14 38 73 9"
    assert shuffled_deck(6, 1)[:24] == [int(v) for v in first.split()]
    assert shuffled_deck(6, 2)[:24] == [int(v) for v in second.split()]


def test_10_2_the_randbelow_procedure_gives_the_same_shuffle():
    rng, deck = random.Random(6), list(range(1, 105))
    for i in range(103, 0, -1):
        bits = (i + 1).bit_length()
        j = rng.getrandbits(bits)
        while j >= i + 1:
            j = rng.getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]
    assert deck == shuffled_deck(6, 1)


def test_10_2_hands_and_rows():
    two = Nimmt().new_state(6, 2)
    assert two.hands == [[4, 14, 22, 44, 49, 64, 65, 88, 93, 96], [9, 10, 30, 50, 51, 75, 80, 89, 90, 104]]
    assert two.rows == [[21], [40], [56], [29]]
    three = Nimmt().new_state(6, 3)
    assert three.hands[:2] == two.hands
    assert three.hands[2] == sorted(shuffled_deck(6, 1)[20:30])
    assert three.rows == [[100], [15], [31], [82]]


def test_10_2_later_deals_continue_the_same_generator():
    state = Nimmt(deals=3).new_state(6, 2)
    play(state)
    deals = [event for event in state.log if event[0] == "deal"]
    assert deals[1][2][0] == [13, 15, 22, 31, 44, 56, 64, 74, 84, 98]
    assert deals[1][3] == [[14], [38], [73], [9]]
    assert deals[2][2][0] == [2, 20, 27, 40, 42, 43, 51, 52, 74, 85]


# -- 10.3 a full two-player deal --------------------------------------------------------------
ROUNDS_10_3 = [
    ("4,9 40 56 29", [1, 0]),
    ("4,9,10,14 40 56 29", [1, 0]),
    ("4,9,10,14,22 40 56 29,30", [1, 0]),
    ("4,9,10,14,22 40,44,50 56 29,30", [1, 0]),
    ("4,9,10,14,22 40,44,50,51 56 29,30,49", [1, 0]),
    ("4,9,10,14,22 40,44,50,51 56,64,75 29,30,49", [1, 0]),
    ("4,9,10,14,22 40,44,50,51,65 56,64,75,80 29,30,49", [1, 0]),
    ("4,9,10,14,22 40,44,50,51,65 89 29,30,49", [1, 11]),
    ("4,9,10,14,22 40,44,50,51,65 89,90,93 29,30,49", [1, 11]),
    ("4,9,10,14,22 40,44,50,51,65 89,90,93,96,104 29,30,49", [1, 11]),
]
SEAT_0_10_3 = """
> GAME nimmt 2 0
> BULLHEADS gpcc
> MATCH deals 1
> DEAL 1
> HAND 4 14 22 44 49 64 65 88 93 96
> ROWS 21 40 56 29
> PLAY 1
< 4
> REVEAL 4 9
> TAKE 4
< 0
> CHOSE 0 0
> ROWS 4,9 40 56 29
> SCORES 1 0
> PLAY 2
< 14
> REVEAL 14 10
> ROWS 4,9,10,14 40 56 29
> SCORES 1 0
> PLAY 3
< 22
> REVEAL 22 30
> ROWS 4,9,10,14,22 40 56 29,30
> SCORES 1 0
> PLAY 4
< 44
> REVEAL 44 50
> ROWS 4,9,10,14,22 40,44,50 56 29,30
> SCORES 1 0
> PLAY 5
< 49
> REVEAL 49 51
> ROWS 4,9,10,14,22 40,44,50,51 56 29,30,49
> SCORES 1 0
> PLAY 6
< 64
> REVEAL 64 75
> ROWS 4,9,10,14,22 40,44,50,51 56,64,75 29,30,49
> SCORES 1 0
> PLAY 7
< 65
> REVEAL 65 80
> ROWS 4,9,10,14,22 40,44,50,51,65 56,64,75,80 29,30,49
> SCORES 1 0
> PLAY 8
< 88
> REVEAL 88 89
> ROWS 4,9,10,14,22 40,44,50,51,65 89 29,30,49
> SCORES 1 11
> PLAY 9
< 93
> REVEAL 93 90
> ROWS 4,9,10,14,22 40,44,50,51,65 89,90,93 29,30,49
> SCORES 1 11
> PLAY 10
< 96
> REVEAL 96 104
> ROWS 4,9,10,14,22 40,44,50,51,65 89,90,93,96,104 29,30,49
> SCORES 1 11
> END 1 2
"""


def test_10_3_state_level_round_by_round():
    state = Nimmt().new_state(6, 2)
    sent = play(state)
    assert sent[0] == ["4", "0", "14", "22", "44", "49", "64", "65", "88", "93", "96"]
    assert sent[1] == ["9", "10", "30", "50", "51", "75", "80", "89", "90", "104"]
    got = [(" ".join(",".join(map(str, row)) for row in rows), totals) for rows, totals in rounds(state)]
    assert got == ROUNDS_10_3
    result = state.result()
    assert (result.scores, result.ranks, result.termination, result.offenders) == ([1, 11], [1, 2], "NORMAL", [])


def test_10_3_classic_totals():
    state = Nimmt(bullheads="classic").new_state(6, 2)
    play(state)
    assert state.result().scores == [1, 12]


def test_10_3_wire_transcripts():
    sent = play(Nimmt().new_state(6, 2))
    result, received = wire(sent)
    assert result.ranks == [1, 2]
    assert received[0] == transcript_sent(SEAT_0_10_3)
    seat_1 = transcript_sent(SEAT_0_10_3).replace("GAME nimmt 2 0", "GAME nimmt 2 1")
    seat_1 = seat_1.replace("HAND 4 14 22 44 49 64 65 88 93 96", "HAND 9 10 30 50 51 75 80 89 90 104")
    assert received[1] == seat_1.replace("TAKE 4\n", "")


def test_10_3_bot_side_sees_what_the_state_shows():
    """NimmtDriver fed seat 0's bytes decodes the observations the state gives, and answers alike."""
    state = Nimmt().new_state(6, 2)
    seen = []

    class Recorder:
        def act(self, observation):
            seen.append(observation)
            return int(expected[len(seen) - 1][1])

    expected = []

    def answer(state, request):
        line = fallback_line(state, request)
        if request.seat == 0:
            expected.append((state.observation(request), line))
        return line

    play(state, answer)
    driver = NimmtDriver(Recorder())
    replies = [driver.feed(line) for line in transcript_sent(SEAT_0_10_3).splitlines()]
    assert [r for r in replies if r is not None] == [line for _, line in expected]
    assert seen == [observation for observation, _ in expected]


# -- 10.4 one hand-made round with four players -----------------------------------------------
def round_10_4(table, take_row):
    state = Nimmt(bullheads=table).new_state(0, 4)
    state.rows = [[3, 8, 12, 19, 25], [30], [47, 50], [70, 71, 72, 73, 74]]
    state.hands = [[26, 90], [2, 91], [75, 92], [27, 93]]
    before = list(state.totals)
    state.apply({Request(s): c for s, c in enumerate([26, 2, 75, 27])})
    assert state.log[-1] == ["reveal", [26, 2, 75, 27]]
    assert state.to_act() == [Request(1)] and state.low_card() == (2, 1)
    if take_row is None:
        state.fault(Fault(1, Termination.TIMEOUT, "timeout", "seat 1 slept"))
    else:
        state.apply({Request(1): take_row})
    penalties = [after - b for after, b in zip(state.totals, before, strict=True)]
    return state.log[-2], " ".join(",".join(map(str, r)) for r in state.log[-1][1]), penalties


@pytest.mark.parametrize(
    ("table", "take_row", "chose", "rows", "penalties"),
    [
        ("classic", 0, ["chose", 1, 0], "2,26,27 30 47,50 75", [0, 6, 7, 0]),
        ("classic", 1, ["chose", 1, 1], "26,27 2 47,50 75", [6, 3, 7, 0]),
        ("classic", None, ["chose", 1, 1], "26,27 2 47,50 75", [6, 3, 7, 0]),
        ("gpcc", 0, ["chose", 1, 0], "2,26,27 30 47,50 75", [0, 5, 7, 0]),
        ("gpcc", None, ["chose", 1, 1], "26,27 2 47,50 75", [5, 3, 7, 0]),
    ],
)
def test_10_4_low_card_round(table, take_row, chose, rows, penalties):
    assert round_10_4(table, take_row) == (chose, rows, penalties)


# -- 10.5 several deals and target mode -------------------------------------------------------
def test_10_5_three_deals():
    state = Nimmt(deals=3).new_state(6, 2)
    play(state)
    assert deal_totals(state) == [[1, 11], [6, 30], [12, 41]]
    assert state.result().ranks == [1, 2] and state.deal == 3


def test_10_5_target_66():
    state = Nimmt(target=66, deals=2).new_state(6, 2)
    play(state)
    assert deal_totals(state) == [[1, 11], [6, 30], [12, 41], [24, 50], [33, 57], [42, 67]]
    assert state.result().ranks == [1, 2]


def test_10_5_three_players_classic_target():
    state = Nimmt(target=66, bullheads="classic").new_state(6, 3)
    play(state)
    starts = [" ".join(str(r[0]) for r in event[3]) for event in state.log if event[0] == "deal"]
    assert starts == ["100 15 31 82", "66 81 8 2", "33 54 32 30", "73 79 89 34", "29 103 100 36"]
    assert deal_totals(state) == [[26, 12, 8], [26, 31, 14], [40, 47, 31], [54, 52, 50], [61, 66, 56]]
    assert state.result().ranks == [2, 3, 1]


# -- 10.6 a fault with three players ----------------------------------------------------------
SEAT_1_10_6 = """
> GAME nimmt 3 1
> BULLHEADS gpcc
> MATCH deals 1
> DEAL 1
> HAND 9 10 30 50 51 75 80 89 90 104
> ROWS 100 15 31 82
> PLAY 1
< 9
> REVEAL 4 9 7
> CHOSE 0 1
> ROWS 100 4,7,9 31 82
> SCORES 1 0 0
> PLAY 2
< 10
> REVEAL 14 10 17
> ROWS 100 17 31 82
> SCORES 1 0 7
> PLAY 3
< 30
> REVEAL 22 30 21
> ROWS 100 17,21,22,30 31 82
> SCORES 1 0 7
> PLAY 4
< 50
> REVEAL 44 50 27
> CHOSE 2 2
> ROWS 100 50 27 82
> SCORES 1 15 8
"""


def test_10_6_state_level():
    state = Nimmt().new_state(6, 3)
    play(state, overriding({(0, 2): "7"}))
    result = state.result()
    assert state.faults[0]["moment"] == [1, 1, 1] and state.faults[0]["reason"] == "illegal"
    assert (result.scores, result.ranks, result.offenders) == ([10, 15, 20], [3, 1, 2], [0])
    assert result.termination == Termination.ILLEGAL_MOVE
    clean = Nimmt().new_state(6, 3)
    play(clean)
    assert clean.result().ranks == [1, 2, 3]


def test_10_6_wire():
    sent = play(Nimmt().new_state(6, 3), overriding({(0, 2): "7"}))
    result, received = wire(sent)
    assert result.ranks == [3, 1, 2]
    assert received[1].startswith(transcript_sent(SEAT_1_10_6))
    assert received[1].endswith("END 3 1 2\n")
    assert received[0].endswith("REVEAL 4 9 7\nTAKE 4\n")


# -- 10.7 early stop --------------------------------------------------------------------------
def test_10_7_early_stop():
    state = Nimmt().new_state(6, 2)
    sent = play(state, overriding({(1, 2): "105"}))
    result = state.result()
    assert state.faults[1]["moment"] == [1, 2, 0]
    assert (result.scores, result.ranks, result.offenders, result.reason_code) == ([1, 0], [1, 2], [1], "illegal")
    assert state.round == 2 and state.log[-1][0] == "round"
    result, received = wire(sent)
    assert received[0].endswith("SCORES 1 0\nPLAY 2\nEND 1 2\n")
    assert received[1].endswith("SCORES 1 0\nPLAY 2\n")


def test_early_stop_after_a_take_fault_sends_only_end():
    sent = play(Nimmt().new_state(6, 2), overriding({(0, 2): "x"}))
    result, received = wire(sent)
    assert result.ranks == [2, 1] and result.scores == [0, 0] and result.termination == Termination.BAD_OUTPUT
    assert received[1].endswith("PLAY 1\nREVEAL 4 9\nEND 2 1\n")


# -- 10.8 ranking -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("faults", "ranks"),
    [
        ({}, [3, 2, 3, 5, 1]),
        ({3: [1, 7, 1], 4: [1, 3, 0]}, [2, 1, 2, 4, 5]),
        ({2: [1, 3, 0], 4: [1, 3, 0]}, [2, 1, 4, 3, 4]),
    ],
)
def test_10_8_ranking(faults, ranks):
    state = Nimmt().new_state(0, 5)
    state.totals = [12, 7, 12, 30, 3]
    for seat, moment in faults.items():
        state.faults[seat] = {"termination": "TIMEOUT", "reason": "timeout", "detail": "", "moment": moment}
    assert state.ranks() == ranks


# -- replies and variants ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "value"), [("42", 42), ("07", 7), (" \t3 \r", 3), ("000000009", 9), ("123456789", 123456789)]
)
def test_8_5_well_formed_replies(line, value):
    assert parse_reply(line) == value


@pytest.mark.parametrize("line", ["", " ", "1 2", "+1", "-1", "x", "1234567890", "٣", "4\r\r", "1\x00"])
def test_8_5_malformed_replies(line):
    with pytest.raises(ParseError):
        parse_reply(line)


def test_7_1_timeouts_first_request_then_later():
    state = Nimmt(timeout_ms=100, first_timeout_ms=300).new_state(6, 2)
    assert state.time_allowance_ms(Request(0)) == 300
    assert state.charge_time(Request(0), 300) is None
    assert state.charge_time(Request(0), 301).reason_code == "timeout"
    state.apply({Request(0): 14, Request(1): 9})
    assert state.time_allowance_ms(Request(0)) == 100


@pytest.mark.parametrize("variant", [{"deals": 0}, {"target": -1}, {"bullheads": "gold"}, {"deals": True}])
def test_9_bad_variants_are_refused(variant):
    with pytest.raises(ValueError):
        Nimmt(**variant)


@pytest.mark.parametrize("seats", [1, 11])
def test_player_count_is_checked(seats):
    with pytest.raises(ValueError):
        Nimmt().new_state(0, seats)


def test_ten_players_use_the_whole_deck_and_states_round_trip():
    state = Nimmt(deals=2).new_state(123, 10)
    assert len({c for hand in state.hands for c in hand} | {r[0] for r in state.rows}) == 104
    play(state)
    assert type(state).from_json(state.to_json()).to_json() == state.to_json()
    assert sum(state.totals) > 0 and state.result().termination == Termination.NORMAL
