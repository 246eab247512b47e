"""The ``league play`` command that plays a stored league game again, move for move.

A league game is played exactly as ``league play`` plays it: the same bots in the same seats, the
same match seed (built-ins draw their own seeds from it), the variant's rules and the league's
clock, sandbox and limits. The command is built from the league's manifest (``league.json``), or
without one from what the stored games keep in its shape (``league.replay.recorded``), so a report
can print it beside every game.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

import yaml

from engine import GAMES
from league.stats.game_record import GameRecord


def replay_command(manifest: dict[str, Any], record: GameRecord) -> str:
    """The ``league play`` command line that replays ``record``'s game.

    Args:
        manifest: The league's manifest (``league.plan.manifest.write_manifest``): ``game``, ``settings``
            per variant, ``bot_specs`` per bot, ``play`` (clock, sandbox, limits).
        record: A stored game (``spec.seats``, ``spec.variant``, ``spec.seed``).
    """
    return ReplayCommands(manifest)(record)


class ReplayCommands:
    """``replay_command`` for many games of one league, each variant and seating built once.

    Only the seed differs between the commands of one variant and seating.

    Args:
        manifest: The league's manifest.
    """

    def __init__(self, manifest: dict[str, Any]) -> None:
        self.manifest = manifest
        self._known: dict[tuple[str, tuple[str, ...]], tuple[str, str]] = {}

    def __call__(self, record: GameRecord) -> str:
        """The command that replays ``record``'s game."""
        spec = record.spec
        key = (spec.variant, tuple(spec.seats))
        if key not in self._known:
            self._known[key] = self._around_the_seed(*key)
        before, after = self._known[key]
        return f"{before} --seed {int(spec.seed)}{after}{_opening_options(record)}"

    def _around_the_seed(self, variant: str, seats: tuple[str, ...]) -> tuple[str, str]:
        """The command's words before ``--seed N`` and its options after it, quoted for a shell.

        Programs without a folder of their own ran in the league file's folder, shown them empty but
        for the folders of their files: the command goes there first (``cd``), and gives ``--cwd``
        only to programs with a folder of their own, as the league did.
        """
        manifest = self.manifest
        game_name = manifest["game"]
        words = ["league", "play", game_name]
        options = _variant_options(game_name, manifest.get("settings", {}).get(variant, {}))
        as_program = False
        bots = [manifest.get("bot_specs", {}).get(name) for name in seats]
        runs_in = _working_folder([bot for bot in bots if bot is not None])
        for seat, (name, bot) in enumerate(zip(seats, bots, strict=True)):
            if bot is None:  # a manifest of an older version: the bot's name is all there is
                words.append(name)
                continue
            words.append(_bot_argument(game_name, bot))
            options += _seat_options(seat, bot, runs_in)
            as_program = as_program or any(side.get("as_program") for side in _sides(bot))
        options += ["--programs"] if as_program else []
        options += ["--shared-folder"] if any(bot and bot.get("shared_folder") for bot in bots) else []
        options += _play_options(manifest.get("play", {}))
        before = shlex.join(words) if runs_in is None else f"cd {shlex.quote(runs_in)} && {shlex.join(words)}"
        return before, "".join(f" {shlex.quote(option)}" for option in options)


def _opening_options(record: GameRecord) -> str:
    """``--openings`` for a game that started from one (``league.plan.openings``): its plies, or its moves."""
    opening = record.spec.opening
    if not opening:
        return ""
    if "moves" in opening:
        return " " + shlex.quote("--openings") + " " + shlex.quote("moves=" + "; ".join(opening["moves"]))
    return f" --openings plies={int(opening['plies'])}"


def _working_folder(bots: list[dict[str, Any]]) -> str | None:
    """The one folder the programs without a folder of their own run in (the league file's), or None.

    Where they ran in several (a manifest of an older version, which did not record whose folder
    was its own), None: each gets ``--cwd``.
    """
    folders = {
        side["cwd"]
        for bot in bots
        for side in _sides(bot)
        if side.get("command") and side.get("cwd") and not side.get("own_folder")
    }
    return folders.pop() if len(folders) == 1 else None


def _sides(bot: dict[str, Any]) -> list[dict[str, Any]]:
    return list(bot["roles"].values()) if bot.get("roles") else [bot]


def _variant_options(game_name: str, settings: dict[str, Any]) -> list[str]:
    """``--set KEY=VALUE`` for each rule that differs from the game's default."""
    game = GAMES.get(game_name)
    defaults = game().variant() if game is not None else {}
    return [
        word
        for key, value in settings.items()
        if defaults.get(key) != value
        for word in ("--set", f"{key}={_yaml_value(value)}")
    ]


def _yaml_value(value: Any) -> str:
    """A value as ``--set`` reads it (YAML): a plain word where YAML reads it back as the same string."""
    if isinstance(value, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.-]*", value):
        if yaml.safe_load(value) == value:
            return value
    return json.dumps(value, separators=(", ", ": "))


def _bot_argument(game_name: str, bot: dict[str, Any]) -> str:
    """The BOT argument: a built-in's short name, a command line, or ``ATTACKER::DEFENDER``."""
    if bot.get("roles"):
        return "::".join(_bot_argument(game_name, side) for side in bot["roles"].values())
    if bot.get("builtin"):
        prefix, _, short = bot["builtin"].partition(".")
        return short if prefix == game_name else bot["builtin"]
    return shlex.join(bot.get("command") or ())


def _seat_options(seat: int, bot: dict[str, Any], runs_in: str | None = None) -> list[str]:
    """A seat's folder (unless it runs in ``runs_in``, not its own), parameters and transport."""
    options: list[str] = []
    folders = {side.get("cwd") for side in _sides(bot) if side.get("own_folder") or side.get("cwd") != runs_in}
    folders -= {None}
    if folders:
        options += ["--cwd", f"{seat}:{sorted(folders)[0]}"]
    for side in _sides(bot):
        for key, value in side.get("params", {}).items():
            options += ["--param", f"{seat}:{key}={json.dumps(value)}"]
    if any(side.get("transport") == "tcp" for side in _sides(bot)):
        options += ["--tcp", str(seat)]
    return options


def _play_options(play: dict[str, Any]) -> list[str]:
    """The league's clock, sandbox and limits where they are not ``league play``'s defaults."""
    options: list[str] = []
    if play.get("clock", "own") != "own":
        options += ["--clock", play["clock"]]
    if play.get("time_margin_ms", 0):
        options += ["--time-margin-ms", str(play["time_margin_ms"])]
    if play.get("sandbox", "auto") != "auto":
        options += ["--sandbox", play["sandbox"]]
    for key, value in play.get("limits", {}).items():
        options += ["--limit", f"{key}={json.dumps(value)}"]
    return options
