"""The league a contest plays now: the league file's bots and every author's entry (newest valid version).

The contest plays its league file with its bots list grown by one program bot per entry, named after
its author and run from its version's folder (``versions/<author>/<digest>/``). A version is new
content, so a new version is a new bot to the league (``league.plan.bot_version``): the games of the
version it replaces keep their ids and stay in the store, and count for nothing on the board.

A contest plays a format that can grow (``LIVE_FORMATS``): each pair's games have ids of their own
that do not change when a bot joins, so the games stored before an entry came stay counted.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from engine import GAMES
from league.contest.model import Submission
from league.plan.config import ConfigError, League, league_text, load_league

LIVE_FORMATS = ("adaptive", "round_robin")
"""The formats a contest plays continuously: a pair's games keep their ids when the field grows."""
DEFAULT_FORMAT = "adaptive"
"""What a contest plays when its league file names no format: games go where the board is unsettled."""


class FieldError(Exception):
    """The league file cannot be played as a live contest; the message names the fix."""


def live_overrides(path: Path) -> dict[str, Any]:
    """The keys a contest changes in its league file: ``format: adaptive`` where the file names none.

    Raises:
        FieldError: The file names a format a contest cannot play continuously.
    """
    given = _file_data(path).get("format")
    if given is None:
        return {"format": DEFAULT_FORMAT}
    if given not in LIVE_FORMATS:
        raise FieldError(
            f"{path}: format {given!r} cannot be played as a live contest (it cannot take a new bot while it plays);"
            f" give format: {' or '.join(LIVE_FORMATS)}, or leave format out for {DEFAULT_FORMAT}"
        )
    return {}


def house_bots(path: Path) -> list[dict[str, Any]]:
    """The league file's own bots, as its ``bots`` list gives them."""
    bots = _file_data(path).get("bots")
    return list(bots) if isinstance(bots, list) else []


def _file_data(path: Path) -> dict[str, Any]:
    """The league file's keys; none where it cannot be read (``load_league`` then says why, naming the fix)."""
    try:
        data = yaml.safe_load(league_text(path))
    except (OSError, yaml.YAMLError, ConfigError):
        return {}
    return data if isinstance(data, dict) else {}


def entry_bot(entry: Submission) -> dict[str, Any]:
    """An entry as a bot of the league file: its author's name, its command, its version's folder."""
    return {"name": entry.author, "command": list(entry.command), "cwd": str(entry.folder)}


def field_league(path: Path, entries: Mapping[str, Submission]) -> League:
    """The league of the house bots and the entries.

    An entry whose author's name is a house bot's (whatever the case) is left out: the house bot keeps its name.

    Raises:
        FieldError: The file's format cannot be played live.
        ConfigError: The league file (or an entry's bot) is wrong; the message names the key.
    """
    overrides = live_overrides(path)
    house = house_bots(path)
    taken = {str(bot.get("name", "")).lower() for bot in house if isinstance(bot, dict)}
    bots = house + [entry_bot(entry) for author, entry in sorted(entries.items()) if author.lower() not in taken]
    return load_league(path, {**overrides, "bots": bots})


def check_live(path: Path) -> League:
    """The league file as the contest reads it: its own bots (the house bots every entry meets), its format live.

    Raises:
        FieldError: The file's format cannot be played live, or its game's bots have several roles.
        ConfigError: The file is wrong (a league file names two bots at least: built-ins make good house bots).
    """
    league = load_league(path, live_overrides(path))
    roles = GAMES[league.config.game].roles
    if len(roles) > 1:
        raise FieldError(
            f"{path}: {league.config.game} bots have a command per role ({', '.join(roles)}), and a submitted version"
            " has one command, which cannot tell its role: a live contest of this game is not supported yet;"
            " run it as a league file (league run) with roles: for each bot"
        )
    return league
