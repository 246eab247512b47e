"""The SPRT's log-likelihood ratio against an independent implementation, and what it must be by its definition.

The reference values are fastchess's own test cases (``app/tests/sprt_test.cpp``: its C++ GSPRT in
normalized Elo, an independent implementation of the same published method), the results given there
as counts. Its three cases of one outcome only (every game drawn, every pair won twice) are left out:
there the fit rests on the 1/1000 prior alone and the value on each implementation's stopping
tolerance, not on the method.
"""

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from league.stats.game_record import GameRecord
from league.stats.sprt import (
    H0,
    H1,
    NELO_PER_T,
    SprtSettings,
    SprtState,
    llr,
    llr_batch,
    normalized_elo,
    pentanomial_index,
    seed_points,
    verdict_sentence,
)

FASTCHESS_CASES = [
    # (losses, draws, wins) or pentanomial (LL, LD, WL+DD, WD, WW); elo0, elo1; fastchess's LLR
    ((36027, 68692, 36433), 0, 2, 0.92),
    ((10650, 20431, 10871), -1.75, 0.25, 2.30),
    ((365, 16618, 36029 + 200, 16974, 390), 0, 2, 2.25),
    ((127, 4883, 10311 + 401, 5150, 104), -1.75, 0.25, 3.01),
]


@pytest.mark.parametrize(("counts", "elo0", "elo1", "expected"), FASTCHESS_CASES)
def test_the_llr_is_fastchess_s_on_its_own_cases(counts, elo0, elo1, expected):
    assert llr(counts, SprtSettings(elo0, elo1)) == pytest.approx(expected, abs=0.01)


def test_the_llr_is_near_the_brownian_approximation_where_that_holds():
    """Van den Bergh's approximation (section 4.2): N/2 ln((1 + (t - t0)^2) / (1 + (t - t1)^2)), t a game's t-value."""
    counts = (40, 900, 2000, 1000, 60)
    settings = SprtSettings(-2, 3)
    total = sum(counts)
    scores = [i / 4 for i in range(5)]
    mean = sum(c * s for c, s in zip(counts, scores, strict=True)) / total
    variance = sum(c * (s - mean) ** 2 for c, s in zip(counts, scores, strict=True)) / total
    t = (mean - 0.5) / math.sqrt(2 * variance)
    t0, t1 = settings.elo0 / NELO_PER_T, settings.elo1 / NELO_PER_T
    approximate = total * math.log((1 + (t - t0) ** 2) / (1 + (t - t1) ** 2))  # 2N games, halved
    assert llr(counts, settings) == pytest.approx(approximate, rel=0.02)


def test_swapping_candidate_and_baseline_swaps_the_hypotheses():
    counts = (30, 500, 1300, 620, 50)
    mirrored = tuple(reversed(counts))
    assert llr(counts, SprtSettings(0, 4)) == pytest.approx(-llr(mirrored, SprtSettings(-4, 0)), rel=1e-6)


def test_evidence_for_the_better_hypothesis_grows_with_the_games():
    better = (20, 400, 1000, 520, 60)
    settings = SprtSettings(0, 5)
    values = [llr([count * factor for count in better], settings) for factor in (1, 2, 4)]
    assert 0 < values[0] < values[1] < values[2]
    assert values[2] == pytest.approx(4 * values[0], rel=0.01)  # the LLR is a sum over pairs


def test_bounds_and_verdicts_are_wald_s():
    settings = SprtSettings(0, 5, alpha=0.05, beta=0.1)
    assert settings.upper == pytest.approx(math.log(0.9 / 0.05))
    assert settings.lower == pytest.approx(math.log(0.1 / 0.95))
    assert settings.verdict(settings.upper) == H1
    assert settings.verdict(settings.lower) == H0
    assert settings.verdict(0.0) is None


def test_pair_scores_count_as_a_pentanomial():
    counts = Counter(pentanomial_index(score) for score in [0, 0.25, 0.5, 0.5, 0.75, 1, 1, 1])
    assert [counts[index] for index in range(5)] == [1, 1, 2, 1, 3]


def test_the_normalized_elo_estimate_is_the_pairs_t_value_scaled():
    counts = (0, 100, 200, 100, 0)  # symmetric: no difference
    elo, error = normalized_elo(counts)
    assert elo == pytest.approx(0, abs=0.05)
    assert error == pytest.approx(NELO_PER_T / math.sqrt(2 * 400), rel=1e-4)  # zero counts weigh 1/1000
    stronger, _ = normalized_elo((0, 80, 200, 120, 0))
    assert stronger > 0


def test_counts_that_are_not_three_or_five_are_refused():
    with pytest.raises(ValueError, match="give 5"):
        llr((1, 2, 3, 4), SprtSettings(0, 5))


def test_the_batch_llr_of_simulations_is_the_league_s_llr_row_by_row():
    rng = np.random.default_rng(3)
    counts = rng.integers(0, 400, size=(60, 5))
    counts[:8, 0] = 0  # rows with an outcome never seen take the prior as llr does
    settings = SprtSettings(-1, 4)
    one_by_one = [llr(list(row), settings) for row in counts]
    assert llr_batch(counts, settings) == pytest.approx(one_by_one, abs=1e-9)


RUN_IDS = itertools.count()
"""Each run its own game id: no two runs are one game."""


def solo_run(bot: str, score: int, chain: int = 0, turns: int = 30, end: str = "clear") -> GameRecord:
    """A stored solo run of ``bot`` (codevs21's result: the score, and max chain, turns and end in extra)."""
    figures = {"score": score, "max_chain": chain, "turns": turns, "end": end}
    result = {"scores": [score], "ranks": [1], "termination": "NORMAL", "offenders": [0] if "fault" in end else []}
    result |= {"extra": {"records": [figures]}}
    return GameRecord.from_json({"game_id": f"{bot}-{next(RUN_IDS)}", "spec": {"seats": [bot]}, "result": result})


@pytest.mark.parametrize(
    ("candidate_run", "baseline_run", "points"),
    [
        (solo_run("new", 120), solo_run("old", 80), 1.0),
        (solo_run("new", 80), solo_run("old", 120), 0.0),
        (solo_run("new", 80, chain=2), solo_run("old", 80, chain=2), 0.5),
        (solo_run("new", 80, chain=3), solo_run("old", 80, chain=2), 1.0),  # level scores: max chain, then turns
        (solo_run("new", 0, turns=12, end="overflow"), solo_run("old", 0, turns=20, end="overflow"), 0.0),
        (solo_run("new", 2**60 + 1), solo_run("old", 2**60), 1.0),  # exact past 2**53
        (solo_run("new", 50, turns=7, end="fault:timeout"), solo_run("old", 40), 1.0),  # a fault keeps its score
    ],
)
def test_a_seed_of_a_solo_game_is_won_by_outscoring_the_baseline_as_the_standings_rank(
    candidate_run, baseline_run, points
):
    assert seed_points([candidate_run, baseline_run], "new") == points
    assert seed_points([baseline_run, candidate_run], "new") == points  # stored in either order
    assert seed_points([candidate_run, baseline_run], "old") == 1 - points


def test_a_seed_needs_one_run_of_each_bot():
    with pytest.raises(ValueError, match="one of new's and one of its baseline's"):
        seed_points([solo_run("new", 1), solo_run("new", 2)], "new")


def test_two_seeds_count_as_one_pentanomial_pair_and_the_verdict_says_what_a_game_is():
    state = SprtState(SprtSettings(0, 50), solo=True)
    won = (solo_run("new", 9), solo_run("old", 5))
    level = (solo_run("new", 5), solo_run("old", 5))
    lost = (solo_run("new", 1), solo_run("old", 5))
    for first, second in [(won, level), (won, won), (lost, level), (level, level), (lost, won)]:
        state.take_seeds(first, second, "new")
    assert state.counts == [0, 1, 2, 1, 1]  # 3/4, 1, 1/4, 1/2, 1/2
    assert state.llr == pytest.approx(llr([0, 1, 2, 1, 1], SprtSettings(0, 50)))
    sentence = verdict_sentence(state, "new", "old", capped=False)
    assert "5 pairs of seeds, 20 solo games (on each seed new wins by outscoring old" in sentence
    two_seat = verdict_sentence(SprtState(SprtSettings(0, 50), counts=[0, 1, 2, 1, 1]), "new", "old", capped=False)
    assert "5 pairs, 10 games;" in two_seat and "seed" not in two_seat
