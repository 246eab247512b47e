"""The SPRT keeps its promise on simulated tests: few wrong verdicts, fewer games than a fixed-length test.

A smaller run of ``benchmarks/sprt_errors.py`` through its own ``measure``: the league's LLR
(``llr_batch``) after every pair, its bounds, pairs drawn from the synthetic game's model. The
hypotheses are far apart (0 against 50 normalized Elo) so that a test takes a few hundred games
and the whole run a few seconds; the benchmark measures the closer ones a real test uses.
"""

import math

from benchmarks.sprt_errors import fixed_length_games, measure
from league.stats.sprt import H0, H1, SprtSettings

TESTS = 300
"""Tests at each true difference."""
SETTINGS = SprtSettings(elo0=0, elo1=50, alpha=0.05, beta=0.05)


def test_wrong_verdicts_are_within_alpha_and_beta_and_games_below_a_fixed_length_test():
    outcomes = measure(SETTINGS, TESTS, draw_rate=0.3, max_pairs=20_000, seed=24)
    fixed = fixed_length_games(SETTINGS)
    assert [(outcome.truth, outcome.wrong) for outcome in outcomes] == [(0, H1), (50, H0)]
    for outcome, promised in zip(outcomes, (SETTINGS.alpha, SETTINGS.beta), strict=True):
        assert len(outcome.verdicts) == TESTS
        assert outcome.undecided == 0
        # the Monte Carlo standard error of the share were the promise kept exactly
        standard_error = math.sqrt(promised * (1 - promised) / TESTS)
        assert outcome.wrong_share <= promised + 3 * standard_error, (outcome.truth, outcome.wrong_share)
        assert outcome.mean_games < fixed, (outcome.truth, outcome.mean_games, fixed)
