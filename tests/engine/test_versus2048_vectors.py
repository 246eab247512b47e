"""Every test vector of section 9 of rules/versus2048.md, checked against the engine.

Boards are flat row-major tuples of exponents (0 empty). Coordinates in the vectors are 1-based
``(row, col)``. A reply is judged the referee's way (league/match/referee.py ``Referee._judge``): time
first, then the stream, then the form (``parse``, a ParseError being a presentation error), then
the rules (``state.check``). A few vectors are also played through the real ``Referee`` loop with
scripted in-process bots, to see the bytes each bot receives.
"""

from functools import partial

import pytest

from engine.core import Request, Termination
from engine.protocol import ParseError
from engine.slide import DIRECTIONS, square
from engine.versus2048 import Versus2048
from engine.versus2048.protocol import (
    Versus2048Driver,
    Versus2048Referee,
    decode_turn,
    format_board,
)
from engine.versus2048.rules import (
    ALREADY_OCCUPIED_AT_ATTACK,
    CANNOT_MOVE_AT_MAIN,
    FIRST_BUT_SAME_SCORE_AT_END,
    INVALID_M_AND_V_AT_ATTACK,
    INVALID_POSITION_AT_ATTACK,
    INVALID_POSITION_AT_INIT,
    LESS_SCORE_AT_END,
    MAIN,
    PRESENTATION_ERROR_AT_INIT,
    PRESENTATION_ERROR_AT_MAIN,
    TIME_LIMIT_EXCEEDED_AT_INIT,
    TOTAL_TIME_LIMIT_EXCEEDED,
    TURN_TIME_LIMIT_EXCEEDED,
    Placement,
    PregameObservation,
    TurnMove,
    TurnObservation,
)
from league.match.referee import Referee
from tests.engine.scripted import EOF, LEGAL, RecordingBot, ScriptedTransport, line_fault, line_reason

P0, P1 = Request(0), Request(1)
REFEREE = Versus2048Referee()
form_and_rules = partial(line_fault, REFEREE)  # (state, request, line): the fault, or None if legal
judge = partial(line_reason, REFEREE)  # (state, request, line): the reason code, or LEGAL


# -- helpers ----------------------------------------------------------------------------------
def grid(text):
    """A board from rows of exponents written one row a line."""
    return tuple(int(token) for token in text.split())


def board_with(tiles, n=5):
    """An n x n board holding ``{(row, col): exponent}`` (1-based), empty elsewhere."""
    cells = [0] * (n * n)
    for (row, col), exponent in tiles.items():
        cells[(row - 1) * n + col - 1] = exponent
    return tuple(cells)


def at(board, row, col, n=5):
    """The exponent at 1-based (row, col)."""
    return board[(row - 1) * n + col - 1]


def empty_cells(board, n=5):
    """The empty cells of a board, 1-based, in reading order."""
    return [(i // n + 1, i % n + 1) for i, value in enumerate(board) if value == 0]


def main_state(own, opponent, seat=0, turn=1, **variant):
    """A state in the main phase where ``seat`` is to move with board ``own``."""
    state = Versus2048(**variant).new_state(0)
    state.phase, state.turn, state.to_move = MAIN, turn, seat
    state.boards = [own, opponent] if seat == 0 else [opponent, own]
    return state


def play(state, request, line, elapsed_ms=0):
    """Judge a reply the referee's way (time, form, rules); apply it if legal, else record the fault."""
    fault = state.charge_time(request, elapsed_ms)
    if fault is None:
        code = judge(state, request, line)
        assert code == LEGAL, f"{line!r} should be legal, got {code}"
        state.apply({request: REFEREE.parse(state, request, line)})
    else:
        state.fault(fault)


def outcome(state):
    """The parts of the result section 5 requires, plus ranks."""
    result = state.result()
    return {
        "winner": result.extra["winner"],
        "reason": result.extra["reason"],
        "scores": result.scores,
        "turn": result.extra["turn"],
        "ranks": result.ranks,
    }


# -- 9.1 Seed Example 1 -------------------------------------------------------------------------
EXAMPLE_1_BEFORE = grid("""
    0 2 0 2 0
    2 1 0 0 0
    1 1 1 0 0
    2 1 0 1 0
    1 1 1 1 1
""")
EXAMPLE_1_AFTER = grid("""
    0 0 0 0 3
    0 0 0 2 1
    0 0 0 1 2
    0 0 0 2 2
    0 0 1 2 2
""")
EXAMPLE_1_ATTACKS = {(1, 6), (2, 5), (4, 4), (8, 3), (16, 2), (32, 1)}


def test_9_1_example_1_values_match_exponents():
    values_before = grid("0 4 0 4 0  4 2 0 0 0  2 2 2 0 0  4 2 0 2 0  2 2 2 2 2")
    values_after = grid("0 0 0 0 8  0 0 0 4 2  0 0 0 2 4  0 0 0 4 4  0 0 2 4 4")
    assert tuple(1 << e if e else 0 for e in EXAMPLE_1_BEFORE) == values_before
    assert tuple(1 << e if e else 0 for e in EXAMPLE_1_AFTER) == values_after


def test_9_1_example_1_slide_right():
    slid = square(5).slide(EXAMPLE_1_BEFORE, "R")
    assert slid.board == EXAMPLE_1_AFTER
    assert slid.merges == 5
    assert slid.gain == 24 == 8 + 4 + 4 + 4 + 4


@pytest.mark.parametrize(
    ("row", "before", "after", "merges", "gain"),
    [
        (1, (0, 2, 0, 2, 0), (0, 0, 0, 0, 3), 1, 8),
        (2, (2, 1, 0, 0, 0), (0, 0, 0, 2, 1), 0, 0),
        (3, (1, 1, 1, 0, 0), (0, 0, 0, 1, 2), 1, 4),
        (4, (2, 1, 0, 1, 0), (0, 0, 0, 2, 2), 1, 4),
        (5, (1, 1, 1, 1, 1), (0, 0, 1, 2, 2), 2, 8),
    ],
)
def test_9_1_example_1_per_row(row, before, after, merges, gain):
    slid = square(5).slide(board_with({(1, c + 1): e for c, e in enumerate(before)}), "R")
    assert slid.board[:5] == after
    assert (slid.merges, slid.gain) == (merges, gain)


def test_9_1_attack_list_is_every_split_of_64():
    x = 5
    assert {(1 << k, x + 1 - k) for k in range(x + 1)} == EXAMPLE_1_ATTACKS
    assert all(m * 2**v == 64 for m, v in EXAMPLE_1_ATTACKS)


def test_9_1_exactly_the_listed_attacks_are_legal_after_example_1():
    opponent = board_with({(1, 1): 3})  # 24 empty cells
    state = main_state(EXAMPLE_1_BEFORE, opponent)
    free = empty_cells(opponent)
    for m in range(1, len(free) + 1):
        for v in range(1, 9):
            fault = state.check(P0, TurnMove("R", v, tuple(free[:m])))
            expected = LEGAL if (m, v) in EXAMPLE_1_ATTACKS else INVALID_M_AND_V_AT_ATTACK
            assert (fault.reason_code if fault else LEGAL) == expected, (m, v)


def test_9_1_thirty_two_twos_never_fit_on_a_5x5_board():
    state = main_state(EXAMPLE_1_BEFORE, (0,) * 25)
    every_cell = [(r, c) for r in range(1, 6) for c in range(1, 6)]
    line = "R 32 1 " + " ".join(f"{r} {c}" for r, c in every_cell + every_cell[:7])
    assert judge(state, P0, line) == ALREADY_OCCUPIED_AT_ATTACK


# -- 9.2 Facts from the judge's unit tests --------------------------------------------------------
@pytest.mark.parametrize(("direction", "cell"), [("L", (3, 1)), ("U", (1, 3)), ("R", (3, 5)), ("D", (5, 3))])
def test_9_2_1_lone_centre_tile(direction, cell):
    before = board_with({(3, 3): 1})
    slid = square(5).slide(before, direction)
    assert slid.changed(before)
    assert slid.board == board_with({cell: 1})
    assert at(slid.board, 3, 3) == 0
    assert (slid.merges, slid.gain) == (0, 0)


def test_9_2_2_corner_tile_back_and_forth():
    geometry = square(5)
    corner = board_with({(1, 1): 1})
    assert not geometry.slide(corner, "L").changed(corner)
    right = geometry.slide(corner, "R")
    assert right.changed(corner) and right.board == board_with({(1, 5): 1}) and right.merges == 0
    back = geometry.slide(right.board, "L")
    assert back.changed(right.board) and back.board == corner
    assert not geometry.slide(back.board, "L").changed(back.board)
    assert back.board == board_with({(1, 1): 1})


@pytest.mark.parametrize(
    ("row_before", "row_after", "merges", "gain"),
    [
        ((1, 1, 2, 3, 3), (0, 0, 2, 2, 4), 2, 20),  # 9.2.4: values 2 2 4 8 8 -> . . 4 4 16
        ((2, 2, 3, 8, 8), (0, 0, 3, 3, 9), 2, 520),  # 9.2.3: 2^9 + 2^3; the new 3 and the old 3 stay apart
    ],
)
def test_9_2_3_and_4_row_slides_right(row_before, row_after, merges, gain):
    before = board_with({(1, c + 1): e for c, e in enumerate(row_before)})
    slid = square(5).slide(before, "R")
    assert slid.board == board_with({(1, c + 1): e for c, e in enumerate(row_after) if e})
    assert (slid.merges, slid.gain) == (merges, gain)


def test_9_2_5_board_text_format():
    assert format_board(board_with({(1, 1): 30}, n=3), 3) == "30 0 0\n0 0 0\n0 0 0"
    # The vector's 5-row x 4-column board (the formatter serves non-square boards too).
    assert format_board(tuple(range(1, 21)), 4) == "1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 16\n17 18 19 20"


def test_9_2_6_three_by_three_ascending_cannot_move():
    geometry = square(3)
    board = tuple(range(1, 10))
    assert not geometry.can_move(board)
    for direction in DIRECTIONS:
        slid = geometry.slide(board, direction)
        assert slid.board == board and not slid.changed(board)
    assert geometry.effective_moves(board) == {}


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_9_2_7_three_by_three_all_ones(direction):
    geometry = square(3)
    board = (1,) * 9
    assert geometry.can_move(board)
    slid = geometry.slide(board, direction)
    assert slid.changed(board)
    assert (slid.merges, slid.gain) == (3, 12)


STUCK_BOARD = grid("""
    1 3 1 2 3
    4 5 6 4 1
    2 7 8 1 3
    1 5 6 5 2
    5 2 4 3 4
""")


def test_9_2_8_and_9_4_board_cannot_move():
    geometry = square(5)
    assert 0 not in STUCK_BOARD
    assert not geometry.can_move(STUCK_BOARD)
    assert geometry.effective_moves(STUCK_BOARD) == {}


# -- 9.3 Attack validation table --------------------------------------------------------------------
OWN_BOARDS = {
    0: board_with({(1, 1): 1}),
    1: board_with({(1, 1): 1, (1, 2): 1}),
    2: board_with({(1, 1): 1, (1, 2): 1, (1, 3): 1, (1, 4): 1}),
    3: board_with({(1, 1): 1, (1, 2): 1, (1, 3): 1, (1, 4): 1, (2, 1): 1, (2, 2): 1}),
}
OPPONENT_9_3 = board_with({(1, 1): 3})


def with_empty_cells(head, count):
    """``head`` followed by the first ``count`` empty cells of the 9.3 opponent board."""
    return head + " " + " ".join(f"{r} {c}" for r, c in empty_cells(OPPONENT_9_3)[:count])


ATTACK_TABLE = [
    (0, "R 1 1 5 5", LEGAL),
    (0, "R 1 2 5 5", INVALID_M_AND_V_AT_ATTACK),
    (0, "R 2 1 5 5 4 4", INVALID_M_AND_V_AT_ATTACK),
    (0, "R 1 0 5 5", PRESENTATION_ERROR_AT_MAIN),
    (0, "R 2 0 5 5 4 4", PRESENTATION_ERROR_AT_MAIN),
    (0, "R 0 1", PRESENTATION_ERROR_AT_MAIN),
    (0, "R 2 32 5 5 4 4", INVALID_M_AND_V_AT_ATTACK),
    (0, "R 1 33 5 5", INVALID_M_AND_V_AT_ATTACK),
    (1, "R 1 2 5 5", LEGAL),
    (1, "R 2 1 5 5 4 4", LEGAL),
    (1, "R 1 1 5 5", INVALID_M_AND_V_AT_ATTACK),
    (1, "R 3 1 5 5 4 4 3 3", INVALID_M_AND_V_AT_ATTACK),
    (1, "R 4 0 5 5 4 4 3 3 2 2", PRESENTATION_ERROR_AT_MAIN),
    (2, "R 1 3 5 5", LEGAL),
    (2, "R 2 2 5 5 4 4", LEGAL),
    (2, "R 4 1 5 5 4 4 3 3 2 2", LEGAL),
    (2, "R 2 3 5 5 4 4", INVALID_M_AND_V_AT_ATTACK),
    (2, with_empty_cells("R 8 0", 8), PRESENTATION_ERROR_AT_MAIN),
    (3, "R 1 4 5 5", LEGAL),
    (3, "R 2 3 5 5 4 4", LEGAL),
    (3, "R 4 2 5 5 4 4 3 3 2 2", LEGAL),
    (3, "R 8 1 1 2 1 3 1 4 1 5 2 1 2 2 2 3 2 4", LEGAL),
    (3, with_empty_cells("R 16 0", 16), PRESENTATION_ERROR_AT_MAIN),
    (3, "R 3 3 5 5 4 4 3 3", INVALID_M_AND_V_AT_ATTACK),
    (1, "R 2 1 5 5 6 1", INVALID_POSITION_AT_ATTACK),
    (1, "R 2 1 5 5 0 3", INVALID_POSITION_AT_ATTACK),
    (1, "R 2 1 1 1 6 6", INVALID_POSITION_AT_ATTACK),
    (1, "R 2 1 1 1 5 5", ALREADY_OCCUPIED_AT_ATTACK),
    (1, "R 2 1 5 5 5 5", ALREADY_OCCUPIED_AT_ATTACK),
    (0, "R 1 1 5 5 5", PRESENTATION_ERROR_AT_MAIN),
    (0, "R 1 1 5 5 ", LEGAL),
    (0, "R  1 1 5 5", PRESENTATION_ERROR_AT_MAIN),
    (0, "R\t1 1 5 5", PRESENTATION_ERROR_AT_MAIN),
    (0, "r 1 1 5 5", PRESENTATION_ERROR_AT_MAIN),
    (0, "R 1 1 +5 05", LEGAL),
    (0, "R 1 1 5 5.0", PRESENTATION_ERROR_AT_MAIN),
    (0, "R 1 2147483648 5 5", PRESENTATION_ERROR_AT_MAIN),
    (0, "R 1 2147483647 5 5", INVALID_M_AND_V_AT_ATTACK),  # not a vector: the largest V, judged exactly
    (0, "", PRESENTATION_ERROR_AT_MAIN),
    (0, "L 1 1 5 5", CANNOT_MOVE_AT_MAIN),
    (0, "L 1 0 5 5", PRESENTATION_ERROR_AT_MAIN),
    (0, "L 2 1 5 5", PRESENTATION_ERROR_AT_MAIN),
]


def test_9_3_own_boards_give_the_stated_x():
    for x, board in OWN_BOARDS.items():
        assert square(5).slide(board, "R").merges == x
    assert square(5).slide(OWN_BOARDS[0], "R").board == board_with({(1, 5): 1})


@pytest.mark.parametrize(("x", "reply", "expected"), ATTACK_TABLE, ids=[repr(row[1]) for row in ATTACK_TABLE])
def test_9_3_attack_table(x, reply, expected):
    state = main_state(OWN_BOARDS[x], OPPONENT_9_3)
    assert judge(state, P0, reply) == expected


@pytest.mark.parametrize(
    ("x", "reply"), [(x, reply) for x, reply, expected in ATTACK_TABLE if expected == LEGAL], ids=repr
)
def test_9_3_legal_attacks_land_on_the_opponent_board(x, reply):
    state = main_state(OWN_BOARDS[x], OPPONENT_9_3)
    move = REFEREE.parse(state, P0, reply)
    state.apply({P0: move})
    assert state.boards[0] == square(5).slide(OWN_BOARDS[x], "R").board
    for row, col in move.cells:
        assert at(state.boards[1], row, col) == move.value
    assert sum(1 << e for e in state.boards[1] if e) == 8 + 2 ** (x + 1)


def test_9_3_plus_and_leading_zero_target_cell_5_5():
    state = main_state(OWN_BOARDS[0], OPPONENT_9_3)
    assert REFEREE.parse(state, P0, "R 1 1 +5 05") == TurnMove("R", 1, ((5, 5),))


def test_any_number_of_leading_zeros_is_the_same_integer():
    """Section 7: any ``[+-]?[0-9]+`` in the 32-bit range, however long its zeros make it."""
    state = main_state(OWN_BOARDS[0], OPPONENT_9_3)
    padded = "R 0000000000001 +00000000001 0000000000005 -0+5"
    with pytest.raises(ParseError):  # -0+5 is not one integer token
        REFEREE.parse(state, P0, padded)
    assert REFEREE.parse(state, P0, "R 0000000000001 +00000000001 0000000000005 +0000000000005") == TurnMove(
        "R", 1, ((5, 5),)
    )
    with pytest.raises(ParseError, match="not a 32-bit integer"):
        REFEREE.parse(state, P0, "R 1 1 5 000000000002147483648")


def test_9_3_eof_is_a_presentation_error():
    # The referee maps a stream that ends (crash, exit, closed stdout) to the CRASH termination.
    state = main_state(OWN_BOARDS[0], OPPONENT_9_3)
    assert REFEREE.fault_code(state, P0, Termination.CRASH) == PRESENTATION_ERROR_AT_MAIN


# -- 9.4 A board that cannot move ------------------------------------------------------------------
@pytest.mark.parametrize("stuck_seat", [0, 1])
def test_9_4_stuck_player_loses_before_anything_is_sent(stuck_seat):
    # The other seat's one tile at (1,1) lands on the only empty cell and completes the 9.4 board.
    almost_stuck = tuple(0 if i == 0 else v for i, v in enumerate(STUCK_BOARD))
    attacker = 1 - stuck_seat
    state = main_state(board_with({(1, 1): 1}), almost_stuck, seat=attacker, turn=7)
    used_before = list(state.used_ms)
    play(state, Request(attacker), "R 1 1 1 1")
    assert state.boards[stuck_seat] == STUCK_BOARD
    assert state.is_over()
    assert state.to_act() == []
    assert state.used_ms == used_before
    deciding_turn = 8 if stuck_seat == 0 else 7
    assert outcome(state) == {
        "winner": attacker,
        "reason": CANNOT_MOVE_AT_MAIN,
        "scores": [0, 0],
        "turn": deciding_turn,
        "ranks": [1, 2] if attacker == 0 else [2, 1],
    }


# -- 9.5 Pre-game replies -----------------------------------------------------------------------------
PREGAME_TABLE = [
    ("1 1", (1, 1)),
    ("+1 05", (1, 5)),
    ("3 3 ", (3, 3)),
    ("3 3\r", (3, 3)),
    ("0 3", INVALID_POSITION_AT_INIT),
    ("6 1", INVALID_POSITION_AT_INIT),
    ("1", PRESENTATION_ERROR_AT_INIT),
    ("1 1 1", PRESENTATION_ERROR_AT_INIT),
    ("1  1", PRESENTATION_ERROR_AT_INIT),
    ("a b", PRESENTATION_ERROR_AT_INIT),
    ("", PRESENTATION_ERROR_AT_INIT),
]


@pytest.mark.parametrize(("reply", "expected"), PREGAME_TABLE, ids=[repr(row[0]) for row in PREGAME_TABLE])
def test_9_5_pregame_reply(reply, expected):
    state = Versus2048().new_state(0)
    if isinstance(expected, tuple):
        assert judge(state, P0, reply) == LEGAL
        state.apply({P0: REFEREE.parse(state, P0, reply)})
        assert state.boards[1] == board_with({expected: 1})
        assert state.boards[0] == (0,) * 25
        assert state.to_act() == [P1]
    else:
        fault = form_and_rules(state, P0, reply)
        assert fault is not None and fault.reason_code == expected
        state.fault(fault)
        assert state.to_act() == [], "player 1 is never asked"
        assert outcome(state) == {"winner": 1, "reason": expected, "scores": [0, 0], "turn": 0, "ranks": [2, 1]}


def test_9_5_pregame_eof_is_a_presentation_error():
    state = Versus2048().new_state(0)
    assert REFEREE.fault_code(state, P0, Termination.CRASH) == PRESENTATION_ERROR_AT_INIT


@pytest.mark.parametrize(("elapsed_ms", "expected"), [(1000, None), (1001, TIME_LIMIT_EXCEEDED_AT_INIT)])
def test_9_5_pregame_time_limit(elapsed_ms, expected):
    state = Versus2048().new_state(0)
    assert state.time_allowance_ms(P0) == 1000
    fault = state.charge_time(P0, elapsed_ms)
    assert (fault.reason_code if fault else None) == expected
    assert state.used_ms == [0, 0], "pre-game time does not count towards the total"
    if fault:
        state.fault(fault)
        assert (outcome(state)["winner"], outcome(state)["turn"]) == (1, 0)


def test_9_5_pregame_timeout_code_when_no_reply_comes():
    state = Versus2048().new_state(0)
    assert REFEREE.fault_code(state, P0, Termination.TIMEOUT) == TIME_LIMIT_EXCEEDED_AT_INIT


# -- 9.6 Byte-exact start of a game ---------------------------------------------------------------------
P0_TURN_1 = (
    b"1 100000 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n1 0 0 0 0\n"
    b"0 0 0 0 0\n0 0 0 1 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n"
)
P1_TURN_1 = b"""1 100000 0 0
0 0 0 0 0
1 0 0 1 0
0 0 0 0 0
0 0 0 0 0
0 0 0 0 0
1 0 0 0 0
0 0 0 0 0
0 0 0 0 0
0 0 0 0 0
0 0 0 0 0
"""
P0_TURN_2 = b"""2 99988 0 4
1 1 0 0 0
0 0 0 0 0
0 0 0 0 0
0 0 0 0 0
0 0 0 0 1
0 0 0 0 0
2 0 0 0 0
0 0 0 0 0
0 0 0 0 0
0 0 0 0 0
"""
SCRIPT_9_6 = [(P0, "2 4"), (P1, "5 1"), (P0, "U 1 1 2 1"), (P1, "L 2 1 1 2 5 5")]


def start_9_6(**variant):
    """The 9.6 game up to P0's turn 2, with P0's turn 1 measured at 12 ms."""
    state = Versus2048(**variant).new_state(0)
    sent = []
    for (request, reply), elapsed_ms in zip(SCRIPT_9_6, [0, 0, 12, 0], strict=True):
        assert state.to_act() == [request]
        sent.append(REFEREE.request(state, request))
        play(state, request, reply, elapsed_ms)
    return state, sent


def test_9_6_vector_text_is_113_bytes_in_11_lines():
    assert len(P0_TURN_1) == 113 and P0_TURN_1.count(b"\n") == 11
    assert len(P1_TURN_1) == len(P0_TURN_2) + 1 == 113


def test_9_6_byte_exact_start():
    state, sent = start_9_6()
    assert sent[0] == b"0\n"
    assert sent[1] == b"1\n"
    assert sent[2] == P0_TURN_1
    assert sent[3] == P1_TURN_1
    assert REFEREE.request(state, P0) == P0_TURN_2
    assert state.scores == [0, 4]
    assert state.used_ms[0] == 12
    assert state.boards[0] == board_with({(1, 1): 1, (1, 2): 1, (5, 5): 1})
    assert state.boards[1] == board_with({(2, 1): 2})
    assert not state.is_over() and state.turn == 2


def test_9_6_turn_1_moves():
    state = Versus2048().new_state(0)
    play(state, P0, "2 4")
    play(state, P1, "5 1")
    assert state.boards == [board_with({(5, 1): 1}), board_with({(2, 4): 1})]
    play(state, P0, "U 1 1 2 1", elapsed_ms=12)
    assert state.boards[0] == board_with({(1, 1): 1}) and state.scores[0] == 0
    assert state.boards[1] == board_with({(2, 1): 1, (2, 4): 1})
    slid = state.slide_outcome(1, "L")
    assert (slid.merges, slid.gain) == (1, 4)
    assert slid.board == board_with({(2, 1): 2})


def feed(driver, data):
    """Feed referee bytes to a bot-side driver line by line; the replies it produced."""
    replies = [driver.feed(line) for line in data.decode("ascii").split("\n")[:-1]]
    return [reply for reply in replies if reply is not None]


def test_9_6_bot_side_decodes_the_same_observations():
    _, sent = start_9_6()
    bot = RecordingBot([Placement(2, 4), TurnMove("U", 1, ((2, 1),)), TurnMove("L", 1, ((3, 3),))])
    driver = Versus2048Driver(bot)
    assert feed(driver, sent[0]) == ["2 4"]
    assert feed(driver, sent[2]) == ["U 1 1 2 1"]
    assert feed(driver, P0_TURN_2) == ["L 1 1 3 3"]
    assert bot.seen == [
        PregameObservation(0),
        TurnObservation(1, 100000, 0, 0, board_with({(5, 1): 1}), board_with({(2, 4): 1}), 5),
        TurnObservation(2, 99988, 0, 4, board_with({(1, 1): 1, (1, 2): 1, (5, 5): 1}), board_with({(2, 1): 2}), 5),
    ]


def test_9_6_decode_turn_inverts_the_request():
    state, sent = start_9_6()
    assert decode_turn(P0_TURN_2.decode("ascii").splitlines(), 5) == state.observation(P0)
    assert decode_turn(P1_TURN_1.decode("ascii").splitlines(), 5).my_board == board_with({(2, 1): 1, (2, 4): 1})


# -- 9.7 Timing and end-of-game vectors -----------------------------------------------------------------
def fresh_main_state(**variant):
    return main_state(board_with({(1, 1): 1}), board_with({(1, 1): 1}), **variant)


@pytest.mark.parametrize(("elapsed_ms", "expected"), [(1000, None), (1001, TURN_TIME_LIMIT_EXCEEDED)])
def test_9_7_turn_time_limit_is_strict(elapsed_ms, expected):
    state = fresh_main_state()
    assert state.time_allowance_ms(P0) == 1000
    fault = state.charge_time(P0, elapsed_ms)
    assert (fault.reason_code if fault else None) == expected


def test_9_7_time_left_after_three_turns():
    state = fresh_main_state()
    for elapsed_ms in (250, 400, 351):
        assert state.charge_time(P0, elapsed_ms) is None
    state.turn = 4
    assert state.observation(P0).time_left_ms == 98999
    assert REFEREE.request(state, P0).startswith(b"4 98999 0 0\n")
    assert state.observation(P1).time_left_ms == 100000


@pytest.mark.parametrize(
    ("elapsed_ms", "expected"), [(600, TOTAL_TIME_LIMIT_EXCEEDED), (1200, TURN_TIME_LIMIT_EXCEEDED)]
)
def test_9_7_total_time_limit(elapsed_ms, expected):
    state = fresh_main_state()
    state.used_ms = [99_500, 0]
    fault = state.charge_time(P0, elapsed_ms)
    assert fault is not None and fault.reason_code == expected
    state.fault(fault)
    assert outcome(state)["winner"] == 1 and outcome(state)["reason"] == expected


@pytest.mark.parametrize(
    ("elapsed_ms", "expected"), [(0, None), (1, TOTAL_TIME_LIMIT_EXCEEDED), (1000, TOTAL_TIME_LIMIT_EXCEEDED)]
)
def test_9_7_exactly_the_total_is_allowed_then_nothing_more(elapsed_ms, expected):
    state = fresh_main_state()
    state.used_ms = [99_000, 0]
    assert state.charge_time(P0, 1000) is None
    assert state.used_ms[0] == 100_000
    assert state.observation(P0).time_left_ms == 0
    assert REFEREE.request(state, P0).split(b"\n")[0] == b"1 0 0 0"
    fault = state.charge_time(P0, elapsed_ms)
    assert (fault.reason_code if fault else None) == expected


@pytest.mark.parametrize(
    ("scores", "winner", "reason"),
    [
        ([5000, 5000], 1, FIRST_BUT_SAME_SCORE_AT_END),
        ([5004, 5000], 0, LESS_SCORE_AT_END),
        ([4000, 5000], 1, LESS_SCORE_AT_END),
    ],
)
def test_9_7_end_of_game_by_score(scores, winner, reason):
    # P1's last turn (turn 1000) is a slide without merges, so the scores stay as set.
    state = main_state(board_with({(1, 1): 1}), board_with({(3, 3): 2}), seat=1, turn=1000)
    state.scores = list(scores)
    play(state, P1, "R 1 1 5 5")
    assert state.is_over() and state.to_act() == []
    result = state.result()
    assert result.termination == Termination.NORMAL and result.offenders == []
    assert result.winner == winner
    assert outcome(state) == {
        "winner": winner,
        "reason": reason,
        "scores": scores,
        "turn": 1000,
        "ranks": [1, 2] if winner == 0 else [2, 1],
    }


def test_9_7_game_goes_on_before_the_last_turn():
    state = main_state(board_with({(1, 1): 1}), board_with({(3, 3): 2}), seat=1, turn=999)
    play(state, P1, "R 1 1 5 5")
    assert not state.is_over() and state.to_act() == [P0] and state.turn == 1000


def test_9_7_one_turn_per_player_variant():
    state = Versus2048(turns_per_player=1).new_state(0)
    for request, reply in SCRIPT_9_6[:3]:
        play(state, request, reply)
    assert not state.is_over() and state.to_act() == [P1]
    play(state, *SCRIPT_9_6[3])
    assert state.is_over()
    assert outcome(state) == {"winner": 1, "reason": LESS_SCORE_AT_END, "scores": [0, 4], "turn": 1, "ranks": [2, 1]}


def test_9_7_one_turn_per_player_variant_tie_goes_to_player_1():
    state = Versus2048(turns_per_player=1).new_state(0)
    for request, reply in [(P0, "2 4"), (P1, "5 1"), (P0, "U 1 1 2 1"), (P1, "D 1 1 5 5")]:
        play(state, request, reply)
    assert outcome(state) == {
        "winner": 1,
        "reason": FIRST_BUT_SAME_SCORE_AT_END,
        "scores": [0, 0],
        "turn": 1,
        "ranks": [2, 1],
    }


# -- through the real referee loop ------------------------------------------------------------------------
def referee_match(replies_0, replies_1, **variant):
    bots = [ScriptedTransport(replies_0), ScriptedTransport(replies_1)]
    record = Referee(Versus2048(**variant), [lambda key: bots[key.seat] for _ in bots], seed=0).play()
    return record, bots


def test_9_6_through_the_referee():
    record, bots = referee_match([b"2 4\n", b"U 1 1 2 1\n"], [b"5 1\r\n", b"L 2 1 1 2 5 5\n"])
    p0_turn_2 = bots[0].received[2]
    time_left = 100_000 - record.moves[2].elapsed_ms
    assert bots[0].received[:2] == [b"0\n", P0_TURN_1]
    assert bots[1].received == [b"1\n", P1_TURN_1]
    assert p0_turn_2 == P0_TURN_2.replace(b"99988", str(time_left).encode())
    # P0's script is over: its stream ends, a presentation error at turn 2.
    assert record.result.extra == {"winner": 1, "reason": PRESENTATION_ERROR_AT_MAIN, "turn": 2}
    assert record.result.termination == Termination.CRASH and record.result.offenders == [0]


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (b"0 3\n", INVALID_POSITION_AT_INIT),
        (b"1 1 1\n", PRESENTATION_ERROR_AT_INIT),
        (b"\n", PRESENTATION_ERROR_AT_INIT),
        (EOF, PRESENTATION_ERROR_AT_INIT),
    ],
)
def test_9_5_player_1_never_hears_of_a_faulty_player_0(reply, reason):
    record, bots = referee_match([reply], [b"1 1\n"])
    assert bots[0].received == [b"0\n"]
    assert bots[1].received == []
    assert record.result.extra == {"winner": 1, "reason": reason, "turn": 0}
    assert record.result.scores == [0, 0]


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (b"R 1 1 5 5 \n", None),
        (b"R 1 1 5 5\r\n", None),
        (b"R 1 1 +5 05\n", None),
        (b"R  1 1 5 5\n", PRESENTATION_ERROR_AT_MAIN),
        (b"R\t1 1 5 5\n", PRESENTATION_ERROR_AT_MAIN),
        (b"\n", PRESENTATION_ERROR_AT_MAIN),
        (EOF, PRESENTATION_ERROR_AT_MAIN),
        (b"L 1 1 5 5\n", CANNOT_MOVE_AT_MAIN),
    ],
)
def test_9_3_replies_through_the_referee(reply, reason):
    # P1 puts P0's only tile at (1,1), as in the X = 0 row setup; P1's own board holds P0's tile at (3,3).
    record, _ = referee_match([b"3 3\n", reply], [b"1 1\n", b"D 1 1 1 1\n"], turns_per_player=1)
    extra = record.result.extra
    if reason is None:
        assert extra["turn"] == 1 and extra["reason"] in (LESS_SCORE_AT_END, FIRST_BUT_SAME_SCORE_AT_END)
        assert record.final_state["boards"][1][24] == 1, "P0's attack lands on (5,5)"
    else:
        assert extra == {"winner": 1, "reason": reason, "turn": 1}
