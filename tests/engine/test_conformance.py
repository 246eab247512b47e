"""Every registered game obeys the engine contract (OpenSpiel random_sim_test, PettingZoo api_test).

Random playouts end; the same seed gives the same game; states round-trip through JSON; and the
referee side and the bot side of the protocol agree on every request and every reply.
"""

import json
from collections.abc import Mapping

import pytest

from engine import GAMES
from engine.core import ProcessKey, Request

MAX_STEPS = 200_000
SEEDS = [0, 1, 7, 2015]


class RecordingBot:
    """Wraps a built-in bot and remembers what it saw and answered."""

    def __init__(self, bot):
        self.bot = bot
        self.seen = []

    def act(self, observation):
        action = self.bot.act(observation)
        self.seen.append((observation, action))
        return action


def feed(driver, data):
    """Feed referee bytes to a bot-side driver line by line; the reply lines it produced, in order."""
    replies = []
    for line in data.decode("ascii").splitlines():
        reply = driver.feed(line.removesuffix("\r"))
        if reply is not None:
            replies += reply.split("\n")  # a bot may answer several requests at once (codevs21 solo)
    return replies


def playout(game, seed, seats):
    """Play random bots through both sides of the protocol; returns the JSON of every state.

    A bot's reply lines wait in a queue, as in its stdout: each request takes the next one, and
    must find exactly one there (a reply to the greeting answers the first request, as codevs21's
    first move does). Only a bot whose input ends at the greeting (codevs21's solo bots print
    every move after the initial input) may answer ahead.
    """
    state = game.new_state(seed, seats)
    referee = game.referee_protocol()
    random_bot = type(game).builtin_bots()["random"]  # a class, or for games with roles a class per role
    bots, drivers, queues, answered = {}, {}, {}, {}
    history = [state.to_json()]
    for _ in range(MAX_STEPS):
        if state.is_over():
            return history
        for key in sorted(state.processes() - drivers.keys()):
            bot_class = random_bot[key.role] if isinstance(random_bot, Mapping) else random_bot
            bots[key] = RecordingBot(bot_class(seed=seed * 31 + key.seat))
            drivers[key] = game.bot_protocol(bots[key])
            queues[key], answered[key] = feed(drivers[key], referee.greeting(state, key)), 0
        actions = {}
        for request in state.to_act():
            key = next(k for k in state.processes() if (k.seat, k.role) == (request.seat, request.role))
            queues[key] += feed(drivers[key], referee.request(state, request))
            ahead = referee.ends_input_after_greeting(state, key)
            assert queues[key] and (ahead or len(queues[key]) == 1), f"one reply per request, got {queues[key]}"
            observation, action = bots[key].seen[answered[key]]
            answered[key] += 1
            assert observation == state.observation(request), "the bot side decoded another observation"
            assert referee.parse(state, request, queues[key].pop(0)) == action, "the referee parsed another action"
            assert state.check(request, action) is None, f"random bot made an illegal move {action}"
            actions[request] = action
        state.apply(actions)
        for key, data in referee.notices(state, actions):
            assert feed(drivers[key], data) == [], "information lines must not be answered"
        data = state.to_json()
        assert json.loads(json.dumps(data)) == data
        assert type(state).from_json(json.loads(json.dumps(data))).to_json() == data
        history.append(data)
    pytest.fail(f"{game.name} did not end within {MAX_STEPS} steps")


def small_variants(game_class, seats=None):
    """A fast variant of each game for random playouts (codevs21: the mode that seats ``seats``)."""
    if game_class.name == "codevs21":
        return {"mode": "versus" if seats == 2 else "solo", "case": "small", "N": 40, "A": 20, "B_obs": 40}
    return {"versus2048": {"turns_per_player": 60}}.get(game_class.name, {})


SEAT_COUNTS = [
    (name, seats) for name in sorted(GAMES) for seats in range(GAMES[name].min_seats, GAMES[name].max_seats + 1)
]
"""Every registered game with every number of seats it allows."""


@pytest.mark.parametrize(("name", "seats"), SEAT_COUNTS)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playouts_end_and_sides_agree(name, seats, seed):
    game_class = GAMES[name]
    game = game_class(**small_variants(game_class, seats))
    history = playout(game, seed, seats)
    final = type(game.new_state(seed, seats)).from_json(history[-1])
    assert final.is_over()
    result = final.result()
    assert len(result.scores) == len(result.ranks) == seats
    assert min(result.ranks) == 1
    assert sorted(result.ranks) == [1 + sorted(result.ranks).index(rank) for rank in sorted(result.ranks)]


def test_every_seat_count_is_covered():
    assert ("nimmt", 10) in SEAT_COUNTS and ("fish", 4) in SEAT_COUNTS and ("geister", 3) not in SEAT_COUNTS


@pytest.mark.parametrize("name", sorted(GAMES))
def test_same_seed_same_game(name):
    game_class = GAMES[name]
    game = game_class(**small_variants(game_class))
    assert playout(game, 5, game_class.min_seats) == playout(game, 5, game_class.min_seats)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_default_variant_matches_schema(name):
    game_class = GAMES[name]
    game = game_class()
    assert game_class(**game.variant()) == game
    assert isinstance(game.new_state(0).to_act()[0], Request)
    assert all(isinstance(key, ProcessKey) for key in game.new_state(0).processes())
