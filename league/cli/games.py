"""``league games``: the registered games, and for one game its seats, roles, variant keys and built-ins.

Everything printed comes from the code (the Game's fields and their descriptions, the built-in
classes' signatures and docstrings), so the listing cannot drift from what the league accepts.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from engine import GAMES
from engine.core import PLAY, Game
from league.cli.args import UsageError, seat_range
from league.match.builtins import builtin_names, parameters, role_classes, type_name

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def _value(value: Any) -> str:
    """A default as it would be written in YAML (``[2, 4]``, ``null``, ``true``, ``empty``)."""
    if isinstance(value, str):
        return value
    return json.dumps(list(value) if isinstance(value, tuple) else value)


def describe_games() -> str:
    """One line per registered game."""
    width = max(len(name) for name in GAMES)
    lines = [f"{name:<{width}}  {game.title}" for name, game in sorted(GAMES.items())]
    lines.append("")
    lines.append("league games GAME: its seats, roles, variant keys and built-in bots")
    return "\n".join(lines)


def describe_game(game: type[Game]) -> str:
    """Seats, roles, variant keys (default, type, meaning) and built-ins with their parameters."""
    lines = [f"{game.name}: {game.title}", f"  seats: {seat_range(game)}"]
    if game.roles != (PLAY,):
        lines.append(f"  roles: {', '.join(game.roles)} (a program bot gives one command per role)")
    lines.append(f"  results: scores are the {game.score_label} of each seat")
    readme = ENGINE / game.name / "README.md"
    if readme.exists():
        lines.append(f"  rules and protocol for bot authors: {readme}")
    lines += ["", "variant keys (--set KEY=VALUE, or under variants: in a league file):"]
    for key, field in game.model_fields.items():
        lines.append(f"  {key} = {_value(field.default)}  ({type_name(field.annotation)})")
        if field.description:
            lines.append(f"      {field.description}")
    lines += ["", "built-in bots (params: in a league file, --param SEAT:KEY=VALUE on league play):"]
    for name in builtin_names(game):
        classes = role_classes(game, name)
        first = next(iter(classes.values()))
        summary = (first.__doc__ or "").strip().splitlines()[0] if first.__doc__ else ""
        lines.append(f"  {name}: {summary}")
        rules = set(game().bot_rules())
        for role, cls in classes.items():
            own = [p for p in parameters(cls).values() if p.name not in rules]
            heading = f"    as {role}:" if len(classes) > 1 else None
            if heading and own:
                lines.append(heading)
            indent = "      " if heading else "    "
            for parameter in own:
                meaning = f": {parameter.meaning}" if parameter.meaning else ""
                lines.append(f"{indent}{parameter.name} = {_value(parameter.default)} ({parameter.type_name}){meaning}")
        if rules:
            lines.append(f"    told the variant's {', '.join(sorted(rules))} by the league")
    return "\n".join(lines)


def cmd_games(args: argparse.Namespace) -> int:
    """List the games, or describe one."""
    if args.game is None:
        print(describe_games())
        return 0
    if args.game not in GAMES:
        raise UsageError(f"unknown game {args.game!r}; known games: {', '.join(sorted(GAMES))}")
    print(describe_game(GAMES[args.game]))
    return 0


def add_commands(commands: Any) -> None:
    """Register ``games`` on the ``league`` parser."""
    games = commands.add_parser("games", help="list the games, or describe one (seats, variant keys, built-ins)")
    games.add_argument("game", nargs="?", help="a game to describe")
    games.set_defaults(handler=cmd_games)
