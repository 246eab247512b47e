"""Bradley-Terry with a first-seat advantage and a weak prior, its bootstrap, LOS and place probabilities."""

import math

import numpy as np
import pytest

from benchmarks.simulated_records import record, tables
from league.stats import pairwise
from league.stats.bradley_terry import ELO, PRIOR_SD, covariance, fit
from league.stats.pairwise import pairwise_results
from league.stats.strength import estimate, likelihood_of_superiority, place_probabilities, wilson_interval

from .simulated_leagues import elo_model, round_robin

SIX = {f"bot{k}": -300 + 120 * k for k in range(6)}


def log_posterior(ratings, seat, points, games):
    difference = ratings[:, None] - ratings[None, :] + seat
    expected = 1 / (1 + 10 ** (-difference / 400))
    likelihood = np.sum(points * np.log(expected) + (games - points) * np.log(1 - expected))
    return likelihood - (np.sum(ratings**2) + seat**2) / (2 * PRIOR_SD**2)


def test_newton_stops_at_the_peak_of_the_posterior():
    rng = np.random.default_rng(4)
    games = rng.integers(0, 20, size=(4, 4)).astype(float)
    np.fill_diagonal(games, 0)
    points = np.floor(games * rng.random((4, 4)))
    fitted = fit(points[None], games[None], seat_advantage=True)
    ratings, seat = fitted.ratings[0], fitted.seat[0]
    peak = log_posterior(ratings, seat, points, games)
    for k in range(5):
        for step in (-1.0, 1.0):
            moved_ratings, moved_seat = ratings.copy(), seat
            if k < 4:
                moved_ratings[k] += step
            else:
                moved_seat += step
            assert log_posterior(moved_ratings, moved_seat, points, games) < peak


def test_a_batch_fits_each_table_as_a_single_fit_would():
    rng = np.random.default_rng(5)
    games = rng.integers(1, 30, size=(3, 5, 5)).astype(float)
    points = np.round(games * rng.random((3, 5, 5)) * 2) / 2
    batch = fit(points, games, seat_advantage=True)
    for k in range(3):
        alone = fit(points[k : k + 1], games[k : k + 1], seat_advantage=True)
        assert batch.ratings[k] == pytest.approx(alone.ratings[0], abs=1e-6)
        assert batch.seat[k] == pytest.approx(alone.seat[0], abs=1e-6)


def test_known_ratings_and_first_seat_advantage_are_recovered_and_their_intervals_cover_the_truth():
    truth = np.array(list(SIX.values()), dtype=float)
    ratings_covered = seat_covered = 0
    for seed in range(10):
        records = round_robin(elo_model(SIX, first_seat=60), list(SIX), rounds=60, seed=seed)
        fitted = estimate(pairwise_results(list(SIX), records), samples=100, seed=0)
        assert np.all(np.abs(fitted.elo - truth) < 4 * fitted.sd)
        assert abs(fitted.seat - 60) < 45
        assert np.all((fitted.low <= fitted.elo) & (fitted.elo <= fitted.high))
        assert fitted.seat_low <= fitted.seat <= fitted.seat_high
        ratings_covered += int(np.sum((fitted.low <= truth) & (truth <= fitted.high)))
        seat_covered += fitted.seat_low <= 60 <= fitted.seat_high
    assert ratings_covered >= 54, "95% intervals cover the true ratings about 95% of the time"
    assert seat_covered >= 8


def test_an_unbeaten_bot_gets_a_finite_interval_several_hundred_elo_wide():
    records = round_robin(lambda a, b: 1.0 if a == "champion" else 0.0, ["champion", "victim"], rounds=30)
    assert sum(r["result"]["ranks"][r["spec"]["seats"].index("champion")] == 1 for r in records) == 60
    fitted = estimate(pairwise_results(["champion", "victim"], records), samples=200)
    champion = fitted.bots.index("champion")
    assert fitted.elo[champion] > 200 and math.isfinite(fitted.high[champion])
    assert fitted.high[champion] - fitted.low[champion] > 300
    resampled = fitted.resampled[:, champion]
    assert np.ptp(resampled) < 1e-6, "60-0 in every resample: the bootstrap alone would give a point"


def test_intervals_are_never_narrower_than_the_model_own_laplace_interval():
    records = round_robin(elo_model(SIX), list(SIX), rounds=3, seed=2)
    fitted = estimate(pairwise_results(list(SIX), records), samples=50)
    laplace_sd = np.sqrt(np.diag(covariance(fit(*_one(records), seat_advantage=True).precision[0]))[:6])
    assert np.all(fitted.high - fitted.elo >= 1.959 * laplace_sd)
    assert np.all(fitted.elo - fitted.low >= 1.959 * laplace_sd)


def _one(records):
    results = pairwise_results(list(SIX), records)
    counts = results.counts()
    return (counts[..., 0] + counts[..., 1] / 2)[None], counts.sum(axis=-1)[None]


def test_a_seat_swapped_pair_is_resampled_as_one_unit_with_all_its_variants():
    # Seat 0 wins every game: each pair's two games split 1-1, so every resample of whole pairs
    # gives the same ratings; resampling single games would not.
    records = round_robin(lambda a, b: 1.0, list(SIX), rounds=4, variants=("one", "two"))
    results = pairwise_results(list(SIX), records)
    assert results.units == 4 * 15
    fitted = estimate(results, samples=100)
    assert np.ptp(fitted.resampled, axis=0).max() < 1e-6
    assert fitted.elo == pytest.approx(np.zeros(6), abs=1e-6)
    assert fitted.seat > 300, "seat 0 won all 240 games"


def test_tables_are_resampled_whole_and_have_no_seat_term():
    ratings = {name: 100 * k for k, name in enumerate("abcdef")}
    records = tables(ratings, count=40, size=4)
    results = pairwise_results(list(ratings), records)
    assert results.tables and results.units == 40
    fitted = estimate(results, samples=100)
    assert fitted.seat == 0.0 and fitted.seat_low == fitted.seat_high == 0.0
    assert [fitted.bots[k] for k in np.argsort(fitted.elo)] == list("abcdef")
    assert fitted.seat0_low <= 0.5 <= fitted.seat0_high, "every bot sits in every seat alike"
    assert fitted.design_effect > 1, "the 6 pairwise results of a game are not independent"


def test_seat_zero_points_at_tables_are_points_by_rank():
    records = [record(k, ["a", "b", "c"], [1, 2, 2], round_=k) for k in range(10)]
    fitted = estimate(pairwise_results(["a", "b", "c"], records), samples=20)
    assert fitted.seat0_points == 1.0
    assert fitted.seat0_low < 1.0, "ten games do not make a certainty"


def test_los_is_one_half_for_symmetric_results_and_complementary():
    records = round_robin(lambda a, b: 1.0, ["a", "b", "c"], rounds=5)  # seat 0 always wins: all even
    los = likelihood_of_superiority(estimate(pairwise_results(["a", "b", "c"], records), samples=50))
    off_diagonal = ~np.eye(3, dtype=bool)
    assert los[off_diagonal] == pytest.approx(np.full(6, 0.5), abs=1e-6)
    assert np.isnan(np.diag(los)).all()
    records = round_robin(elo_model(SIX, 30), list(SIX), rounds=4, seed=7)
    los = likelihood_of_superiority(estimate(pairwise_results(list(SIX), records), samples=50))
    off_diagonal = ~np.eye(6, dtype=bool)
    assert (los + los.T)[off_diagonal] == pytest.approx(np.ones(30))
    assert los[5, 0] > 0.99 and los[0, 5] < 0.01


def test_los_follows_the_covariance_like_bayeselo():
    records = round_robin(elo_model(SIX), list(SIX), rounds=2, seed=3)
    fitted = estimate(pairwise_results(list(SIX), records), samples=50)
    los = likelihood_of_superiority(fitted)
    cov = fitted.covariance * fitted.design_effect
    sd = math.sqrt(cov[1, 1] + cov[2, 2] - 2 * cov[1, 2])
    assert los[1, 2] == pytest.approx(0.5 * (1 + math.erf((fitted.elo[1] - fitted.elo[2]) / sd / math.sqrt(2))))


def test_place_probabilities_share_ties_and_add_up_to_one():
    resampled = np.array([[10.0, 5.0, 5.0], [1.0, 2.0, 3.0], [3.0, 2.0, np.nan]])
    places = place_probabilities(resampled)
    assert places.sum(axis=0) == pytest.approx(np.ones(3)) and places.sum(axis=1) == pytest.approx(np.ones(3))
    assert places[0].tolist() == pytest.approx([2 / 3, 0, 1 / 3])
    assert places[1].tolist() == pytest.approx([0, 5 / 6, 1 / 6])
    assert places[2].tolist() == pytest.approx([1 / 3, 1 / 6, 1 / 2])


def test_the_same_games_give_the_same_figures_and_the_seed_is_what_varies():
    records = round_robin(elo_model(SIX), list(SIX), rounds=3, seed=8)
    first = estimate(pairwise_results(list(SIX), records), samples=30, seed=1)
    again = estimate(pairwise_results(list(SIX), records[::-1]), samples=30, seed=1)
    other = estimate(pairwise_results(list(SIX), records), samples=30, seed=2)
    assert np.array_equal(first.resampled, again.resampled) and np.array_equal(first.low, again.low)
    assert not np.array_equal(first.resampled, other.resampled)


def test_wilson_interval_matches_its_formula():
    low, high = wilson_interval(np.array([8.0, 0.0]), np.array([10.0, 0.0]))
    z = 1.959963984540054
    centre, spread = (0.8 + z * z / 20) / (1 + z * z / 10), z * math.sqrt(0.016 + z * z / 400) / (1 + z * z / 10)
    assert (low[0], high[0]) == pytest.approx((centre - spread, centre + spread))
    assert (low[1], high[1]) == (0.0, 1.0)


def test_elo_scale():
    assert 1 / (1 + math.exp(-ELO * 400)) == pytest.approx(10 / 11)


def test_the_precision_is_minus_the_hessian_of_the_log_posterior():
    rng = np.random.default_rng(6)
    games = rng.integers(0, 15, size=(4, 4)).astype(float)  # seats unbalanced: ratings and h correlate
    np.fill_diagonal(games, 0)
    points = np.floor(games * rng.random((4, 4)))
    fitted = fit(points[None], games[None], seat_advantage=True)
    peak = np.append(fitted.ratings[0], fitted.seat[0])  # the prior centres the peak: no shift needed

    def value(theta):
        return log_posterior(theta[:4], theta[4], points, games)

    step, hessian = 1e-2, np.zeros((5, 5))
    for i in range(5):
        for j in range(5):
            shifts = [np.eye(5)[i] * step * si + np.eye(5)[j] * step * sj for si in (1, -1) for sj in (1, -1)]
            signs = [1, -1, -1, 1]
            hessian[i, j] = sum(s * value(peak + d) for s, d in zip(signs, shifts, strict=True)) / (4 * step**2)
    assert fitted.precision[0] == pytest.approx(-hessian, rel=1e-3, abs=1e-9)
    assert abs(fitted.precision[0][:4, 4]).max() > 1e-6, "the seat term correlates with the ratings here"


@pytest.mark.parametrize("league", ["pairs", "tables"])
def test_resampled_counts_are_the_same_by_dense_product_and_by_sparse_sum(monkeypatch, league):
    if league == "pairs":
        results = pairwise_results(list(SIX), round_robin(elo_model(SIX), list(SIX), rounds=5, variants=("a", "b")))
    else:
        results = pairwise_results(list(SIX), tables(SIX, count=30, size=4))
    weights = np.random.default_rng(0).integers(0, 3, size=(40, results.units))
    monkeypatch.setattr(pairwise, "DENSE_COST", 10**9)
    monkeypatch.setattr(pairwise, "BLOCK_ENTRIES", 500)  # several blocks of units
    dense = results.counts(weights)
    monkeypatch.setattr(pairwise, "DENSE_COST", 0)
    sparse = results.counts(weights)
    assert np.array_equal(dense, sparse)
    by_hand = sum(weights[:, unit, None] * (results.row_unit == unit) for unit in range(results.units))
    cell = results.row_cell * 3 + results.row_outcome
    expected = np.zeros((40, 6 * 6 * 3))
    np.add.at(expected, (slice(None), cell), by_hand * results.row_count)
    assert np.array_equal(sparse.reshape(40, -1), expected)
