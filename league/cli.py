"""The ``league`` command line: ``play`` one match, ``bot`` runs a built-in as a program.

Bad input (an unknown game, a bad ``--set``, a bot that cannot start) gets one line on stderr
naming the problem and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from engine import GAMES, get_game
from engine.core import Game
from engine.protocol import run_stdio
from league.cli_league import LeagueUsageError, add_commands
from league.players import BotSpec, BotSpecError, builtin_class, check_command, make_launcher, parse_bot_argument
from league.referee import ClockSettings, MatchRecord, play_match
from sandbox.jail import Sandbox, SandboxError
from sandbox.limits import Limits, SandboxMode

USAGE_ERROR = 2
ModelT = TypeVar("ModelT", bound=BaseModel)


class UsageError(Exception):
    """A problem with what the user asked for; the message is shown as is."""


def parse_assignment(text: str) -> tuple[str, Any]:
    """``key=value`` with the value parsed as YAML (``tiles=[2, 4]``, ``turn_time_ms=500``)."""
    key, eq, raw = text.partition("=")
    if not eq or not key.strip():
        raise UsageError(f"--set {text!r}: expected key=value")
    try:
        return key.strip(), yaml.safe_load(raw)
    except yaml.YAMLError as error:
        raise UsageError(f"--set {text!r}: the value is not valid YAML ({error.problem})") from None


def validated(model: type[ModelT], params: dict[str, Any], flag: str, what: str) -> ModelT:
    """``model(**params)``, or a UsageError naming the flag, the key and the problem."""
    try:
        return model(**params)
    except ValidationError as error:
        problem = error.errors()[0]
        key = ".".join(str(part) for part in problem["loc"]) or "?"
        if problem["type"] == "extra_forbidden":
            raise UsageError(
                f"{flag} {key}: {what} has no key {key!r}; keys: {', '.join(model.model_fields)}"
            ) from None
        raise UsageError(f"{flag} {key}={params.get(key)!r}: {problem['msg']}") from None


def build_game(name: str, assignments: list[str]) -> Game:
    """The game with its variant parameters from ``--set`` assignments, validated."""
    try:
        game_class = get_game(name)
    except KeyError as error:
        raise UsageError(error.args[0]) from None
    params = dict(parse_assignment(text) for text in assignments)
    return validated(game_class, params, "--set", f"the {name} variant")


def build_limits(assignments: list[str]) -> Limits:
    """Resource limits from ``--limit`` assignments, validated."""
    return validated(Limits, dict(parse_assignment(text) for text in assignments), "--limit", "limits")


def _play(args: argparse.Namespace) -> int:
    game = build_game(args.game, args.set or [])
    seats = len(args.bots)
    if not type(game).min_seats <= seats <= type(game).max_seats:
        wanted = f"{type(game).min_seats}" + (
            f" to {type(game).max_seats}" if type(game).max_seats != type(game).min_seats else ""
        )
        raise UsageError(f"{game.name} is played by {wanted} bots, {seats} given")
    specs: list[BotSpec] = []
    for text in args.bots:
        try:
            spec = parse_bot_argument(type(game), text, as_program=args.programs)
            check_command(spec)
        except BotSpecError as error:
            raise UsageError(str(error)) from None
        specs.append(spec)
    limits = build_limits(args.limit or [])
    try:
        sandbox = Sandbox(SandboxMode(args.sandbox), limits)
    except SandboxError as error:
        raise UsageError(str(error)) from None
    launchers = [make_launcher(game, spec, seat, args.seed, sandbox) for seat, spec in enumerate(specs)]
    clock = ClockSettings(kind=args.clock, margin_ms=args.time_margin_ms, game_wall_s=limits.wall_seconds)
    record = play_match(game, launchers, args.seed, clock)
    if args.json:
        print(json.dumps(record_json(game, specs, args.seed, record)))
    else:
        print(summary(game, specs, args.seed, record))
    return 0


def record_json(game: Game, specs: list[BotSpec], seed: int, record: MatchRecord) -> dict[str, Any]:
    """The ``--json`` object of ``league play``."""
    result = record.result.to_json()
    return {
        "game": game.name,
        "variant": game.variant(),
        "seed": seed,
        "seats": [{"seat": i, "name": s.name, "bot": s.describe()} for i, s in enumerate(specs)],
        "result": {
            key: result[key]
            for key in ("scores", "ranks", "winner", "termination", "offenders", "reason_code", "detail", "extra")
        },
        "plies": record.result.plies,
        "time_used_ms": record.time_used_ms,
    }


def summary(game: Game, specs: list[BotSpec], seed: int, record: MatchRecord) -> str:
    """A readable account of one match."""
    result = record.result
    lines = [f"{game.name} seed {seed}"]
    for seat, spec in enumerate(specs):
        lines.append(
            f"  seat {seat}: {spec.name:<12} score {result.scores[seat]:>8}  rank {result.ranks[seat]}"
            f"  time {record.time_used_ms[seat]} ms  ({spec.describe()})"
        )
    winner = result.winner
    verdict = "draw" if winner is None else f"seat {winner} ({specs[winner].name}) wins"
    lines.append(f"{verdict}: {result.termination.value} {result.reason_code} after {result.plies} plies")
    if result.detail:
        lines.append(f"  {result.detail}")
    picture = game.render(record.final_state)
    if picture:
        lines.append(picture)
    return "\n".join(lines)


def _bot(args: argparse.Namespace) -> int:
    game_name, dot, short = args.builtin.partition(".")
    if not dot:
        raise UsageError(f"{args.builtin!r}: name a built-in as GAME.NAME, e.g. versus2048.greedy")
    game = build_game(game_name, [])
    if short not in type(game).builtin_bots():
        known = ", ".join(sorted(type(game).builtin_bots()))
        raise UsageError(f"{game_name} has no built-in bot {short!r}; built-ins: {known}")
    roles = type(game).roles
    role = args.role or roles[0]
    if len(roles) > 1 and args.role is None:
        raise UsageError(f"{args.builtin}: name the role with --role ({' or '.join(roles)})")
    if role not in roles:
        raise UsageError(f"{args.builtin}: no role {role!r}; roles: {', '.join(roles)}")
    params = dict(parse_assignment(text) for text in args.param or [])
    try:
        bot = builtin_class(type(game), args.builtin, role)(seed=args.seed, **params)
    except TypeError as error:
        raise UsageError(f"{args.builtin}: bad --param ({error})") from None
    try:
        run_stdio(game.bot_protocol(bot))
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``league``."""
    parser = argparse.ArgumentParser(prog="league", description="Round-robin leagues for game-AI bots.")
    commands = parser.add_subparsers(dest="command", required=True)

    play = commands.add_parser("play", help="play one match between bots and print the result")
    play.add_argument("game", help=f"one of: {', '.join(sorted(GAMES))}")
    play.add_argument("bots", nargs="+", metavar="BOT", help="a built-in name (greedy) or a quoted command line")
    play.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    play.add_argument("--set", action="append", metavar="KEY=VALUE", help="a variant parameter, value as YAML")
    play.add_argument("--json", action="store_true", help="print one JSON object")
    play.add_argument("--programs", action="store_true", help="run built-in bots as real programs")
    play.add_argument("--limit", action="append", metavar="KEY=VALUE", help="a resource limit (memory_mb=256)")
    play.add_argument(
        "--clock",
        choices=["wall", "cpu"],
        default="wall",
        help="charge bots wall time (the rules' measure, default) or the CPU time their processes used",
    )
    play.add_argument(
        "--time-margin-ms",
        type=int,
        default=0,
        metavar="MS",
        help="forgive this much harness overhead on every reply (default 0)",
    )
    play.add_argument(
        "--sandbox",
        choices=[mode.value for mode in SandboxMode],
        default="auto",
        help="auto: jail bots where possible (default); strict: refuse without the full jail; none: no jail",
    )
    play.set_defaults(handler=_play)

    bot = commands.add_parser("bot", help="run a built-in bot as a program on stdin/stdout")
    bot.add_argument("builtin", metavar="GAME.NAME")
    bot.add_argument("--seed", type=int, default=0)
    bot.add_argument("--param", action="append", metavar="KEY=VALUE", help="a bot parameter, value as YAML")
    bot.add_argument("--role", help="the role to play, for games with several (attack2048: attack or defend)")
    bot.set_defaults(handler=_bot)
    add_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except (UsageError, LeagueUsageError) as error:
        print(f"league: error: {error}", file=sys.stderr)
        return USAGE_ERROR
