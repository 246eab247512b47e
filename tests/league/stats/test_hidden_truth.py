"""The report's intervals, LOS and settled places keep their promises on leagues of known strengths.

A smaller run of ``benchmarks/hidden_truth.py`` through its own ``measure``: round robins drawn
from the synthetic game's model (no game played), each assessed by ``league.stats.analysis.assess``
and judged against the hidden truth. Every bound allows 3 Monte Carlo standard errors of the
promise at this size; the benchmark's 2,000 leagues measure the figures more finely.
"""

import math

import pytest

from benchmarks.hidden_truth import (
    NEAR_NINETY,
    PROMISED_COVERAGE,
    PROMISED_SETTLED_WRONG,
    Population,
    coverage,
    los_calibration,
    measure,
    settled_wrong,
)

LEAGUES = 60
"""Leagues of each population: the whole test takes about 15 s on an idle 2-core machine."""
FEWEST_PAIRS = 40
"""LOS bins with fewer pairs are too noisy to judge."""
MOST_COVERAGE = 0.995
"""Coverage above this means intervals about 1.5 times too wide or more (see the test)."""


@pytest.fixture(scope="module")
def typical():
    """Leagues spread as real contests are: a quarter of neighbours near-twins, draw rates 0 to 0.5."""
    return measure(LEAGUES, seed=25)


@pytest.fixture(scope="module")
def diffuse():
    """Leagues without near-twins: true gaps spread widely, as LOS's own (flat-prior) reading assumes."""
    return measure(LEAGUES, seed=26, population=Population(near_tie_share=0.0))


def test_95_percent_intervals_cover_the_true_ratings_about_95_percent_of_the_time(typical):
    found = coverage(typical)
    # a league's bots are not independent: the larger of the binomial error and the spread over leagues
    error = max(math.sqrt(PROMISED_COVERAGE * (1 - PROMISED_COVERAGE) / found.total), found.league_standard_error)
    assert found.value >= PROMISED_COVERAGE - 3 * error, found
    # Over-coverage is expected: each interval is the hull of a bootstrap interval and the Laplace one,
    # and with draws the half-point binomial likelihood overstates a result's variance (the benchmark's
    # 2,000 leagues: 97.9%; 98.7% at draw rates from 0.25, 97.0% below). Intervals 1.5 times too wide
    # would cover 99.7%, twice too wide 99.99%: the upper bound catches intervals far wider than the data allow.
    assert found.value <= MOST_COVERAGE, found


def los_error(found):
    """The binomial error of the ordered share were LOS right, or its spread over leagues if larger."""
    share = found.ordered
    return max(math.sqrt(found.mean_los * (1 - found.mean_los) / share.total), share.league_standard_error)


def test_los_is_calibrated_where_true_gaps_are_spread_widely(diffuse):
    bins = [found for found in los_calibration(diffuse) if found.ordered.total >= FEWEST_PAIRS]
    for found in bins:
        assert found.ordered.value >= found.mean_los - 3 * los_error(found), found
    (between,) = los_calibration(diffuse, (0.6, 0.99))  # the uncertain pairs together: a finer check
    assert between.ordered.value >= between.mean_los - 3 * los_error(between), between
    assert len(bins) >= 4, bins
    (near,) = los_calibration(diffuse, NEAR_NINETY)  # LOS near 0.9: about 90%, neither far below nor far above
    assert abs(near.ordered.value - near.mean_los) <= 3 * los_error(near), near
    # Here LOS is conservative (the benchmark's 2,000 such leagues: 92.8% ordered at a mean LOS of 90.6%).
    # Not so where a quarter of neighbours are near-twins: LOS is a probability under a flat prior on the
    # gaps, and a population with many true gaps near 0 makes it claim too much. The benchmark's 2,000
    # typical leagues order 87.9% of the pairs given LOS 0.85 to 0.95 (mean 90.4%, 3.9 standard errors
    # below; 86.0% at draw rates under 0.25): a broken promise this test leaves to benchmarks/RESULTS.md.


def test_settled_places_are_wrong_in_at_most_5_percent_of_leagues(typical, diffuse):
    for leagues in (typical, diffuse):
        wrong = settled_wrong(leagues)
        error = math.sqrt(PROMISED_SETTLED_WRONG * (1 - PROMISED_SETTLED_WRONG) / wrong.total)
        assert wrong.value <= PROMISED_SETTLED_WRONG + 3 * error, wrong
        # not vacuous: places were settled (the typical leagues settle about one in six)
        assert sum(one.settled for one in leagues) >= LEAGUES / 2, "too few settled places to judge"


SEPARATING = Population(gap_elo=500, spread_elo=5000, games_per_pair=(10, 20))
"""Leagues spread far apart on few games: many have groups that never lost a point to the groups below."""


def test_settled_places_across_separations_are_wrong_in_at_most_5_percent_of_leagues():
    leagues = measure(LEAGUES, seed=27, population=SEPARATING)
    separated = [one for one in leagues if one.separated]
    assert len(separated) >= LEAGUES / 4, "too few separated leagues to judge"
    wrong = settled_wrong(separated)
    error = math.sqrt(PROMISED_SETTLED_WRONG * (1 - PROMISED_SETTLED_WRONG) / wrong.total)
    assert wrong.value <= PROMISED_SETTLED_WRONG + 3 * error, wrong
    assert sum(one.settled for one in separated) >= len(separated), "places are settled across separations"
    # Their intervals are another matter: across a separation they come from the prior (the report says so),
    # and the benchmark's separated leagues cover far fewer than 95% of the true ratings.
