"""What ``league run`` and ``league validate`` tell people about a league besides its results.

Its plan (``describe``: games, variants, bots, its format's own lines such as the tables' balance
(``league.plan.formats``), concurrency, the clock and the CPU cap), a warning when more bots may
think at once than there are cores, and the damage found in its store, one line each.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from league.match.inert import inert_line
from league.plan.config import League
from league.plan.cores import cluster_note, need_of, oversubscription_warning
from league.plan.game_spec import GameSpec
from league.plan.league_schedule import LeaguePlan
from league.plan.seed import describe_seed
from sandbox.jail import Sandbox, SandboxError


def describe(plan: LeaguePlan, specs: Sequence[GameSpec]) -> str:
    """What a league will do, for people: its games (in its format's words), variants, bots, its format's lines.

    ``specs`` is what its format may play (``Format.planned``: counted, not built); ``plan``, its seed
    and what its format plays from (``league.plan.league_schedule.league_plan``).
    """
    league, config, format_ = plan.league, plan.league.config, plan.format
    lines = [
        f"league {config.name}: {config.game}, {config.format.replace('_', ' ')}, {len(specs):,} games"
        f" ({format_.describe(config)}), {describe_seed(league, plan.seed)}",
        "  variants: " + "; ".join(f"{name} {game.variant()}" for name, game in league.games.items()),
        *([f"  openings: {league.openings.describe()}"] if league.openings is not None else []),
        "  bots:",
    ]
    lines += [f"    {name}: {spec.describe()}" for name, spec in league.bots.items()]
    lines += [f"  {line}" for line in format_.plan_lines(plan.inputs, specs)]
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
    need = need_of(config, league.games, league.bots)
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
