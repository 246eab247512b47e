"""The built-in codevs21 solo players: legal, deterministic per seed, through both protocol sides."""

import pytest

from engine.codevs21 import Codevs21
from engine.codevs21.bots import BUILTIN_BOTS, ChainBot
from engine.codevs21.protocol import Codevs21Referee, SoloDriver
from engine.core import Request

SHORT = {"case": "small", "N": 60, "A": 30, "B_obs": 60}


def play_through_both_sides(name, seed, **variant):
    """A solo game: the bot side reads the real greeting, the referee side parses and judges its lines."""
    game = Codevs21(**{**SHORT, **variant})
    state = game.new_state(seed, 1)
    referee = Codevs21Referee()
    params = game.params()
    driver = SoloDriver(BUILTIN_BOTS[name](seed=seed), params.P, params.Th)
    answers = [driver.feed(line) for line in referee.greeting(state, None).decode().splitlines()]
    assert answers[:-1] == [None] * (len(answers) - 1), "every move comes after the last pack"
    request = Request(0)
    for line in answers[-1].split("\n"):
        if state.is_over():
            break
        action = referee.parse(state, request, line)
        assert state.check(request, action) is None, f"{name} made an illegal move {line!r}"
        state.apply({request: action})
    return state


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
@pytest.mark.parametrize("case", ["small", "medium"])
def test_every_bot_plays_a_whole_game_legally(name, case):
    state = play_through_both_sides(name, 3, case=case)
    [record] = state.records()
    assert record["end"] in ("clear", "overflow") and record["turns"] >= 1


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_same_seed_same_game(name):
    first, second = (play_through_both_sides(name, 5).to_json() for _ in range(2))
    assert first == second


def test_chains_refuses_a_width_below_one():
    with pytest.raises(ValueError, match="width"):
        ChainBot(width=0)


def test_chains_outscores_greedy():
    chains = sum(play_through_both_sides("chains", seed).records()[0]["score"] for seed in range(3))
    greedy = sum(play_through_both_sides("greedy", seed).records()[0]["score"] for seed in range(3))
    assert chains > 2 * greedy, (chains, greedy)


class Recording:
    """Wraps a built-in and keeps what it saw."""

    def __init__(self, bot):
        self.bot, self.seen = bot, []

    def act(self, observation):
        self.seen.append(observation)
        return self.bot.act(observation)


@pytest.mark.parametrize(("first", "second"), [("random", "greedy"), ("chains", "random")])
def test_versus_both_sides_agree_turn_by_turn(first, second):
    """The versus bot side rebuilds from the bytes exactly what the state shows, both fields included."""
    game = Codevs21(mode="versus", case="small", N=40, A=20, B_obs=40)
    state, referee = game.new_state(9, 2), Codevs21Referee()
    bots = [Recording(BUILTIN_BOTS[name](seed=seat)) for seat, name in enumerate((first, second))]
    drivers = [game.bot_protocol(bot) for bot in bots]
    queues = [[], []]
    for seat in (0, 1):
        queues[seat] += [r for r in map(drivers[seat].feed, referee.greeting(state, None).decode().splitlines()) if r]
    while not state.is_over():
        actions = {}
        for request in state.to_act():
            seat = request.seat
            lines = referee.request(state, request).decode().splitlines()
            queues[seat] += [reply for reply in map(drivers[seat].feed, lines) if reply]
            assert len(queues[seat]) == 1, queues[seat]
            assert bots[seat].seen[-1] == state.observation(request), "the bot side rebuilt another position"
            action = referee.parse(state, request, queues[seat].pop())
            assert state.check(request, action) is None
            actions[request] = action
        state.apply(actions)
    records = state.records()
    assert {record["end"] for record in records} <= {"clear", "overflow", "survived"}
    assert state.result().ranks in ([1, 2], [2, 1], [1, 1])
    assert type(state).from_json(state.to_json()).to_json() == state.to_json()
