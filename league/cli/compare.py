"""``league compare DIR``: a league's rule variants compared on the same seeds, in the terminal.

Reads the games of ``DIR/games.jsonl`` that belong to the league as last run (``DIR/league.json``)
and prints the per-variant table, the paired differences from the baseline and the sentences of
``league.stats.variant_compare``; ``--json`` prints the same as JSON, ``--charts FOLDER`` writes the PNG
charts. A folder without games, an unknown baseline or a league of one variant is a usage error.

Pairs of games where either game ended by a fault are left out of the paired differences; the
table says how many (``left out``), and so do the sentences and the JSON (``faulted_pairs``).

``--json`` gives every figure as a JSON number, or null where there is none. Exact figures of
scores (``mean_score``, ``median_score``, ``score_q1``, ``score_q3``, and ``baseline_mean`` of
scores and plies) are integers when whole, exact however large (scores can pass 2**53: read them
with a parser that keeps big integers, as Python's does), and the nearest double otherwise (past
2**53 a double is near, not exact: the terminal's table shows the exact value to two places), so
that a program gets numbers it can compute with and loses no whole score. Differences and
intervals are doubles; rates are shares (0.05 is 5 percentage points). Names, orders and sentences
are strings, ``clear`` is a boolean. The rank correlation gives Kendall's tau with its 95% interval
(``tau_low_95``, ``tau_high_95``: null below 4 bots rated under both variants, or over too few
independent games; ``league.stats.variant_ranks``).
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
from pathlib import Path
from typing import Any

import pandas as pd

from engine import GAMES
from league.cli.args import UsageError
from league.plan.manifest import read_manifest, scheduled_games
from league.stats.variant_cells import text_cell
from league.stats.variant_compare import VariantComparison, compare_variants
from league.stats.variant_pairs import DRAWS, FIRST_SEAT
from league.stats.variant_sentences import amount
from league.store.results import league_store

WIDE = 160
"""Columns of the tables when stdout is no terminal (a file, a pipe)."""


def load_comparison(folder: Path, baseline: str | None) -> VariantComparison:
    """The variant comparison of the league stored in ``folder``.

    Raises:
        UsageError: No league there, no scored games, one variant, or an unknown baseline.
    """
    manifest = read_manifest(folder) if folder.is_dir() else None
    if manifest is None:
        raise UsageError(f"{folder}: no league here (no league.json); run `league run CONFIG` first")
    records = scheduled_games(league_store(folder).records(), manifest["game_ids"])
    if not records:
        raise UsageError(f"{folder}: no scored games yet; run `league run CONFIG` first")
    variants = list(manifest["variants"])
    if len(variants) < 2:
        raise UsageError(f"{folder}: nothing to compare: the league has one variant ({variants[0]})")
    if baseline is not None and baseline not in variants:
        raise UsageError(f"--baseline {baseline}: no such variant; variants: {', '.join(variants)}")
    game = GAMES.get(manifest["game"])
    if game is None:
        raise UsageError(f"{folder}: unknown game {manifest['game']!r}; known games: {', '.join(sorted(GAMES))}")
    return compare_variants(manifest["bots"], records, variants, game, baseline)


RATES = (DRAWS, FIRST_SEAT)
"""Figures that are shares: their differences are shown in percentage points."""


def _cell(value: Any) -> str:
    """A table cell: NaN as blank, lists joined, floats without trailing zeros, exact figures to two places."""
    value = text_cell(value)
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.3f}".rstrip("0").rstrip(".")
    if isinstance(value, list):
        return " > ".join(map(str, value))
    return str(value)


def difference_rows(comparison: VariantComparison) -> pd.DataFrame:
    """The paired differences for people: each difference, its interval and its share of the baseline as text.

    Rates (draw rate, the first seat's share of the points) are in percentage points (``pp``);
    ``left out`` counts the pairs where either game ended by a fault.
    """
    rows = []
    for row in comparison.differences.to_dict("records"):
        scale, unit = (100.0, " pp") if row["figure"] in RATES else (1.0, "")
        signed = [
            amount(row[key] * scale) + unit if not math.isnan(row[key]) else ""
            for key in ("mean_difference", "low_95", "high_95")
        ]
        rows.append(
            {
                "variant": row["variant"],
                "figure": row["figure"],
                "difference": signed[0],
                "95% interval": f"{signed[1]} to {signed[2]}" if signed[1] else "",
                "relative": "" if math.isnan(row["relative"]) else f"{row['relative']:+.1%}",
                "pairs": row["pairs"],
                "left out": row["faulted_pairs"],
                "excludes 0": "yes" if row["clear"] else "no",
            }
        )
    return pd.DataFrame(rows)


def rich_table(frame: pd.DataFrame, title: str) -> Any:
    """A rich Table of a DataFrame (every column, numbers right-aligned)."""
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for column in frame.columns:
        numeric = pd.api.types.is_numeric_dtype(frame[column]) and not pd.api.types.is_bool_dtype(frame[column])
        table.add_column(str(column), justify="right" if numeric else "left", overflow="fold")
    for row in frame.itertuples(index=False):
        table.add_row(*(_cell(value) for value in row))
    return table


def print_comparison(comparison: VariantComparison) -> None:
    """The tables and sentences of a comparison on stdout (rich)."""
    from rich.console import Console

    console = Console(width=shutil.get_terminal_size((WIDE, 24)).columns)  # piped: wide, never cut
    by_variant = comparison.by_variant.T.reset_index()
    by_variant.columns = ["figure", *comparison.by_variant["variant"]]
    console.print(rich_table(by_variant.iloc[1:], f"{comparison.game} variants (scores: {comparison.score_label})"))
    if not comparison.differences.empty:
        title = f"Paired differences from {comparison.baseline}, variant minus baseline (95% intervals;"
        title += " left out: pairs with a game ended by a fault)"
        console.print(rich_table(difference_rows(comparison), title))
    if not comparison.correlation.empty:
        console.print(
            rich_table(comparison.correlation.drop(columns=["baseline"]), "Who is strong (Bradley-Terry Elo)")
        )
    console.print()
    for sentence in comparison.sentences:
        console.print(sentence, soft_wrap=True, highlight=False, markup=False)


def cmd_compare(args: argparse.Namespace) -> int:
    """Compare the rule variants of a played league."""
    comparison = load_comparison(Path(args.folder), args.baseline)
    if args.charts is not None:
        from league.report.variant_charts import write_charts

        try:
            written = write_charts(comparison, Path(args.charts))
        except OSError as error:
            raise UsageError(f"--charts {args.charts}: cannot write there ({error.strerror or error})") from None
    if args.json:
        print(json.dumps(comparison.to_json(), indent=1))
    else:
        print_comparison(comparison)
        if args.charts is not None:
            print("charts: " + (", ".join(str(path) for path in written) or "none (nothing to draw)"))
    return 0


def add_commands(commands: Any) -> None:
    """Register ``compare`` on the ``league`` parser."""
    compare = commands.add_parser(
        "compare", help="compare a played league's rule variants on the same seeds (paired differences)"
    )
    compare.add_argument("folder", metavar="DIR", help="a league's report folder (games.jsonl and league.json)")
    compare.add_argument(
        "--baseline", metavar="VARIANT", help="the variant the others are compared with (default: the first)"
    )
    compare.add_argument(
        "--json",
        action="store_true",
        help="print the comparison as JSON: every figure a number or null (exact scores as integers when whole,"
        " else the nearest double; rates as shares); faulted_pairs: the pairs left out, where either game ended"
        " by a fault",
    )
    compare.add_argument("--charts", metavar="FOLDER", help="also write the comparison's PNG charts into FOLDER")
    compare.set_defaults(handler=cmd_compare)
