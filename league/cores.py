"""How many cores a league's games need while their bots think, its default concurrency, and its warning.

The principle: a bot needs a core of its own while it thinks, or the wall clock charges it for
time it spent waiting for one (``benchmarks/fairness.py`` measures how often a bot using 80% of
its limit then loses on time). Seats asked at once, not seats, are what count: versus2048's
players alternate (one core a game), nimmt asks every seat at once (a core a seat), geister asks
both at once for its setup. Built-in bots are played in turn in the worker's own thread, so
together they need one core. The default concurrency is the usable cores divided by the cores a
game needs; ``league validate`` warns when a config asks for more.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.core import Game
from league.players import BotSpec
from sandbox.cpus import usable_cores

PROBE_SEED = 0


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


def cores_per_game(games: Iterable[Game], sizes: Iterable[int], bots: Iterable[BotSpec]) -> int:
    """Cores one game needs while its bots think: bot programs asked at once, built-ins together on one.

    Args:
        games: The league's variants.
        sizes: The table sizes it plays (2 for pairs, 1 for solo leagues).
        bots: Its bots.
    """
    bots = list(bots)
    programs = sum(bot.builtin is None for bot in bots)
    builtins = len(bots) - programs
    at_once = max(seats_asked_at_once(game, size) for game in games for size in sizes)
    return max(1, min(at_once, programs + (1 if builtins else 0)))


def default_concurrency(cores_per_game: int) -> int:
    """Games at once that keep every thinking bot on a core of its own here (at least 1)."""
    return max(1, usable_cores() // max(1, cores_per_game))


def table_sizes(format_name: str, players_per_table: list[int] | None) -> list[int]:
    """The numbers of players a league's games seat: its table sizes, 1 for solo, else 2."""
    if format_name == "tables":
        return list(players_per_table or [2])
    return [1] if format_name == "solo" else [2]


def oversubscription_warning(concurrency: int, need: int, clock: str, cores: int | None = None) -> str | None:
    """One line when more bots may think at once than there are cores for them, else None.

    With ``clock: wall`` any excess can make a bot lose on time; with ``clock: cpu`` only beyond
    twice the cores, where a bot's reply may take longer than the referee's wall guard (at least
    twice its allowance).

    Args:
        concurrency: Games at once.
        need: Cores one game needs while its bots think (``cores_per_game``).
        clock: The league's clock, ``wall`` or ``cpu``.
        cores: The usable cores (default: this machine's).
    """
    thinking = concurrency * need
    bots = _bots_thinking(concurrency, need)
    cores = usable_cores() if cores is None else cores
    fitting = max(1, cores // need)
    if clock == "cpu":
        if thinking <= 2 * cores:
            return None
        fix = "use fewer players per table or a machine with more cores" if need > 2 * cores else ""
        return (
            f"concurrency: {bots} = {thinking} bots thinking at once on {cores} cores: replies may outlast"
            f" the wall guard of clock: cpu (at least twice the allowance); {fix or f'give concurrency: {fitting}'}"
        )
    if thinking <= cores:
        return None
    if need > cores:  # one game alone needs more cores than there are
        fix = "use clock: cpu, fewer players per table or a machine with more cores"
    else:
        fix = f"give concurrency: {fitting} (or clock: cpu)"
    return f"concurrency: {bots} = {thinking} bots thinking at once on {cores} cores: bots may lose on time; {fix}"


def need_of(
    config_format: str, players_per_table: list[int] | None, games: Mapping[str, Game], bots: Mapping[str, BotSpec]
) -> int:
    """``cores_per_game`` of a league's parts (its format, table sizes, variants and bots)."""
    return cores_per_game(games.values(), table_sizes(config_format, players_per_table), bots.values())


def cluster_note(concurrency: int, need: int) -> str:
    """What to keep in mind on a Ray cluster, whose cores cannot be counted from here."""
    return (
        f"concurrency: a Ray cluster's cores cannot be checked from here: keep {_bots_thinking(concurrency, need)}"
        f" = {concurrency * need} at or below the cores it gives this league, or bots may lose on time"
    )


def _bots_thinking(concurrency: int, need: int) -> str:
    return f"{concurrency} games at once x {need} bot{'s' if need > 1 else ''} thinking each"
