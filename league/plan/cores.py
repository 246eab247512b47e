"""How many cores a league's games need while their bots think, its default concurrency, and its warning.

The principle: a bot needs a core of its own while it thinks, or the wall clock charges it for
time it spent waiting for one (``benchmarks/fairness.py`` measures how often a bot using 80% of
its limit then loses on time); the ``own`` clock (the default) and ``cpu`` do not charge that
wait. Seats asked at once, not seats, are what count: versus2048's players alternate (one core a
game), nimmt asks every seat at once (a core a seat), geister asks both at once for its setup;
a program may use ``limits.cores`` at once. Built-in bots are played in turn in the worker's own
thread, so together they need one core. The default concurrency is the usable cores divided by
the cores a game needs, less one core for the league's own processes under ``clock: wall`` (on a
Ray cluster, its CPUs divided by them); ``league validate`` warns when a config asks for more,
naming a concurrency that fits under its clock (``own`` and ``cpu`` are fair up to twice the cores).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from engine.core import Game, plural
from league.match.bot_spec import BotSpec
from league.plan.formats import league_format
from sandbox.cpus import usable_cores

if TYPE_CHECKING:
    from league.plan.config_schema import LeagueConfig

PROBE_SEED = 0
CPU_CLOCK_SHARE = 2
"""Bots thinking at once per core that ``clock: own`` and ``clock: cpu`` keep fair (``benchmarks/fairness.py``)."""


def seats_asked_at_once(game: Game, seats: int) -> int:
    """How many seats a game of ``seats`` players asks at once when it starts (its simultaneous phase, if any).

    Args:
        game: A variant of the game.
        seats: Players at the table.
    """
    try:
        return max(1, len(game.new_state(PROBE_SEED, seats).to_act()))
    except (ValueError, TypeError):  # a size this variant does not seat: as if every seat thinks
        return seats


def cores_per_game(games: Iterable[Game], sizes: Iterable[int], bots: Iterable[BotSpec], bot_cores: float = 1.0) -> int:
    """Cores one game needs while its bots think: bot programs asked at once, built-ins together on one.

    Args:
        games: The league's variants.
        sizes: The table sizes it plays (2 for pairs, 1 for solo leagues).
        bots: Its bots.
        bot_cores: The cores each program may use at once (``limits.cores``).
    """
    bots = list(bots)
    programs = sum(bot.builtin is None for bot in bots)
    builtins = len(bots) - programs
    at_once = max(seats_asked_at_once(game, size) for game in games for size in sizes)
    thinking = min(at_once, programs + (1 if builtins else 0))
    program_cores = math.ceil(bot_cores) * min(at_once, programs)
    return max(1, program_cores + max(0, thinking - programs))


LEAGUE_CORES = 1
"""Cores left, under ``clock: wall``, to the league's own processes (the driver, Ray, the referees)."""


def default_concurrency(cores_per_game: int, clock: str = "own") -> int:
    """Games at once that keep every thinking bot on a core of its own here (at least 1).

    Under ``clock: wall`` one core is left to the league's own processes: with every core
    thinking, a bot using 80% of its limit lost 17 replies in 1,000 on time on 2 cores, and none
    with a core left (``benchmarks/fairness.py``). ``clock: own`` and ``clock: cpu`` charge none of
    that wait, so every core plays.
    """
    cores = usable_cores()
    if clock == "wall" and cores > LEAGUE_CORES:
        cores -= LEAGUE_CORES
    return max(1, cores // max(1, cores_per_game))


def oversubscription_warning(
    concurrency: int, need: int, clock: str, cores: int | None = None, where: str = ""
) -> str | None:
    """One line when more bots may think at once than there are cores for them, else None.

    With ``clock: wall`` any excess can make a bot lose on time; with ``clock: own`` or ``cpu``
    only beyond twice the cores (``benchmarks/fairness.py``: no timeouts at twice the cores), where
    a bot's reply may take longer than the referee's wall guard (at least twice its allowance).
    The fix named is one that fits under the league's clock, and under ``clock: wall`` what
    ``clock: own`` would allow.

    Args:
        concurrency: Games at once.
        need: Cores one game needs while its bots think (``cores_per_game``).
        clock: The league's clock, ``own``, ``wall`` or ``cpu``.
        cores: The usable cores (default: this machine's).
        where: What the cores are, for the message (default: ``N cores``).
    """
    cores = usable_cores() if cores is None else cores
    thinking = concurrency * need
    allowed = cores if clock == "wall" else CPU_CLOCK_SHARE * cores
    if thinking <= allowed:
        return None
    where = where or f"{cores} cores"
    head = f"concurrency: {_bots_thinking(concurrency, need)} = {thinking} bots thinking at once on {where}"
    fix = _fix(need, cores, clock, concurrency)
    if clock != "wall":
        return f"{head}: replies may outlast the wall guard of clock: {clock} (at least twice the allowance); {fix}"
    return f"{head}: bots may lose on time; {fix}"


def _fix(need: int, cores: int, clock: str, concurrency: int) -> str:
    """The concurrency (or other change) that fits ``cores`` under ``clock``; under wall, what clock: own allows."""
    on_wall = cores // need
    on_cpu = CPU_CLOCK_SHARE * cores // need
    if not on_cpu:  # one game alone needs more than any clock allows
        return "use fewer players per table or a machine with more cores"
    if clock != "wall":
        return f"give concurrency: {on_cpu}"
    if not on_wall:  # one game alone needs more cores than there are
        return (
            f"use clock: own (fair up to concurrency: {on_cpu}), fewer players per table or a machine with more cores"
        )
    if concurrency <= on_cpu:
        return f"give concurrency: {on_wall}, or clock: own (fair up to concurrency: {on_cpu})"
    return f"give concurrency: {on_wall}, or concurrency: {on_cpu} with clock: own"


def need_of(config: LeagueConfig, games: Mapping[str, Game], bots: Mapping[str, BotSpec]) -> int:
    """``cores_per_game`` of a league's parts: its format's seats (``Format.seats``), variants, bots, limits.cores."""
    seats = league_format(config).seats(config) or [2]
    return cores_per_game(games.values(), seats, bots.values(), config.limits.cores)


def cluster_concurrency(cpus: int, need: int) -> int:
    """The default concurrency on a Ray cluster of ``cpus`` CPUs: its CPUs / the cores a game needs (at least 1)."""
    return max(1, cpus // max(1, need))


def cluster_origin(cpus: int, need: int) -> str:
    """Where a default concurrency on a cluster came from, for people."""
    return f"the cluster's {plural(cpus, 'CPU')} / {plural(need, 'core')} a game"


def cluster_note(concurrency: int, need: int, clock: str, cpus: int | None) -> tuple[str, str]:
    """What to say about ``concurrency`` on a Ray cluster of ``cpus`` CPUs (None: not counted): a level and one line.

    Each game takes one Ray CPU, so Ray runs at most ``cpus`` at once; those games' thinking bots are
    checked against the CPUs as against the cores here (a node's CPUs are its cores unless its
    ``ray start`` was given ``--num-cpus``).

    Returns:
        ``("WARNING", line)`` when bots may lose on time, else ``("note", line)``.
    """
    if cpus is None:
        return "note", (
            "concurrency: a Ray cluster's cores cannot be checked from here (give --address to count its CPUs): keep"
            f" {_bots_thinking(concurrency, need)} = {concurrency * need} at or below the cores it gives this league,"
            " or bots may lose on time"
        )
    running = min(concurrency, cpus)
    cluster = f"the cluster's {plural(cpus, 'CPU')}"
    warning = oversubscription_warning(running, need, clock, cores=cpus, where=cluster)
    if warning is not None:
        return "WARNING", warning
    fair = "fair where a node's Ray CPUs are its cores (as `ray start` counts them unless given --num-cpus)"
    thinking = f"{plural(running * need, 'bot')} thinking at once"
    if concurrency > cpus:
        return "note", (
            f"concurrency: {concurrency} games at once on {cluster}: {cpus} play (a CPU each) while"
            f" the others wait; {cpus} x {plural(need, 'bot')} thinking each = {thinking}, {fair}"
        )
    return "note", f"concurrency: {_bots_thinking(concurrency, need)} = {thinking} on {cluster}; {fair}"


def _bots_thinking(concurrency: int, need: int) -> str:
    return f"{plural(concurrency, 'game')} at once x {plural(need, 'bot')} thinking each"
