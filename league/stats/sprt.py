"""The sequential probability ratio test of "is the candidate better?", as fishtest and fastchess run it.

A test plays a candidate against a baseline in seat-swapped pairs of games on one seed. Each pair
scores the candidate 0, 1/4, 1/2, 3/4 or 1 (its points in the two games, halved): the counts of
those five outcomes are the *pentanomial* results, which keep the correlation between the two
games of a pair that counting single games (the trinomial losses, draws, wins) throws away.

A game played alone (a solo game, such as codevs21's qualifier) is tested on the paired per-seed
comparison: both bots play alone on the same seed, and that seed is one game between them, which the
candidate wins (1) when its run ranks above the baseline's, draws (1/2) when level, loses (0) when
below, runs ranked as a solo league's standings rank them (``league.stats.qualifier``: by score, then
max chain, then turns; a faulted run keeps what it scored before its fault). Two seeds in a row make
the pair, scored and tested as a seat-swapped pair is.

The hypotheses are in normalized Elo (nElo): H0, the candidate is ``elo0`` better, against H1,
``elo1`` better. Normalized Elo measures a difference by its t-value, (mean score - 1/2) over the
standard deviation of one game's score, times 800 / ln 10: unlike logistic Elo it says how hard a
difference is to see, whatever the draw rate. The statistic is the generalized log-likelihood
ratio (GSPRT) of the results: for each hypothesis, the likelihood of the observed counts under the
distribution on the five outcomes that fits them best while having that hypothesis's t-value
(a maximum-likelihood fit under one constraint, solved through its secular equation), and the LLR
the log of their ratio. The test stops when the LLR leaves (ln(beta / (1 - alpha)),
ln((1 - beta) / alpha)): below, H0 is accepted; above, H1. Counts of zero get a small prior
(1/1000) so the fit exists.

Sources: M. Van den Bergh, "Normalized Elo: practical considerations" (section 4.1, the t-value
statistic) and "A note on the MLE of a multinomial distribution with a given expectation value"
(proposition 1.1), as implemented by fishtest (``server/fishtest/stats/LLRcalc.py``:
``LLR_normalized``); fastchess (``matchmaking/sprt``) computes the same. Our values are checked
against fastchess's own test cases in ``tests/league/stats/test_sprt.py``.

A test counts distinct pairs only (``league.stats.distinct``): a pair whose two games repeat an
earlier pair's is no new evidence and is not counted, and once most pairs taken repeat earlier ones
the test stops without a verdict (``SprtState.repeated``), saying why and what to do. Where every
pair counted scored the same (all won, say), the Elo estimate is a one-sided bound
(``league.stats.one_way.t_bound``), never a number with an interval the fit cannot give.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from league.stats.distinct import UnitLog, repetition_sentence
from league.stats.game_record import GameRecord
from league.stats.one_way import bound_words, t_bound
from league.stats.placing import place_points, places
from league.stats.qualifier import run_figures

NELO_PER_T = 800 / math.log(10)
"""Normalized Elo per unit of t-value (about 347.4)."""
PRIOR = 1e-3
"""What a count of zero is taken as, so that every outcome has a probability above zero."""
H0, H1 = "H0", "H1"

Pdf = list[tuple[float, float]]
"""A distribution on scores: (score, probability) pairs, scores ascending."""


@dataclass(frozen=True)
class SprtSettings:
    """A test's hypotheses and error rates.

    Attributes:
        elo0: H0: the candidate is this much better, in normalized Elo.
        elo1: H1: this much better (above ``elo0``).
        alpha: The chance of accepting H1 when H0 holds.
        beta: The chance of accepting H0 when H1 holds.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    def verdict(self, llr: float) -> str | None:
        """``H1`` or ``H0`` once the LLR has crossed a bound, else None (the test goes on)."""
        if llr >= self.upper:
            return H1
        if llr <= self.lower:
            return H0
        return None


def pentanomial_index(pair_score: float) -> int:
    """Where a pair score (the candidate's points in a pair, halved: 0, 1/4, 1/2, 3/4 or 1) counts."""
    return round(pair_score * 4)


def llr(counts: Sequence[float], settings: SprtSettings) -> float:
    """The generalized log-likelihood ratio of H1 against H0 for pentanomial (5) or trinomial (3) counts.

    Args:
        counts: Pentanomial counts (pairs scoring 0, 1/4, 1/2, 3/4, 1) or trinomial ones (games lost,
            drawn, won).
        settings: The hypotheses, in normalized Elo.
    """
    if len(counts) not in (3, 5):
        raise ValueError(f"{len(counts)} counts: give 5 (pentanomial) or 3 (trinomial)")
    total, pdf = _empirical(counts)
    per_pair = math.sqrt(2) if len(counts) == 5 else 1.0  # a pair's t-value is sqrt(2) times a game's
    t0, t1 = (settings.elo0 / NELO_PER_T * per_pair, settings.elo1 / NELO_PER_T * per_pair)
    fit0, fit1 = (_fit_t_value(pdf, t) for t in (t0, t1))
    return total * sum(
        p * (math.log(q1) - math.log(q0)) for (_, p), (_, q0), (_, q1) in zip(pdf, fit0, fit1, strict=True)
    )


def normalized_elo(counts: Sequence[float]) -> tuple[float, float]:
    """The candidate's normalized Elo over the baseline, and its standard error, from pentanomial counts.

    Meaningless where every pair scored the same: see ``elo_estimate``, which says a bound there.
    """
    if len(counts) != 5:
        raise ValueError("give pentanomial counts (5)")
    total, pdf = _empirical(counts)
    mean, variance = _moments(pdf)
    sigma = math.sqrt(variance)
    t_pair = (mean - 0.5) / sigma
    skewness = sum(p * (a - mean) ** 3 for a, p in pdf) / sigma**3
    excess_kurtosis = sum(p * (a - mean) ** 4 for a, p in pdf) / variance**2 - 3
    # the variance of a t-value's estimate, times N (fishtest's t_conf): 1 at t = 0
    spread = max(1 - t_pair * skewness + t_pair**2 * (excess_kurtosis + 2) / 4, 0.0)
    per_game = 1 / math.sqrt(2)  # a pair's two games: a game's t-value is a pair's over sqrt(2)
    return t_pair * per_game * NELO_PER_T, math.sqrt(spread / total) * per_game * NELO_PER_T


def one_way_bound(counts: Sequence[int]) -> tuple[float, bool] | None:
    """Where every pair scored the same score other than 1/2: the candidate's bound in normalized Elo, and its side.

    Returns ``(bound, won)``: the candidate's normalized Elo is at least ``bound`` at 95% when ``won``
    (every pair scored above 1/2), at most ``-bound`` when not (``league.stats.one_way.t_bound`` of the
    mirrored score). None where the pairs' scores differ, or were all 1/2 (a fit exists there).
    """
    taken = [index for index, count in enumerate(counts) if count]
    if len(taken) != 1 or taken[0] == 2 or len(counts) != 5:
        return None
    index = taken[0]
    won = index > 2
    score = index / 4 if won else 1 - index / 4
    return t_bound(counts[index], score) / math.sqrt(2) * NELO_PER_T, won


def elo_estimate(counts: Sequence[int]) -> str:
    """The candidate's normalized Elo in words: "+12.3 ± 4.5 normalized Elo (95%)", or a bound if all went one way."""
    bound = one_way_bound(counts)
    if bound is not None:
        index = next(index for index, count in enumerate(counts) if count)
        how = {0: "lost both games", 1: "scored 1/4", 3: "scored 3/4", 4: "won both games"}[index]
        pairs = f"all {counts[index]} pairs" if counts[index] > 1 else "the only pair"
        return f"{bound_words(bound[0], bound[1], 'normalized Elo')} ({pairs} {how} for the candidate)"
    elo, error = normalized_elo(counts)
    return f"{elo:+.1f} ± {1.96 * error:.1f} normalized Elo (95%)"


def _empirical(counts: Sequence[float]) -> tuple[float, Pdf]:
    """The total and the observed distribution of the counts, zero counts replaced by ``PRIOR``."""
    counts = [count if count > 0 else PRIOR for count in counts]
    total = sum(counts)
    steps = len(counts) - 1
    return total, [(index / steps, count / total) for index, count in enumerate(counts)]


def _moments(pdf: Pdf) -> tuple[float, float]:
    """The mean and variance of a distribution."""
    mean = sum(p * a for a, p in pdf)
    return mean, sum(p * (a - mean) ** 2 for a, p in pdf)


def _secular_root(shifted: Pdf) -> float:
    """The x in (-1/max a, -1/min a) where sum p a / (1 + x a) = 0 (a decreasing function of x), by bisection.

    ``shifted`` must hold a negative and a positive value ``a``.
    """
    low_values, high_values = min(a for a, _ in shifted), max(a for a, _ in shifted)
    if not low_values < 0 < high_values:
        raise ValueError("the hypothesis lies outside the scores' range")
    low, high = -1 / high_values + 1e-12, -1 / low_values - 1e-12

    def slope(x: float) -> float:
        return sum(p * a / (1 + x * a) for a, p in shifted)

    for _ in range(200):
        middle = (low + high) / 2
        if slope(middle) > 0:
            low = middle
        else:
            high = middle
        if high - low < 1e-15:
            break
    return (low + high) / 2


def _fit_t_value(pdf: Pdf, t: float, reference: float = 0.5) -> Pdf:
    """The distribution on the same scores nearest ``pdf`` in likelihood with (mean - reference) / sigma = t.

    The fixed-point iteration of Van den Bergh's "Normalized Elo: practical considerations", 4.1:
    each step solves a secular equation for the distribution's moments of the step before.
    """
    fit = [(a, 1 / len(pdf)) for a, _ in pdf]
    for _ in range(100):
        mean, variance = _moments(fit)
        sigma = math.sqrt(variance)
        shifted = [(a - reference - t * sigma * (1 + ((mean - a) / sigma) ** 2) / 2, p) for a, p in pdf]
        x = _secular_root(shifted)
        previous, fit = fit, [(a, p / (1 + x * s)) for (a, p), (s, _) in zip(pdf, shifted, strict=True)]
        if max(abs(q - r) for (_, q), (_, r) in zip(previous, fit, strict=True)) < 1e-12:
            break
    return fit


def game_points(record: GameRecord, bot: str) -> float:
    """``bot``'s points in a stored game of two seats: 1 a win, 1/2 a draw, 0 a loss (a faulted seat loses)."""
    result = record.result
    seat = record.spec.seats.index(bot)
    return place_points(places(result), result.offenders or [], seat)


def seed_points(runs: Sequence[GameRecord], candidate: str) -> float:
    """``candidate``'s points on one seed of a solo game, from the two bots' stored runs on it (either order).

    1 when its run ranks above the other's, 1/2 when level, 0 when below: by score, then max chain,
    then turns, as a solo league's standings rank runs (``league.stats.qualifier.run_figures``; a
    faulted run keeps what it scored before its fault).
    """
    if len(runs) != 2 or [run.spec.seats[0] == candidate for run in runs].count(True) != 1:
        raise ValueError(f"a seed's runs are one of {candidate}'s and one of its baseline's")
    mine, theirs = sorted(runs, key=lambda run: run.spec.seats[0] != candidate)
    ours, baseline = run_figures(mine), run_figures(theirs)
    return 1.0 if ours > baseline else 0.5 if ours == baseline else 0.0


@dataclass
class SprtState:
    """A test's evidence after the pairs seen so far, in schedule order; it stops taking pairs at its verdict.

    Attributes:
        settings: The test.
        counts: Pentanomial counts of the distinct pairs taken (a repeat of an earlier pair is not counted).
        llr: The log-likelihood ratio after them.
        verdict: ``H1`` or ``H0`` once a bound was crossed (at the last pair taken), else None.
        solo: Whether the game is played alone: a pair is then two seeds, each a game the candidate wins
            by outscoring the baseline (``seed_points``), rather than two games with the seats swapped.
        seen: Every pair taken, repeats included (``league.stats.distinct.UnitLog``).
        repeated: Whether the test stopped without a verdict because most pairs taken repeated earlier ones.
        game: The game's name, for the sentence that says why it stopped ("" when unknown).
    """

    settings: SprtSettings
    counts: list[int] = field(default_factory=lambda: [0] * 5)
    llr: float = 0.0
    verdict: str | None = None
    solo: bool = False
    seen: UnitLog = field(default_factory=UnitLog)
    repeated: bool = False
    game: str = ""

    @property
    def pairs(self) -> int:
        """The distinct pairs counted."""
        return sum(self.counts)

    @property
    def over(self) -> bool:
        """Whether the test takes no more pairs: it reached a verdict, or stopped for repetition."""
        return self.verdict is not None or self.repeated

    def take(self, first: GameRecord, second: GameRecord, candidate: str) -> str | None:
        """Count one seat-swapped pair for ``candidate`` unless it repeats an earlier one; the verdict it reaches.

        None: go on, decided before, or stopped for repetition (``repeated``).
        """
        return self._take([first, second], lambda: (game_points(first, candidate) + game_points(second, candidate)) / 2)

    def take_seeds(self, first: Sequence[GameRecord], second: Sequence[GameRecord], candidate: str) -> str | None:
        """Count a solo game's pair of seeds, each the two bots' runs on it (``seed_points``); as ``take``."""
        return self._take(
            [*first, *second], lambda: (seed_points(first, candidate) + seed_points(second, candidate)) / 2
        )

    def _take(self, games: Sequence[GameRecord], score: Callable[[], float]) -> str | None:
        """Note a pair's games and count its ``score`` if the pair is new; then stop if most pairs were repeats."""
        if self.over:
            return None
        verdict = self.take_score(score()) if self.seen.take(games) else None
        if self.verdict is None and self.seen.mostly_repeated:
            self.repeated = True
        return verdict

    def take_score(self, score: float) -> str | None:
        """Count one pair by its score (0, 1/4, 1/2, 3/4 or 1); the verdict it reaches, as ``take``."""
        if self.over:
            return None
        self.counts[pentanomial_index(score)] += 1
        self.llr = llr(self.counts, self.settings)
        self.verdict = self.settings.verdict(self.llr)
        return self.verdict


def verdict_sentence(state: SprtState, candidate: str, baseline: str, capped: bool) -> str:
    """The test's outcome for people: verdict, LLR against its bounds, pairs, pentanomial counts, Elo estimate.

    A solo game's test says what its pairs and games are: two seeds each, a seed being a game the
    candidate wins by outscoring the baseline. A test stopped for repetition says only that, why,
    and what to do (``league.stats.distinct.repetition_sentence``).

    Args:
        state: The test after the pairs it took.
        candidate: The bot tested.
        baseline: The bot it is tested against.
        capped: Whether every pair the league may play was taken (``max_games`` reached).
    """
    if state.repeated:
        unit = "pairs of seeds" if state.solo else "pairs"
        return "SPRT: no verdict: " + repetition_sentence(candidate, baseline, state.seen, unit, state.game)
    test = state.settings
    bounds = f"bounds {test.lower:.2f}, {test.upper:.2f}"
    if state.verdict == H1:
        head = f"SPRT: H1 accepted: {candidate} is better than {baseline} by more than {test.elo0:g} normalized Elo"
    elif state.verdict == H0:
        head = f"SPRT: H0 accepted: {candidate} is not better than {baseline} by {test.elo1:g} normalized Elo or more"
    elif capped:
        head = "SPRT: undecided at max_games (raise it to go on)"
    else:
        head = "SPRT: undecided so far (run the league again to go on)"
    counts = " ".join(str(count) for count in state.counts)
    played = (
        f"{state.pairs} pairs of seeds, {4 * state.pairs} solo games (on each seed {candidate} wins by"
        f" outscoring {baseline}, draws by equalling it)"
        if state.solo
        else f"{state.pairs} pairs, {2 * state.pairs} games"
    )
    if state.seen.repeated:
        again = "1 more pair" if state.seen.repeated == 1 else f"{state.seen.repeated} more pairs"
        played += f" distinct ({again} repeated earlier ones and count for nothing)"
    figures = f"LLR {state.llr:.2f} ({bounds}); {played}; pentanomial {counts}"
    if state.pairs:
        figures += f"; {elo_estimate(state.counts)}"
    return f"{head}; {figures}"


def llr_batch(counts: np.ndarray, settings: SprtSettings) -> np.ndarray:
    """``llr`` of many tests at once: one row of pentanomial counts a test (for simulations of the test).

    Vectorised over the rows with numpy; each row's value is ``llr``'s (the same fit, by the same
    fixed-point iteration and bisection; ``tests/league/stats/test_sprt.py`` checks they agree), so a
    simulation measures the very test a league runs. ``llr`` stays in plain Python: a league takes
    its LLR after every pair, and one row here costs about ten times as much (5 ms against 0.5).
    """
    counts = np.where(np.asarray(counts, dtype=float) > 0, counts, PRIOR)
    total = counts.sum(axis=1)
    pdf = counts / total[:, None]
    scores = np.linspace(0.0, 1.0, counts.shape[1])
    per_pair = math.sqrt(2) if counts.shape[1] == 5 else 1.0
    fits = [_fit_t_values(pdf, scores, elo / NELO_PER_T * per_pair) for elo in (settings.elo0, settings.elo1)]
    return total * (pdf * (np.log(fits[1]) - np.log(fits[0]))).sum(axis=1)


def _fit_t_values(pdf: np.ndarray, scores: np.ndarray, t: float, reference: float = 0.5) -> np.ndarray:
    """``_fit_t_value`` for every row of ``pdf`` at once."""
    fit = np.full_like(pdf, 1 / pdf.shape[1])
    for _ in range(100):
        mean = (fit * scores).sum(axis=1, keepdims=True)
        sigma = np.sqrt((fit * (scores - mean) ** 2).sum(axis=1, keepdims=True))
        shifted = scores - reference - t * sigma * (1 + ((mean - scores) / sigma) ** 2) / 2
        low = -1 / shifted.max(axis=1, keepdims=True) + 1e-12
        high = -1 / shifted.min(axis=1, keepdims=True) - 1e-12
        for _ in range(200):
            middle = (low + high) / 2
            rising = (pdf * shifted / (1 + middle * shifted)).sum(axis=1, keepdims=True) > 0
            low, high = np.where(rising, middle, low), np.where(rising, high, middle)
            if float((high - low).max()) < 1e-15:
                break
        previous, fit = fit, pdf / (1 + (low + high) / 2 * shifted)
        if float(np.abs(previous - fit).max()) < 1e-12:
            break
    return fit
