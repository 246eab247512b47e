"""``league play`` (one match, printed) and ``league bot`` (a built-in as a program on stdin/stdout).

Everything a user can get wrong is refused before the match with one line naming the problem
and the fix (exit status 2): an unknown game or bot name, an unquoted command line, a command that
cannot start, files the jailed bot cannot read, bad parameters. What a bot does wrong is the
match's result; its stderr is printed under the result when it faulted (always with ``--stderr``),
with what a bot wrote (stderr, replies quoted in the detail, names from its files) made inert:
control characters are shown escaped (league/match/inert.py), never sent to the terminal.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path
from typing import Any

from engine.core import Game, plural
from engine.protocol import run_stdio
from league.cli.args import (
    UsageError,
    build_game,
    build_limits,
    parse_assignment,
    parse_seat_option,
    seat_range,
)
from league.match.bot_spec import TCP, BotSpec, BotSpecError, parse_bot_argument, unique_names
from league.match.builtins import BuiltinError, builtin_names, check_params, make_bot, role_classes
from league.match.commands import unquoted_command
from league.match.inert import inert_block, inert_line
from league.match.players import (
    check_builtin_params,
    check_command,
    check_program_access,
    check_transport,
    make_launcher,
)
from league.match.record import ClockSettings, MatchRecord, StderrTail
from league.match.referee import play_match
from league.plan.bot_folders import seats_folders_problem
from league.plan.openings import OpeningError, from_assignments
from league.store.folder import folder_problem
from sandbox.jail import Sandbox, SandboxError
from sandbox.limits import SandboxMode


def _seat_count_error(game: Game, bots: list[str]) -> UsageError:
    game_class, counts = type(game), game.seat_counts()
    if counts != range(game_class.min_seats, game_class.max_seats + 1):  # this variant seats fewer
        bot = "bot" if counts[-1] == 1 else "bots"
        message = f"{game.name} as set here is played by {seat_range(counts)} {bot}, {len(bots)} given"
        message += f" ({game.seats_hint()})" if game.seats_hint() else ""
    else:
        message = f"{game.name} is played by {seat_range(game_class)} bots, {len(bots)} given"
    quoted = unquoted_command(bots, builtin_names(game_class))
    if quoted:
        message += f"; a command line with spaces is one BOT: quote it, e.g. {quoted}"
    return UsageError(message)


def bot_specs(game: Game, args: argparse.Namespace) -> list[BotSpec]:
    """The seated bots of ``league play``: parsed, checked, with their folders and parameters."""
    seats = len(args.bots)
    if seats not in game.seat_counts():
        raise _seat_count_error(game, args.bots)
    quoted = unquoted_command(args.bots, builtin_names(type(game)))
    folders: dict[int, str] = {}
    for text in args.cwd or []:
        seat, folder = parse_seat_option(text, "--cwd", seats)
        if seat in folders:
            raise UsageError(f"--cwd {text!r}: seat {seat} already has the folder {folders[seat]!r}")
        if not Path(folder).is_dir():
            problem = "is a file, not a folder" if Path(folder).exists() else "does not exist"
            raise UsageError(f"--cwd {text!r}: {folder!r} {problem}")
        folders[seat] = folder
    tcp_seats: set[int] = set()
    for text in args.tcp or []:
        if not text.strip().isdigit() or int(text) >= seats:
            raise UsageError(f"--tcp {text!r}: give the seat of a TCP client, 0 to {seats - 1} (e.g. --tcp 0)")
        tcp_seats.add(int(text))
    params: dict[int, dict[str, Any]] = {}
    for text in args.param or []:
        seat, assignment = parse_seat_option(text, "--param", seats)
        key, value = parse_assignment(assignment, "--param")
        params.setdefault(seat, {})[key] = value
    specs: list[BotSpec] = []
    for seat, text in enumerate(args.bots):
        try:
            spec = parse_bot_argument(type(game), text, as_program=args.programs, cwd=folders.get(seat))
            if seat in folders and not any(side.command for side in spec.sides()):
                raise BotSpecError(f"--cwd {seat}:...: seat {seat} is a built-in, which runs in this process")
            if seat in params:
                if not any(side.builtin for side in spec.sides()):
                    raise BotSpecError(f"--param {seat}:...: seat {seat} is a program; give its options in its command")
                spec = check_builtin_params(game, dataclasses.replace(spec, params=params[seat]))
            if seat in tcp_seats:
                spec = dataclasses.replace(spec, transport=TCP)
            check_transport(type(game), spec)
            check_command(spec)
        except BotSpecError as error:
            if quoted:  # the shell split a command line: that, not the pieces, is the problem
                raise UsageError(f"a command line with spaces is one BOT: quote it, e.g. {quoted}") from None
            raise UsageError(str(error)) from None
        specs.append(spec)
    return unique_names(specs)


def cmd_play(args: argparse.Namespace) -> int:
    """Play one match and print the result."""
    if not 0 <= args.seed < 2**63:
        raise UsageError(f"--seed {args.seed}: a seed is 0 to 2**63 - 1")
    if args.time_margin_ms < 0:
        raise UsageError(f"--time-margin-ms {args.time_margin_ms}: a margin is 0 or more")
    problem = folder_problem(Path(args.replay).absolute().parent) if args.replay else None
    if problem is not None:
        raise UsageError(f"--replay {args.replay}: cannot write it: {problem}; give a writable path")
    game = build_game(args.game, args.set or [])
    specs = bot_specs(game, args)
    limits = build_limits(args.limit or [])
    try:
        given = dict(parse_assignment(text, "--openings") for text in args.openings or [])
        opening = from_assignments(given, game, Path.cwd(), args.seed) if given else None
    except OpeningError as error:
        raise UsageError(f"--openings: {error}") from None
    try:
        sandbox = Sandbox(SandboxMode(args.sandbox), limits)
        jailed = sandbox.mode != SandboxMode.NONE  # unjailed, a bot sees all it may anyway
        problem = seats_folders_problem(specs, args.shared_folder, limits.read_only) if jailed else None
        if problem is not None:
            raise UsageError(problem)
        for spec in specs:  # a --cwd folder is the bot's own: walked whole
            check_program_access(spec, sandbox)
    except (SandboxError, BotSpecError) as error:
        raise UsageError(str(error)) from None
    launchers = [make_launcher(game, spec, seat, args.seed, sandbox) for seat, spec in enumerate(specs)]
    clock = ClockSettings(kind=args.clock, margin_ms=args.time_margin_ms, game_wall_s=limits.wall_seconds)
    record = play_match(game, launchers, args.seed, clock, opening)
    replay = (
        write_match_replay(Path(args.replay), game, [s.name for s in specs], args.seed, record) if args.replay else None
    )
    if args.json:
        print(
            json.dumps({**record_json(game, specs, args.seed, record), **({"replay": str(replay)} if replay else {})})
        )
    else:
        print(summary(game, specs, args.seed, record, all_stderr=args.stderr))
        if replay:
            print(f"replay: {replay}")
    return 0


def write_match_replay(path: Path, game: Game, names: list[str], seed: int, record: MatchRecord) -> Path:
    """Write the replay page of a match just played; returns its path."""
    from league.replay.page import Reel, page
    from league.replay.rebuild import replay_match

    replay = replay_match(game, names, seed, record)
    text = page(game.name, [Reel(f"{' vs '.join(names)}, seed {seed}", replay)], f"league play {game.name}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(
            f"--replay {path}: cannot write it ({error.strerror or error}); give a writable path"
        ) from None
    return path


JSON_RESULT_KEYS = ("scores", "ranks", "winner", "termination", "offenders", "faults", "reason_code", "detail", "extra")
"""What ``league play --json`` shows of the result."""


def record_json(game: Game, specs: list[BotSpec], seed: int, record: MatchRecord) -> dict[str, Any]:
    """The ``--json`` object of ``league play``."""
    result = record.result.to_json()
    return {
        "game": game.name,
        "variant": game.variant(),
        "seed": seed,
        "seats": [{"seat": i, "name": s.name, "bot": s.describe()} for i, s in enumerate(specs)],
        "result": {key: result[key] for key in JSON_RESULT_KEYS},
        "plies": record.result.plies,
        **({"opening": record.opening} if record.opening is not None else {}),
        "time_used_ms": record.time_used_ms,
        "stderr": [vars(tail) for tail in record.stderr],
    }


def summary(game: Game, specs: list[BotSpec], seed: int, record: MatchRecord, all_stderr: bool = False) -> str:
    """A readable account of one match, with the stderr of faulted seats (of every seat if asked).

    What a bot wrote or named is shown inert: its control characters escaped (league/match/inert.py).
    """
    result = record.result
    label = type(game).score_label
    names = [inert_line(spec.name) for spec in specs]
    width = max(len(name) for name in names)
    lines = [f"{game.name} seed {seed}"]
    if record.opening is not None:
        lines[0] += f", from an opening of {plural(len(record.opening), 'ply', 'plies')}: {'; '.join(record.opening)}"
    for seat, spec in enumerate(specs):
        lines.append(
            f"  seat {seat}: {names[seat]:<{width}}  {label} {result.scores[seat]:>6}  rank {result.ranks[seat]}"
            f"  time {record.time_used_ms[seat]} ms  ({inert_line(spec.describe())})"
        )
    winner = result.winner
    firsts = [seat for seat, rank in enumerate(result.ranks) if rank == 1]
    if len(specs) == 1:
        verdict = f"seat 0 ({names[0]}) played alone"
    elif winner is not None:
        verdict = f"seat {winner} ({names[winner]}) wins"
    elif len(specs) == 2 or len(firsts) == len(specs):
        verdict = "draw"
    else:
        verdict = f"seats {', '.join(map(str, firsts[:-1]))} and {firsts[-1]} share first place"
    how = result.termination.value
    if result.reason_code and result.reason_code.upper() != how:
        how += f" ({result.reason_code})"
    if result.offenders:
        seats = [str(seat) for seat in result.offenders]
        how += f" by seat {seats[0]}" if len(seats) == 1 else f" by seats {', '.join(seats[:-1])} and {seats[-1]}"
    lines.append(f"{verdict}: {how} after {plural(result.plies, 'ply', 'plies')}")
    if result.detail:
        lines.append(f"  {inert_line(result.detail)}")
    picture = game.render(record.final_state)
    if picture:
        lines.append(picture)
    faulted = set(result.offenders) | {move.seat for move in record.moves if move.fault}  # in any game of it
    for seat in range(len(specs)) if all_stderr else sorted(faulted):
        lines += stderr_lines(game, seat, specs[seat], [tail for tail in record.stderr if tail.seat == seat])
    return "\n".join(lines)


def stderr_lines(game: Game, seat: int, spec: BotSpec, tails: list[StderrTail]) -> list[str]:
    """The stderr of one seat's processes, each line marked, or a line saying there was none.

    Control characters are shown escaped (a carriage return too: no line can pass for another).
    """
    name = inert_line(spec.name)
    if not tails:
        return [f"stderr of seat {seat} ({name}): nothing"]
    lines = []
    several = any(tail.epoch for tail in tails)  # a second game, any half: say which process
    for tail in tails:
        which = f", {tail.role}" if len(spec.sides()) > 1 else ""
        which += f", {game.process_label(tail.epoch)}" if several else ""
        lines.append(f"stderr of seat {seat} ({name}{which}):")
        lines += [f"  | {line}" for line in inert_block(tail.text).rstrip("\n").split("\n")]
    return lines


def cmd_bot(args: argparse.Namespace) -> int:
    """Run a built-in as a program speaking its game's protocol on stdin/stdout."""
    game_name, dot, short = args.builtin.partition(".")
    if not dot:
        raise UsageError(f"{args.builtin!r}: name a built-in as GAME.NAME, e.g. versus2048.greedy")
    game = build_game(game_name, [])
    roles = type(game).roles
    try:
        role_classes(type(game), short)
    except BuiltinError as error:
        raise UsageError(str(error)) from None
    if len(roles) > 1 and args.role is None:
        raise UsageError(f"{args.builtin}: name the role with --role ({' or '.join(roles)})")
    role = args.role or roles[0]
    if role not in roles:
        raise UsageError(f"{args.builtin}: no role {role!r}; roles: {', '.join(roles)}")
    params = dict(parse_assignment(text, "--param") for text in args.param or [])
    try:
        params = check_params(game, {role: args.builtin}, params, rules_given=True)
    except BuiltinError as error:
        raise UsageError(str(error)) from None
    try:
        run_stdio(game.bot_protocol(make_bot(game, args.builtin, role, args.seed, params)))
    except BrokenPipeError:
        pass
    except Exception as error:  # noqa: BLE001 - what it was sent is not the game's protocol
        raise UsageError(
            f"{args.builtin}: cannot read what it was sent ({type(error).__name__}: {error}); it speaks the"
            f" {game_name} protocol of engine/{game_name}/README.md"
        ) from None
    return 0


def add_commands(commands: Any) -> None:
    """Register ``play`` and ``bot`` on the ``league`` parser."""
    from engine import GAMES

    play = commands.add_parser("play", help="play one match between bots and print the result")
    play.add_argument("game", help=f"one of: {', '.join(sorted(GAMES))}")
    play.add_argument(
        "bots", nargs="+", metavar="BOT", help="a built-in name (greedy) or a quoted command line ('python3 bot.py')"
    )
    play.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    play.add_argument("--set", action="append", metavar="KEY=VALUE", help="a variant parameter, value as YAML")
    play.add_argument(
        "--cwd", action="append", metavar="SEAT:FOLDER", help="run seat SEAT's program in FOLDER (its own folder)"
    )
    play.add_argument(
        "--shared-folder",
        action="store_true",
        help="let seats play whose folders overlap (one holds another's files), knowingly; refused without it",
    )
    play.add_argument(
        "--param", action="append", metavar="SEAT:KEY=VALUE", help="a parameter of seat SEAT's built-in, value as YAML"
    )
    play.add_argument(
        "--tcp",
        action="append",
        metavar="SEAT",
        help="seat SEAT's program connects over TCP ({host} and {port} in its command; geister)",
    )
    play.add_argument("--json", action="store_true", help="print one JSON object")
    play.add_argument("--replay", metavar="FILE.html", help="also write the match's replay page to FILE.html")
    play.add_argument(
        "--openings",
        action="append",
        metavar="KEY=VALUE",
        help="start from an opening, as a league file's openings: plies=N (random, from the seed), "
        "or file=PATH (its first opening; pair=K for the one a league's pair K plays), or 'moves=PLY; PLY; ...'",
    )
    play.add_argument("--stderr", action="store_true", help="print every seat's stderr (faulted seats' always)")
    play.add_argument("--programs", action="store_true", help="run built-in bots as real programs")
    play.add_argument("--limit", action="append", metavar="KEY=VALUE", help="a resource limit (memory_mb=256)")
    play.add_argument(
        "--clock",
        choices=["own", "wall", "cpu"],
        default="own",
        help="charge bots wall time less what the machine kept them waiting for a CPU (own, default),"
        " wall time (the rules' measure) or the CPU time their processes used",
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
        help="auto: jail program bots (default; refuses without bubblewrap); strict: also require a uid of"
        " their own and cgroup caps; none: no jail, for bots you trust",
    )
    play.set_defaults(handler=cmd_play)

    bot = commands.add_parser("bot", help="run a built-in bot as a program on stdin/stdout")
    bot.add_argument("builtin", metavar="GAME.NAME")
    bot.add_argument("--seed", type=int, default=0)
    bot.add_argument("--param", action="append", metavar="KEY=VALUE", help="a bot parameter, value as YAML")
    bot.add_argument("--role", help="the role to play, for games with several (attack2048: attack or defend)")
    bot.set_defaults(handler=cmd_bot)
