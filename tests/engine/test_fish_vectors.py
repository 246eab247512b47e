"""Every test vector of section 10 of rules/fish.md, at the state level and byte-exact on the wire.

State level: ``FishState`` driven by ``to_act``/``check``/``apply``/``fault`` with bots that play
like the fallback (7.3). Wire level: whole games through the real ``Referee`` with in-process bots
(``FishDriver``) that record every byte they receive, compared with the transcripts of 8.7, 10.6
and 10.7 pasted as written there.
"""

import re

import pytest
from pydantic import ValidationError

from engine.core import Fault, Request, Termination
from engine.fish import Fish
from engine.fish.board import CELLS, board_from_seed, board_rows, cell_index, neighbours
from engine.fish.observations import Move, Place
from engine.fish.protocol import FishDriver, FishReferee, end_lines, parse_reply
from engine.fish.rules import MOVE, PLACE, FishState
from engine.protocol import ParseError
from league.match.inprocess import InProcessTransport
from league.match.referee import Referee
from tests.engine.scripted import line_fault

REFEREE = FishReferee()


def fallback_choice(observation):
    """What the fallback policy (7.3) plays, computed from a bot's observation alone."""
    if observation.phase == PLACE:
        return observation.legal[0]
    best = max(observation.fish[cell_index(m.r2, m.c2)] for m in observation.legal)
    return next(m for m in observation.legal if observation.fish[cell_index(m.r2, m.c2)] == best)


class FallbackBot:
    """Plays like the fallback; its first ``len(first)`` replies are the given lines instead."""

    def __init__(self, first=()):
        self.first = list(first)

    def act(self, observation):
        return self.first.pop(0) if self.first else fallback_choice(observation)


class Recorded(InProcessTransport):
    """An in-process bot that keeps every byte the referee sent it."""

    def __init__(self, driver):
        super().__init__(driver)
        self.received = b""

    def send(self, data):
        if not self.closed:
            self.received += data
        super().send(data)


class Scripted(FishDriver):
    """A bot side whose replies are replaced by raw lines while ``raw`` lasts."""

    def __init__(self, bot, raw=()):
        super().__init__(bot)
        self.raw = list(raw)

    def feed(self, line):
        reply = super().feed(line)
        return self.raw.pop(0) if reply is not None and self.raw else reply


def play_wire(seed, players, raw=None):
    """A whole game through the Referee; per seat its bytes received, and the record."""
    raw = raw or {}
    seats = [Recorded(Scripted(FallbackBot(), raw.get(seat, ()))) for seat in range(players)]
    record = Referee(Fish(), [lambda key: seats[key.seat] for _ in seats], seed).play()
    return [seat.received.decode("ascii") for seat in seats], seats, record


def play_state(seed, players, **variant):
    state = Fish(**variant).new_state(seed, players)
    while not state.is_over():
        (request,) = state.to_act()
        action = fallback_choice(state.observation(request))
        assert state.check(request, action) is None
        state.apply({request: action})
    return state


def transcript(text):
    """The ``>`` lines of a transcript as the bytes the referee sends."""
    return "".join(line[2:] + "\n" for line in text.strip().splitlines() if line.startswith("> "))


# -- 10.1 and 10.2 ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ((0, 0), {"E": (0, 1), "SW": (1, 0), "SE": (1, 1)}),
        ((3, 0), {"E": (3, 1), "NE": (2, 0), "SE": (4, 0)}),
        ((3, 4), {"E": (3, 5), "W": (3, 3), "NE": (2, 4), "NW": (2, 3), "SE": (4, 4), "SW": (4, 3)}),
        ((4, 6), {"W": (4, 5), "NE": (3, 7), "NW": (3, 6), "SE": (5, 7), "SW": (5, 6)}),
        ((7, 7), {"W": (7, 6), "NW": (6, 6)}),
    ],
)
def test_10_1_neighbours(cell, expected):
    assert neighbours(*cell) == expected


BOARDS = {
    0: "1212222 11333111 3112211 32121211 1311221 23212113 1212112 21113213",
    1: "1311111 22131111 1121233 22211332 2221211 21212131 1122132 11123321",
    10: "1322312 22321221 2232111 11312231 1131121 11121111 3231212 11132112",
    2016: "2112112 12323211 1111223 32111112 3232331 12111121 1221111 22132132",
}


@pytest.mark.parametrize("seed", sorted(BOARDS))
def test_10_2_board_from_seed(seed):
    fish = board_from_seed(seed)
    assert " ".join(board_rows(fish)) == BOARDS[seed]
    assert [fish.count(n) for n in (1, 2, 3)] == [30, 20, 10] and len(fish) == CELLS
    assert Fish().new_state(seed, 3).fish == fish


# -- 10.3 a small position ----------------------------------------------------------------------
def position_10_3():
    rows = "1000003 00000000 0123000 01321200 0213000 00010000 2000002 00020001".split()
    penguins = [[(3, 2), (3, 4), (0, 6), (7, 7)], [(0, 0), (7, 3), (3, 5), (6, 6)]]
    state = FishState(
        players=2,
        penguins_per_player=4,
        fish=[int(digit) for digit in "".join(rows)],
        penguins=[[cell_index(*cell) for cell in seat] for seat in penguins],
        scores=[25, 42],
        tiles=[14, 28],
        phase=MOVE,
        turn=50,
        to_move=0,
    )
    state.advance()  # seat 0 just moved: seat 1's turn comes, and it is skipped
    return state


def test_10_3_legal_moves_and_skip():
    state = position_10_3()
    assert state.skips == [[1, 50]] and state.to_act() == [Request(0)]
    expected = "3 2 2 1, 3 2 2 2, 3 2 3 1, 3 2 3 3, 3 2 4 1, 3 2 4 2, 3 2 5 3, 3 4 2 3, 3 4 3 3, 3 4 4 3, 3 4 5 3"
    assert ", ".join(map(str, state.moves(0))) == expected
    assert state.moves(1) == []
    for move in state.moves(0):
        assert line_fault(REFEREE, state, Request(0), str(move)) is None


@pytest.mark.parametrize("answer", ["3 2 3 4", "3 4 3 1", "3 2 6 0", "3 2 2 3", "3 2 3 2", "0 6 0 5", "3 5 2 4"])
def test_10_3_illegal_answers(answer):
    fault = line_fault(REFEREE, position_10_3(), Request(0), answer)
    assert fault is not None and fault.termination == Termination.ILLEGAL_MOVE and fault.reason_code == "illegal"


def test_10_3_played_out():
    state = position_10_3()
    answers = ["3 4 2 3", "2 3 2 2", "2 2 4 3", "3 2 3 3", "4 3 4 1", "3 3 4 2", "4 1 3 1", "3 1 2 1", "4 2 5 3"]
    gains = [1, 3, 2, 3, 3, 2, 2, 1, 1]
    for answer, gain in zip(answers, gains, strict=True):
        assert state.to_act() == [Request(0)]
        assert str(state.fallback(0)) == answer
        before = state.scores[0]
        state.apply({Request(0): REFEREE.parse(state, Request(0), answer)})
        if not state.is_over():
            assert state.scores[0] - before == gain
    assert state.is_over() and state.turn == 59
    assert [skip[0] for skip in state.skips] == [1] * 9  # seat 1 skipped before each of seat 0's moves
    assert (state.scores, state.tiles) == ([49, 49], [27, 32])
    assert state.fish[cell_index(6, 0)] == 2  # no penguin on it: it scores for nobody
    result = state.result()
    assert result.ranks == [2, 1] and result.winner == 1 and result.termination == Termination.NORMAL
    assert end_lines(state) == "SCORES 49 49\nTILES 27 32\nEND 2 1\n"


# -- 10.4 a full two-player game ----------------------------------------------------------------
GAME_10_4 = """
 1 s0 @00         2 s1 @05         3 s0 @14         4 s1 @17         5 s0 @24         6 s1 @25
 7 s0 @26         8 s1 @30         9 s0 00>01 +1   10 s1 05>04 +1   11 s0 01>12 +3   12 s1 25>36 +1
13 s0 12>22 +3   14 s1 30>32 +1   15 s0 14>42 +1   16 s1 32>60 +3   17 s0 24>62 +1   18 s1 04>02 +3
19 s0 62>73 +3   20 s1 02>03 +2   21 s0 22>13 +3   22 s1 17>06 +1   23 s0 13>23 +2   24 s1 06>16 +2
25 s0 23>34 +2   26 s1 16>15 +2   27 s0 34>35 +2   28 s1 36>45 +3   29 s0 42>53 +3   30 s1 45>64 +2
31 s0 53>74 +2   32 s1 60>61 +3   33 s0 74>77 +2   34 s1 64>66 +2   35 s0 26>37 +1   36 s1 61>40 +2
37 s0 35>44 +2   38 s1 40>21 +1   39 s0 37>46 +1   40 s1 21>11 +2   41 s0 44>43 +1   42 s1 11>10 +2
43 s0 43>33 +1   44 s1 10>20 +2   45 s0 46>56 +1   46 s1 20>31 +2   47 s0 56>54 +1   48 s1 31>41 +1
49 s0 54>55 +1   50 s1 41>51 +1   51 s0 55>65 +1   52 s1 51>50 +1   53 s0 65>75 +1   54 s1 66>57 +2
55 s0 73>63 +3      (s1 skipped)   56 s0 75>76 +1
"""


def entries_10_4():
    """(turn, seat, log entry, fish gained) of each entry of 10.4."""
    found = []
    for t, seat, place, move, gain in re.findall(r"(\d+) s(\d) (?:@(\d\d)|(\d\d)>(\d\d) \+\d)", GAME_10_4):
        found.append((int(t), int(seat), place, move, gain))
    entries = []
    for t, seat, place, start, end in found:
        cells = [place] if place else [start, end]
        entries.append((t, [seat, *(int(digit) for cell in cells for digit in cell)]))
    gains = [int(g) for g in re.findall(r"\+(\d)", GAME_10_4)]
    return entries, gains


def test_10_4_full_game_state_level():
    state = play_state(10, 2)
    entries, gains = entries_10_4()
    assert [t for t, _ in entries] == list(range(1, 57))
    assert state.log == [entry for _, entry in entries]
    assert state.skips == [[1, 55]]
    fish = board_from_seed(10)
    assert [fish[cell_index(entry[1], entry[2])] for entry in state.log[8:]] == gains
    movers = [entry[0] for _, entry in entries[8:]]
    before_credit = [sum(g for g, s in zip(gains, movers, strict=True) if s == seat) for seat in (0, 1)]
    assert before_credit == [43, 42] and [movers.count(seat) for seat in (0, 1)] == [25, 23]
    assert (state.scores, state.tiles) == ([48, 48], [29, 27])
    result = state.result()
    assert (result.ranks, result.plies, result.reason_code) == ([1, 2], 56, "no_move")
    assert result.extra == {"tiles": [29, 27], "end": "no_move", "faults": []}
    assert FishState.from_json(state.to_json()) == state


EXAMPLE_8_7_START = """
> GAME fish 2 1
> PENGUINS 4
> BOARD 1322312 22321221 2232111 11312231 1131121 11121111 3231212 11132112
> PLACED 0 0 0
> PLACE
< 0 5
> PLACED 1 0 5
> PLACED 0 1 4
> PLACE
< 1 7
> PLACED 1 1 7
> PLACED 0 2 4
> PLACE
< 2 5
> PLACED 1 2 5
> PLACED 0 2 6
> PLACE
< 3 0
> PLACED 1 3 0
> MOVED 0 0 0 0 1
> MOVE
< 0 5 0 4
> MOVED 1 0 5 0 4
"""

EXAMPLE_8_7_END = """
> MOVE
< 6 6 5 7
> MOVED 1 6 6 5 7
> MOVED 0 7 3 6 3
> MOVED 0 7 5 7 6
> SCORES 48 48
> TILES 29 27
> END 1 2
"""


def test_10_4_full_game_on_the_wire():
    received, seats, record = play_wire(10, 2)
    assert received[1].startswith(transcript(EXAMPLE_8_7_START))
    assert received[1].endswith(transcript(EXAMPLE_8_7_END))
    assert received[0].startswith("GAME fish 2 0\nPENGUINS 4\nBOARD " + BOARDS[10] + "\nPLACE\nPLACED 0 0 0\n")
    assert received[0].endswith("MOVED 0 7 5 7 6\nSCORES 48 48\nTILES 29 27\nEND 1 2\n")
    for seat in (0, 1):  # the bot side tracked the game from the lines alone
        assert seats[seat].driver.final == {"SCORES": [48, 48], "TILES": [29, 27], "END": [1, 2]}
        assert seats[seat].driver.state.scores == [48, 48]
    assert (record.result.ranks, record.result.plies) == ([1, 2], 56)
    assert record.final_state["log"] == play_state(10, 2).log


# -- 10.5 more whole games ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("seed", "players", "fish", "tiles", "ranks", "turns", "skips"),
    [
        (19, 2, [48, 48], [28, 28], [1, 1], 56, []),
        (21, 2, [49, 49], [29, 29], [1, 1], 58, []),
        (2016, 2, [43, 48], [23, 30], [2, 1], 53, [[0, t] for t in range(46, 53)]),
        (2016, 3, [36, 34, 28], [21, 20, 17], [1, 2, 3], 58, [[2, 53], [2, 55], [2, 57]]),
        (2016, 4, [27, 21, 24, 20], [14, 13, 12, 13], [1, 3, 2, 4], 52, [[2, 50]]),
    ],
)
def test_10_5_whole_games(seed, players, fish, tiles, ranks, turns, skips):
    state = play_state(seed, players)
    assert (state.scores, state.tiles, state.turn, state.skips) == (fish, tiles, turns, skips)
    assert state.result().ranks == ranks
    assert state.turn == sum(state.tiles)  # every tile collected was left by a move or credited at the end


@pytest.mark.parametrize("players", [2, 3, 4])
def test_10_5_on_the_wire_agrees(players):
    received, _, record = play_wire(2016, players)
    state = play_state(2016, players)
    end = end_lines(state)
    assert all(text.endswith(end) for text in received)
    assert record.result.ranks == state.result().ranks and record.result.offenders == []


# -- 10.6 a fault with three players: the game goes on ------------------------------------------
TRANSCRIPT_10_6 = """
> GAME fish 3 1
> PENGUINS 3
> BOARD 2112112 12323211 1111223 32111112 3232331 12111121 1221111 22132132
> PLACED 0 0 1
> PLACE
< 0 2
> PLACED 1 0 2
> PLACED 2 0 4
> PLACED 0 0 5
"""


def test_10_6_fault_state_level():
    state = Fish().new_state(2016, 3)
    fault = line_fault(REFEREE, state, Request(0), "9 9")
    assert fault is not None and fault.termination == Termination.ILLEGAL_MOVE
    state.fault(fault)
    assert state.log == [[0, 0, 1]] and state.to_act() == [Request(1)]
    assert {key.seat for key in state.processes()} == {1, 2}
    while not state.is_over():
        (request,) = state.to_act()
        assert request.seat != 0
        state.apply({request: fallback_choice(state.observation(request))})
    assert state.log == play_state(2016, 3).log
    result = state.result()
    assert (result.scores, result.extra["tiles"], result.ranks) == ([36, 34, 28], [21, 20, 17], [3, 1, 2])
    assert (result.offenders, result.termination, result.reason_code) == ([0], Termination.ILLEGAL_MOVE, "illegal")
    assert result.extra["faults"] == [{"seat": 0, "kind": "illegal", "turn": 1}]


def test_10_6_fault_on_the_wire():
    received, _, record = play_wire(2016, 3, raw={0: ["9 9"]})
    assert received[1].startswith(transcript(TRANSCRIPT_10_6))
    assert received[0] == "GAME fish 3 0\nPENGUINS 3\nBOARD " + BOARDS[2016] + "\nPLACE\n"
    for seat in (1, 2):
        assert received[seat].endswith("SCORES 36 34 28\nTILES 21 20 17\nEND 3 1 2\n")
    assert record.result.ranks == [3, 1, 2] and record.result.offenders == [0]


# -- 10.7 early stop with two players -----------------------------------------------------------
TRANSCRIPT_10_7 = """
> GAME fish 2 0
> PENGUINS 4
> BOARD 2112112 12323211 1111223 32111112 3232331 12111121 1221111 22132132
> PLACE
< 0 1
> PLACED 0 0 1
> SCORES 0 0
> TILES 0 0
> END 1 2
"""


def test_10_7_early_stop():
    received, _, record = play_wire(2016, 2, raw={1: ["x y"]})
    assert received[0] == transcript(TRANSCRIPT_10_7)
    assert received[1] == "GAME fish 2 1\nPENGUINS 4\nBOARD " + BOARDS[2016] + "\nPLACED 0 0 1\nPLACE\n"
    result = record.result
    assert (result.scores, result.ranks, result.offenders, result.plies) == ([0, 0], [1, 2], [1], 1)
    assert result.termination == Termination.BAD_OUTPUT and result.extra["end"] == "early_stop"
    assert result.extra["faults"] == [{"seat": 1, "kind": "bad_output", "turn": 2}]
    assert record.final_state["log"] == [[0, 0, 1]]  # the faulted turn's placement was not made


# -- 10.8 ranking -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("fish", "tiles", "faults", "ranks"),
    [
        ([49, 49], [27, 32], [], [2, 1]),
        ([48, 48, 40], [28, 28, 30], [], [1, 1, 3]),
        ([30, 35, 35, 20], [20, 19, 19, 10], [(3, 14)], [3, 1, 1, 4]),
        ([30, 35, 35, 20], [20, 19, 19, 10], [(1, 9), (2, 30)], [1, 4, 3, 2]),
    ],
)
def test_10_8_ranking(fish, tiles, faults, ranks):
    state = FishState(players=len(fish), scores=fish, tiles=tiles)
    state.faults = [{"seat": seat, "kind": "illegal", "turn": turn} for seat, turn in faults]
    assert state.ranks() == ranks


# -- the reply grammar (8.5), timing (8.6) and variant keys (9) ---------------------------------
@pytest.mark.parametrize(
    ("line", "phase", "action"),
    [
        ("3 5", PLACE, Place(3, 5)),
        ("\t 03  5 \r", PLACE, Place(3, 5)),
        ("3 2 5 3", MOVE, Move(3, 2, 5, 3)),
        ("000000003\t2 5 3", MOVE, Move(3, 2, 5, 3)),
    ],
)
def test_reply_grammar_accepts(line, phase, action):
    assert parse_reply(line, phase) == action


@pytest.mark.parametrize(
    ("line", "phase"),
    [
        ("", PLACE),
        ("3", PLACE),
        ("3 5 1", PLACE),
        ("+3 5", PLACE),
        ("3,5", PLACE),
        ("3 2 -> 5 3", MOVE),
        ("3 5", MOVE),
        ("1234567890 1", PLACE),
        ("3 5\r\r", PLACE),
        ("３ 5", PLACE),
    ],
)
def test_reply_grammar_refuses(line, phase):
    with pytest.raises(ParseError):
        parse_reply(line, phase)


def test_off_board_numbers_are_illegal_not_bad_output():
    state = Fish().new_state(0, 2)
    assert line_fault(REFEREE, state, Request(0), "999999999 0").termination == Termination.ILLEGAL_MOVE
    assert line_fault(REFEREE, state, Request(0), "0 7").termination == Termination.ILLEGAL_MOVE  # row 0 has 7


def test_first_request_has_the_first_timeout():
    state = Fish(timeout_ms=100, first_timeout_ms=300).new_state(0, 2)
    assert state.time_allowance_ms(Request(0)) == 300 and state.charge_time(Request(0), 300) is None
    state.apply({Request(0): state.fallback(0)})
    assert state.time_allowance_ms(Request(1)) == 300
    state.apply({Request(1): state.fallback(1)})
    assert state.time_allowance_ms(Request(0)) == 100
    fault = state.charge_time(Request(0), 101)
    assert isinstance(fault, Fault) and fault.termination == Termination.TIMEOUT and fault.reason_code == "timeout"


def test_variant_keys():
    assert Fish().variant() == {"penguins": "auto", "timeout_ms": 1000, "first_timeout_ms": 5000}
    assert [Fish().new_state(0, n).penguins_per_player for n in (2, 3, 4)] == [4, 3, 2]
    state = play_state(0, 3, penguins=1)
    assert state.penguins_per_player == 1 and all(len(cells) == 1 for cells in state.penguins)
    for bad in ({"penguins": 0}, {"penguins": 5}, {"penguins": True}, {"penguins": "two"}, {"timeout_ms": 0}):
        with pytest.raises(ValidationError):
            Fish(**bad)
    with pytest.raises(ValueError, match="2 to 4"):
        Fish().new_state(0, 5)


def test_render_and_json_round_trip():
    state = position_10_3()
    data = state.to_json()
    assert FishState.from_json(data) == state
    picture = Fish().render(data).splitlines()
    assert picture[0] == "r0:    b1    .     .     .     .     .     a3"
    assert picture[3] == "r3: .     1     a3    2     a1    b2    .     ."
