"""The replay pages a report writes beside itself, and the sentence that says which games have one.

A league of up to ``ALL_GAMES`` games gets a page for every game; a bigger one gets a page for
each faulted game (up to ``FAULTED_GAMES``), since those are the games bot authors come to look
at, and ``league replay DIR GAME_ID`` writes any other. Every league with a manifest also gets its
``HIGHLIGHTS`` most tense stretches on ``replays/highlights.html``. Pages are rebuilt from the
store, so ``league report`` writes the same bytes again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from league.replay_files import LeagueReplays
from league.report_page import Paragraph

ALL_GAMES = 300
FAULTED_GAMES = 100
HIGHLIGHTS = 5


@dataclass(frozen=True)
class ReplayLinks:
    """What the report links to.

    Attributes:
        games: The games with a page in ``replays/``.
        highlights: Whether ``replays/highlights.html`` was written.
    """

    games: frozenset[str]
    highlights: bool

    def paragraph(self, total: int, faulted: int) -> Paragraph:
        """The Games section's sentence on replays, ``faulted`` of the ``total`` games having ended by a fault."""
        some = "every game has" if len(self.games) == total else f"{len(self.games):,} of {total:,} games have"
        if len(self.games) == total:
            which = ""
        elif len(self.games) < faulted:
            which = f" (the first {len(self.games):,} of the {faulted:,} faulted ones, in schedule order)"
        else:
            which = " (the faulted ones)"
        tense = (
            " The league's most tense stretches are on replays/highlights.html (linked above)."
            if self.highlights
            else ""
        )
        return Paragraph(
            f"Replays: {some} a page in replays/ that plays it in the browser{which}; `league replay DIR GAME_ID`"
            f" writes any other, and `--print` shows it move by move.{tense}"
        )


def write_replays(
    folder: Path, manifest: dict[str, Any], records: list[dict[str, Any]], store: Any
) -> ReplayLinks | None:
    """Write the report's replay pages; None when the folder's league cannot be replayed (no manifest)."""
    if not manifest.get("game") or not records:
        return None
    replays = LeagueReplays.loaded(folder, manifest, store, records)
    scored = replays.records
    chosen = scored if len(scored) <= ALL_GAMES else [r for r in scored if r["result"]["offenders"]][:FAULTED_GAMES]
    for record in chosen:
        replays.write(record["game_id"])
    replays.highlights(HIGHLIGHTS)
    return ReplayLinks(frozenset(record["game_id"] for record in chosen), True)
