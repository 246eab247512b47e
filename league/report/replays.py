"""The replay pages a report writes beside itself, and the sentence that says which games have one.

A league of up to ``ALL_GAMES`` games gets a page for every game; a bigger one gets a page for
each faulted game (up to ``FAULTED_GAMES``), since those are the games bot authors come to look
at, and ``league replay DIR GAME_ID`` writes any other; every game of a knockout gets its page (its
bracket links each). Every league whose game is known (from its
manifest, or from its stored games: ``league.replay.recorded``) also gets its ``HIGHLIGHTS`` most tense
stretches on ``replays/highlights.html``. Pages are rebuilt from the store, so ``league report``
writes the same bytes again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from league.replay.files import LeagueReplays
from league.report.knockout import knockout_games
from league.report.page import Paragraph
from league.stats.game_record import GameRecord

ALL_GAMES = 300
FAULTED_GAMES = 100
HIGHLIGHTS = 5


@dataclass(frozen=True)
class ReplayLinks:
    """What the report links to: a page per game of ``games``, and ``replays/highlights.html``.

    Attributes:
        games: The games with a page in ``replays/``.
    """

    games: frozenset[str]
    knockout: int = 0
    """How many of them are a knockout's games (every one has a page, ``league.report.knockout``)."""

    def paragraph(self, total: int, faulted: int) -> Paragraph:
        """The Games section's sentence on replays, ``faulted`` of the ``total`` games having ended by a fault."""
        some = "every game has" if len(self.games) == total else f"{len(self.games):,} of {total:,} games have"
        if len(self.games) == total:
            which = ""
        elif self.knockout:
            which = f" (every game of the knockout, and up to {FAULTED_GAMES:,} faulted ones)"
        elif len(self.games) < faulted:
            which = f" (the first {len(self.games):,} of the {faulted:,} faulted ones, in schedule order)"
        else:
            which = " (the faulted ones)"
        return Paragraph(
            f"Replays: {some} a page in replays/ that plays it in the browser{which}; `league replay DIR GAME_ID`"
            " writes any other, and `--print` shows it move by move. The league's most tense stretches are on"
            " replays/highlights.html, linked below."
        )


def write_replays(folder: Path, manifest: dict[str, Any], records: list[GameRecord], store: Any) -> ReplayLinks | None:
    """Write the report's replay pages and highlights; None when the league cannot be replayed (its game unknown).

    Each game is replayed once: its page and its tensest stretch come from the same replay.
    """
    if not manifest.get("game") or not records:
        return None
    replays = LeagueReplays.loaded(folder, manifest, store, records)
    scored = replays.records
    chosen = scored if len(scored) <= ALL_GAMES else [r for r in scored if r.result.offenders][:FAULTED_GAMES]
    finals = knockout_games(manifest)  # a knockout's every game has its page, whatever the league's size
    picked = {record.game_id for record in chosen}
    chosen += [record for record in scored if record.game_id in finals and record.game_id not in picked]
    stretches = {record.game_id: replays.write_record(record)[1] for record in chosen}
    replays.highlights(HIGHLIGHTS, known=stretches)
    return ReplayLinks(frozenset(stretches), len(finals & stretches.keys()))
