"""A league in which every game ended in a fault: standings and a sentence, no ratings invented.

When every scored game was cut short by a bot's fault (a crash, a timeout, bad output, an illegal
move), no game measured how well anyone plays: TrueSkill would rate the forfeits in schedule
order, and Bradley-Terry would fit them, and both would rank bots by who faulted first. The
report then keeps what is fact (standings counted from the forfeits, the cross table, the
faults) and says why it rates nobody.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pandas as pd

from league.stats.game_record import GameRecord
from league.stats.ratings import LeagueTable

RATING_COLUMNS = ("mu", "sigma", "conservative")
"""The standings' TrueSkill columns, left empty when nothing was played out."""


def every_game_faulted(records: Sequence[GameRecord]) -> bool:
    """Whether there are games of two seats or more and none was played out between two seats without a fault.

    A table where one seat faulted and the others played on (nimmt and fish go on with a fallback
    for the faulted seat) measured the others: it is not a fault here.
    """
    games = [record for record in records if len(record.spec.seats) > 1]
    return bool(games) and all(_faulted(record) for record in games)


def _faulted(record: GameRecord) -> bool:
    """Whether fewer than two of the game's seats went without a fault."""
    return len(record.spec.seats) - len(set(record.result.offenders or [])) < 2


def fault_order(table: LeagueTable) -> list[str]:
    """Bots best first by what the forfeits gave: points, then fewer faults, then name (no rating)."""
    return sorted(
        table.standings,
        key=lambda name: (-table.standings[name].points, table.standings[name].faults, name),
    )


def unrated_standings(standings: pd.DataFrame) -> pd.DataFrame:
    """The standings with their TrueSkill columns emptied."""
    return standings.assign(**{column: float("nan") for column in RATING_COLUMNS if column in standings})


def no_ratings_sentence(records: Sequence[GameRecord]) -> str:
    """Why nobody is rated: every game ended in a fault, counted by kind."""
    kinds = Counter(record.result.termination for record in records if len(record.spec.seats) > 1)
    listed = ", ".join(f"{count} {_kind(kind, count)}" for kind, count in sorted(kinds.items()))
    total = sum(kinds.values())
    every = "The only game" if total == 1 else f"Every one of the {total} games"
    return (
        f"{every} ended in a fault ({listed}), so no game measured how well anyone plays: no ratings are given"
        " (neither TrueSkill nor Bradley-Terry), and places count only what the forfeits gave (points, then"
        " fewer faults)."
    )


def _kind(termination: str, count: int) -> str:
    """A termination in words, plural when ``count`` is not 1: "crash", "3 timeouts"."""
    word = termination.lower().replace("_", " ")
    if count == 1:
        return word
    return word + ("es" if word.endswith("sh") else "" if word.endswith("output") else "s")
