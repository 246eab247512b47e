"""Games of a bot's earlier versions: kept in the store, never rated, listed apart in the report.

Each stored game's spec names the version of each seated bot (``spec.versions``, see
``league.plan.bot_version``). A bot edited since its games were stored plays them again under new
ids, so the league's games (the manifest's ``game_ids``) are its current version's alone; the games
of earlier versions stay in the store and the report lists them apart, one line a bot and version
("mybot, earlier version a1b2c3d4: 6 games, not rated"). A folder without a manifest has no
``game_ids``: there a bot's current version is the one of its last stored game, and every game
that seats another version of a bot is left out of the ratings and listed apart the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from engine.core import plural
from league.plan.bot_version import SHOWN
from league.stats.game_record import GameRecord

UNVERSIONED = ""
"""The version of a bot in a game stored before bots had versions."""


def latest_versions(records: Iterable[GameRecord]) -> dict[str, str]:
    """Per bot, the version of its last game among ``records`` (in the order given: the store's)."""
    latest: dict[str, str] = {}
    for record in records:
        played = record.spec.versions or {}
        for name in record.spec.seats:
            latest[name] = played.get(name, UNVERSIONED)
    return latest


def of_versions(record: GameRecord, versions: dict[str, str]) -> bool:
    """Whether every seat of ``record`` holds its bot's version of ``versions`` (a bot not there: any)."""
    played = record.spec.versions or {}
    seated = {name: played.get(name, UNVERSIONED) for name in record.spec.seats}
    return all(version == versions.get(name, version) for name, version in seated.items())


def earlier_games(
    stored: Iterable[dict[str, Any]], rated: Sequence[dict[str, Any]], bots: Sequence[str]
) -> Counter[tuple[str, str]]:
    """How many of the ``stored`` games left out of ``rated`` each (bot, earlier version) played.

    A bot's version now is the one its rated games seat (none rated: its last stored game's).

    Args:
        stored: Every scored game of the store, in the store's order.
        rated: The games the report rates.
        bots: The league's bots (others are not the league's: not listed).
    """
    stored = list(stored)
    current = latest_versions(stored) | latest_versions(rated)
    taken = {record.game_id for record in rated}
    counts: Counter[tuple[str, str]] = Counter()
    for record in stored:
        if record.game_id in taken:
            continue
        played = record.spec.versions or {}
        for name in record.spec.seats:
            version = played.get(name, UNVERSIONED)
            if name in bots and name in current and version != current[name]:
                counts[name, version] += 1
    return counts


def earlier_lines(counts: Counter[tuple[str, str]], bots: Sequence[str]) -> list[str]:
    """One line a bot and earlier version, in the league's order of bots."""
    order = {name: place for place, name in enumerate(bots)}
    lines = []
    for (name, version), count in sorted(counts.items(), key=lambda item: (order[item[0][0]], item[0][1])):
        what = f"earlier version {version[:SHOWN]}" if version else "a version stored before bots had versions"
        lines.append(f"{name}, {what}: {plural(count, 'game')}, not rated")
    return lines
