"""An adaptive league's statistics: intervals, looks, claims about neighbours, where the next units go."""

import math

import pytest

from league.stats.active_ranking import (
    LOOK_WEIGHT,
    ActiveRanking,
    Claim,
    PairUnits,
    look_point,
    radius,
    score_at,
)


def test_the_radius_is_hoeffding_s_for_one_unit_and_the_tighter_bound_after():
    assert radius(0, 0.0, 0.05) == math.inf
    assert radius(1, 0.0, 0.05) == pytest.approx(math.sqrt(math.log(4 / 0.05) / 2))
    # Units that all agree: the empirical Bernstein bound, 7 ln(8 / error) / (3 (n - 1)), beats Hoeffding's.
    assert radius(400, 0.0, 0.05) == pytest.approx(7 * math.log(8 / 0.05) / (3 * 399))
    # The widest spread of scores in [0, 1]: Hoeffding's is the tighter.
    assert radius(400, 0.25, 0.05) == pytest.approx(math.sqrt(math.log(4 / 0.05) / 800))
    assert radius(100, 0.1, 0.01) > radius(101, 0.1, 0.01) > radius(101, 0.1, 0.02)


def test_a_pair_is_judged_at_grid_points_that_grow_by_a_quarter():
    assert [look_point(look) for look in range(1, 11)] == [1, 2, 3, 4, 5, 7, 9, 12, 15, 19]
    units = PairUnits()
    units.add([1.0, 0.5, 0.5, 0.0, 1.0, 0.75])  # six units: judged on the first five (grid point 5)
    assert (units.count, units.looks, units.judged) == (6, 5, 5)
    count, mean, variance = units.judged_mean_and_variance()
    assert (count, mean) == (5, pytest.approx(0.6))
    assert variance == pytest.approx(sum((v - 0.6) ** 2 for v in [1.0, 0.5, 0.5, 0.0, 1.0]) / 4)
    units.add([0.0])  # the seventh reaches grid point 7
    assert (units.looks, units.judged) == (6, 7)


def test_the_error_is_split_over_every_pair_of_bots_and_each_pair_s_looks():
    ranking = ActiveRanking(["a", "b", "c", "d", "e"], confidence=0.9, tie_elo=20)
    assert ranking.pair_error == pytest.approx(0.1 / 10)
    assert sum(ranking.look_error(look) for look in range(1, 100_000)) < ranking.pair_error
    assert ranking.look_error(3) == pytest.approx(0.01 * LOOK_WEIGHT / 9)
    fixed = ActiveRanking(["a", "b", "c", "d", "e"], confidence=0.9, tie_elo=20, one_look=True)
    assert fixed.look_error(3) == fixed.pair_error


def test_intervals_prove_an_order_a_tie_or_nothing():
    ranking = ActiveRanking(["weak", "strong", "twin", "other"], confidence=0.95, tie_elo=50)
    ranking.take({("weak", "strong"): [0.0, 0.25] * 300})  # strong far above weak
    ranking.take({("strong", "twin"): [0.5] * 2000})  # all draws: within 50 Elo of each other
    ranking.take({("twin", "other"): [0.5, 1.0, 0.0]})  # three units: nothing is proven
    low, high, units = ranking.interval("strong", "weak")
    assert 0.5 < low < high < 1 and units == 600
    assert ranking.interval("weak", "strong")[:2] == pytest.approx((1 - high, 1 - low))
    low, high, units = ranking.interval("strong", "twin")
    assert score_at(-50) <= low < 0.5 < high <= score_at(50) and units == 2000
    low, high, _ = ranking.interval("twin", "other")
    assert low < score_at(-50) and high > score_at(50)
    assert ranking.interval("weak", "other") == (0.0, 1.0, 0)
    assert ranking.ranking()[-1] == "weak"
    assert not ranking.settled  # weak's upper neighbour has never met it


def test_a_settled_ranking_has_every_neighbour_ordered_or_tied():
    ranking = ActiveRanking(["a", "b", "c"], confidence=0.95, tie_elo=30)
    ranking.take({("a", "b"): [1.0] * 200, ("b", "c"): [0.5] * 3000, ("a", "c"): [1.0] * 200})
    claims = ranking.claims()
    assert [(n.upper, n.lower) for n in claims] == [("a", "b"), ("b", "c")]
    assert [n.claim for n in claims] == [Claim.ORDERED, Claim.TIED]
    assert ranking.settled


def test_no_tie_is_declared_when_tie_elo_is_zero():
    ranking = ActiveRanking(["a", "b"], confidence=0.95, tie_elo=0)
    ranking.take({("a", "b"): [0.5] * 5000})
    assert ranking.claims()[0].claim is Claim.OPEN


def test_the_next_batch_goes_to_open_neighbours_where_the_interval_shrinks_most():
    ranking = ActiveRanking(["a", "b", "c", "d"], confidence=0.95, tie_elo=10)
    scores = [1.0, 0.5, 0.5, 0.0, 0.75, 0.25]
    ranking.take({("a", "b"): scores * 100, ("b", "c"): scores * 2, ("c", "d"): scores * 2, ("a", "d"): [1.0] * 50})
    open_pairs = {ranking.pair(n.upper, n.lower) for n in ranking.claims() if n.claim is Claim.OPEN}
    batch = ranking.next_batch(30)
    assert sum(batch.values()) == 30 and set(batch) <= open_pairs
    assert batch.get(("b", "c"), 0) > batch.get(("a", "b"), 0)  # 12 units shrink far more per unit than 600
    # Units already planned for a pair count: with many planned for (b, c), the batch goes elsewhere.
    moved = ranking.next_batch(30, planned={("b", "c"): 5000, ("c", "d"): 5000})
    assert moved.get(("b", "c"), 0) < batch.get(("b", "c"), 0)


def test_the_next_batch_is_empty_once_settled():
    ranking = ActiveRanking(["a", "b"], confidence=0.95, tie_elo=30)
    ranking.take({("a", "b"): [1.0] * 100})
    assert ranking.settled and ranking.next_batch(10) == {}
