"""The built-in pk2048 players: legal, deterministic by seed, and using the special operations well."""

import random

import pytest

from engine.core import ProcessKey, Request
from engine.pk2048 import PK2048
from engine.pk2048.bots import BUILTIN_BOTS, GreedyBot
from engine.pk2048.rules import Observation, Operation, find_violation, is_stuck, legal_operations, perform, slide
from engine.pk2048.search import WIN, ExpectimaxBot, fast_slide


def board(text):
    """Exponents from a board of values written ``a b c d / e f g h / ...``."""
    values = [int(token) for token in text.replace("/", " ").split()]
    return tuple(value.bit_length() - 1 if value else 0 for value in values)


def observation(text, my_score=0, opp_score=0, **used):
    return Observation(
        player=1,
        spawn_cell=0,
        spawn_value=0,
        opp_interference=0,
        opp_bomb=0,
        opp_move=0,
        board=board(text),
        my_score=my_score,
        opp_score=opp_score,
        **used,
    )


def play_match(bot_names, seed, **variant):
    """A whole match between built-ins, in process; every operation is checked. Returns state and operations."""
    state = PK2048(**variant).new_state(seed)
    bots, operations = {}, []
    while not state.is_over():
        (request,) = state.to_act()
        key = (request.seat, state.game_index)
        if key not in bots:
            bots[key] = BUILTIN_BOTS[bot_names[request.seat]](seed=seed * 10 + request.seat + 100 * state.game_index)
        operation = bots[key].act(state.observation(request))
        assert state.check(request, operation) is None, (bot_names[request.seat], operation)
        operations.append(operation)
        state.apply({request: operation})
    return state, operations


def test_fast_slide_agrees_with_the_rules():
    rng = random.Random(1)
    for _ in range(3000):
        cells = tuple(rng.choice([0, 0, 0, 1, 1, 2, 2, 3, 4, 5, 10, 11]) for _ in range(16))
        for direction in (1, 2, 3, 4):
            outcome = slide(cells, direction)
            assert fast_slide(cells, direction) == (outcome.board, outcome.gain)


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_every_bot_plays_legal_whole_matches(name):
    state, _ = play_match([name, "random"], seed=3, target_tile=256)
    assert state.is_over()
    assert all(game["decided_by"] != "fault" for game in state.games)


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_same_seed_same_match(name):
    first = play_match([name, "greedy"], seed=8, target_tile=128)
    second = play_match([name, "greedy"], seed=8, target_tile=128)
    assert first[1] == second[1] and first[0].to_json() == second[0].to_json()


def test_random_bot_uses_every_kind_of_operation():
    _, operations = play_match(["random", "random"], seed=1)
    assert any(op.interference for op in operations)
    assert any(op.bomb for op in operations)
    assert any(op.interference == op.bomb == 0 for op in operations)


WHERE_A_BOMB_SCORES = "256 2 256 4 / 4 8 16 32 / 0 0 0 0 / 0 0 0 0"  # the only slide is down, for 0


@pytest.mark.parametrize("bot", [GreedyBot(seed=1), ExpectimaxBot(seed=1)], ids=["greedy", "expectimax"])
def test_bomb_between_two_equal_tiles(bot):
    obs = observation(WHERE_A_BOMB_SCORES)
    operation = bot.act(obs)
    assert operation.bomb == 2 and operation.direction in (2, 4)
    assert perform(obs.board, operation)[1] == 512


def test_greedy_keeps_its_bomb_when_a_slide_scores_as_much():
    obs = observation("2 2 0 0 / 0 0 0 0 / 0 0 0 0 / 8 16 32 4")  # some bombs score 4 too
    for seed in range(20):
        operation = GreedyBot(seed=seed).act(obs)
        assert operation.bomb == 0 and operation.interference == 0
        assert perform(obs.board, operation)[1] == 4


def test_greedy_breaks_ties_with_its_seed():
    obs = observation("2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 4")
    assert len({GreedyBot(seed=seed).act(obs) for seed in range(30)}) == 4


STUCK = "2 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 4 8"
ONE_HOLE = "0 4 2 4 / 4 2 4 2 / 2 4 2 4 / 4 2 4 8"  # a 2 on cell 1 makes it STUCK


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_a_stuck_board_with_the_bomb_unused_gets_a_legal_bomb(name):
    obs = observation(STUCK)
    operation = BUILTIN_BOTS[name](seed=2).act(obs)
    assert operation.bomb != 0
    assert find_violation(obs.board, operation, False, False) is None


@pytest.mark.parametrize(("my_score", "opp_score"), [(100, 100), (140, 100)])
def test_expectimax_interferes_to_leave_a_bombless_opponent_stuck_when_that_wins(my_score, opp_score):
    obs = observation(ONE_HOLE, my_score, opp_score, opp_bomb_used=True)
    assert ExpectimaxBot(seed=0).act(obs) == Operation(1, 0, 0)
    assert is_stuck(perform(obs.board, Operation(1, 0, 0))[0])


def test_expectimax_does_not_end_a_game_it_would_lose():
    obs = observation(ONE_HOLE, 96, 100, opp_bomb_used=True)
    assert ExpectimaxBot(seed=0).act(obs).interference == 0


def test_expectimax_does_not_hand_the_opponent_a_big_merge():
    # Left scores 4 now but lines up 64 over 64 for the opponent; up or down give nothing away.
    obs = observation("2 2 64 0 / 0 0 0 64 / 0 0 0 0 / 0 0 0 0")
    operation = ExpectimaxBot(seed=0).act(obs)
    after, _ = perform(obs.board, operation)
    best_reply = max(gain for _, _, gain in legal_operations(after, True, True))
    assert best_reply < 128


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("expectimax_seat", [0, 1])
def test_expectimax_beats_greedy(seed, expectimax_seat):
    names = ["greedy", "greedy"]
    names[expectimax_seat] = "expectimax"
    state, _ = play_match(names, seed=seed)
    assert state.result().winner == expectimax_seat


def test_expectimax_node_budget_limits_deeper_search():
    bot = ExpectimaxBot(seed=0, depth=3, max_nodes=500)
    bot.act(observation("2 4 8 0 / 4 2 0 0 / 2 0 0 0 / 0 0 0 0"))
    assert bot.searched_depth == 1, "a second turn pair would cost far more than 500 nodes"
    small = ExpectimaxBot(seed=0, depth=2, max_nodes=10**6)
    small.act(observation("2 4 8 16 / 4 2 8 4 / 2 4 16 32 / 64 2 4 0"))
    assert small.searched_depth == 2


def test_every_request_kind_is_answered_by_every_bot_through_the_wire():
    from engine.pk2048.protocol import PK2048Driver, PK2048Referee

    referee = PK2048Referee()
    for name, bot_class in BUILTIN_BOTS.items():
        state = PK2048(first_player="seat1").new_state(4)
        driver = PK2048Driver(bot_class(seed=1))
        lines = referee.request(state, Request(1)).decode().splitlines()
        replies = [driver.feed(line) for line in lines]
        assert replies[0] is None, name
        assert state.check(Request(1), referee.parse(state, Request(1), replies[1])) is None, name


def test_built_ins_learn_the_variant_rules_the_wire_does_not_carry():
    from league.match.bot_spec import BotSpec
    from league.match.players import make_launcher

    game = PK2048(four_probability=0.0, target_tile=64)
    assert game.bot_rules() == {"four_probability": 0.0, "target_tile": 64}
    for name in BUILTIN_BOTS:
        launch = make_launcher(game, BotSpec(name, builtin=f"pk2048.{name}"), 0, 0)
        bot = launch(ProcessKey(0)).driver.bot
        assert isinstance(bot, BUILTIN_BOTS[name])
        if isinstance(bot, ExpectimaxBot):
            assert bot.target == 6 and bot.chances == [(1, 1.0)]


def test_expectimax_knows_a_small_target_tile_ends_the_game():
    # Merging the 32s makes a 64: with target 64 that wins the game at once (8 + 64 > 60).
    board_ = board("32 32 0 0 / 2 4 8 2 / 0 0 0 0 / 0 0 0 0")
    after, gain = perform(board_, Operation(0, 0, 4))
    used = (False, False, False, False)
    diff = 8 + gain - 60
    assert ExpectimaxBot(target_tile=64)._after(after, diff, used, Operation(0, 0, 4), 1, True) >= WIN
    assert ExpectimaxBot(target_tile=2048)._after(after, diff, used, Operation(0, 0, 4), 1, True) < WIN
    obs = observation("32 32 0 0 / 2 4 8 2 / 0 0 0 0 / 0 0 0 0", my_score=8, opp_score=60)
    assert perform(obs.board, ExpectimaxBot(seed=0, target_tile=64).act(obs))[1] == 64
