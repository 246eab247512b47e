"""What ``league run`` and ``league validate`` tell people about a league besides its results.

Its plan (``describe``: games, variants, bots, the tables' balance, concurrency, the clock and the
CPU cap), a warning when more bots may think at once than there are cores, and the damage found in
its store, one line each.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from league.match.inert import inert_line
from league.plan.config import League
from league.plan.cores import cluster_note, need_of, oversubscription_warning
from league.plan.game_spec import GameSpec
from league.plan.schedule import balance
from league.plan.seed import describe_seed
from league.plan.table_draw import even_tables
from sandbox.jail import Sandbox, SandboxError


def describe(league: League, specs: Sequence[GameSpec]) -> str:
    """What a league will do, for people: its games, variants, bots and, for tables, their balance.

    ``specs`` is its schedule: built (``league.cluster.runner.schedule``) or only counted (``planned_schedule``).
    """
    config = league.config
    if config.format == "tables":
        sizes = config.players_per_table or []
        count = f"{config.tables:,} {'table' if config.tables == 1 else 'tables'}"
        tables = (
            f"{count} of {sizes[0]} players"
            if len(sizes) == 1
            else f"{count} of each size ({' and '.join(map(str, sizes))} players)"
        )
        per = f"{tables}, each played once per seat rotation and variant"
    elif config.format == "solo":
        runs = f"{config.runs_per_case:,} {'run' if config.runs_per_case == 1 else 'runs'}"
        per = f"{runs} per bot and variant, every bot on the same seeds"
    elif config.format == "sprt" and config.sprt is not None:
        test = config.sprt
        per = (
            f"at most; seat-swapped pairs until the test decides: H0 {test.elo0:g} against H1 {test.elo1:g}"
            f" normalized Elo, alpha {test.alpha:g}, beta {test.beta:g}"
        )
    elif config.format == "adaptive":
        given = config.adaptive_settings()
        per = (
            f"at most; a warm-up of {given.warmup_games} per pair, then batches of {given.batch_games:,} or more"
            f" until every pair of neighbours is ordered at {given.confidence:.0%} confidence or within"
            f" {given.tie_elo:g} Elo"
        )
    else:
        per = f"{config.games_per_pair:,} per pair and variant"
    lines = [
        f"league {config.name}: {config.game}, {config.format.replace('_', ' ')}, {len(specs):,} games ({per}),"
        f" {describe_seed(league)}",
        "  variants: " + "; ".join(f"{name} {game.variant()}" for name, game in league.games.items()),
        *([f"  openings: {league.openings.describe()}"] if league.openings is not None else []),
        "  bots:",
    ]
    lines += [f"    {name}: {spec.describe()}" for name, spec in league.bots.items()]
    if config.format == "gauntlet":
        lines.append(f"  candidates: {', '.join(config.candidates)}")
    if config.format == "sprt":
        candidate, baseline = league.bots
        lines.append(f"  candidate: {candidate}; baseline: {baseline}")
    if config.format == "tables":
        lines.append("  balance (per variant):")
        spread = balance(specs, list(league.bots))
        lines += [f"    {line}" for line in spread.lines()]
        if len(set(spread.games.values())) > 1:
            even = even_tables(len(league.bots), sizes, config.tables)
            lines.append(f"    (uneven games: tables: {even} gives every bot the same games; compare points per game)")
    pinned = " (each game pinned to cores of its own)" if config.pin_cpus else ""
    origin = f" ({league.concurrency_origin})" if league.concurrency_origin else ""
    mode = config.sandbox.mode.value
    lines.append(f"  concurrency {config.concurrency}{origin}{pinned}, sandbox {mode}, output {league.output}")
    lines.append(f"  clock {config.clock}{cpu_cap_note(league)}")
    walls = jail_note(league)
    lines += [f"  {walls}"] if walls else []
    return "\n".join(lines)


def cpu_cap_note(league: League) -> str:
    """``; CPU: ...`` for a league with program bots: how each bot's CPU is capped here, or why it is not."""
    sandbox = _program_sandbox(league)
    if sandbox is None:
        return ""
    return f"; {sandbox}" if isinstance(sandbox, SandboxError) else "; " + sandbox.cpu_cap()


def jail_note(league: League) -> str:
    """For a league with program bots: what keeps their jails apart here (``Sandbox.walls``); else ""."""
    sandbox = _program_sandbox(league)
    return sandbox.walls() if isinstance(sandbox, Sandbox) else ""  # an error is cpu_cap_note's to say


def _program_sandbox(league: League) -> Sandbox | SandboxError | None:
    """The sandbox the league's program bots get here, or the error that stops it; None without program bots."""
    if all(spec.builtin is not None for spec in league.bots.values()):
        return None
    try:
        return Sandbox(league.config.sandbox.mode, league.config.limits)
    except SandboxError as error:
        return error


def warn_if_oversubscribed(league: League, cluster: bool, cpus: int | None = None) -> None:
    """Print one line on stderr when more bots may think at once than there are cores (on a cluster, always one).

    Args:
        league: The league.
        cluster: Whether it runs on a Ray cluster (its CPUs, not this machine's cores, count).
        cpus: The cluster's CPUs, if counted.
    """
    config = league.config
    need = need_of(config.format, config.players_per_table, league.games, league.bots, config.limits.cores)
    if cluster:
        level, line = cluster_note(config.concurrency, need, config.clock, cpus)
        print(f"league: {level}: {league.path}: {line}", file=sys.stderr)
        return
    warning = oversubscription_warning(config.concurrency, need, config.clock)
    if warning is not None:
        print(f"league: WARNING: {league.path}: {warning}", file=sys.stderr)


def tell_store_problems(problems: list[str]) -> None:
    """Print what was wrong with a league's store (``ResultStore.problems``) on stderr, one line each."""
    for problem in problems:
        print(f"league: {inert_line(problem)}", file=sys.stderr)
