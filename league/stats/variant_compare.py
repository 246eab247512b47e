"""Rule variants compared on the same seeds: per-variant figures, paired differences, rank correlation.

Every variant of a league is played on the same seeds with the same seatings, so the game of
``(spec.round, spec.seats)`` under one variant is the same game under another but for the rule.
``compare_variants`` puts the variants side by side (scores, game length, draws, first-seat
advantage, rating spread, faults), pairs each variant's games with the baseline's (the first
variant unless told otherwise) and gives the mean paired difference of the game's main figures
with a 95% bootstrap interval, the rank correlation of the bots' strengths between variants with
its 95% interval (does the rule change who is strong? ``league.stats.variant_ranks``), and sentences
that say it all for people.

Intervals resample clusters of games that are not independent: a pair's seat-swapped games
(``spec.round`` and the pairing), a table's rotations (``spec.round`` is the table), a solo run's
games (every bot on one seed). Scores stay exact integers until they are shown: exact figures
(means and quartiles of scores) are ``Fraction`` cells, turned into text or numbers by
``league.stats.variant_cells``.

A game cut short (a seat faulted, or a safety cap of ours ended it) says nothing of the rule: a
pair where either game was cut short is left out of the paired differences, and counted
(``faulted_pairs``; the pairing is ``league.stats.variant_pairs``). The per-variant figures keep every
game, and count the faults.

Identical games count once (``league.stats.distinct``): a cluster whose games repeat an earlier
cluster's (deterministic bots in a game without randomness) is left out of every figure, interval
and paired difference, and the per-variant row says how many games there were and how many distinct;
for paired differences a cluster is the variant's games and the baseline's together.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from engine.core import Game
from league.stats.distinct import first_units, game_key
from league.stats.game_record import GameRecord
from league.stats.pairwise import pairwise_results
from league.stats.placing import place_points, places, rank_points
from league.stats.ratings import scored
from league.stats.strength import estimate, wilson_interval
from league.stats.variant_cells import json_rows
from league.stats.variant_pairs import (
    DIFFERENCE_COLUMNS,
    FIGURES,
    FIRST_SEAT,
    PLIES,
    SCORE,
    SOLO,
    cluster_of,
    cut_short,
    layout_of,
    paired_differences,
)
from league.stats.variant_ranks import correlation_row
from league.stats.variant_sentences import correlation_sentence, difference_sentence
from league.stats.variant_stats import BOOTSTRAP_SAMPLES, bootstrap_seed, cluster_interval, exact_quantile, exact_sd


@dataclass
class VariantComparison:
    """Rule variants side by side, and each against the baseline on the same seeds.

    Attributes:
        game: The game's name.
        score_label: What a score counts (``Game.score_label``, e.g. "defender score").
        scores_spread: Whether scores spread over a range (``Game.scores_spread``): only then are
            score distributions shown and score differences compared.
        layout: "pairs" (two seats), "tables" (three or more) or "solo" (one seat).
        baseline: The variant the others are compared with.
        variants: Every variant, in the league's order.
        by_variant: One row per variant (see ``variant_row``).
        by_bot: One row per variant and bot: games, mean_score, and for pairs and tables
            points_per_game and elo.
        correlation: One row per variant but the baseline: bots rated in both, kendall_tau with
            tau_low_95 and tau_high_95 (its paired bootstrap interval; NaN below 4 bots rated in
            both: ``league.stats.variant_ranks``), baseline_order and variant_order (best first).
            Empty for solo leagues.
        differences: One row per variant but the baseline and figure: ``DIFFERENCE_COLUMNS``.
        sentences: What the comparison says, for people.
        scores: Per variant, every seat's score of every game (for distribution charts).
        plies: Per variant, every game's length in plies.
    """

    game: str
    score_label: str
    scores_spread: bool
    layout: str
    baseline: str
    variants: list[str]
    by_variant: pd.DataFrame
    by_bot: pd.DataFrame
    correlation: pd.DataFrame
    differences: pd.DataFrame
    sentences: list[str]
    scores: dict[str, list[int]] = field(default_factory=dict)
    plies: dict[str, list[int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The comparison as JSON-ready data: frames as lists of rows, every figure a number or null.

        Exact figures (``mean_score``, ``median_score``, ``score_q1``, ``score_q3``, and the
        ``baseline_mean`` of scores and plies) are an int when whole (exact, even past 2**53) and
        the nearest float otherwise; NaN is null (``league.stats.variant_cells.json_value``).
        """
        rows = json_rows
        return {
            "game": self.game,
            "score_label": self.score_label,
            "layout": self.layout,
            "baseline": self.baseline,
            "variants": self.variants,
            "by_variant": rows(self.by_variant),
            "by_bot": rows(self.by_bot),
            "correlation": rows(self.correlation),
            "differences": rows(self.differences),
            "sentences": self.sentences,
        }


def variant_strengths(bots: Sequence[str], records: Sequence[GameRecord]) -> dict[str, float]:
    """Each bot's strength (Elo scale) from one variant's games: the one place that picks the rating model.

    The league's Bradley-Terry fit (``league.stats.strength.estimate``, point estimates only); bots
    without games are left out.
    """
    seen = {name for record in records for name in record.spec.seats}
    names = [name for name in bots if name in seen] + sorted(seen.difference(bots))
    if not names:
        return {}
    fitted = estimate(pairwise_results(names, records), samples=0)
    return {name: float(elo) for name, elo in zip(fitted.bots, fitted.elo, strict=True) if not math.isnan(elo)}


def fingerprint(record: GameRecord) -> tuple[str, ...]:
    """A game's identity for counting distinct games (``league.stats.distinct.game_key``)."""
    return game_key(record)


def _distinct(games: list[GameRecord], layout: str) -> list[GameRecord]:
    """``games`` less the clusters (``cluster_of``) that repeat an earlier one's games."""
    return first_units(games, lambda record: cluster_of(record, layout))


def _joint(mine: list[GameRecord], theirs: list[GameRecord], layout: str) -> list[list[GameRecord]]:
    """Two variants' games less the clusters whose games, in both variants together, repeat an earlier cluster's."""
    kept = {id(record) for record in _distinct([*mine, *theirs], layout)}
    return [[record for record in games if id(record) in kept] for games in (mine, theirs)]


def variant_row(
    variant: str,
    games: list[GameRecord],
    layout: str,
    spread: bool,
    strengths: dict[str, float],
    rng: np.random.Generator,
    samples: int,
) -> dict[str, Any]:
    """One variant's figures (the columns of ``VariantComparison.by_variant``).

    Columns: variant, games, distinct_games, faults (games cut short: ``cut_short``), mean_score
    (exact, a ``Fraction``; None without games); where scores spread score_sd, median_score,
    score_q1, score_q3 (exact quantiles, ``Fraction``; None without games); mean_plies,
    median_plies; for pairs and tables draw_rate (share of games whose first place is shared),
    first_seat_win_rate (seat 0's share of the games with one winner), first_seat_points (seat
    0's mean points by rank; 1/2 is no advantage at any table size) with first_seat_low_95 and
    first_seat_high_95 (``seat0_interval``, as the strength section's), and rating_spread (the
    standard deviation of the bots' Elo strengths in this variant; NaN with fewer than two bots).
    """
    scores = [int(score) for record in games for score in record.result.scores]
    plies = [int(record.result.plies) for record in games]
    row: dict[str, Any] = {
        "variant": variant,
        "games": len(games),
        "distinct_games": len({fingerprint(record) for record in games}),
        "faults": sum(1 for record in games if cut_short(record)),
        "mean_score": Fraction(sum(scores), len(scores)) if scores else None,
    }
    if spread:
        quartiles = [exact_quantile(scores, Fraction(k, 4)) if scores else None for k in (2, 1, 3)]
        row |= {"score_sd": round(exact_sd(scores), 2) if scores else math.nan}
        row |= dict(zip(("median_score", "score_q1", "score_q3"), quartiles, strict=True))
    row |= {
        "mean_plies": round(sum(plies) / len(plies), 2) if plies else math.nan,
        "median_plies": float(np.median(plies)) if plies else math.nan,
    }
    if layout == SOLO:
        return row
    ranks = [record.result.ranks for record in games]
    decided = [rank for rank in ranks if rank.count(1) == 1]
    points = [rank_points(rank, 0) for rank in ranks]
    low, high = seat0_interval(points, [cluster_of(record, layout) for record in games], rng, samples)
    elo = list(strengths.values())
    return row | {
        "draw_rate": round(1 - len(decided) / len(games), 3) if games else math.nan,
        "first_seat_win_rate": round(sum(rank[0] == 1 for rank in decided) / len(decided), 3) if decided else math.nan,
        "first_seat_points": round(sum(points) / len(points), 3) if points else math.nan,
        "first_seat_low_95": round(low, 3),
        "first_seat_high_95": round(high, 3),
        "rating_spread": round(float(np.std(elo)), 1) if len(elo) > 1 else math.nan,
    }


def seat0_interval(
    points: Sequence[float], clusters: Sequence[Hashable], rng: np.random.Generator, samples: int
) -> tuple[float, float]:
    """Seat 0's points per game, 95%: the hull of the cluster bootstrap and the Wilson interval.

    The same interval as the strength section's (``league.stats.strength``): a seat-swapped pair whose
    winner won from both seats gives seat 0 exactly 1/2 in every resample, so the bootstrap alone
    would claim a point; the Wilson interval keeps the width the number of games allows.
    """
    if not len(points):
        return math.nan, math.nan
    low, high = cluster_interval(points, clusters, rng, samples)
    wilson_low, wilson_high = wilson_interval(np.array(sum(points)), np.array(len(points)))
    return min(low, float(wilson_low)), max(high, float(wilson_high))


def bot_rows(variant: str, bots: Sequence[str], games: list[GameRecord], layout: str, strengths: dict[str, float]):
    """One row per bot that played ``variant``: games, mean_score (``Fraction``), points_per_game and elo (not solo)."""
    rows = []
    for name in bots:
        seats = [(record, seat) for record in games for seat, bot in enumerate(record.spec.seats) if bot == name]
        if not seats:
            continue
        row: dict[str, Any] = {"variant": variant, "bot": name, "games": len(seats)}
        row["mean_score"] = Fraction(sum(int(record.result.scores[seat]) for record, seat in seats), len(seats))
        if layout != SOLO:
            points = sum(  # as the standings count them (league.stats.placing): a faulted seat never shares a draw
                place_points(places(record.result), record.result.offenders, seat) for record, seat in seats
            )
            row["points_per_game"] = round(points / len(seats), 3)
            row["elo"] = round(strengths[name], 1) + 0.0 if name in strengths else math.nan  # no "-0"
        rows.append(row)
    return rows


def compare_variants(
    bots: Sequence[str],
    records: Sequence[GameRecord],
    variants: Sequence[str],
    game: Game | type[Game],
    baseline: str | None = None,
    samples: int = BOOTSTRAP_SAMPLES,
    seed: int = 0,
) -> VariantComparison:
    """Compare a league's rule variants, each against the baseline on the same seeds.

    Args:
        bots: Every bot, in the config's order.
        records: The league's games (INFRA_ERROR games are dropped; order does not matter).
        variants: Every variant, in the league's order; games of other variants are ignored.
        game: The game (class or instance): its ``name``, ``score_label`` and ``scores_spread``.
        baseline: The variant the others are compared with (default: the first).
        samples: Bootstrap resamples per interval.
        seed: Seeds the bootstrap (the same games always give the same figures).

    Raises:
        ValueError: No variants, or a baseline that is not one of them.
    """
    variants = list(variants)
    if not variants:
        raise ValueError("no variants to compare")
    baseline = variants[0] if baseline is None else baseline
    if baseline not in variants:
        raise ValueError(f"unknown baseline variant {baseline!r}; variants: {', '.join(variants)}")
    games = {variant: [] for variant in variants}
    for record in scored(records):
        games.get(record.spec.variant, []).append(record)
    layout = layout_of([record for mine in games.values() for record in mine])
    spread = bool(getattr(game, "scores_spread", True))
    strengths = {v: {} if layout == SOLO else variant_strengths(bots, mine) for v, mine in games.items()}
    rows, bot_table = [], []
    for variant, mine in games.items():
        rng = np.random.default_rng(bootstrap_seed(seed, variant, FIRST_SEAT))
        distinct = _distinct(mine, layout)
        row = variant_row(variant, distinct, layout, spread, strengths[variant], rng, samples)
        rows.append(row | {"games": len(mine), "distinct_games": len({fingerprint(record) for record in mine})})
        bot_table += bot_rows(variant, bots, distinct, layout, strengths[variant])
    figures = [f for f in FIGURES if (f != SCORE or spread) and (layout != SOLO or f in (SCORE, PLIES))]
    others = [variant for variant in variants if variant != baseline]
    differences = [
        row
        for variant in others
        for row in paired_differences(
            variant, baseline, *_joint(games[variant], games[baseline], layout), layout, figures, seed, samples
        )
    ]
    correlation = [
        correlation_row(v, baseline, strengths[v], strengths[baseline], games[v], games[baseline], seed, samples)
        for v in others
        if layout != SOLO
    ]
    comparison = VariantComparison(
        game=str(getattr(game, "name", "")),
        score_label=str(getattr(game, "score_label", "score")),
        scores_spread=spread,
        layout=layout,
        baseline=baseline,
        variants=variants,
        by_variant=pd.DataFrame(rows),
        by_bot=pd.DataFrame(bot_table),
        correlation=pd.DataFrame(correlation),
        differences=pd.DataFrame(differences, columns=DIFFERENCE_COLUMNS),
        sentences=[],
        scores={v: [int(s) for record in mine for s in record.result.scores] for v, mine in games.items()},
        plies={v: [int(record.result.plies) for record in mine] for v, mine in games.items()},
    )
    comparison.sentences = comparison_sentences(comparison)
    return comparison


def comparison_sentences(comparison: VariantComparison) -> list[str]:
    """What the comparison says: per variant its paired differences, then whether the rule changes who is strong."""
    if len(comparison.variants) == 1:
        return [f"Only one variant ({comparison.baseline}): nothing to compare."]
    label = comparison.score_label.split(" (")[0]
    per = "per game" if comparison.layout == SOLO else "per bot and game"
    sentences = [
        difference_sentence(variant, comparison.baseline, mine, label, per)
        for variant, mine in comparison.differences.groupby("variant", sort=False)
    ]
    if comparison.layout == SOLO:
        sentences.append("A solo league has no ratings: compare the bots' mean scores per variant instead.")
        return sentences
    spreads = dict(zip(comparison.by_variant["variant"], comparison.by_variant["rating_spread"], strict=True))
    for row in comparison.correlation.to_dict("records"):
        sentences.append(correlation_sentence(row, spreads[row["variant"]], spreads[row["baseline"]]))
    return sentences
