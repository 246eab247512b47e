"""Which rule placed the bots in the standings, in words, from the folder's manifest alone.

The standings follow one rule (``league.stats.ranking``): the format's own result where the runner
kept one in the manifest (``final_order``: a knockout's placing, a Swiss league's standings, finals'
placing then the qualifier's order), else Bradley-Terry. The report's standings note, its Method
section and the terminal's table (``league.cli.standings_table``, which knows no format) all say it
with ``standings_rule``; the sentences of each format are here, found by the manifest's ``format``
(and ``finals.format``), as ``league.report.format_sections`` finds a format's section.
"""

from __future__ import annotations

from typing import Any

from league.stats.ranking import RULE, manifest_order

KNOCKOUT_RULE = (
    "the knockout's placing, as its section gives it: the champion, the runner-up (the final's loser), then the"
    " others by the round that put them out (a later round first, bots out in the same round by seed)"
)
"""A bracket's placing (``league.plan.bracket.Bracket.placing``)."""

TABLE_KNOCKOUT_RULE = (
    "the knockout's placing, as its section gives it: the final table's order, then the others by the round"
    " that put them out (a later round first), then by their place at their table, then by seed"
)
"""A knockout of tables' placing (``league.plan.formats.knockout_run.TableKnockoutRun.final_order``)."""

SWISS_RULE = (
    "the Swiss standings, as its section gives them: score, then Buchholz, then Sonneborn-Berger, then the draw order"
)
"""A Swiss league's standings (``league.plan.swiss_standings.final_order``)."""

OWN_RESULT = "the format's own result"
"""A format with an order of its own that has no sentence here."""

STRENGTH_COLUMN = "the Bradley-Terry strength (elo) is a column here, not the order"
"""What the strength columns are where the format placed the bots."""


def standings_rule(manifest: dict[str, Any]) -> str:
    """The rule the standings were placed by, in words (lower case, no full stop): the format's, or ``RULE``."""
    if manifest_order(manifest) is None:
        return RULE
    own = _own_rule(manifest, str(manifest.get("format", "")))
    finals = manifest.get("finals") or {}
    if finals.get("finalists"):
        placed = _own_rule(manifest, str(finals.get("format", ""))) or "their format's own result"
        qualifier = own or "by Bradley-Terry strength over the qualifier's games"
        own = f"the finals' placing ({placed}), then the bots they left out in the qualifier's order ({qualifier})"
    return f"{own or OWN_RESULT}; {STRENGTH_COLUMN}"


def _own_rule(manifest: dict[str, Any], format_: str) -> str:
    """A format's own order in words, with how far it has got, or "" for a format without one."""
    if format_ == "knockout":
        knockout = manifest.get("knockout") or {}
        rule = TABLE_KNOCKOUT_RULE if knockout.get("kind") == "tables" else KNOCKOUT_RULE
        return rule if knockout.get("champion") else f"{rule}; in progress: bots still in come first, by seed"
    if format_ == "swiss":
        swiss = manifest.get("swiss") or {}
        played, rounds = swiss.get("rounds_played", 0), swiss.get("rounds", 0)
        return SWISS_RULE if played >= rounds else f"{SWISS_RULE}; after round {played} of {rounds}"
    return ""
