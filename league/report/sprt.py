"""The report of an SPRT league (``format: sprt``): the test's verdict, why the league stopped, its figures.

The test is taken again from the stored games in schedule order (``league.plan.sequential``), so the
report says what ``league run`` said, whatever order the games were stored in: the verdict at the
first pair that crossed a bound. The games stored after it (in flight when it decided) are not
among the manifest's games (``league.plan.formats.sprt.SprtRun.counted``: the pairs the test took),
so no part of the report counts them; a folder an earlier version wrote still lists them, and they
are told apart. A solo game's test (its games each one bot alone, as the report tells a solo league) is
said in its own terms: a pair is two seeds, a seed a game the candidate wins by outscoring the baseline.
Pairs that repeat earlier ones count once (``league.stats.distinct``); a test that stopped because most
of its pairs did says so. Where every pair went one way, the Elo row is a bound (``league.stats.one_way``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from league.plan.sequential import SprtTracker
from league.report.page import Paragraph, Section, Table
from league.stats.game_record import GameRecord
from league.stats.sprt import SprtSettings, elo_estimate, normalized_elo, one_way_bound, verdict_sentence


def sprt_section(manifest: dict[str, Any], records: Sequence[GameRecord]) -> Section | None:
    """The SPRT section of a league whose manifest holds its test, or None for other leagues."""
    test = manifest.get("sprt")
    if manifest.get("format") != "sprt" or not test:
        return None
    candidate, baseline = manifest["bots"]
    settings = SprtSettings(test["elo0"], test["elo1"], test["alpha"], test["beta"])
    solo = bool(records) and all(len(record.spec.seats) == 1 for record in records)
    tracker = SprtTracker(candidate, baseline, settings, manifest["game_ids"], solo, str(manifest.get("game", "")))
    tracker.add(records)
    state = tracker.state
    seeds = f" (seeds {2 * tracker.pairs_taken - 1:,} and {2 * tracker.pairs_taken:,})" if solo else ""
    why = (
        f"It stopped at pair {tracker.pairs_taken:,}{seeds} without a verdict: most pairs repeated earlier ones."
        if tracker.repeated
        else f"It stopped at pair {tracker.pairs_taken:,}{seeds}, where the LLR crossed a bound."
        if tracker.decided
        else "It reached max_games without a verdict."
        if tracker.capped
        else "It has not decided yet: run the league again to go on."
    )
    games = tracker.games_per_pair * tracker.pairs_taken
    beyond = len(records) - games
    after = (
        f" {beyond:,} more games stored (in flight when it decided, or waiting for a pair before them) do not count."
        if beyond > 0
        else ""
    )
    bound = one_way_bound(state.counts)
    elo, error = normalized_elo(state.counts) if state.pairs and bound is None else (float("nan"), float("nan"))
    elo_cells = (
        [elo_estimate(state.counts), "one-sided (every pair went one way)"]
        if bound is not None
        else [f"{elo:+.1f}", f"± {1.96 * error:.1f}"]
    )
    frame = pd.DataFrame(
        {
            "figure": [
                "LLR",
                "lower bound",
                "upper bound",
                "pairs of seeds" if solo else "pairs",
                "distinct pairs (counted)",
                "games",
                "pentanomial (0 1/4 1/2 3/4 1)",
                "normalized Elo",
                "95% interval",
            ],
            "value": [
                f"{state.llr:.3f}",
                f"{settings.lower:.3f}",
                f"{settings.upper:.3f}",
                f"{tracker.pairs_taken:,}",
                f"{state.pairs:,}",
                f"{games:,}",
                " ".join(str(count) for count in state.counts),
                *elo_cells,
            ],
        }
    )
    unit = (
        f"Both bots play alone on the same seeds: on each seed {candidate} wins (1) when its run outscores"
        f" {baseline}'s (by score, then max chain, then turns, as solo standings rank runs; a faulted run keeps"
        " what it scored before its fault), draws (1/2) when level, loses (0) when below. Each pair is two seeds"
        " (four games)"
        if solo
        else "Each pair is two games on one seed, seats swapped"
    )
    hypotheses = (
        f"H0: {candidate} is {settings.elo0:g} normalized Elo better than {baseline}; H1: {settings.elo1:g} better;"
        f" alpha {settings.alpha:g}, beta {settings.beta:g}. {unit}, scored for {candidate} 0, 1/4, 1/2, 3/4 or 1."
    )
    return Section(
        "SPRT",
        [
            Paragraph(verdict_sentence(state, candidate, baseline, tracker.capped)),
            Paragraph(f"{hypotheses} {why}{after}"),
            Table(frame, name="sprt", text=True),
        ],
    )
