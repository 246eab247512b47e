"""The report of an SPRT league (``format: sprt``): the test's verdict, why the league stopped, its figures.

The test is taken again from the stored games in schedule order (``league.plan.sequential``), so the
report says what ``league run`` said, whatever order the games were stored in: the verdict at the
first pair that crossed a bound, the games stored after it (in flight when it decided) counted
apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from league.plan.sequential import SprtTracker
from league.report.page import Paragraph, Section, Table
from league.stats.sprt import SprtSettings, normalized_elo, verdict_sentence


def sprt_section(manifest: dict[str, Any], records: Sequence[dict[str, Any]]) -> Section | None:
    """The SPRT section of a league whose manifest holds its test, or None for other leagues."""
    test = manifest.get("sprt")
    if manifest.get("format") != "sprt" or not test:
        return None
    candidate, baseline = manifest["bots"]
    settings = SprtSettings(test["elo0"], test["elo1"], test["alpha"], test["beta"])
    tracker = SprtTracker(candidate, baseline, settings, manifest["game_ids"])
    tracker.add(records)
    state = tracker.state
    why = (
        f"It stopped at pair {tracker.pairs_taken:,}, where the LLR crossed a bound."
        if tracker.decided
        else "It reached max_games without a verdict."
        if tracker.capped
        else "It has not decided yet: run the league again to go on."
    )
    beyond = len(records) - 2 * tracker.pairs_taken
    after = (
        f" {beyond:,} more games stored (in flight when it decided, or waiting for a pair before them) do not count."
        if beyond > 0
        else ""
    )
    elo, error = normalized_elo(state.counts) if state.pairs else (float("nan"), float("nan"))
    frame = pd.DataFrame(
        {
            "figure": [
                "LLR",
                "lower bound",
                "upper bound",
                "pairs",
                "games",
                "pentanomial (0 1/4 1/2 3/4 1)",
                "normalized Elo",
                "95% interval",
            ],
            "value": [
                f"{state.llr:.3f}",
                f"{settings.lower:.3f}",
                f"{settings.upper:.3f}",
                f"{state.pairs:,}",
                f"{2 * state.pairs:,}",
                " ".join(str(count) for count in state.counts),
                f"{elo:+.1f}",
                f"± {1.96 * error:.1f}",
            ],
        }
    )
    hypotheses = (
        f"H0: {candidate} is {settings.elo0:g} normalized Elo better than {baseline}; H1: {settings.elo1:g} better;"
        f" alpha {settings.alpha:g}, beta {settings.beta:g}. Each pair is two games on one seed, seats swapped,"
        f" scored for {candidate} 0, 1/4, 1/2, 3/4 or 1."
    )
    return Section(
        "SPRT",
        [
            Paragraph(verdict_sentence(state, candidate, baseline, tracker.capped)),
            Paragraph(f"{hypotheses} {why}{after}"),
            Table(frame, name="sprt", text=True),
        ],
    )
