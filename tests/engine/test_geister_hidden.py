"""No request leaks a hidden colour (rules/geister.md sections 1, 2.4 and 3.1).

Seeded games between the ``random`` built-in are played through the real ``Referee`` with
in-process bots that record every byte they receive. Each game is then replayed from the
referee's own record of replies, and at every request a few twin states are built in which the
opponent's pieces still on the board have their colours permuted (captured pieces keep theirs,
so each side still has 4 red and 4 blue). The request bytes the referee protocol produces for
the receiver must be the same for the twin, and equal to what the bot really received; the twin
is a real difference, since the end message (which reveals everything) tells them apart.
"""

import copy
import itertools
import random

import pytest

from engine.core import Request
from engine.geister import Geister
from engine.geister.board import CAPTURED, ESCAPED, LETTERS
from engine.geister.protocol import GeisterDriver, GeisterReferee, decode_board, parse_command
from engine.geister.rules import SETUP, GeisterState
from league.match.inprocess import InProcessTransport
from league.match.referee import Referee

REFEREE = GeisterReferee()
VARIANTS = [{}, {"escape": "move_off"}, {"max_plies": 40}]
SEEDS = range(12)
TWINS = 4


class Recording(InProcessTransport):
    """A built-in bot in this process that keeps every byte it was sent."""

    def __init__(self, driver):
        super().__init__(driver)
        self.received = []

    def send(self, data):
        self.received.append(data)
        super().send(data)


def play(seed, **variant):
    game = Geister(**variant)
    random_bot = game.builtin_bots()["random"]
    seats = [Recording(GeisterDriver(random_bot(seed=seed * 2 + s, **game.bot_rules()))) for s in (0, 1)]
    record = Referee(game, [lambda key: seats[key.seat]] * 2, seed=seed).play()
    return game, record, [seat.received for seat in seats]


def on_board(square):
    return square not in (CAPTURED, ESCAPED)


def twins(state, seat, rng):
    """Copies of ``state`` whose other seat's pieces on the board have their colours permuted."""
    other = 1 - seat
    hidden = [i for i, square in enumerate(state.squares[other]) if on_board(square)]
    known_reds = [LETTERS[i] for i, square in enumerate(state.squares[other]) if not on_board(square)]
    known_reds = [letter for letter in known_reds if letter in state.reds[other]]
    hidden_reds = sum(LETTERS[i] in state.reds[other] for i in hidden)
    choices = list(itertools.combinations(hidden, hidden_reds))
    for chosen in rng.sample(choices, min(TWINS, len(choices))):
        twin = copy.copy(state)  # only the colours differ: the squares may be shared
        twin.reds = list(state.reds)
        twin.reds[other] = "".join(sorted(known_reds + [LETTERS[i] for i in chosen]))
        assert len(twin.reds[other]) == 4
        yield twin


def assert_board_hides_the_opponent(state, seat, board):
    own, opponent = decode_board(board)
    other = 1 - seat
    for i, piece in enumerate(own):
        colour = state.colour(seat, i)
        assert (piece.x, piece.y) == state.squares[seat][i]
        assert piece.colour == (colour if on_board(state.squares[seat][i]) else colour.lower())
    for i, piece in enumerate(opponent):
        square = state.squares[other][i]
        if on_board(square):
            assert piece.colour == "u", f"seat {seat} sees the colour of the opponent's {LETTERS[i]} on the board"
            assert (piece.x, piece.y) == (5 - square[0], 5 - square[1])
        else:
            assert (piece.x, piece.y) == square and piece.colour == state.colour(other, i).lower()


@pytest.mark.parametrize("variant", VARIANTS, ids=["default", "move_off", "max_plies_40"])
@pytest.mark.parametrize("seed", SEEDS)
def test_no_request_leaks_a_colour(seed, variant):
    game, record, received = play(seed, **variant)
    rng = random.Random(seed)
    requests = [[data for data in seat if data.startswith((b"SET?", b"MOV?"))] for seat in received]
    asked = [0, 0]
    state = game.new_state(seed)
    replies = list(record.moves)
    differing = 0
    while not state.is_over():
        batch = state.to_act()
        for request in batch:
            data = REFEREE.request(state, request)
            assert data == requests[request.seat][asked[request.seat]], f"request {asked[request.seat]}"
            asked[request.seat] += 1
            if state.phase == SETUP:
                assert data == b"SET?\r\n"
                continue
            assert_board_hides_the_opponent(state, request.seat, data[4:-2].decode("ascii"))
            for twin in twins(state, request.seat, rng):
                assert REFEREE.request(twin, request) == data
                assert twin.observation(request) == state.observation(request)
                if twin.reds != state.reds:
                    differing += 1
                    assert twin.end_line(request.seat) != state.end_line(request.seat), "the twin is a real difference"
        answers = {}
        for _ in batch:
            move = replies.pop(0)
            request = Request(move.seat)
            assert request in batch and move.fault is None
            assert state.charge_time(request, move.elapsed_ms) is None
            answers[request] = REFEREE.parse(state, request, move.reply)
            assert state.check(request, answers[request]) is None
        state.apply(answers)
    assert replies == [] and asked == [len(seat) for seat in requests]
    assert differing > 10, "the permutations must have been put to the test"
    assert state.to_json() == record.final_state
    assert state.result().to_json() == record.result.to_json()


def assert_end_message_reveals_everything(state, seat, line):
    assert line.endswith(b"\r\n")
    text = line[:-2].decode("ascii")
    word = "DRW" if state.winner is None else ("WON" if state.winner == seat else "LST")
    assert text[:4] == word + ":"
    own, opponent = decode_board(text[4:])
    other = 1 - seat
    for i, piece in enumerate(own):
        colour = state.colour(seat, i)
        assert piece.colour == (colour if on_board(state.squares[seat][i]) else colour.lower())
    for i, piece in enumerate(opponent):
        assert piece.colour == state.colour(other, i).lower(), "every colour is shown, lower case"
    assert "u" not in text


@pytest.mark.parametrize("variant", VARIANTS, ids=["default", "move_off", "max_plies_40"])
@pytest.mark.parametrize("seed", SEEDS[:4])
def test_the_final_state_holds_both_setups_and_the_end_messages_reveal_everything(seed, variant):
    _, record, received = play(seed, **variant)
    final = record.final_state
    assert all(isinstance(reds, str) and len(set(reds)) == 4 and set(reds) <= set(LETTERS) for reds in final["reds"])
    assert record.result.extra["sets"] == [f"SET:{reds}" for reds in final["reds"]]
    state = GeisterState.from_json(final)
    assert state.to_json() == final and state.is_over()
    for seat in (0, 1):
        assert [data[:4] for data in received[seat][:2]] == [b"SET?", b"OK \r"]
        chosen = parse_command(f"SET:{final['reds'][seat]}", True)
        assert chosen.reds == final["reds"][seat]
        assert_end_message_reveals_everything(state, seat, received[seat][-1])
        assert not any(data[:4] in (b"WON:", b"LST:", b"DRW:") for data in received[seat][:-1])
    assert record.result.extra["final"] == received[0][-1][:-2].decode("ascii")
    order = 0 if record.result.winner is None else record.result.winner
    assert received[order][-1][:4] in (b"WON:", b"DRW:")
