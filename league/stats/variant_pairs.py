"""Games of two rule variants paired on the same seed and seats, and their mean differences.

Every variant of a league is played on the same seeds with the same seatings, so the game of
``(spec.round, spec.seats)`` under one variant is the same game under another but for the rule.
``paired_differences`` matches a variant's games with the baseline's and gives, per figure (the
mean score per seat, plies, drawn or not, seat 0's points), the mean difference with a 95%
bootstrap interval over clusters of games that are not independent (``cluster_of``).

A game cut short (a seat faulted, or a safety cap of ours ended it: ``cut_short``) says nothing of
the rule: a pair where either game was cut short is left out, and counted (``faulted_pairs``).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from league.stats.game_record import GameRecord
from league.stats.placing import rank_points
from league.stats.variant_stats import bootstrap_seed, cluster_interval

SCORE = "score"
PLIES = "plies"
DRAWS = "draw_rate"
FIRST_SEAT = "first_seat_points"
FIGURES = (SCORE, PLIES, DRAWS, FIRST_SEAT)
"""The figures compared game by game: mean score per seat, length in plies, drawn or not, seat 0's points."""

PAIRS, TABLES, SOLO = "pairs", "tables", "solo"
NORMAL = "NORMAL"

MIN_CLUSTERS = 5
"""Fewest independent clusters (seat-swapped pairs, tables, solo runs) a paired difference gets an interval from."""

DIFFERENCE_COLUMNS = [
    "variant",
    "baseline",
    "figure",
    "mean_difference",
    "low_95",
    "high_95",
    "baseline_mean",
    "relative",
    "pairs",
    "faulted_pairs",
    "clear",
]


def layout_of(records: Sequence[GameRecord]) -> str:
    """Which seating the games have: "solo" (one seat each), "tables" (any with three or more) or "pairs"."""
    if records and all(len(record.spec.seats) == 1 for record in records):
        return SOLO
    return TABLES if any(len(record.spec.seats) > 2 for record in records) else PAIRS


def cluster_of(record: GameRecord, layout: str) -> Hashable:
    """The games resampled together with ``record``: its seat-swapped twin, its table's rotations, its solo run."""
    spec = record.spec
    return spec.round if layout == SOLO else (spec.round, tuple(sorted(spec.seats)))


def game_figures(record: GameRecord) -> dict[str, Fraction | float]:
    """One game's figures: mean score per seat and plies (exact), and for two seats or more drawn and seat 0's points.

    A game is drawn when its first place is shared; seat 0's points are ``rank_points`` (1/2: no advantage).
    """
    result = record.result
    scores, ranks = [int(score) for score in result.scores], result.ranks
    figures: dict[str, Fraction | float] = {
        SCORE: Fraction(sum(scores), len(scores)),
        PLIES: Fraction(int(result.plies)),
    }
    if len(ranks) > 1:
        figures[DRAWS] = float(ranks.count(1) > 1)
        figures[FIRST_SEAT] = rank_points(ranks, 0)
    return figures


def cut_short(record: GameRecord) -> bool:
    """Whether a game ended otherwise than by its rules: a seat faulted, or a safety cap of ours ended it."""
    result = record.result
    return bool(result.offenders) or result.termination != NORMAL


def paired_differences(
    variant: str,
    baseline: str,
    games: list[GameRecord],
    baseline_games: list[GameRecord],
    layout: str,
    figures: Sequence[str],
    seed: int,
    samples: int,
) -> list[dict[str, Any]]:
    """Per figure, the mean difference variant minus baseline over the games both played, with a 95% interval.

    Games are matched by ``(spec.round, spec.seats)``; a pair where either game was cut short
    (``cut_short``) is left out and counted in ``faulted_pairs``. The interval resamples clusters of
    matched games (``cluster_of``). ``relative`` is the difference as a share of the baseline's mean
    (NaN for rates, or when the baseline's mean is 0); ``clear`` says whether the interval excludes 0.
    ``baseline_mean`` is exact (a ``Fraction``) for scores and plies, a float for rates.
    With fewer than ``MIN_CLUSTERS`` independent clusters there is no interval (NaN, never clear).
    """
    theirs = {}
    for record in baseline_games:
        theirs.setdefault((record.spec.round, tuple(record.spec.seats)), record)
    matched, seen, faulted = [], set(), 0
    for record in games:
        key = (record.spec.round, tuple(record.spec.seats))
        if key in theirs and key not in seen:
            seen.add(key)
            if cut_short(record) or cut_short(theirs[key]):
                faulted += 1
                continue
            matched.append((game_figures(record), game_figures(theirs[key]), cluster_of(record, layout)))
    rows = []
    for figure in figures:
        both = [(mine[figure], other[figure], cluster) for mine, other, cluster in matched if figure in mine]
        differences = [mine - other for mine, other, _ in both]
        rng = np.random.default_rng(bootstrap_seed(seed, variant, baseline, figure))
        clusters = [c for _, _, c in both]
        if len(set(clusters)) >= MIN_CLUSTERS:
            low, high = cluster_interval([float(d) for d in differences], clusters, rng, samples)
        else:  # a bootstrap over so few independent units says nothing about its own width
            low, high = math.nan, math.nan
        mean = float(sum(differences) / len(differences)) if differences else math.nan
        base = sum(other for _, other, _ in both) / len(both) if both else math.nan  # exact for scores and plies
        relative = mean / float(base) if figure in (SCORE, PLIES) and base else math.nan
        rows.append(
            dict(
                zip(
                    DIFFERENCE_COLUMNS,
                    [
                        variant,
                        baseline,
                        figure,
                        mean,
                        low,
                        high,
                        base,
                        relative,
                        len(both),
                        faulted,
                        bool(low > 0 or high < 0),
                    ],
                    strict=True,
                )
            )
        )
    return rows
