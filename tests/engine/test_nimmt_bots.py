"""The built-in nimmt players: legal at every table size under both tables, seeded, sane, and ranked."""

import statistics
import time

import pytest

from engine.core import Termination
from engine.nimmt import Nimmt
from engine.nimmt.bots import BUILTIN_BOTS, GreedyBot, RandomBot
from engine.nimmt.montecarlo import MonteCarloBot, row_view, rule_of_thumb
from engine.nimmt.rules import CARDS, PlayObservation, TakeObservation
from engine.nimmt.tracking import TABLES, CardTracker, landing_risks
from league.match.bot_spec import BotSpec
from league.match.builtins import parameters
from league.match.players import make_launcher
from league.match.referee import play_match

FAST = {"montecarlo": {"samples": 4}}  # legality does not need the full budget
ROWS = ((10, 11, 12, 13, 14), (30,), (50, 51), (70, 71, 72, 73))


def play_game(names, seed, params=None, **variant):
    """A whole game between built-ins, every action checked; returns the state, the actions and each seat's CPU ms."""
    game = Nimmt(**variant)
    state = game.new_state(seed, len(names))
    params = params or [{}] * len(names)
    bots = [BUILTIN_BOTS[name](seed=seed * 16 + seat, **params[seat]) for seat, name in enumerate(names)]
    actions, spent = [], [[] for _ in names]
    while not state.is_over():
        acts = {}
        for request in state.to_act():
            observation = state.observation(request)
            start = time.process_time()
            action = bots[request.seat].act(observation)
            spent[request.seat].append(1000 * (time.process_time() - start))
            fault = state.check(request, action)
            assert fault is None, f"{names[request.seat]} at seat {request.seat}: {fault.detail}"
            if isinstance(observation, TakeObservation):
                assert action in range(4)
            else:
                assert action in observation.hand
            acts[request] = action
            actions.append((request.seat, action))
        state.apply(acts)
    assert state.result().termination is Termination.NORMAL and not any(state.faults)
    return state, actions, spent


def table(name, other, players, seat):
    """``name`` at ``seat``, ``other`` everywhere else."""
    return [name if s == seat else other for s in range(players)]


def mean_ranks(name, other, seeds, players=4, params=None):
    """Mean rank of ``name`` and of the ``other`` seats, ``name`` sitting at each seat in turn."""
    mine, theirs = [], []
    for seed in seeds:
        seat = seed % players
        state, _, _ = play_game(table(name, other, players, seat), seed, params)
        ranks = state.ranks()
        mine.append(ranks[seat])
        theirs += [rank for s, rank in enumerate(ranks) if s != seat]
    return statistics.mean(mine), statistics.mean(theirs)


def play_obs(hand, rows=ROWS, players=4, round_=5, bullheads="gpcc"):
    return PlayObservation(0, players, bullheads, 1, round_, tuple(hand), rows, (0,) * players)


@pytest.mark.parametrize("bullheads", ["gpcc", "classic"])
@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_every_bot_plays_legally_at_every_table_size(name, bullheads):
    names = sorted(BUILTIN_BOTS)
    for players in range(2, 11):
        seated = [name if seat % 2 == 0 else names[(players + seat) % len(names)] for seat in range(players)]
        params = [FAST.get(bot, {}) for bot in seated]
        state, actions, _ = play_game(seated, players, params, bullheads=bullheads, deals=1 + players % 2)
        assert state.deal == 1 + players % 2  # odd tables play two deals: the bots forget the first
        assert len(actions) >= 10 * players * state.deal


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_every_bot_plays_a_target_game_with_itself(name):
    state, _, _ = play_game([name] * 3, 11, [FAST.get(name, {})] * 3, target=30)
    assert max(state.totals) >= 30


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_same_seed_same_game(name):
    names = [name, "greedy", "random"]
    first = play_game(names, 7, [FAST.get(name, {}), {}, {}])
    second = play_game(names, 7, [FAST.get(name, {}), {}, {}])
    assert first[1] == second[1] and first[0].to_json() == second[0].to_json()


@pytest.mark.parametrize("cls", [RandomBot, MonteCarloBot])
def test_another_bot_seed_plays_another_game(cls):
    def actions(seed):
        bot = cls(seed=seed, **({"samples": 8} if cls is MonteCarloBot else {}))
        hands = [[c for c in range(1 + k, CARDS, 9) if not any(c in row for row in ROWS)][:6] for k in range(6)]
        return [bot.act(play_obs(hand)) for hand in hands]

    assert actions(1) == actions(1)
    assert any(actions(1) != actions(seed) for seed in range(2, 6))


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_parameters_are_documented(name):
    for parameter in parameters(BUILTIN_BOTS[name]).values():
        assert parameter.meaning, f"{name}: {parameter.name} has no description in Args:"


def test_montecarlo_refuses_a_tiny_budget():
    with pytest.raises(ValueError, match="samples"):
        MonteCarloBot(samples=3)
    with pytest.raises(ValueError, match="horizon"):
        MonteCarloBot(horizon=0)


def test_the_tracker_counts_hand_and_rows_as_seen_and_forgets_them_at_a_new_deal():
    tracker = CardTracker()
    tracker.update(play_obs([1, 2, 3]))
    unseen = tracker.unseen()
    assert not {1, 2, 3, 10, 14, 30, 50, 73} & set(unseen) and len(unseen) == CARDS - 3 - 12
    later = PlayObservation(0, 4, "gpcc", 2, 1, (5,), ((20,), (40,), (60,), (80,)), (0,) * 4)
    tracker.update(later)
    assert set(range(1, CARDS + 1)) - set(tracker.unseen()) == {5, 20, 40, 60, 80}


def test_landing_risks():
    table = TABLES["gpcc"]
    unseen = [c for c in range(1, CARDS + 1) if c not in {15, 18, 31, 5} and not any(c in row for row in ROWS)]
    sixth_now, sixth_maybe, safe, low = landing_risks([15, 18, 31, 5], ROWS, unseen, 0.05, table)
    assert sixth_now == pytest.approx(sum(table[c] for c in ROWS[0]))  # nothing can land between 14 and 15
    assert 0 < sixth_maybe < sixth_now  # 15..17 may land first
    assert safe == 0  # four cards of room, none can land between 30 and 31
    assert low == pytest.approx(3 * 0.95**4)  # the cheapest row (30), unless 1..4 comes first


@pytest.mark.parametrize("cls", [GreedyBot, MonteCarloBot])
def test_no_sixth_card_when_a_safe_card_is_at_hand(cls):
    hand = [15, 31, 100]  # 15 is the sixth card of a row worth 11, 100 likely the sixth of one worth 6; 31 is safe
    assert cls(seed=1).act(play_obs(hand)) == 31


@pytest.mark.parametrize("cls", [GreedyBot, MonteCarloBot])
def test_a_low_card_takes_the_cheap_row(cls):
    rows = ((10, 11, 12, 13, 55), (30,), (50, 51, 66), (70, 71, 72, 77))
    observation = TakeObservation(0, 3, "gpcc", 1, 4, 5, (5, 40, 90), (20, 60, 80), rows, (0, 0, 0))
    assert cls(seed=2).act(observation) == 1


def test_the_rule_of_thumb_prefers_a_small_gap_on_a_short_row():
    public = bytearray(CARDS + 1)
    view = row_view([14, 30, 51, 73], [5, 1, 2, 4], [11, 3, 4, 6], public, 3 / CARDS)  # ROWS
    assert rule_of_thumb([15, 31, 74, 100], view) == 31  # 31 and 74 land right after an end; the lower wins
    assert rule_of_thumb([15, 45, 74], view) == 74  # 74 lands right after 73; 45 has a wide gap; 15 is sixth


def test_built_ins_play_through_the_protocol_in_a_league_match():
    game = Nimmt()
    specs = [BotSpec(name=name, builtin=f"nimmt.{name}") for name in ("montecarlo", "greedy", "random")]
    record = play_match(game, [make_launcher(game, spec, seat, 5) for seat, spec in enumerate(specs)], 5)
    assert record.result.termination is Termination.NORMAL and record.result.offenders == []
    assert len(record.moves) >= 30


def test_montecarlo_is_fast_enough_at_five_players():
    _, _, spent = play_game(["montecarlo", "greedy", "greedy", "greedy", "greedy"], 3)
    assert statistics.mean(spent[0]) < 100  # CPU ms per decision; about 25 on our 2-core VM


def test_greedy_beats_random():
    greedy, field = mean_ranks("greedy", "random", range(40))
    assert greedy < 1.8 and field > 2.6, (greedy, field)


def test_montecarlo_beats_greedy():
    montecarlo, field = mean_ranks("montecarlo", "greedy", range(40))
    assert montecarlo < 2.3 and field > montecarlo + 0.3, (montecarlo, field)
