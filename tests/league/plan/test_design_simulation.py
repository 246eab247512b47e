"""A league's design simulated on guessed strengths: orders, verdicts, games, and the same draws from the same seed."""

import itertools
import math

import numpy as np
import pytest

from engine.synthetic.model import draw_elo, elo_difference, outcome_probabilities
from league.plan.adaptive_batches import STOP_CAPPED, STOP_SETTLED, AdaptiveSettings
from league.plan.adaptive_simulation import Model, UnitSource
from league.plan.adaptive_simulation import simulate_adaptive as simulate_one_adaptive
from league.plan.config import load_league
from league.plan.design_simulation import (
    ADAPTIVE,
    ROUND_ROBIN,
    SPRT,
    DesignOutcome,
    GuessedModel,
    _adaptive_leagues,
    first_seated_games,
    in_true_order,
    normalized_difference,
    simulate_adaptive,
    simulate_designs,
    simulate_round_robin,
    simulate_sprt,
    true_strengths,
)
from league.plan.schedule import PairSchedule
from league.stats.active_ranking import ActiveRanking
from league.stats.sprt import H0, H1, SprtSettings
from tests.conftest import write_league


def synthetic_league(tmp_path, elos, **overrides):
    """A synthetic league file of model bots stating ``elos``, loaded."""
    bots = [{"name": name, "builtin": "synthetic.model", "params": {"elo": elo}} for name, elo in elos.items()]
    config = {"game": "synthetic", "variants": {"default": {"draw_rate": 0.2}}, "bots": bots, **overrides}
    path = write_league(tmp_path, **config)
    if "games_per_pair" not in overrides:  # write_league gives one; other formats refuse it
        path.write_text("\n".join(line for line in path.read_text().splitlines() if "games_per_pair" not in line))
    return load_league(path)


def test_the_guessed_model_is_the_synthetic_games_own_with_its_cycle():
    model = GuessedModel({"a": 1600.0, "b": 1500.0}, 0.3, 25.0, {"a": "rock", "b": "paper"}, 40.0)
    for first_seated, seats in ((True, ("a", "b")), (False, ("b", "a"))):
        d = elo_difference(
            (model.elos[seats[0]], model.elos[seats[1]]), (model.styles[seats[0]], model.styles[seats[1]]), 25.0, 40.0
        )
        win, draw, loss = outcome_probabilities(d, draw_elo(0.3))
        expected = (win, draw, loss) if first_seated else (loss, draw, win)
        assert model.game_chances("a", "b", first_seated) == pytest.approx(expected)
    plain = GuessedModel({"a": 1600.0, "b": 1500.0}, 0.3, 25.0)
    assert plain.game_chances("a", "b", False) == pytest.approx(
        Model(plain.elos, 0.3, 25.0).game_chances("a", "b", False)
    )


def test_the_true_order_follows_the_cycle_and_lets_equals_come_either_way():
    assert list(true_strengths(Model({"a": 0.0, "b": 100.0, "c": 50.0}))) == ["a", "b", "c"]
    strengths = true_strengths(Model({"a": 0.0, "b": 100.0, "c": 100.0}))
    assert in_true_order(["b", "c", "a"], strengths) and in_true_order(["c", "b", "a"], strengths)
    assert not in_true_order(["b", "a", "c"], strengths)
    # paper (weaker by 30 Elo) beats rock by 200 through the cycle: it is truly ahead
    cycled = GuessedModel({"r": 30.0, "p": 0.0}, styles={"r": "rock", "p": "paper"}, cycle_elo=200.0)
    assert in_true_order(["p", "r"], true_strengths(cycled)) and not in_true_order(["r", "p"], true_strengths(cycled))


@pytest.mark.parametrize("games_per_pair", [1, 2, 3, 5, 8])
def test_a_round_robin_is_seated_as_the_league_seats_it(games_per_pair):
    schedule = PairSchedule("x", [("a", "b")], ["v"], games_per_pair, seed=1)
    assert first_seated_games(games_per_pair) == sum(spec.seats[0] == "a" for spec in schedule)


def test_a_dominant_bot_is_ranked_first_and_a_coin_toss_is_not_claimed_right():
    dominant = simulate_round_robin(Model({"x": 0.0, "top": 600.0, "y": 0.0}), 4, 200, np.random.default_rng(1))
    assert dominant.order_right == dominant.claims_right >= 0.97  # x and y may come either way
    close = simulate_round_robin(Model({"b": 0.0, "a": 5.0}), 2, 200, np.random.default_rng(1))
    assert close.order_right < 0.7
    assert close.games.tolist() == [2] * 200 and dominant.games_p90 == 12


def test_an_sprt_at_its_hypotheses_mostly_reaches_the_right_verdict():
    better = Model({"new": 40.0, "old": 0.0}, draw_rate=0.2)
    truth = normalized_difference(better, "new", "old")
    test = SprtSettings(elo0=0.0, elo1=truth)
    at_elo1 = simulate_sprt(better, test, 5000, 60, np.random.default_rng(3))
    at_elo0 = simulate_sprt(Model({"new": 0.0, "old": 0.0}, draw_rate=0.2), test, 5000, 60, np.random.default_rng(3))
    assert at_elo1.stops[H1] >= 0.85 and at_elo0.stops[H0] >= 0.85
    assert at_elo1.claims_right == at_elo1.stops[H1] + at_elo1.stops["undecided"]
    assert at_elo0.claims_right == at_elo0.stops[H0] + at_elo0.stops["undecided"]
    assert at_elo1.order_right is None and sum(at_elo1.stops.values()) == pytest.approx(1)


def test_an_sprt_capped_before_it_decides_is_undecided_at_max_games():
    capped = simulate_sprt(Model({"new": 3.0, "old": 0.0}), SprtSettings(0.0, 5.0), 20, 10, np.random.default_rng(1))
    assert capped.stops["undecided"] == 1.0 and capped.games.tolist() == [40] * 10


def test_adaptive_leagues_side_by_side_decide_as_each_would_alone():
    model = GuessedModel(
        {"a": 0.0, "b": 150.0, "c": 160.0, "d": 400.0}, 0.2, 20.0, {"a": "rock", "d": "paper"}, cycle_elo=30.0
    )
    settings = AdaptiveSettings(confidence=0.9, tie_elo=80, batch_units=6, max_units=1200)
    streams = np.random.SeedSequence(10).spawn(2)
    together = _adaptive_leagues(model, settings, [np.random.default_rng(stream) for stream in streams])
    alone = [simulate_one_adaptive(model, settings, np.random.default_rng(stream)) for stream in streams]
    assert [outcome for outcome, _ in together] == alone
    assert {outcome.stop for outcome in alone} == {STOP_SETTLED, STOP_CAPPED}  # both ways of stopping
    assert [sum(batches) for _, batches in together] == [2 * outcome.units for outcome in alone]


def test_a_round_robin_of_the_games_an_adaptive_league_needs_on_a_spread_field_is_not_settled():
    model = Model({"a": 0.0, "b": 200.0, "c": 400.0, "d": 430.0, "e": 700.0}, draw_rate=0.2, first_seat_elo=20)
    settings = AdaptiveSettings(confidence=0.9, tie_elo=40, batch_units=5, max_units=100_000)
    adaptive = simulate_adaptive(model, settings, 5, seed=1)
    assert adaptive.stops[STOP_SETTLED] == 1.0 and adaptive.claims_right >= 0.8
    pairs = list(itertools.combinations(model.elos, 2))
    per_pair = adaptive.games_p90 // 2 // len(pairs)  # as many units in all, spread evenly
    source = UnitSource(model, np.random.default_rng(1))
    round_robin = ActiveRanking(list(model.elos), settings.confidence, settings.tie_elo, one_look=True)
    round_robin.take({pair: source.draw(pair, per_pair) for pair in pairs})
    assert not round_robin.settled  # the near twins c and d: the adaptive league spent its games there


def test_the_designs_follow_the_league_and_the_same_seed_draws_the_same(tmp_path):
    elos = {"new": 1560.0, "old": 1500.0}
    league = synthetic_league(tmp_path, elos, format="sprt", sprt={"elo0": 0, "elo1": 10}, max_games=4000)
    model = GuessedModel(elos, 0.2)
    designs = simulate_designs(league, model, 8, seed=1)
    assert [design.design for design in designs] == [SPRT, ROUND_ROBIN, ADAPTIVE]
    assert "H0 0, H1 10" in designs[0].settings and "max_games 4,000" in designs[0].settings
    per_pair = designs[1].games[0]  # two bots: the round robin's games are its games per pair
    assert per_pair % 2 == 0 and abs(per_pair - designs[0].mean_games) <= 2
    assert simulate_designs(league, model, 8, seed=1) == designs
    assert simulate_designs(league, model, 8, seed=2) != designs


def test_three_bots_are_no_sprt_and_a_round_robin_compares_the_adaptive_defaults(tmp_path):
    elos = {"a": 1700.0, "b": 1500.0, "c": 1300.0}
    league = synthetic_league(tmp_path, elos, games_per_pair=6)
    designs = simulate_designs(league, GuessedModel(elos, 0.2), 4, seed=1)
    assert [design.design for design in designs] == [ROUND_ROBIN, ADAPTIVE]
    assert designs[0].settings == "games_per_pair 6" and designs[0].mean_games == 18
    assert designs[1].settings.endswith("(the defaults)")


def test_rounds_count_each_batch_in_turn():
    outcome = DesignOutcome(ADAPTIVE, "", [[10, 3], [5]], 1.0, 1.0)
    assert outcome.rounds(4) == (3 + 1 + 2) / 2 and outcome.rounds(100) == 1.5
    assert outcome.mean_games == 9 and outcome.games_p90 == 13
    assert math.isinf(normalized_difference(Model({"a": 1e5, "b": -1e5}), "a", "b"))
