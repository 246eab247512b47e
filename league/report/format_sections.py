"""A league format's own part of the report, found by the manifest's ``format`` (one line a format).

The report is rebuilt from a league's folder alone, so its format's part is found by the name its
manifest keeps (``league.json``'s ``format``), not through ``league.plan.formats`` (a wing below,
which knows no report). Each part is a function of the manifest and the stored games: a ``Section``
(``sprt.py``: the test's verdict and why it stopped) or ``ReportParts`` with tables and charts of
its own (``adaptive.py``), None where it has nothing to say. A format without a line here has no
part of its own (a round robin, a gauntlet, tables; a solo league's standings come from its games'
seats, ``solo.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from league.report.adaptive import adaptive_report
from league.report.knockout import knockout_report
from league.report.page import ReportParts, Section
from league.report.sprt import sprt_section
from league.report.swiss import swiss_section
from league.stats.game_record import GameRecord

FormatSection = Callable[[dict[str, Any], Sequence[GameRecord]], Section | ReportParts | None]

FORMAT_SECTIONS: dict[str, FormatSection] = {
    "sprt": sprt_section,
    "adaptive": adaptive_report,
    "knockout": knockout_report,
    "swiss": swiss_section,
}
"""Per format's name, its part of the report."""


def format_parts(manifest: dict[str, Any], records: Sequence[GameRecord]) -> ReportParts | None:
    """The part of the report of the league's format (``FORMAT_SECTIONS``), then its finals' (``finals``), or None.

    A league with finals (``league.plan.formats.finals``) names its qualifier's format and keeps the
    finals' format in ``finals.format``: the report shows the qualifier's part, then the finals'.
    """
    finals = manifest.get("finals") or {}
    parts = [_part(manifest.get("format"), manifest, records), _part(finals.get("format"), manifest, records)]
    found = [part for part in parts if part is not None]
    if not found:
        return None
    whole = found[0]
    for part in found[1:]:
        whole.add(part)
    return whole


def _part(format_: Any, manifest: dict[str, Any], records: Sequence[GameRecord]) -> ReportParts | None:
    own = FORMAT_SECTIONS.get(str(format_ or ""))
    found = own(manifest, records) if own is not None else None
    return ReportParts(sections=[found]) if isinstance(found, Section) else found
