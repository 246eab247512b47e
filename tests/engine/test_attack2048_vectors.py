"""Every test vector of section 9 of rules/attack2048.md, checked against the engine.

Boards in the vectors are tile VALUES written as four rows ``a b c d / ...`` (top row first);
the engine holds exponents, so ``board()`` converts. Cells are ``(x, y)`` = (column, row). A reply
is judged the referee's way (league/match/referee.py ``Referee._judge``): time first, then the stream,
then the form (``parse``; a ParseError is ``bad_output``), then the rules (``state.check``).
Whole halves are also played through the real ``Referee`` with four scripted in-process
processes, to check the exact bytes each process receives, ``quit`` included.
"""

import hashlib

import pytest

from engine.attack2048 import Attack2048
from engine.attack2048.protocol import Attack2048Driver, Attack2048Referee, encode_board
from engine.attack2048.rules import (
    BAD_OUTPUT,
    EQUAL_SCORE,
    ILLEGAL_MOVE,
    SCORE,
    TIMEOUT,
    Attack2048Observation,
    Placement,
    Slide,
    random_two_cells,
)
from engine.core import ProcessKey, Request, Termination
from engine.protocol import ParseError
from engine.slide import square
from league.match.referee import Referee
from tests.engine.scripted import EOF, LEGAL, RecordingBot, ScriptedTransport

REFEREE = Attack2048Referee()
GEOMETRY = square(4)
WORDS = {"north": "U", "east": "R", "south": "D", "west": "L"}


# -- helpers ----------------------------------------------------------------------------------
def board(text):
    """Exponents from a board of values written ``a b c d / e f g h / ...``."""
    values = [int(token) for token in text.replace("/", " ").split()]
    assert len(values) == 16
    return tuple(value.bit_length() - 1 if value else 0 for value in values)


def shown(exponents):
    """A board of exponents written as values, rows separated by `` / ``."""
    values = [1 << e if e else 0 for e in exponents]
    return " / ".join(" ".join(map(str, values[row * 4 : row * 4 + 4])) for row in range(4))


def new_state(seed=0, **variant):
    return Attack2048(**variant).new_state(seed)


def state_with(text, role, **variant):
    """A half-1 state whose board is ``text`` and where ``role`` is to move."""
    state = new_state(**variant)
    state.board = board(text)
    state.to_move = role
    return state


def judge(state, line):
    """The reason code of a reply line received in time, or LEGAL."""
    (request,) = state.to_act()
    try:
        action = REFEREE.parse(state, request, line)
    except ParseError:
        return BAD_OUTPUT
    fault = state.check(request, action)
    return LEGAL if fault is None else fault.reason_code


def play(state, line):
    """Apply a reply that must be legal."""
    (request,) = state.to_act()
    code = judge(state, line)
    assert code == LEGAL, f"{line!r} should be legal, got {code}"
    state.apply({request: REFEREE.parse(state, request, line)})


def slide_values(text, word):
    outcome = GEOMETRY.slide(board(text), WORDS[word])
    return shown(outcome.board), outcome.merges, outcome.gain


# -- 9.1 Single lines ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("before", "word", "after", "merges", "gain"),
    [
        ("2 2 2 0", "west", "4 2 0 0", 1, 4),
        ("2 2 2 0", "east", "0 0 2 4", 1, 4),
        ("0 2 2 2", "west", "4 2 0 0", 1, 4),
        ("2 2 2 2", "west", "4 4 0 0", 2, 8),
        ("2 2 2 2", "east", "0 0 4 4", 2, 8),
        ("8 8 8 8", "east", "0 0 16 16", 2, 32),
        ("4 4 8 8", "west", "8 16 0 0", 2, 24),
        ("2 2 4 4", "east", "0 0 4 8", 2, 12),
        ("2 2 4 0", "west", "4 4 0 0", 1, 4),
        ("4 2 2 0", "west", "4 4 0 0", 1, 4),
        ("4 0 4 4", "west", "8 4 0 0", 1, 8),
        ("2 0 0 2", "east", "0 0 0 4", 1, 4),
        ("2 4 2 4", "west", "2 4 2 4", 0, 0),
        ("2 4 0 0", "west", "2 4 0 0", 0, 0),
        ("0 0 2 4", "east", "0 0 2 4", 0, 0),
    ],
)
def test_9_1_single_lines(before, word, after, merges, gain):
    rest = " / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"
    assert slide_values(before + rest, word) == (after + rest, merges, gain)


@pytest.mark.parametrize("before", ["2 4 2 4", "2 4 0 0"])
def test_9_1_unchanged_lines_are_illegal_slides(before):
    state = state_with(before + " / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", "defend")
    assert judge(state, "west") == ILLEGAL_MOVE


def test_9_1_unchanged_east_line_is_illegal():
    state = state_with("0 0 2 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", "defend")
    assert judge(state, "east") == ILLEGAL_MOVE


@pytest.mark.parametrize(
    ("word", "after"),
    [("north", "4 0 0 0 / 2 0 0 0 / 0 0 0 0 / 0 0 0 0"), ("south", "0 0 0 0 / 0 0 0 0 / 2 0 0 0 / 4 0 0 0")],
)
def test_9_1_column(word, after):
    assert slide_values("2 0 0 0 / 2 0 0 0 / 2 0 0 0 / 0 0 0 0", word) == (after, 1, 4)


# -- 9.2 Whole board ----------------------------------------------------------------------------
WHOLE = "2 2 4 8 / 2 0 4 8 / 4 4 4 4 / 0 2 2 2"


@pytest.mark.parametrize(
    ("word", "after", "merges", "gain"),
    [
        ("north", "4 2 8 16 / 4 4 4 4 / 0 2 2 2 / 0 0 0 0", 3, 28),
        ("east", "0 4 4 8 / 0 2 4 8 / 0 0 8 8 / 0 0 2 4", 4, 24),
        ("south", "0 0 0 0 / 0 2 4 16 / 4 4 8 4 / 4 2 2 2", 3, 28),
        ("west", "4 4 8 0 / 2 4 8 0 / 8 8 0 0 / 4 2 0 0", 4, 24),
    ],
)
def test_9_2_whole_board(word, after, merges, gain):
    assert slide_values(WHOLE, word) == (after, merges, gain)


def test_9_2_whole_board_slide_scores_through_the_state():
    state = state_with(WHOLE, "defend")
    play(state, "north")
    assert state.score == 28
    assert shown(state.board) == "4 2 8 16 / 4 4 4 4 / 0 2 2 2 / 0 0 0 0"


# -- 9.3 Stuck and not stuck --------------------------------------------------------------------
CHECKER = "4 2 4 2 / 2 4 2 4 / 4 2 4 2 / 2 4 2 4"


@pytest.mark.parametrize("text", [CHECKER, "2 4 8 16 / 32 64 128 256 / 512 1024 2048 4096 / 8192 16384 32768 65536"])
def test_9_3_stuck(text):
    assert not GEOMETRY.can_move(board(text))
    assert GEOMETRY.effective_moves(board(text)) == {}


def test_9_3_stuck_after_a_placement_ends_the_half_and_the_defender_is_not_asked():
    state = state_with("4 2 4 2 / 2 4 2 4 / 4 2 4 2 / 2 4 2 0", "attack")
    play(state, "3 3 4")
    assert state.halves[0]["end"] == "stuck"
    assert state.half == 2 and state.to_act() == [Request(1, "attack")]


@pytest.mark.parametrize(
    ("word", "after"),
    [
        ("north", "4 2 4 2 / 2 4 2 4 / 4 2 4 4 / 2 4 2 0"),
        ("east", "4 2 4 2 / 2 4 2 4 / 4 2 4 2 / 0 2 4 4"),
        ("south", "4 2 4 0 / 2 4 2 2 / 4 2 4 4 / 2 4 2 4"),
        ("west", "4 2 4 2 / 2 4 2 4 / 4 2 4 2 / 2 4 4 0"),
    ],
)
def test_9_3_full_but_not_stuck(word, after):
    text = "4 2 4 2 / 2 4 2 4 / 4 2 4 2 / 2 4 2 2"
    assert GEOMETRY.can_move(board(text))
    assert slide_values(text, word) == (after, 1, 4)
    assert judge(state_with(text, "defend"), word) == LEGAL


# -- 9.4 Attacker replies -----------------------------------------------------------------------
ONE_TWO = "2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"


@pytest.mark.parametrize(
    ("line", "expected", "placed"),
    [
        ("0 3 2", LEGAL, (0, 3, 2)),
        ("1 0 4", LEGAL, (1, 0, 4)),
        ("  1   0\t4 ", LEGAL, (1, 0, 4)),
        ("1 0 4\r", LEGAL, (1, 0, 4)),
        ("+1 00 4", LEGAL, (1, 0, 4)),
        ("0 0 2", ILLEGAL_MOVE, None),
        ("4 0 2", ILLEGAL_MOVE, None),
        ("-1 0 2", ILLEGAL_MOVE, None),
        ("1 0 8", ILLEGAL_MOVE, None),
        ("1 0 3", ILLEGAL_MOVE, None),
        ("1 0", BAD_OUTPUT, None),
        ("1 0 2 0", BAD_OUTPUT, None),
        ("a b c", BAD_OUTPUT, None),
        ("1 0 2.0", BAD_OUTPUT, None),
        ("1,0,2", BAD_OUTPUT, None),
        ("1 0 2\x00", BAD_OUTPUT, None),
        ("1 0 \xe9", BAD_OUTPUT, None),
        ("1 0\x0b2", BAD_OUTPUT, None),
    ],
)
def test_9_4_attacker_replies(line, expected, placed):
    state = state_with(ONE_TWO, "attack")
    assert judge(state, line) == expected
    if placed is not None:
        x, y, value = placed
        assert REFEREE.parse(state, Request(0, "attack"), line) == Placement(x, y, value)
        play(state, line)
        assert state.board[4 * y + x] == value.bit_length() - 1


def test_9_4_four_is_illegal_with_tiles_2_only():
    state = state_with(ONE_TWO, "attack", tiles=[2])
    assert judge(state, "1 0 4") == ILLEGAL_MOVE
    assert "tiles [2]" in state.check(Request(0, "attack"), Placement(1, 0, 4)).detail
    assert judge(state, "1 0 2") == LEGAL


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("0 0 2", ["cell (0,0) is occupied", "holds a 2", "seat 0 (attacker in half 1)"]),
        ("4 0 2", ["cell (4,0) is off the board"]),
        ("1 0 8", ["value 8 is not a tile"]),
    ],
)
def test_9_4_illegal_details_can_be_acted_on(line, words):
    state = state_with(ONE_TWO, "attack")
    fault = state.check(Request(0, "attack"), REFEREE.parse(state, Request(0, "attack"), line))
    for word in words:
        assert word in fault.detail


def test_9_4_line_over_1024_bytes_is_bad_output_through_the_referee():
    script = Script({(0, "attack", 1): [b"0 0 2" + b" " * 1020 + b"\n"]})
    record = script.play()
    assert len(b"0 0 2" + b" " * 1020) == 1025
    assert (record.result.termination, record.result.reason_code) == (Termination.BAD_OUTPUT, BAD_OUTPUT)
    ok = Script({(0, "attack", 1): [b"0 0 2" + b" " * 1019 + b"\n"]}).play()
    assert ok.result.extra["halves"][0]["plies"] == 1, "1024 bytes is still a line; the defender is asked next"


# -- 9.5 Defender replies -----------------------------------------------------------------------
LONE = "0 0 0 0 / 0 0 0 0 / 0 0 0 0 / 2 0 0 0"


@pytest.mark.parametrize(
    ("line", "expected", "after"),
    [
        ("north", LEGAL, "2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"),
        ("North", LEGAL, "2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"),
        ("NORTH", LEGAL, "2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"),
        ("n", LEGAL, "2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"),
        ("up", LEGAL, "2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"),
        ("U", LEGAL, "2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"),
        ("east", LEGAL, "0 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 2"),
        ("R", LEGAL, "0 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 2"),
        ("right", LEGAL, "0 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 2"),
        ("south", ILLEGAL_MOVE, None),
        ("D", ILLEGAL_MOVE, None),
        ("down", ILLEGAL_MOVE, None),
        ("west", ILLEGAL_MOVE, None),
        ("L", ILLEGAL_MOVE, None),
        ("left", ILLEGAL_MOVE, None),
        ("northeast", BAD_OUTPUT, None),
        ("north east", BAD_OUTPUT, None),
        ("0", BAD_OUTPUT, None),
        ("north\r", LEGAL, "2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"),
        ("\tnorth  ", LEGAL, "2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"),
    ],
)
def test_9_5_defender_replies(line, expected, after):
    state = state_with(LONE, "defend")
    assert judge(state, line) == expected
    if after is not None:
        play(state, line)
        assert shown(state.board) == after


def test_9_5_every_alias():
    aliases = {"U": "north n up u", "R": "east e right r", "D": "south s down d", "L": "west w left l"}
    for direction, words in aliases.items():
        for word in words.split():
            for written in (word, word.upper(), word.capitalize()):
                assert REFEREE.parse(None, Request(1, "defend"), written) == Slide(direction)


def test_9_5_no_change_detail_names_the_direction():
    state = state_with(LONE, "defend")
    fault = state.check(Request(1, "defend"), Slide("D"))
    assert "slide south changes nothing" in fault.detail and "seat 1 (defender in half 1)" in fault.detail


# -- 9.6 4-tile allowance -----------------------------------------------------------------------
def test_9_6_four_every_twos_2():
    state = new_state(four_every_twos=2)
    play(state, "0 0 2")
    assert (state.twos, state.credits) == (1, 0)
    play(state, "east")
    assert shown(state.board).startswith("0 0 0 2 /")
    play(state, "0 0 2")
    assert (state.twos, state.credits) == (2, 1)
    play(state, "south")
    assert shown(state.board) == "0 0 0 0 / 0 0 0 0 / 0 0 0 0 / 2 0 0 2"
    play(state, "0 0 4")
    assert state.credits == 0
    play(state, "east")
    assert shown(state.board) == "0 0 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 4" and state.score == 4
    play(state, "0 0 2")
    assert (state.twos, state.credits) == (3, 0)
    play(state, "south")
    assert shown(state.board) == "0 0 0 0 / 0 0 0 0 / 0 0 0 0 / 2 0 0 8" and state.score == 12
    assert judge(state, "1 1 4") == ILLEGAL_MOVE
    assert "no 4-credit" in state.check(Request(0, "attack"), Placement(1, 1, 4)).detail


def test_9_6_four_on_new_max():
    state = new_state(four_on_new_max=True)
    play(state, "0 0 2")
    play(state, "east")
    assert shown(state.board).startswith("0 0 0 2 /") and state.credits == 0
    play(state, "0 0 2")
    play(state, "east")
    assert shown(state.board).startswith("0 0 0 4 /") and state.score == 4 and state.credits == 1
    play(state, "0 0 4")
    assert state.credits == 0
    play(state, "east")
    assert shown(state.board).startswith("0 0 0 8 /") and state.score == 12 and state.credits == 1
    assert judge(state, "0 0 4") == LEGAL


def test_9_6_a_placed_4_never_earns_a_credit():
    state = new_state(four_on_new_max=True)
    assert judge(state, "0 0 4") == ILLEGAL_MOVE
    play(state, "0 0 2")
    play(state, "east")
    assert state.credits == 0


def test_9_6_four_limit_1():
    state = new_state(four_limit=1)
    play(state, "0 0 4")
    play(state, "east")
    assert judge(state, "0 0 4") == ILLEGAL_MOVE
    assert "limit of 1" in state.check(Request(0, "attack"), Placement(0, 0, 4)).detail


def test_9_6_four_limit_1_with_four_every_twos_1():
    state = new_state(four_limit=1, four_every_twos=1)
    play(state, "0 0 2")
    assert state.credits == 1
    play(state, "east")
    play(state, "0 0 2")
    assert state.credits == 2
    play(state, "south")
    play(state, "0 0 4")
    assert (state.fours, state.credits) == (1, 1)
    play(state, "south")
    assert state.board[3] == 0, "(3,0) is empty: the fault below is the limit, not an occupied cell"
    assert judge(state, "3 0 4") == ILLEGAL_MOVE
    assert "limit of 1" in state.check(Request(0, "attack"), Placement(3, 0, 4)).detail


def test_9_6_four_limit_0_plays_like_tiles_2():
    state = new_state(four_limit=0)
    assert judge(state, "0 0 4") == ILLEGAL_MOVE
    assert judge(state, "0 0 2") == LEGAL


def test_9_6_four_keys_are_ignored_with_tiles_2():
    state = new_state(tiles=[2], four_every_twos=1)
    play(state, "0 0 2")
    assert state.credits == 0
    play(state, "east")
    assert judge(state, "0 0 4") == ILLEGAL_MOVE


def test_9_6_counters_do_not_carry_over_to_half_2():
    state = new_state(four_every_twos=1, max_plies_per_half=1)
    play(state, "0 0 2")
    assert state.half == 2 and (state.twos, state.fours, state.credits) == (0, 0, 0)
    assert judge(state, "0 0 4") == ILLEGAL_MOVE


# -- 9.7 A complete half ------------------------------------------------------------------------
# (role, reply, board after the ply, defender score) for plies 1..33.
HALF_9_7 = [
    ("A", "0 3 2", "0 0 0 0 / 0 0 0 0 / 0 0 0 0 / 2 0 0 0", 0),
    ("D", "north", "2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", 0),
    ("A", "0 3 2", "2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 2 0 0 0", 0),
    ("D", "north", "4 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0", 4),
    ("A", "0 3 2", "4 0 0 0 / 0 0 0 0 / 0 0 0 0 / 2 0 0 0", 4),
    ("D", "north", "4 0 0 0 / 2 0 0 0 / 0 0 0 0 / 0 0 0 0", 4),
    ("A", "0 3 4", "4 0 0 0 / 2 0 0 0 / 0 0 0 0 / 4 0 0 0", 4),
    ("D", "north", "4 0 0 0 / 2 0 0 0 / 4 0 0 0 / 0 0 0 0", 4),
    ("A", "1 3 2", "4 0 0 0 / 2 0 0 0 / 4 0 0 0 / 0 2 0 0", 4),
    ("D", "north", "4 2 0 0 / 2 0 0 0 / 4 0 0 0 / 0 0 0 0", 4),
    ("A", "1 3 4", "4 2 0 0 / 2 0 0 0 / 4 0 0 0 / 0 4 0 0", 4),
    ("D", "north", "4 2 0 0 / 2 4 0 0 / 4 0 0 0 / 0 0 0 0", 4),
    ("A", "1 3 2", "4 2 0 0 / 2 4 0 0 / 4 0 0 0 / 0 2 0 0", 4),
    ("D", "north", "4 2 0 0 / 2 4 0 0 / 4 2 0 0 / 0 0 0 0", 4),
    ("A", "2 3 4", "4 2 0 0 / 2 4 0 0 / 4 2 0 0 / 0 0 4 0", 4),
    ("D", "north", "4 2 4 0 / 2 4 0 0 / 4 2 0 0 / 0 0 0 0", 4),
    ("A", "2 3 2", "4 2 4 0 / 2 4 0 0 / 4 2 0 0 / 0 0 2 0", 4),
    ("D", "north", "4 2 4 0 / 2 4 2 0 / 4 2 0 0 / 0 0 0 0", 4),
    ("A", "2 3 4", "4 2 4 0 / 2 4 2 0 / 4 2 0 0 / 0 0 4 0", 4),
    ("D", "north", "4 2 4 0 / 2 4 2 0 / 4 2 4 0 / 0 0 0 0", 4),
    ("A", "3 3 2", "4 2 4 0 / 2 4 2 0 / 4 2 4 0 / 0 0 0 2", 4),
    ("D", "north", "4 2 4 2 / 2 4 2 0 / 4 2 4 0 / 0 0 0 0", 4),
    ("A", "3 3 4", "4 2 4 2 / 2 4 2 0 / 4 2 4 0 / 0 0 0 4", 4),
    ("D", "north", "4 2 4 2 / 2 4 2 4 / 4 2 4 0 / 0 0 0 0", 4),
    ("A", "3 3 2", "4 2 4 2 / 2 4 2 4 / 4 2 4 0 / 0 0 0 2", 4),
    ("D", "north", "4 2 4 2 / 2 4 2 4 / 4 2 4 2 / 0 0 0 0", 4),
    ("A", "3 3 2", "4 2 4 2 / 2 4 2 4 / 4 2 4 2 / 0 0 0 2", 4),
    ("D", "west", "4 2 4 2 / 2 4 2 4 / 4 2 4 2 / 2 0 0 0", 4),
    ("A", "3 3 4", "4 2 4 2 / 2 4 2 4 / 4 2 4 2 / 2 0 0 4", 4),
    ("D", "west", "4 2 4 2 / 2 4 2 4 / 4 2 4 2 / 2 4 0 0", 4),
    ("A", "3 3 2", "4 2 4 2 / 2 4 2 4 / 4 2 4 2 / 2 4 0 2", 4),
    ("D", "west", "4 2 4 2 / 2 4 2 4 / 4 2 4 2 / 2 4 2 0", 4),
    ("A", "3 3 4", "4 2 4 2 / 2 4 2 4 / 4 2 4 2 / 2 4 2 4", 4),
]
ATTACKS_9_7 = [reply for role, reply, _, _ in HALF_9_7 if role == "A"]
SLIDES_9_7 = [reply for role, reply, _, _ in HALF_9_7 if role == "D"]
ATTACKS_9_8 = "0 3 2,0 3 4,0 3 2,1 3 4,1 3 2,1 3 4,2 3 2,2 3 4,2 3 2,3 3 4,3 3 2,3 3 4,3 3 4,3 3 2,3 3 4,3 3 2"
ATTACKS_9_8 = ATTACKS_9_8.split(",")
SLIDES_9_8 = ["north"] * 12 + ["west"] * 3
EMPTY_REQUEST = b"game\n0 0 0 0 \n0 0 0 0 \n0 0 0 0 \n0 0 0 0 \n"
QUIT = b"quit\n"


def test_9_7_every_ply_of_the_half():
    state = new_state()
    for ply, (role, reply, after, score) in enumerate(HALF_9_7, start=1):
        assert state.half == 1 and state.to_act() == [
            Request(0 if role == "A" else 1, "attack" if role == "A" else "defend")
        ]
        play(state, reply)
        if ply < 33:
            assert (shown(state.board), state.score, state.plies) == (after, score, ply), f"ply {ply}"
    assert state.halves == [
        {"half": 1, "attacker": 0, "defender": 1, "score": 4, "plies": 33, "end": "stuck", "twos": 10, "fours": 7}
    ]
    assert state.half == 2 and state.to_act() == [Request(1, "attack")] and state.board == board("0 0 0 0 " * 4)


def test_9_7_request_bytes_are_the_board_after_the_previous_ply():
    assert encode_board(board("0 0 0 0 " * 4)) == EMPTY_REQUEST.decode()
    assert encode_board(board(LONE)) == "game\n0 0 0 0 \n0 0 0 0 \n0 0 0 0 \n2 0 0 0 \n"
    assert encode_board(board("2 4 8 16 / 32 64 128 256 / 512 1024 2048 4096 / 8192 16384 32768 65536")) == (
        "game\n2 4 8 16 \n32 64 128 256 \n512 1024 2048 4096 \n8192 16384 32768 65536 \n"
    )


class Script:
    """Four scripted processes, keyed (seat, role, half), played through the real Referee."""

    def __init__(self, replies, seed=0, **variant):
        self.replies = {
            key: [r if r is None or isinstance(r, bytes) else r.encode() + b"\n" for r in rs]
            for key, rs in replies.items()
        }
        self.game = Attack2048(**variant)
        self.seed = seed
        self.log = []
        self.processes = {}

    def launch(self, key):
        assert isinstance(key, ProcessKey)
        replies = self.replies.get((key.seat, key.role, key.epoch), [])
        process = ScriptedTransport(replies, key=key, log=self.log, unanswered=[QUIT])
        self.processes[(key.seat, key.role, key.epoch)] = process
        return process

    def play(self):
        return Referee(self.game, [self.launch, self.launch], seed=self.seed).play()

    def received(self, seat, role, half):
        return self.processes[(seat, role, half)].received


def requests_of(received):
    return [data for data in received if data != QUIT]


def test_9_7_the_complete_half_byte_exact_through_the_referee():
    script = Script({(0, "attack", 1): ATTACKS_9_7, (1, "defend", 1): SLIDES_9_7})
    record = script.play()
    attacker, defender = script.received(0, "attack", 1), script.received(1, "defend", 1)
    # Start of the half.
    assert attacker[:2] == [EMPTY_REQUEST, b"game\n2 0 0 0 \n0 0 0 0 \n0 0 0 0 \n0 0 0 0 \n"]
    assert defender[:2] == [
        b"game\n0 0 0 0 \n0 0 0 0 \n0 0 0 0 \n2 0 0 0 \n",
        b"game\n2 0 0 0 \n0 0 0 0 \n0 0 0 0 \n2 0 0 0 \n",
    ]
    order = [(key.role, data) for key, data in script.log if key.epoch == 1 and data != "closed"]
    assert order[:4] == [
        ("attack", attacker[0]),
        ("defend", defender[0]),
        ("attack", attacker[1]),
        ("defend", defender[1]),
    ]
    # End of the half: the last slide, the last placement, then quit to the attacker, then the defender.
    assert defender[-2:] == [b"game\n4 2 4 2 \n2 4 2 4 \n4 2 4 2 \n2 4 0 2 \n", QUIT]
    assert attacker[-2:] == [b"game\n4 2 4 2 \n2 4 2 4 \n4 2 4 2 \n2 4 2 0 \n", QUIT]
    assert order[-3:] == [("attack", attacker[-2]), ("attack", QUIT), ("defend", QUIT)]
    epochs = [key.epoch for key, _ in script.log]
    assert epochs == sorted(epochs), "the processes of half 1 are quit and closed before half 2 sends anything"
    # 17 requests (85 lines) then quit; 16 requests (80 lines) then quit.
    assert len(requests_of(attacker)) == 17 and b"".join(requests_of(attacker)).count(b"\n") == 85
    assert len(requests_of(defender)) == 16 and b"".join(requests_of(defender)).count(b"\n") == 80
    assert attacker.count(QUIT) == defender.count(QUIT) == 1
    # Every request is the board after the previous ply.
    boards = ["0 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"] + [after for _, _, after, _ in HALF_9_7]
    expected_attacker = [encode_board(board(boards[ply - 1])).encode() for ply in range(1, 34, 2)]
    expected_defender = [encode_board(board(boards[ply - 1])).encode() for ply in range(2, 34, 2)]
    assert requests_of(attacker) == expected_attacker and requests_of(defender) == expected_defender
    # Half 2 started fresh processes, both closed; its scripts are empty, so seat 1's attacker crashes there.
    assert all(p.closed for p in script.processes.values())
    assert record.result.extra["halves"][0] == {
        "half": 1,
        "attacker": 0,
        "defender": 1,
        "score": 4,
        "plies": 33,
        "end": "stuck",
        "twos": 10,
        "fours": 7,
    }
    assert script.received(1, "attack", 2) == [EMPTY_REQUEST, QUIT]
    assert script.received(0, "defend", 2) == [QUIT]


def full_match(attacks_2, slides_2, **variant):
    return Script(
        {
            (0, "attack", 1): ATTACKS_9_7,
            (1, "defend", 1): SLIDES_9_7,
            (1, "attack", 2): attacks_2,
            (0, "defend", 2): slides_2,
        },
        **variant,
    )


# -- 9.8 The rest of that match -----------------------------------------------------------------
def test_9_8_half_2_and_the_match_result():
    script = full_match(ATTACKS_9_8, SLIDES_9_8)
    result = script.play().result
    assert result.extra["winner"] == 1 and result.winner == 1
    assert result.reason_code == result.extra["reason"] == SCORE
    assert result.scores == result.extra["scores"] == [0, 4]
    assert result.ranks == [2, 1] and result.termination == Termination.NORMAL and result.offenders == []
    assert result.extra["halves"][1] == {
        "half": 2,
        "attacker": 1,
        "defender": 0,
        "score": 0,
        "plies": 31,
        "end": "stuck",
        "twos": 8,
        "fours": 8,
    }
    assert result.plies == 33 + 31
    assert requests_of(script.received(1, "attack", 2))[0] == EMPTY_REQUEST, "half 2 starts on an empty board"
    final = requests_of(script.received(1, "attack", 2))[-1]
    assert final == b"game\n2 4 2 4 \n4 2 4 2 \n2 4 2 4 \n4 2 4 0 \n"
    assert script.received(1, "attack", 2)[-1] == script.received(0, "defend", 2)[-1] == QUIT


def test_9_8_the_last_board_of_half_2_is_stuck():
    state = new_state()
    for reply in [r for pair in zip(ATTACKS_9_7, [*SLIDES_9_7, None], strict=True) for r in pair if r]:
        play(state, reply)
    for reply in [r for pair in zip(ATTACKS_9_8, [*SLIDES_9_8, None], strict=True) for r in pair if r]:
        play(state, reply)
    assert state.is_over()
    assert shown(state.board) == "2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 4 2"


def test_9_8_equal_scores_are_a_draw():
    result = full_match(ATTACKS_9_7, SLIDES_9_7).play().result
    assert result.scores == [4, 4]
    assert result.extra["winner"] is None and result.winner is None
    assert result.reason_code == EQUAL_SCORE and result.ranks == [1, 1]
    assert result.termination == Termination.NORMAL


# -- 9.9 Cap ------------------------------------------------------------------------------------
def test_9_9_cap_ends_the_half_after_ply_4():
    script = full_match(ATTACKS_9_7, SLIDES_9_7, max_plies_per_half=4)
    result = script.play().result
    attacker, defender = script.received(0, "attack", 1), script.received(1, "defend", 1)
    assert len(requests_of(attacker)) == 2 and len(requests_of(defender)) == 2, "the 3rd placement is never asked"
    assert attacker[-1] == defender[-1] == QUIT
    assert result.extra["halves"][0] == {
        "half": 1,
        "attacker": 0,
        "defender": 1,
        "score": 4,
        "plies": 4,
        "end": "cap",
        "twos": 2,
        "fours": 0,
    }
    # The match is still decided by score; the cap (ours, not the game's) shows as MAX_PLIES.
    assert result.scores == [4, 4] and result.reason_code == EQUAL_SCORE and result.ranks == [1, 1]
    assert result.termination == Termination.MAX_PLIES and result.offenders == []
    assert "safety cap of 4 plies" in result.detail


def test_9_9_stuck_wins_over_cap_on_the_same_ply():
    state = new_state(max_plies_per_half=33)
    for reply in [r for pair in zip(ATTACKS_9_7, [*SLIDES_9_7, None], strict=True) for r in pair if r]:
        play(state, reply)
    assert state.halves[0]["end"] == "stuck" and state.halves[0]["plies"] == 33


def test_9_9_cap_after_a_slide_and_no_cap():
    state = new_state(max_plies_per_half=3)
    for reply in ATTACKS_9_7[:2]:
        play(state, reply)
        if state.half == 1:
            play(state, "north")
    assert state.halves[0]["end"] == "cap" and state.halves[0]["plies"] == 3
    assert Attack2048(max_plies_per_half=None).new_state(0).max_plies_per_half is None


def test_9_9_a_match_where_a_half_was_capped_is_still_won_by_score():
    script = full_match(ATTACKS_9_8, SLIDES_9_8, max_plies_per_half=4)
    result = script.play().result
    assert result.scores == [0, 4] and result.winner == 1 and result.reason_code == SCORE
    assert result.termination == Termination.MAX_PLIES and result.ranks == [2, 1]


# -- 9.10 random_two cells ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("seed", "c1", "c2", "start"),
    [
        (0, 2, 14, "0 0 2 0 / 0 0 0 0 / 0 0 0 0 / 0 0 2 0"),
        (1, 12, 2, "0 0 2 0 / 0 0 0 0 / 0 0 0 0 / 2 0 0 0"),
        (2, 4, 8, "0 0 0 0 / 2 0 0 0 / 2 0 0 0 / 0 0 0 0"),
        (42, 13, 3, "0 0 0 2 / 0 0 0 0 / 0 0 0 0 / 0 2 0 0"),
        (12345, 3, 0, "2 0 0 2 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0"),
        (18446744073709551615, 9, 6, "0 0 0 0 / 0 0 2 0 / 0 2 0 0 / 0 0 0 0"),
    ],
)
def test_9_10_random_two_cells(seed, c1, c2, start):
    assert random_two_cells(seed) == (c1, c2)
    state = new_state(seed, opening="random_two")
    assert shown(state.board) == start
    assert state.to_act() == [Request(1, "defend")] and state.plies == 0 and state.twos == 0


def test_9_10_sha256_prefix_and_seed_range():
    assert hashlib.sha256(b"attack2048:0").hexdigest().startswith("e74cb8347faaf7ee")
    with pytest.raises(ValueError):
        new_state(2**64, opening="random_two")
    with pytest.raises(ValueError):
        new_state(-1)


def test_9_10_seed_2_through_the_referee():
    script = Script(
        {(1, "defend", 1): ["north"], (0, "attack", 1): [EOF], (1, "attack", 2): [], (0, "defend", 2): []},
        seed=2,
        opening="random_two",
    )
    result = script.play().result
    assert script.log[0] == (ProcessKey(1, "defend", 1), b"game\n0 0 0 0 \n2 0 0 0 \n2 0 0 0 \n0 0 0 0 \n")
    assert script.log[1] == (ProcessKey(0, "attack", 1), b"game\n4 0 0 0 \n0 0 0 0 \n0 0 0 0 \n0 0 0 0 \n")
    assert result.extra["halves"][0]["score"] == 4 and result.extra["halves"][0]["twos"] == 0
    assert (result.reason_code, result.extra["faulted"], result.extra["role"]) == ("crash", 0, "attacker")


def test_9_10_half_2_starts_from_the_same_board():
    script = Script(
        {(1, "defend", 1): ["north"], (0, "attack", 1): ["3 3 2"], (0, "defend", 2): ["south"], (1, "attack", 2): []},
        seed=2,
        opening="random_two",
        max_plies_per_half=2,
    )
    result = script.play().result
    assert result.extra["halves"][0]["end"] == "cap"
    start = b"game\n0 0 0 0 \n2 0 0 0 \n2 0 0 0 \n0 0 0 0 \n"
    assert script.received(1, "defend", 1)[0] == requests_of(script.received(0, "defend", 2))[0] == start


# -- 9.11 attacker_two --------------------------------------------------------------------------
def test_9_11_attacker_two():
    script = Script({(0, "attack", 1): ["1 1 2", "2 2 4"], (1, "defend", 1): [EOF]}, opening="attacker_two")
    result = script.play().result
    assert script.received(0, "attack", 1)[:2] == [EMPTY_REQUEST, b"game\n0 0 0 0 \n0 2 0 0 \n0 0 0 0 \n0 0 0 0 \n"]
    assert script.received(1, "defend", 1)[0] == b"game\n0 0 0 0 \n0 2 0 0 \n0 0 4 0 \n0 0 0 0 \n"
    assert [key.role for key, data in script.log if data not in (QUIT, "closed")] == ["attack", "attack", "defend"]
    assert result.extra["halves"][0]["plies"] == 2 and result.extra["faulted"] == 1


def test_9_11_attacker_two_counts_both_placements_and_caps_after_each():
    state = new_state(opening="attacker_two", four_limit=1)
    play(state, "1 1 4")
    assert state.to_act() == [Request(0, "attack")]
    assert judge(state, "2 2 4") == ILLEGAL_MOVE
    play(state, "2 2 2")
    assert state.to_act() == [Request(1, "defend")] and (state.twos, state.fours) == (1, 1)
    capped = new_state(opening="attacker_two", max_plies_per_half=1)
    play(capped, "1 1 2")
    assert capped.halves[0]["end"] == "cap" and capped.half == 2


# -- 9.4 complete fault exchange ----------------------------------------------------------------
def test_9_4_complete_fault_exchange():
    script = Script({(0, "attack", 1): ["0 3 2", "0 0 2"], (1, "defend", 1): ["north"]})
    result = script.play().result
    attacker, defender = script.received(0, "attack", 1), script.received(1, "defend", 1)
    assert attacker == [EMPTY_REQUEST, b"game\n2 0 0 0 \n0 0 0 0 \n0 0 0 0 \n0 0 0 0 \n", QUIT]
    assert defender[-1] == QUIT
    tail = [(key.role, data) for key, data in script.log if data == QUIT]
    assert tail == [("attack", QUIT), ("defend", QUIT)]
    assert (1, "attack", 2) not in script.processes, "half 2 is not played"
    extra = result.extra
    assert (extra["winner"], extra["reason"], extra["faulted"], extra["half"], extra["role"]) == (
        1,
        ILLEGAL_MOVE,
        0,
        1,
        "attacker",
    )
    assert extra["scores"] == result.scores == [0, 0]
    assert result.termination == Termination.ILLEGAL_MOVE and result.offenders == [0] and result.ranks == [2, 1]
    assert "cell (0,0) is occupied" in result.detail and extra["detail"] == result.detail
    assert extra["halves"] == [
        {"half": 1, "attacker": 0, "defender": 1, "score": 0, "plies": 2, "end": "fault", "twos": 1, "fours": 0}
    ]


@pytest.mark.parametrize(
    ("reply", "termination", "code"),
    [
        (EOF, Termination.CRASH, "crash"),
        (b"0 3 2", Termination.CRASH, "crash"),  # a fragment at EOF is not a line
        (b"1 0\n", Termination.BAD_OUTPUT, "bad_output"),
        (b"\n  \t\r\n0 3 2\n", None, None),  # blank lines are skipped
    ],
)
def test_9_4_stream_faults_through_the_referee(reply, termination, code):
    script = Script({(0, "attack", 1): [reply], (1, "defend", 1): [EOF]})
    result = script.play().result
    if termination is None:
        assert result.extra["role"] == "defender" and result.extra["halves"][0]["plies"] == 1
        return
    assert (result.termination, result.reason_code, result.winner) == (termination, code, 1)
    assert "seat 0" in result.detail and "attacker request for ply 1 of half 1" in result.detail


def test_a_fault_in_half_2_is_the_fault_of_its_bot():
    script = full_match(ATTACKS_9_8[:1], ["south"])  # a lone 2 at (0,3) cannot move south
    result = script.play().result
    assert result.extra["half"] == 2 and result.extra["faulted"] == 0 and result.extra["role"] == "defender"
    assert result.reason_code == ILLEGAL_MOVE and result.winner == 1
    assert result.scores == [0, 4], "the half-1 score stands, informative"


# -- 7.5 Time -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("elapsed_ms", "fault"), [(1000, False), (1001, True)])
def test_7_5_decision_time_is_strict(elapsed_ms, fault):
    state = new_state()
    assert state.charge_time(Request(0, "attack"), 3000) is None  # the first request
    state.apply({Request(0, "attack"): Placement(0, 3, 2)})
    assert state.charge_time(Request(1, "defend"), 10) is None  # the defender's first
    state.apply({Request(1, "defend"): Slide("U")})
    assert state.time_allowance_ms(Request(0, "attack")) == 1000
    result = state.charge_time(Request(0, "attack"), elapsed_ms)
    assert (result is not None) == fault
    if fault:
        assert (result.termination, result.reason_code) == (Termination.TIMEOUT, TIMEOUT)
        assert "1001 ms" in result.detail and "limit of 1000 ms" in result.detail


@pytest.mark.parametrize(("elapsed_ms", "fault"), [(5000, False), (5001, True)])
@pytest.mark.parametrize("opening", ["empty", "random_two"])
def test_7_5_first_request_of_each_process_gets_startup_time(elapsed_ms, fault, opening):
    state = new_state(opening=opening)
    (first,) = state.to_act()
    assert state.time_allowance_ms(first) == 5000
    assert (state.charge_time(first, elapsed_ms) is not None) == fault


def test_7_5_each_process_of_each_half_has_its_own_first_request():
    state = new_state(max_plies_per_half=2, decision_ms=300, startup_ms=700)
    assert state.time_allowance_ms(Request(0, "attack")) == 1000
    assert state.charge_time(Request(0, "attack"), 1000) is None
    state.apply({Request(0, "attack"): Placement(0, 0, 2)})
    assert state.time_allowance_ms(Request(0, "attack")) == 300
    assert state.time_allowance_ms(Request(1, "defend")) == 1000
    assert state.charge_time(Request(1, "defend"), 5) is None
    state.apply({Request(1, "defend"): Slide("R")})
    assert state.half == 2
    assert state.time_allowance_ms(Request(1, "attack")) == 1000
    assert state.time_allowance_ms(Request(0, "defend")) == 1000


# -- the bot side -------------------------------------------------------------------------------
def test_bot_side_decodes_the_values_and_ignores_quit():
    bot = RecordingBot([Placement(0, 3, 2), Slide("U")])
    driver = Attack2048Driver(bot)
    lines = "game\n2 0 0 0 \n0 4 0 0 \n0 0 0 0 \n0 0 0 65536 \n".splitlines()
    assert [driver.feed(line) for line in lines] == [None, None, None, None, "0 3 2"]
    assert bot.seen == [Attack2048Observation(board("2 0 0 0 / 0 4 0 0 / 0 0 0 0 / 0 0 0 65536"))]
    assert [driver.feed(line) for line in EMPTY_REQUEST.decode().splitlines()][-1] == "north"
    assert driver.feed("quit") is None


def test_referee_protocol_quits_attacker_then_defender_and_waits_2000_ms():
    keys = [ProcessKey(1, "defend", 1), ProcessKey(0, "attack", 1)]
    assert sorted(keys, key=lambda key: REFEREE.stop_rank(None, key)) == keys[::-1]
    assert REFEREE.farewell(None, keys[0]) == QUIT
    assert REFEREE.shutdown_wait_ms() == 2000
