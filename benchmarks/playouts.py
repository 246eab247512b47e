"""Random playouts per second of every registered game: the engine alone, and through the referee.

Run ``.venv/bin/python benchmarks/playouts.py [--seconds S] [--figures FILE]`` from the repository
root. For every game of ``engine.GAMES``, with its default variant and its fewest seats:

1. **Engine alone**: seeds 0, 1, 2, ... are played for about S seconds (whole games). Each bot
   process the state asks for gets the game's built-in ``random`` bot (per role), seeded exactly
   as ``league.match.players.make_launcher`` seeds it; per step every request's bot acts on the typed
   observation and the state checks and applies the actions: no bytes, no processes.
2. **Through the referee** (the baseline): the same seeds, as many games, played by
   ``league.match.referee.play_match`` with the same built-ins in this process (``InProcessTransport``):
   the protocol's bytes both ways, the clocks and the record, as a league plays built-ins. The
   games are the very same (the plies are checked equal), so the ratio engine / referee is what
   the referee and the protocol add to a game of built-ins.

Printed per game: games and steps per second both ways (a step is one ``to_act``: simultaneous
games such as nimmt ask several seats at once) and the ratio. Figures to read, never pass/fail;
``--figures FILE`` also writes them as JSON for ``benchmarks/run_all.py``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from figures import HIGHER, Figure, write_figures

from engine import GAMES
from engine.core import Game, ProcessKey, derive_seed
from league.match.bot_spec import parse_bot_argument
from league.match.builtins import make_bot
from league.match.players import make_launcher
from league.match.referee import play_match


@dataclass
class Rate:
    """Games played in some seconds, and their steps."""

    games: int
    steps: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds


def bot_seed(match_seed: int, key: ProcessKey) -> int:
    """The seed a built-in gets for ``key`` in a match, as ``league.match.players.make_launcher`` derives it."""
    return derive_seed(match_seed, "bot", key.seat, key.role, key.epoch)


def engine_playout(game: Game, seats: int, seed: int, plies: list[int]) -> int:
    """One game of random built-ins on the engine alone; returns its steps, appends its plies to ``plies``."""
    state = game.new_state(seed, seats)
    builtin = f"{type(game).name}.random"
    bots: dict[ProcessKey, Any] = {}
    steps = 0
    while not state.is_over():
        processes = state.processes()
        for key in processes - bots.keys():
            bots[key] = make_bot(game, builtin, key.role, bot_seed(seed, key), {})
        actions = {}
        for request in state.to_act():
            key = next(k for k in processes if k.seat == request.seat and k.role == request.role)
            action = bots[key].act(state.observation(request))
            fault = state.check(request, action)
            if fault is not None:
                raise RuntimeError(f"{type(game).name} seed {seed}: the random bot broke a rule: {fault.detail}")
            actions[request] = action
        state.apply(actions)
        steps += 1
    plies.append(state.result().plies)
    return steps


def refereed_playout(game: Game, seats: int, seed: int) -> int:
    """The same game through the referee, built-ins in this process; returns its plies."""
    spec = parse_bot_argument(type(game), "random")
    launchers = [make_launcher(game, spec, seat, seed) for seat in range(seats)]
    record = play_match(game, launchers, seed)
    if record.result.offenders:
        raise RuntimeError(f"{type(game).name} seed {seed} ended by a fault: {record.result.detail}")
    return record.result.plies


def timed(play: Callable[[int], int], seconds: float | None, games: int | None = None) -> Rate:
    """Play seeds 0, 1, ... for about ``seconds`` (whole games), or exactly ``games`` games."""
    started = time.perf_counter()
    played = steps = 0
    while (games is None and time.perf_counter() - started < (seconds or 0)) or (games is not None and played < games):
        steps += play(played)
        played += 1
    return Rate(played, steps, time.perf_counter() - started)


def measure(name: str, seconds: float) -> tuple[Rate, Rate, bool]:
    """Engine alone and through the referee for one game; whether both played the same plies."""
    game_class = GAMES[name]
    game, seats = game_class(), game_class.min_seats
    plies: list[int] = []
    alone = timed(lambda seed: engine_playout(game, seats, seed, plies), seconds)
    refereed = timed(lambda seed: refereed_playout(game, seats, seed), None, alone.games)
    return alone, refereed, sum(plies) == refereed.steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="engine-alone seconds per game (default 3)")
    parser.add_argument("--figures", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args()
    print(f"playouts: random built-ins, default variants, fewest seats; about {args.seconds:g} s a game alone")
    header = f"{'game':12} {'seats':>5} {'games':>6}  {'alone games/s':>13} {'steps/s':>9}  {'refereed games/s':>16}"
    print(header + "  ratio")
    figures = []
    for name in sorted(GAMES):
        alone, refereed, same = measure(name, args.seconds)
        ratio = alone.games_per_s / refereed.games_per_s
        print(
            f"{name:12} {GAMES[name].min_seats:>5} {alone.games:>6}  {alone.games_per_s:>13.1f} "
            f"{alone.steps_per_s:>9,.0f}  {refereed.games_per_s:>16.1f}  {ratio:.2f} x"
            + ("" if same else "   (NOT the same games: plies differ)")
        )
        figures.append(
            Figure(
                "engines",
                f"{name} random playouts, engine alone",
                alone.games_per_s,
                "games/s",
                refereed.games_per_s,
                "the same games through the referee, built-ins in process",
                better=HIGHER,
                note="" if same else "the two ways played different games",
            )
        )
    if args.figures:
        write_figures(args.figures, figures)


if __name__ == "__main__":
    main()
