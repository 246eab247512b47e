"""Are strong programs really strong? Reliability, predictive power, seat advantage, agreement.

Each figure comes with one sentence saying what it means:

- split-half reliability: the ratings fitted on odd rounds (``spec.round``; tables: odd tables)
  and on even rounds, and Kendall's tau-b between the two orders;
- predictive power: cross-validated by round (up to ``FOLDS`` folds of whole rounds), the
  held-out pairwise results as the ratings fitted on the other folds predict them, against a
  no-skill baseline that knows only how often the earlier seat scores; log-loss per result
  (draws count as half a point: half the log-loss of a win and half of a loss), and accuracy on
  decisive results (a predicted 1/2 counts half right);
- the first-seat advantage with its interval;
- agreement of the Bradley-Terry order with a given order (TrueSkill's), Kendall's tau-b and
  the neighbours (in the given order) that the two order the other way.

The transitive share and the 3-cycles are in ``league.stats.cycles``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from league.stats.bradley_terry import expected_score, fit, points_and_games
from league.stats.pairwise import DRAW, LOSS, WIN, PairwiseResults
from league.stats.strength import Z95, StrengthEstimate, seat_score_rate

FOLDS = 5


@dataclass(frozen=True)
class Reliability:
    """Split-half reliability.

    Attributes:
        tau: Kendall's tau-b between the odd-round and even-round ratings; None when not computable.
        bots: Bots rated in both halves.
        meaning: One sentence.
    """

    tau: float | None
    bots: int
    meaning: str


@dataclass(frozen=True)
class Prediction:
    """Held-out predictive power of the ratings against the first-seat-only baseline.

    Attributes:
        log_loss: Mean log-loss (nats) per held-out pairwise result; None when not computable.
        baseline_log_loss: The same for the baseline.
        accuracy: Share of decisive held-out results whose winner the ratings picked.
        baseline_accuracy: The same for the baseline.
        gain: Baseline log-loss minus the ratings' (nats per result; above 0: the ratings help).
        gain_se: Standard error of ``gain`` (resampling units as clusters).
        folds: Folds of whole rounds.
        results: Held-out pairwise results.
        meaning: One sentence.
    """

    log_loss: float | None
    baseline_log_loss: float | None
    accuracy: float | None
    baseline_accuracy: float | None
    gain: float | None
    gain_se: float | None
    folds: int
    results: int
    meaning: str

    @property
    def better(self) -> bool:
        """Whether the ratings predict significantly better than the baseline (gain above 1.96 standard errors)."""
        return self.gain is not None and self.gain_se is not None and self.gain > Z95 * self.gain_se


@dataclass(frozen=True)
class SeatAdvantage:
    """The first seat's advantage.

    Attributes:
        tables: Whether the league has tables (then only ``seat0_points`` is estimated).
        elo: The model's first-seat advantage h (Elo; two-seat games only, else 0).
        elo_low: Lower end of its 95% interval.
        elo_high: Upper end.
        score_rate: Seat 0's expected score against an equal opponent, 1 / (1 + 10^(-h/400)).
        rate_low: Lower end (from ``elo_low``).
        rate_high: Upper end.
        seat0_points: Seat 0's mean points by rank observed (1 first, 0 last; 1/2 par).
        seat0_low: Lower end of its 95% interval.
        seat0_high: Upper end.
        meaning: One sentence.
    """

    tables: bool
    elo: float
    elo_low: float
    elo_high: float
    score_rate: float
    rate_low: float
    rate_high: float
    seat0_points: float
    seat0_low: float
    seat0_high: float
    meaning: str


@dataclass(frozen=True)
class Agreement:
    """Agreement of the Bradley-Terry order with a given order.

    Attributes:
        tau: Kendall's tau-b over the bots both rank; None with fewer than two.
        discordant: Pairs (higher, lower) in the given order that Bradley-Terry orders the other way.
        meaning: One sentence.
    """

    tau: float | None
    discordant: list[tuple[str, str]]
    meaning: str


def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b between two scorings of the same items (ties handled); None when undefined."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    upper = np.triu_indices(len(x), k=1)
    dx, dy = np.sign(x[:, None] - x[None, :])[upper], np.sign(y[:, None] - y[None, :])[upper]
    denominator = math.sqrt(float(np.sum(dx != 0)) * float(np.sum(dy != 0)))
    return float(np.sum(dx * dy)) / denominator if denominator else None


def reliability(results: PairwiseResults) -> Reliability:
    """Kendall's tau-b between the ratings of odd and of even rounds (module docstring)."""
    rounds = "tables" if results.tables else "rounds"
    parity = results.unit_round % 2
    if len(set(parity.tolist())) < 2:
        return Reliability(None, 0, f"Split-half reliability needs both odd and even {rounds}; this league has not.")
    weights = np.stack([parity == 1, parity == 0]).astype(float)
    halves = fit(*points_and_games(results.counts(weights)), seat_advantage=not results.tables).ratings
    both = ~np.isnan(halves).any(axis=0)
    tau = kendall_tau(np.round(halves[0, both], 1), np.round(halves[1, both], 1)) if both.sum() >= 2 else None
    if tau is None and both.sum() >= 2:
        alike = f"One half or both rate the {int(both.sum())} bots alike, so there is no order to compare."
        return Reliability(None, int(both.sum()), alike)
    if tau is None:
        return Reliability(None, int(both.sum()), "Too few bots rated in both halves to compare their orders.")
    return Reliability(
        tau,
        int(both.sum()),
        f"Ratings from odd and from even {rounds} order the {int(both.sum())} bots with Kendall tau {tau:.2f}"
        " (1: the same order, 0: unrelated): " + _reproducible(tau),
    )


def _reproducible(tau: float) -> str:
    if tau >= 0.8:
        return "the ranking reproduces on fresh games."
    if tau >= 0.4:
        return "the broad order reproduces, not every place."
    return "the ranking barely reproduces on fresh games."


def prediction(results: PairwiseResults) -> Prediction:
    """Held-out log-loss and accuracy of the ratings against the first-seat-only baseline (module docstring)."""
    held = "tables" if results.tables else "rounds"
    rounds = np.unique(results.unit_round)
    folds = min(FOLDS, len(rounds))
    if folds < 2:
        meaning = f"Prediction needs two {held} or more, to hold some out; this league has {len(rounds)}."
        return Prediction(None, None, None, None, None, None, folds, 0, meaning)
    unit_fold = np.searchsorted(rounds, results.unit_round) % folds
    train = np.stack([unit_fold != fold for fold in range(folds)]).astype(float)
    counts = results.counts(train)
    fitted = fit(*points_and_games(counts), seat_advantage=not results.tables)
    ratings = np.nan_to_num(fitted.ratings)  # a bot unseen in training counts as average
    points, games = points_and_games(counts)
    baseline = (points.sum(axis=(1, 2)) + 0.5) / (games.sum(axis=(1, 2)) + 1)
    size = len(results.bots)
    row_fold = unit_fold[results.row_unit]
    first, second = results.row_cell // size, results.row_cell % size
    model = expected_score(ratings[row_fold, first] - ratings[row_fold, second] + fitted.seat[row_fold])
    model_loss, model_right = _scored_rows(model, results.row_outcome, results.row_count)
    base_loss, base_right = _scored_rows(baseline[row_fold], results.row_outcome, results.row_count)
    total = results.row_count.sum()
    decisive = results.row_count[results.row_outcome != DRAW].sum()
    per_unit = np.bincount(results.row_unit, weights=base_loss - model_loss, minlength=results.units)
    unit_results = np.bincount(results.row_unit, weights=results.row_count, minlength=results.units)
    gain = float(per_unit.sum() / total)
    spread = per_unit - gain * unit_results
    gain_se = math.sqrt(float(np.sum(spread**2)) * results.units / max(results.units - 1, 1)) / total
    loss, base = float(model_loss.sum() / total), float(base_loss.sum() / total)
    accuracy = float(model_right.sum() / decisive) if decisive else None
    base_accuracy = float(base_right.sum() / decisive) if decisive else None
    picked = (
        f" and picks the winner of {accuracy:.0%} of decisive results against {base_accuracy:.0%}"
        if accuracy is not None and base_accuracy is not None
        else ""
    )
    verdict = (
        "the ratings carry real information about new games."
        if gain > Z95 * gain_se
        else "not clearly better than the seat alone (the difference is within its noise)."
    )
    return Prediction(
        loss,
        base,
        accuracy,
        base_accuracy,
        gain,
        gain_se,
        folds,
        int(total),
        f"On held-out {held} ({folds} folds) the rating model scores a log-loss of {loss:.3f} per result"
        f" against {base:.3f} for the seat alone{picked}: {verdict}",
    )


def _scored_rows(expected: np.ndarray, outcome: np.ndarray, count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the log-loss of its results and how many decisive ones were picked right (1/2 counts half)."""
    expected = np.clip(expected, 1e-12, 1 - 1e-12)
    win, loss = np.log(expected), np.log(1 - expected)
    log_loss = -count * np.where(outcome == WIN, win, np.where(outcome == LOSS, loss, (win + loss) / 2))
    right = np.where(outcome == WIN, expected > 0.5, expected < 0.5) + 0.5 * (expected == 0.5)
    return log_loss, count * np.where(outcome == DRAW, 0.0, right)


def seat_advantage(estimate: StrengthEstimate, tables: bool, games: int) -> SeatAdvantage:
    """The first-seat advantage with its 95% interval, in Elo and as a score rate (module docstring).

    Args:
        estimate: The league's strength estimate.
        tables: Whether the league has tables (then only seat 0's points by rank are estimated).
        games: The games played (of two seats or more).
    """
    seat0 = f"{estimate.seat0_points:.3f} ({estimate.seat0_low:.3f} to {estimate.seat0_high:.3f})"
    if not games:
        meaning = "No games between bots were played, so there is no first-seat advantage to measure."
    elif tables:
        word = "no clear" if estimate.seat0_low <= 0.5 <= estimate.seat0_high else "a clear"
        meaning = (
            f"Seat 0 gets {seat0} points by rank per game (1 first, 0 last, 0.500 par): {word} first-seat"
            " advantage; the ratings have no seat term at tables, every bot sits in every seat alike."
        )
    else:
        word = "no clear" if estimate.seat_low <= 0 <= estimate.seat_high else "a clear"
        elo = f"{estimate.seat:+.0f} Elo ({estimate.seat_low:+.0f} to {estimate.seat_high:+.0f})"
        rates = [seat_score_rate(value) for value in (estimate.seat, estimate.seat_low, estimate.seat_high)]
        meaning = (
            f"Seat 0 (the first bot named in each game) is worth {elo}: against an equal opponent it scores"
            f" {rates[0]:.3f}"
            f" ({rates[1]:.3f} to {rates[2]:.3f}) instead of 0.500, {word} first-seat advantage;"
            f" seat 0 scored {seat0} of the points in these games."
        )
    return SeatAdvantage(
        tables=tables,
        elo=estimate.seat,
        elo_low=estimate.seat_low,
        elo_high=estimate.seat_high,
        score_rate=seat_score_rate(estimate.seat),
        rate_low=seat_score_rate(estimate.seat_low),
        rate_high=seat_score_rate(estimate.seat_high),
        seat0_points=estimate.seat0_points,
        seat0_low=estimate.seat0_low,
        seat0_high=estimate.seat0_high,
        meaning=meaning,
    )


def agreement(
    bots: Sequence[str], elo: Sequence[float], given_order: Sequence[str], name: str = "TrueSkill"
) -> Agreement:
    """How far the Bradley-Terry order agrees with ``given_order`` (best first), over the bots both rank.

    Args:
        bots: The rated bots.
        elo: Their Bradley-Terry ratings.
        given_order: Bot names best first (e.g. by conservative TrueSkill).
        name: What the given order is, for the sentence.
    """
    rating = {bot: round(float(value), 1) for bot, value in zip(bots, elo, strict=True)}  # shown to 0.1 Elo
    common = [bot for bot in given_order if bot in rating]
    if len(common) < 2:
        return Agreement(None, [], f"Fewer than two bots are rated, so there is no order to compare with {name}.")
    tau = kendall_tau([rating[bot] for bot in common], list(range(len(common), 0, -1)))
    if tau is None:
        return Agreement(None, [], f"Bradley-Terry rates the bots alike, so there is no order to compare with {name}.")
    pairs = list(itertools.combinations(common, 2))
    discordant = [(high, low) for high, low in pairs if rating[low] > rating[high]]
    level = [(high, low) for high, low in pairs if rating[low] == rating[high]]
    if not discordant and not level:
        same = f"{name} and Bradley-Terry order the {len(common)} bots the same way (Kendall tau {tau:.2f})."
        return Agreement(tau, [], same)
    parts = []
    if discordant:
        listed = ", ".join(f"{high}/{low}" for high, low in discordant)
        parts.append(f"pairs in {name}'s order that Bradley-Terry puts the other way round: {listed}")
    if level:
        listed = ", ".join(f"{high}/{low}" for high, low in level)
        parts.append(f"pairs {name} orders that Bradley-Terry rates alike: {listed}")
    return Agreement(tau, discordant, f"{name} and Bradley-Terry agree with Kendall tau {tau:.2f}; {'; '.join(parts)}.")
