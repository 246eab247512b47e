"""Every test vector of section 9 of rules/pk2048.md, checked against the engine.

Boards in the vectors are tile VALUES written ``a b c d / e f g h / ...`` (top row first); the
engine holds exponents, so ``board()`` converts. A reply is judged the referee's way
(league/match/referee.py ``Referee._judge``): time first, then the stream, then the form (``parse``; a
ParseError is ``PRESENTATION_ERROR``), then the rules (``state.check``). The complete scripted
game of 9.8 and its match continuation are played through the real ``Referee`` with scripted
in-process bots (one per seat and game), to check every byte each bot receives.
"""

import random
from functools import partial

import pytest
from pydantic import ValidationError

from engine.core import Fault, ProcessKey, Request, Termination
from engine.pk2048 import PK2048
from engine.pk2048.protocol import PK2048Driver, PK2048Referee, parse_answer
from engine.pk2048.rules import (
    BOMB_ALREADY_USED,
    CRASH,
    ILLEGAL_COMBINATION,
    INTERFERENCE_ALREADY_USED,
    INVALID_BOMB_CELL,
    INVALID_INTERFERENCE_CELL,
    INVALID_MOVE,
    NO_LEGAL_OPERATION,
    PRESENTATION_ERROR,
    REACHED_TARGET_TILE,
    START_BOARD,
    TIMEOUT,
    Observation,
    Operation,
    slide,
)
from league.match.referee import Referee
from tests.engine.scripted import EOF, LEGAL, ScriptedTransport, line_fault, line_reason

REFEREE = PK2048Referee()
form_and_rules = partial(line_fault, REFEREE)  # (state, request, line): the fault, or None if legal
judge = partial(line_reason, REFEREE)  # (state, request, line): the reason code, or LEGAL
SEAT_A, SEAT_B = Request(0), Request(1)


# -- helpers ----------------------------------------------------------------------------------
def board(text):
    """Exponents from a board of values written ``a b c d / e f g h / ...``."""
    values = [int(token) for token in text.replace("/", " ").split()]
    assert len(values) == 16
    return tuple(value.bit_length() - 1 if value else 0 for value in values)


def values(exponents):
    """A board of exponents as the list of its values."""
    return [1 << e if e else 0 for e in exponents]


def position(text, to_move, scores=(0, 0), spawns=(), bomb_used=(False, False), interference_used=(False, False)):
    """A game-1 state (seat 0 first) with ``text`` on the board and ``to_move`` to act, mid-game."""
    state = PK2048(first_player="seat0").new_state(0, spawns=list(spawns))
    state.board = board(text)
    state.to_move = to_move
    state.scores = list(scores)
    state.bomb_used = list(bomb_used)
    state.interference_used = list(interference_used)
    state.operations = 10
    return state


def play(state, request, line):
    """Apply a reply that must be legal."""
    assert judge(state, request, line) == LEGAL, line
    state.apply({request: REFEREE.parse(state, request, line)})


def game_record(state, number=1):
    return state.games[number - 1]


# -- 9.1 First state line -------------------------------------------------------------------------
FIRST_INPUT = b"1\n0 0 0 0 0 0 0 0 0 0 2 4 0 0 4 2 0 0 0 0 0 0 0\n"


@pytest.mark.parametrize(("first_player", "seat"), [("seat0", 0), ("seat1", 1)])
def test_9_1_first_state_line(first_player, seat):
    state = PK2048(first_player=first_player).new_state(0)
    assert state.to_act() == [Request(seat)]
    sent = REFEREE.request(state, Request(seat))
    assert sent == FIRST_INPUT
    seat_line, state_line = sent.decode("ascii").split("\n")[:2]
    assert seat_line == "1"
    assert len(state_line.split(" ")) == 23, "23 integers, not the guide's 24"
    assert state.board == board("0 0 0 0 / 0 2 4 0 / 0 4 2 0 / 0 0 0 0") == START_BOARD


# -- 9.2 Guide example 2 ----------------------------------------------------------------------------
SECOND_INPUT = b"2\n3 2 0 0 4 0 0 2 0 2 4 0 0 4 2 0 0 0 0 0 0 0 0\n"


def test_9_2_second_players_first_input():
    state = PK2048(first_player="seat0").new_state(0, spawns=[(3, 2)])
    slid = slide(START_BOARD, 4)
    assert slid.board == board("0 0 0 0 / 2 4 0 0 / 4 2 0 0 / 0 0 0 0") and slid.gain == 0
    play(state, SEAT_A, "0 0 4")
    assert REFEREE.request(state, SEAT_B) == SECOND_INPUT


def test_9_2_decoded_by_the_bot_side():
    seen = []

    class Bot:
        def act(self, observation):
            seen.append(observation)
            return Operation(0, 0, 1)

    driver = PK2048Driver(Bot())
    assert driver.feed("2") is None
    assert driver.feed(SECOND_INPUT.decode().split("\n")[1]) == "0 0 1"
    assert seen == [
        Observation(
            player=2,
            spawn_cell=3,
            spawn_value=2,
            opp_interference=0,
            opp_bomb=0,
            opp_move=4,
            board=board("0 0 2 0 / 2 4 0 0 / 4 2 0 0 / 0 0 0 0"),
            my_score=0,
            opp_score=0,
        )
    ]


# -- 9.3 Slides ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("row", "direction", "after", "points"),
    [
        ("2 2 2 2", 4, "4 4 0 0", 8),
        ("2 2 4 0", 4, "4 4 0 0", 4),
        ("2 2 2 0", 2, "0 0 2 4", 4),
        ("2 4 2 2", 2, "0 2 4 4", 4),
        ("1024 1024 0 0", 4, "2048 0 0 0", 2048),
    ],
)
def test_9_3_slide_rows(row, direction, after, points):
    rest = " / 0 0 0 0" * 3
    slid = slide(board(row + rest), direction)
    assert slid.board == board(after + rest)
    assert slid.gain == points


def test_9_3_a_slide_that_changes_nothing_is_invalid():
    state = position("2 4 0 0 / 4 2 0 0 / 0 0 0 0 / 0 0 0 0", 0)
    assert not slide(state.board, 4).changed(state.board)
    fault = form_and_rules(state, SEAT_A, "0 0 4")
    assert fault.reason_code == INVALID_MOVE and fault.termination == Termination.ILLEGAL_MOVE
    assert "changes nothing" in fault.detail and "2 (right), 3 (down)" in fault.detail


# -- 9.4 Bomb + slide --------------------------------------------------------------------------------
BOARD_9_4 = "0 2 4 4 / 0 0 4 2 / 4 0 0 0 / 2 0 0 0"


def test_9_4_bomb_and_slide():
    state = position(BOARD_9_4, 0, spawns=[(16, 2)])
    play(state, SEAT_A, "0 8 1")
    assert state.scores == [8, 0]
    assert state.bomb_used == [True, False]
    assert state.board == board("4 2 8 4 / 2 0 0 0 / 0 0 0 0 / 0 0 0 2")
    assert REFEREE.request(state, SEAT_B).startswith(b"16 2 0 8 1 ")


def test_9_4_board_after_the_slide_before_the_spawn():
    bombed = board("0 2 4 4 / 0 0 4 0 / 4 0 0 0 / 2 0 0 0")
    slid = slide(bombed, 1)
    assert slid.board == board("4 2 8 4 / 2 0 0 0 / 0 0 0 0 / 0 0 0 0") and slid.gain == 8


@pytest.mark.parametrize(
    ("answer", "code"), [("0 5 1", INVALID_BOMB_CELL), ("0 8 0", ILLEGAL_COMBINATION), ("0 17 1", INVALID_BOMB_CELL)]
)
def test_9_4_other_answers(answer, code):
    assert judge(position(BOARD_9_4, 0), SEAT_A, answer) == code


def test_9_4_bomb_on_an_empty_cell_says_which_cells_hold_tiles():
    fault = form_and_rules(position(BOARD_9_4, 0), SEAT_A, "0 5 1")
    assert "bomb cell 5 is empty" in fault.detail
    assert "occupied: 2, 3, 4, 7, 8, 9, 13" in fault.detail


def test_9_4_a_second_bomb_later_in_the_game():
    state = position(BOARD_9_4, 0, spawns=[(16, 2), (12, 2)])
    play(state, SEAT_A, "0 8 1")
    play(state, SEAT_B, "0 0 4")
    assert state.to_act() == [SEAT_A]
    assert judge(state, SEAT_A, "0 1 2") == BOMB_ALREADY_USED
    assert judge(state, SEAT_A, "0 99 0") == BOMB_ALREADY_USED, "already used is checked first"


# -- 9.5 Interference ----------------------------------------------------------------------------------
BOARD_9_5 = "0 2 4 4 / 0 0 4 2 / 4 0 0 0 / 0 0 0 0"


def test_9_5_interference_puts_a_2_and_nothing_spawns():
    state = position(BOARD_9_5, 1, scores=(12, 0))
    rng_before = state.rng.getstate()
    play(state, SEAT_B, "13 0 0")
    assert state.rng.getstate() == rng_before, "no spawn after an interference"
    assert state.scores == [12, 0] and state.interference_used == [False, True]
    assert REFEREE.request(state, SEAT_A) == b"0 0 13 0 0 0 2 4 4 0 0 4 2 4 0 0 0 2 0 0 0 12 0\n"


@pytest.mark.parametrize(
    ("answer", "code"),
    [
        ("7 0 0", INVALID_INTERFERENCE_CELL),
        ("2 0 0", INVALID_INTERFERENCE_CELL),
        ("17 0 0", INVALID_INTERFERENCE_CELL),
        ("13 0 1", ILLEGAL_COMBINATION),
        ("13 2 0", ILLEGAL_COMBINATION),
    ],
)
def test_9_5_other_answers(answer, code):
    assert judge(position(BOARD_9_5, 1), SEAT_B, answer) == code


def test_9_5_erratum_cell_6_is_empty_on_this_board():
    # The vector lists "6 0 0 -> INVALID_INTERFERENCE_CELL (occupied)", but cell 6 (row 2, column 2)
    # is empty on its own board; cells 2, 3, 4, 7, 8 and 9 hold tiles. 6 is occupied at the start (9.9).
    state = position(BOARD_9_5, 1)
    assert state.board[5] == 0
    assert judge(state, SEAT_B, "6 0 0") == LEGAL
    fault = form_and_rules(state, SEAT_B, "7 0 0")
    assert "interference cell 7 holds a 4; empty cells: 1, 5, 6, 10, 11, 12, 13, 14, 15, 16" in fault.detail


@pytest.mark.parametrize("answer", ["13 0 0", "6 0 0", "13 0 1", "17 5 5"])
def test_9_5_any_interference_after_the_first(answer):
    state = position(BOARD_9_5, 1, interference_used=(False, True))
    assert judge(state, SEAT_B, answer) == INTERFERENCE_ALREADY_USED


# -- 9.6 Stuck with the bomb still available ----------------------------------------------------------
STUCK = "2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 4 8"
BEFORE_STUCK = "4 2 4 0 / 4 2 4 2 / 2 4 2 4 / 4 2 4 8"  # seat 0 slides it right, a 2 spawns on cell 1


def stuck_for_b(b_bomb_used=False, b_interference_used=False, scores=(200, 200), a_bomb_used=False):
    """The 9.6 position reached the way the vector says: A slid right, a 2 spawned on cell 1."""
    state = position(
        BEFORE_STUCK,
        0,
        scores=scores,
        spawns=[(1, 2)],
        bomb_used=(a_bomb_used, b_bomb_used),
        interference_used=(False, b_interference_used),
    )
    play(state, SEAT_A, "0 0 2")
    return state


def test_9_6_the_game_goes_on_and_b_is_asked():
    state = stuck_for_b()
    assert state.board == board(STUCK)
    assert not state.is_over() and state.to_act() == [SEAT_B]
    assert REFEREE.request(state, SEAT_B) == b"1 2 0 0 2 2 4 2 4 4 2 4 2 2 4 2 4 4 2 4 8 200 200\n"


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("0 1 4", "4 2 4 0 / 4 2 4 2 / 2 4 2 4 / 4 2 4 8"),
        ("0 1 1", "4 4 2 4 / 2 2 4 2 / 4 4 2 4 / 0 2 4 8"),
        ("0 1 2", INVALID_MOVE),
        ("0 1 3", INVALID_MOVE),
        ("0 16 2", "2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 0 4 2 4"),
        ("0 0 1", INVALID_MOVE),
        ("5 0 0", INVALID_INTERFERENCE_CELL),
        ("0 1 0", ILLEGAL_COMBINATION),
    ],
)
def test_9_6_table(answer, expected):
    state = stuck_for_b()
    if expected in (INVALID_MOVE, INVALID_INTERFERENCE_CELL, ILLEGAL_COMBINATION):
        assert judge(state, SEAT_B, answer) == expected
        return
    operation = parse_answer(answer)
    assert judge(state, SEAT_B, answer) == LEGAL
    state.apply({SEAT_B: operation})
    empty = board(expected).index(0)
    spawned = list(board(expected))
    spawned[empty] = state.board[empty]
    assert state.board == tuple(spawned), "the only empty cell takes the spawn"
    assert state.last_spawn[0] == empty + 1
    assert state.scores == [200, 200] and state.bomb_used == [False, True]


def test_9_6_empty_cell_after_bombing_cell_1_and_sliding_up_is_13():
    assert board("4 4 2 4 / 2 2 4 2 / 4 4 2 4 / 0 2 4 8").index(0) + 1 == 13
    # column 1 "0 4 2 4" moves up to "4 2 4 0"
    bombed = board("0 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 4 8")
    assert values(slide(bombed, 1).board)[0::4] == [4, 2, 4, 0]


def test_9_6_interference_already_used_on_a_stuck_board():
    assert judge(stuck_for_b(b_interference_used=True), SEAT_B, "5 0 0") == INTERFERENCE_ALREADY_USED


def test_9_6_no_slide_changes_the_stuck_board_the_detail_says_so():
    fault = form_and_rules(stuck_for_b(), SEAT_B, "0 0 1")
    assert "the board is stuck" in fault.detail


# -- 9.7 Ends without a fault --------------------------------------------------------------------------
@pytest.mark.parametrize("a_bomb_used", [False, True])
@pytest.mark.parametrize(("scores", "winner", "decided_by"), [((200, 200), 0, "tiebreak"), ((200, 204), 1, "score")])
def test_9_7_stuck_with_the_bomb_used(scores, winner, decided_by, a_bomb_used):
    state = stuck_for_b(b_bomb_used=True, scores=scores, a_bomb_used=a_bomb_used)
    record = game_record(state)
    assert record["reason"] == NO_LEGAL_OPERATION
    assert (record["winner"], record["decided_by"]) == (winner, decided_by)
    assert record["termination"] == "NORMAL" and record["offender"] is None
    assert record["scores"] == list(scores)
    assert record["operations"] == 11
    assert state.game_index == 1, "B was never asked in game 1; game 2 has begun"


@pytest.mark.parametrize(
    ("a_before", "winner", "decided_by", "a_after"), [(3000, 0, "tiebreak", 5048), (2998, 1, "score", 5046)]
)
def test_9_7_reaching_2048(a_before, winner, decided_by, a_after):
    state = position("1024 1024 0 0 / 2 4 8 16 / 0 0 0 0 / 0 0 0 0", 0, scores=(a_before, 5048))
    play(state, SEAT_A, "0 0 4")
    record = game_record(state)
    assert record["reason"] == REACHED_TARGET_TILE
    assert record["scores"] == [a_after, 5048]
    assert (record["winner"], record["decided_by"]) == (winner, decided_by)
    assert record["final_board"][0] == 2048
    assert sum(1 for value in record["final_board"] if value) == 6, "a spawn follows the slide"


def test_9_7_target_tile_8():
    state = PK2048(first_player="seat0", target_tile=8).new_state(0, spawns=[(4, 4)])
    play(state, SEAT_A, "0 0 1")
    assert not state.games and state.to_act() == [SEAT_B]
    assert state.board == board("0 2 4 4 / 0 4 2 0 / 0 0 0 0 / 0 0 0 0")
    play(state, SEAT_B, "0 0 4")
    record = game_record(state)
    assert record["reason"] == REACHED_TARGET_TILE and record["winner"] == 1
    assert record["scores"] == [0, 8] and record["decided_by"] == "score"


# -- 9.8 A complete scripted game, through the real referee -------------------------------------------
def scripted_game(spawns, **variant):
    """A PK2048 whose matches take their spawns from ``spawns`` first."""

    script = list(spawns)

    class ScriptedPK2048(PK2048):
        def new_state(self, seed, seats=None, spawns=None):
            return super().new_state(seed, seats, spawns=script)

    return ScriptedPK2048(**variant)


def referee_match(scripts, spawns, **variant):
    """Play a match; ``scripts`` maps (seat, game number) to replies. Returns the record and the bots."""
    bots = {}

    def launcher(key):
        bot = ScriptedTransport(scripts.get((key.seat, key.epoch + 1), []))
        bots[(key.seat, key.epoch + 1)] = bot
        return bot

    game = scripted_game(spawns, **variant)
    record = Referee(game, [launcher, launcher], seed=0).play()
    return record, bots


SPAWNS_9_8 = [(3, 2), (4, 2), (9, 4), (16, 2)]
A_GAME_1 = [b"0 0 4\n", b"0 0 2\n", b"0 8 1\n"]
B_GAME_1 = [b"0 0 1\n", b"13 0 0\n", b"6 0 0\n"]
A_RECEIVES_GAME_1 = [
    b"1\n0 0 0 0 0 0 0 0 0 0 2 4 0 0 4 2 0 0 0 0 0 0 0\n",
    b"4 2 0 0 1 2 4 2 2 4 2 0 0 0 0 0 0 0 0 0 0 0 0\n",
    b"0 0 13 0 0 0 2 4 4 0 0 4 2 4 0 0 0 2 0 0 0 4 0\n",
]
B_RECEIVES_GAME_1 = [
    b"2\n3 2 0 0 4 0 0 2 0 2 4 0 0 4 2 0 0 0 0 0 0 0 0\n",
    b"9 4 0 0 2 0 2 4 4 0 0 4 2 4 0 0 0 0 0 0 0 0 4\n",
    b"16 2 0 8 1 4 2 8 4 2 0 0 0 0 0 0 0 0 0 0 2 0 12\n",
]
GAME_1_RECORD = {
    "game": 1,
    "winner": 0,
    "first": 0,
    "reason": INTERFERENCE_ALREADY_USED,
    "decided_by": "fault",
    "scores": [12, 0],
    "operations": 5,
    "termination": "ILLEGAL_MOVE",
    "offender": 1,
}


def without_detail(record):
    return {key: value for key, value in record.items() if key not in ("detail", "final_board")}


def test_9_8_game_1_byte_exact_then_game_2_fresh():
    # Game 2: B first; a scripted (3, 2) spawn makes A's first line that of 9.2; B then answers garbage.
    scripts = {(0, 1): A_GAME_1, (1, 1): B_GAME_1, (1, 2): [b"0 0 4\n", b"hello\n"], (0, 2): [b"0 0 1\n"]}
    record, bots = referee_match(scripts, SPAWNS_9_8 + [(3, 2), (16, 4)], first_player="seat0")
    assert bots[(0, 1)].received == A_RECEIVES_GAME_1
    assert bots[(1, 1)].received == B_RECEIVES_GAME_1
    assert bots[(0, 1)].closed and bots[(1, 1)].closed
    games = record.result.extra["games"]
    assert without_detail(games[0]) == GAME_1_RECORD
    assert "seat 1 at operation 6 of game 1 answered '6 0 0'" in games[0]["detail"]
    assert "already interfered" in games[0]["detail"]
    game_1_moves = record.moves[:6]
    assert [(move.seat, move.reply) for move in game_1_moves] == [
        (0, "0 0 4"),
        (1, "0 0 1"),
        (0, "0 0 2"),
        (1, "13 0 0"),
        (0, "0 8 1"),
        (1, "6 0 0"),
    ]
    assert [move.fault for move in game_1_moves] == [None] * 5 + [INTERFERENCE_ALREADY_USED]
    # Game 2: fresh processes, B (seat 1) first, both specials restored, scores 0.
    assert bots[(1, 2)].received[0] == FIRST_INPUT
    assert bots[(0, 2)].received == [SECOND_INPUT]
    assert bots[(1, 2)].received[1].startswith(b"16 4 0 0 1 ")
    assert bots[(1, 2)].received[1].endswith(b" 0 0\n")
    # A won game 2 as well: 2-0, game 3 is not played.
    assert [game["winner"] for game in games] == [0, 0]
    assert set(bots) == {(0, 1), (1, 1), (0, 2), (1, 2)}
    result = record.result
    assert result.scores == [2, 0] and result.ranks == [1, 2] and result.winner == 0
    assert games[1]["reason"] == PRESENTATION_ERROR and games[1]["first"] == 1
    assert result.termination == Termination.BAD_OUTPUT and result.offenders == [1]
    assert result.reason_code == PRESENTATION_ERROR
    assert result.plies == 5 + 2


def test_9_8_b_wins_game_2_so_game_3_is_played_with_a_first():
    scripts = {
        (0, 1): A_GAME_1,
        (1, 1): B_GAME_1,
        (1, 2): [b"0 0 4\n"],  # A then closes its output: CRASH, B wins game 2
        (0, 3): [b"0 0 4\n"],
        (1, 3): [b"0 0 4\n"],  # a slide left that changes nothing after A's left: INVALID_MOVE
    }
    record, bots = referee_match(scripts, SPAWNS_9_8 + [(3, 2), (13, 2)], first_player="seat0")
    games = record.result.extra["games"]
    assert [(g["winner"], g["first"], g["reason"]) for g in games] == [
        (0, 0, INTERFERENCE_ALREADY_USED),
        (1, 1, CRASH),
        (0, 0, INVALID_MOVE),
    ]
    assert bots[(0, 2)].received == [SECOND_INPUT]
    assert bots[(0, 3)].received == [FIRST_INPUT], "game 3 is started by game 1's first player"
    assert bots[(1, 3)].received[0].startswith(b"2\n13 2 0 0 4 ")
    result = record.result
    assert result.scores == [2, 1] and result.winner == 0
    assert result.termination == Termination.ILLEGAL_MOVE and result.offenders == [1]
    assert result.detail.startswith("seat 0 wins the match 2-1; game 3 decided it: seat 1 at operation 2 of game 3")
    assert games[1]["termination"] == "CRASH" and games[1]["offender"] == 0


def test_9_8_a_fault_that_lost_an_earlier_game_is_not_the_match_termination():
    scripts = {
        (0, 1): A_GAME_1,
        (1, 1): B_GAME_1,  # B faults in game 1
        (1, 2): [b"0 0 4\n"],
        (0, 2): [b"0 0 0\n"],  # A faults in game 2
        (0, 3): [b"0 0 0\n"],  # and again in game 3
    }
    record, _ = referee_match(scripts, SPAWNS_9_8 + [(3, 2)], first_player="seat0")
    result = record.result
    assert result.winner == 1 and result.scores == [1, 2]
    assert result.termination == Termination.ILLEGAL_MOVE and result.offenders == [0]
    assert [g["offender"] for g in result.extra["games"]] == [1, 0, 0]


def test_9_8_play_all_games_plays_game_3_after_2_0():
    scripts = {(0, 1): A_GAME_1, (1, 1): B_GAME_1, (1, 2): [b"0 0 4\n", b"x\n"], (0, 2): [b"0 0 1\n"]}
    record, bots = referee_match(scripts, SPAWNS_9_8 + [(3, 2), (16, 4)], first_player="seat0", play_all_games=True)
    games = record.result.extra["games"]
    assert len(games) == 3 and (0, 3) in bots and bots[(0, 3)].received == [FIRST_INPUT]
    assert games[2]["reason"] == CRASH and games[2]["winner"] == 1, "A's script for game 3 is empty"
    result = record.result
    assert result.scores == [2, 1] and result.winner == 0
    assert result.reason_code == PRESENTATION_ERROR, "game 2 decided the match, not game 3"
    assert result.offenders == [1]


def test_9_8_game_1_record_through_the_state():
    state = PK2048(first_player="seat0").new_state(0, spawns=SPAWNS_9_8)
    replies = [reply for pair in zip(A_GAME_1, B_GAME_1, strict=True) for reply in pair]
    for request, line in zip([SEAT_A, SEAT_B] * 3, replies, strict=True):
        fault = form_and_rules(state, request, line.decode().rstrip("\n"))
        if fault is None:
            state.apply({request: REFEREE.parse(state, request, line.decode())})
        else:
            state.fault(fault)
    assert without_detail(game_record(state)) == GAME_1_RECORD
    assert state.game_index == 1 and state.to_act() == [SEAT_B]
    assert state.interference_used == [False, False] and state.bomb_used == [False, False]
    assert state.scores == [0, 0] and state.board == START_BOARD


# -- 9.9 Answer parsing at the start position -----------------------------------------------------------
START_TABLE = [
    ("0 0 4", LEGAL),
    ("0 0 1", LEGAL),
    ("0 0 2", LEGAL),
    ("0 0 3", LEGAL),
    ("+0 0 04", LEGAL),
    ("0 0 4 ", LEGAL),
    ("0 0 4\r", LEGAL),
    ("0  0 4", PRESENTATION_ERROR),
    ("0 0", PRESENTATION_ERROR),
    ("0 0 4 0", PRESENTATION_ERROR),
    ("0 0 L", PRESENTATION_ERROR),
    ("", PRESENTATION_ERROR),
    ("0\t0 4", PRESENTATION_ERROR),
    ("0 0 1_0", PRESENTATION_ERROR),  # the judge's int() took it (section 10.7)
    ("0 0 \u0664", PRESENTATION_ERROR),  # a non-ASCII digit four, which int() would take too
    ("0 0 4\x00", LEGAL),  # trimmed: every byte <= 0x20
    ("0 0 0", INVALID_MOVE),
    ("0 0 5", INVALID_MOVE),
    ("0 0 -1", INVALID_MOVE),
    ("1 0 0", LEGAL),
    ("6 0 0", INVALID_INTERFERENCE_CELL),
    ("17 0 0", INVALID_INTERFERENCE_CELL),
    ("-3 0 0", INVALID_INTERFERENCE_CELL),
    ("1 0 4", ILLEGAL_COMBINATION),
    ("1 6 0", ILLEGAL_COMBINATION),
    ("1 6 4", ILLEGAL_COMBINATION),
    ("0 6 0", ILLEGAL_COMBINATION),
    ("0 1 4", INVALID_BOMB_CELL),
    ("0 6 1", LEGAL),
]


@pytest.mark.parametrize(("answer", "expected"), START_TABLE, ids=[repr(row[0]) for row in START_TABLE])
def test_9_9_answers_at_the_start(answer, expected):
    state = PK2048(first_player="seat0").new_state(0)
    assert judge(state, SEAT_A, answer) == expected
    fault = form_and_rules(state, SEAT_A, answer)
    if fault is not None:
        expected_termination = Termination.BAD_OUTPUT if expected == PRESENTATION_ERROR else Termination.ILLEGAL_MOVE
        assert fault.termination == expected_termination


def test_9_9_plus_and_leading_zero_is_the_same_as_0_0_4():
    state = PK2048(first_player="seat0").new_state(0)
    assert REFEREE.parse(state, SEAT_A, "+0 0 04") == REFEREE.parse(state, SEAT_A, "0 0 4") == Operation(0, 0, 4)


def test_9_9_bomb_cell_6_then_up():
    state = PK2048(first_player="seat0").new_state(0, spawns=[(16, 2)])
    play(state, SEAT_A, "0 6 1")
    assert state.scores == [0, 0]
    assert state.board == board("0 4 4 0 / 0 0 2 0 / 0 0 0 0 / 0 0 0 2")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("0 0 " + "9" * 5000, INVALID_MOVE),
        ("0 0 " + "0" * 5000 + "4", LEGAL),
        ("-" + "7" * 40 + " 0 0", INVALID_INTERFERENCE_CELL),
        ("0 " + "1" * 30 + " 1", INVALID_BOMB_CELL),
    ],
)
def test_9_9_integers_of_any_size(line, expected):
    assert judge(PK2048(first_player="seat0").new_state(0), SEAT_A, line) == expected


@pytest.mark.parametrize(("elapsed_ms", "expected"), [(1000, None), (1001, TIMEOUT)])
def test_9_9_answer_after_1000_and_1001_ms(elapsed_ms, expected):
    state = PK2048(first_player="seat0").new_state(0)
    assert state.time_allowance_ms(SEAT_A) == 1000
    fault = state.charge_time(SEAT_A, elapsed_ms)
    assert (fault.reason_code if fault else None) == expected
    if fault:
        assert fault.termination == Termination.TIMEOUT
        assert "took 1001 ms for operation 1 of game 1, over the limit of 1000 ms" in fault.detail


def test_9_9_decision_time_variant():
    state = PK2048(first_player="seat0", decision_time_ms=250).new_state(0)
    assert state.time_allowance_ms(SEAT_A) == 250
    assert state.charge_time(SEAT_A, 250) is None
    assert state.charge_time(SEAT_A, 251).reason_code == TIMEOUT


def test_9_9_referee_codes_for_the_stream():
    state = PK2048().new_state(0)
    request = state.to_act()[0]
    assert REFEREE.fault_code(state, request, Termination.CRASH) == CRASH
    assert REFEREE.fault_code(state, request, Termination.TIMEOUT) == TIMEOUT
    assert REFEREE.fault_code(state, request, Termination.BAD_OUTPUT) == PRESENTATION_ERROR


@pytest.mark.parametrize(
    ("reply", "code", "termination"),
    [
        (EOF, CRASH, Termination.CRASH),
        (b"0 0 4", None, None),  # a fragment before EOF counts as the line
        (b"\n", PRESENTATION_ERROR, Termination.BAD_OUTPUT),
        (b"0 0 4\r\n", None, None),
        (b"0 1 4\n", INVALID_BOMB_CELL, Termination.ILLEGAL_MOVE),
    ],
)
def test_9_9_first_answers_through_the_referee(reply, code, termination):
    replies = [] if reply is EOF else [reply]
    record, bots = referee_match({(0, 1): replies}, [], first_player="seat0", games_per_match=1)
    game = record.result.extra["games"][0]
    if code is None:
        assert record.moves[0].fault is None and game["operations"] >= 1
        assert bots[(1, 1)].received[0].startswith(b"2\n"), "the game went on to seat 1"
    else:
        assert (game["reason"], game["winner"], game["operations"]) == (code, 1, 0)
        assert record.result.termination == termination and record.result.offenders == [0]
        assert bots[(1, 1)].received == [], "seat 1 is never asked"


def test_9_9_crash_detail_names_the_operation():
    record, _ = referee_match({}, [], first_player="seat1", games_per_match=1)
    assert record.result.reason_code == CRASH
    assert "seat 1" in record.result.detail and "before answering operation 1 of game 1" in record.result.detail


def test_7_1_extra_lines_are_taken_as_the_next_answers():
    # A writes two answers at once, then closes its output when asked a third time.
    scripts = {(0, 1): [b"0 0 4\n0 0 2\n", EOF], (1, 1): [b"0 0 1\n", b"0 0 3\n"]}
    record, bots = referee_match(scripts, [(3, 2), (4, 2), (9, 4), (1, 2)], first_player="seat0", games_per_match=1)
    assert [(move.seat, move.reply) for move in record.moves] == [
        (0, "0 0 4"),
        (1, "0 0 1"),
        (0, "0 0 2"),
        (1, "0 0 3"),
        (0, ""),
    ]
    assert len(bots[(0, 1)].received) == 3
    assert record.result.extra["games"][0]["reason"] == CRASH
    assert record.result.extra["games"][0]["operations"] == 4


# -- 8 Variant parameters and randomness ----------------------------------------------------------------
@pytest.mark.parametrize(
    "variant",
    [
        {"four_probability": 1.5},
        {"four_probability": -0.1},
        {"decision_time_ms": 0},
        {"target_tile": 4},
        {"target_tile": 100},
        {"games_per_match": 2},
        {"games_per_match": 0},
        {"first_player": "seat2"},
        {"play_all_games": "sometimes"},
        {"turn_time_ms": 1000},
    ],
)
def test_8_bad_variant_values_are_rejected(variant):
    with pytest.raises(ValidationError):
        PK2048(**variant)


def test_8_bad_variant_value_is_a_usage_error_naming_the_key(league_cli):
    status, _, err = league_cli("play", "pk2048", "greedy", "greedy", "--set", "games_per_match=4")
    assert status == 2 and "games_per_match" in err and "odd" in err


def test_8_defaults():
    assert PK2048().variant() == {
        "four_probability": 0.5,
        "decision_time_ms": 1000,
        "target_tile": 2048,
        "games_per_match": 3,
        "first_player": "random",
        "play_all_games": False,
    }


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 99])
@pytest.mark.parametrize("four_probability", [0.5, 0.1, 0.0])
def test_8_the_recommended_rng_recipe(seed, four_probability):
    """Coin first, then per spawn the cell among the empty cells in increasing order, then the value."""
    state = PK2048(four_probability=four_probability).new_state(seed)
    rng = random.Random(seed)
    first = rng.randrange(2)
    assert state.to_act() == [Request(first)]
    cells = list(START_BOARD)
    for direction in (4, 2, 4, 2):
        request = state.to_act()[0]
        state.apply({request: Operation(0, 0, direction)})
        slid = list(slide(tuple(cells), direction).board)
        empties = [i + 1 for i, e in enumerate(slid) if e == 0]
        cell = empties[rng.randrange(len(empties))]
        value = 4 if rng.random() < four_probability else 2
        assert state.last_spawn == (cell, value)
        slid[cell - 1] = value.bit_length() - 1
        cells = slid
        assert state.board == tuple(cells)


def test_8_first_player_coin_and_alternation():
    firsts = {PK2048().new_state(seed).to_act()[0].seat for seed in range(20)}
    assert firsts == {0, 1}
    for first_player, seat in (("seat0", 0), ("seat1", 1)):
        state = PK2048(first_player=first_player, play_all_games=True).new_state(5)
        seen = []
        while not state.is_over():
            seen.append(state.to_act()[0].seat)
            state.fault(Fault(state.to_act()[0].seat, Termination.CRASH, CRASH, "test"))
        assert seen == [seat, 1 - seat, seat]
        assert [game["first"] for game in state.games] == [seat, 1 - seat, seat]


def test_8_games_per_match_5_needs_3_wins():
    state = PK2048(first_player="seat0", games_per_match=5).new_state(0)
    losers = [0, 1, 0, 0]
    for loser in losers:
        assert not state.is_over()
        state.fault(Fault(loser, Termination.CRASH, CRASH, "test"))
    assert state.is_over() and state.wins == [1, 3]
    result = state.result()
    assert result.winner == 1 and result.scores == [1, 3]
    assert len(state.processes()) == 0 and state.to_act() == []


def test_state_processes_are_fresh_every_game():
    state = PK2048(first_player="seat0").new_state(0)
    assert state.processes() == {ProcessKey(0, epoch=0), ProcessKey(1, epoch=0)}
    state.fault(Fault(0, Termination.CRASH, CRASH, "test"))
    assert state.processes() == {ProcessKey(0, epoch=1), ProcessKey(1, epoch=1)}
