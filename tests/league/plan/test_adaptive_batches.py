"""An adaptive league's batches: warm-up, batches planned from completed ones, stops; its promise, simulated."""

import itertools
import math

import numpy as np
import pytest

import league.stats.active_ranking as active_ranking
from league.plan.adaptive_batches import STOP_CAPPED, STOP_SETTLED, AdaptiveBatches, AdaptiveSettings
from league.plan.adaptive_simulation import Model, UnitSource, round_robin_units, simulate_adaptive, wrong_share

BOTS = ["a", "b", "c", "d"]


def feed(league: AdaptiveBatches, source: UnitSource) -> None:
    """Take the league's next batch, its units drawn from ``source``."""
    league.take({pair: source.draw(pair, count) for pair, count in league.batches[league.taken].items()})


def test_the_warm_up_is_every_pair_and_two_batches_follow_it():
    league = AdaptiveBatches(BOTS, AdaptiveSettings(warmup_units=2, batch_units=6))
    assert league.batches == [dict.fromkeys(itertools.combinations(BOTS, 2), 2)]
    source = UnitSource(Model(dict(zip(BOTS, [0, 5, 10, 15], strict=True))), np.random.default_rng(1))
    feed(league, source)
    assert len(league.batches) == 3 and league.taken == 1  # batch 2 planned beside batch 1, both from the warm-up
    assert [sum(batch.values()) for batch in league.batches[1:]] == [6, 6]
    feed(league, source)
    assert len(league.batches) == 4  # one more each time: always one planned beyond the one being finished


def test_a_batch_grows_to_a_tenth_of_the_units_before_it():
    league = AdaptiveBatches(BOTS, AdaptiveSettings(warmup_units=100, batch_units=6, tie_elo=0))
    source = UnitSource(Model(dict.fromkeys(BOTS, 0.0)), np.random.default_rng(2))
    feed(league, source)
    assert sum(league.batches[1].values()) == 60 and sum(league.batches[2].values()) == 66


def test_the_same_units_plan_the_same_batches():
    plans = []
    for _ in range(2):
        league = AdaptiveBatches(BOTS, AdaptiveSettings(batch_units=5))
        source = UnitSource(Model(dict(zip(BOTS, [0, 20, 40, 60], strict=True))), np.random.default_rng(7))
        for _ in range(6):
            feed(league, source)
        plans.append(league.batches)
    assert plans[0] == plans[1]


def test_it_stops_when_settled_and_units_planned_beyond_count_for_nothing():
    league = AdaptiveBatches(BOTS, AdaptiveSettings(batch_units=4, tie_elo=30))
    source = UnitSource(Model(dict(zip(BOTS, [0, 600, 1200, 1800], strict=True))), np.random.default_rng(3))
    while league.stop is None:
        feed(league, source)
    assert league.stop == STOP_SETTLED and league.ranking.settled
    assert league.ranking.ranking() == ["d", "c", "b", "a"]
    assert league.counted_units < league.planned_units  # the batch in flight when it stopped
    with pytest.raises(ValueError, match="stopped"):
        league.take({})


def test_max_units_cuts_the_last_batch_and_stops_the_league_unsettled():
    league = AdaptiveBatches(BOTS, AdaptiveSettings(batch_units=7, max_units=30, tie_elo=0))
    source = UnitSource(Model(dict.fromkeys(BOTS, 0.0)), np.random.default_rng(4))
    while league.stop is None:
        feed(league, source)
    assert league.stop == STOP_CAPPED and not league.ranking.settled
    assert league.planned_units == league.counted_units == 30
    assert [sum(batch.values()) for batch in league.batches] == [6, 7, 7, 7, 3]


# The promise: however often it looks and however many pairs it judges, an adaptive league claims a
# wrong order or tie in at most 1 - confidence of leagues. Near ties make wrong claims tempting.
PROMISE = Model({"a": 0.0, "b": 10.0, "c": 80.0, "d": 300.0}, draw_rate=0.2, first_seat_elo=20)
PROMISE_SETTINGS = AdaptiveSettings(confidence=0.9, tie_elo=60, batch_units=4, max_units=20_000)
LEAGUES = 60


def promise_share() -> float:
    rng = np.random.default_rng(2026)
    outcomes = [simulate_adaptive(PROMISE, PROMISE_SETTINGS, rng) for _ in range(LEAGUES)]
    assert all(outcome.stop == STOP_SETTLED for outcome in outcomes)
    return wrong_share(outcomes)


def test_simulated_leagues_claim_something_wrong_no_more_often_than_the_confidence_allows():
    allowed = 1 - PROMISE_SETTINGS.confidence
    error = math.sqrt(allowed * (1 - allowed) / LEAGUES)  # the Monte Carlo error of the share at the bound
    assert promise_share() <= allowed + 2 * error


def test_the_simulation_catches_intervals_that_ignore_looks_and_pairs(monkeypatch):
    """A normal interval at 90% on each look, with no correction: the check above must see it fail."""
    monkeypatch.setattr(active_ranking, "radius", lambda count, variance, error: 1.645 * math.sqrt(variance / count))
    allowed = 1 - PROMISE_SETTINGS.confidence
    assert promise_share() > allowed + 2 * math.sqrt(allowed * (1 - allowed) / LEAGUES)


def test_an_adaptive_league_settles_on_fewer_units_than_a_round_robin():
    elos = {"a": 0.0, "b": 3.0, "c": 120.0, "d": 260.0, "e": 270.0, "f": 500.0}
    model = Model(elos, draw_rate=0.3, first_seat_elo=30)
    settings = AdaptiveSettings(confidence=0.9, tie_elo=40, batch_units=5, max_units=200_000)
    adaptive = simulate_adaptive(model, settings, np.random.default_rng(5))
    per_pair = round_robin_units(model, settings, np.random.default_rng(5), most=50_000)
    assert adaptive.stop == STOP_SETTLED and per_pair is not None
    assert adaptive.units < per_pair * len(elos) * (len(elos) - 1) // 2
