"""Any format simulated by playing its real ``FormatRun`` on made-up games: who it finds, in how many games.

A simulated league drives the format's own run (``league.plan.formats.base.FormatRun``) as the
runner does: every game it has planned and not yet been given is "played" by a draw from the
guessed model (``league.plan.adaptive_simulation.Model``, or ``design_simulation.GuessedModel``
with the synthetic game's rock-paper-scissors cycle), stored as the synthetic game would store it
(``synthetic_record``: a winner ranks 1 and scores 2, a draw ranks both 1 and scores 1), and given
back with ``add``, which plans what comes next. So the simulation plays exactly what the league
would: its pairings, byes, deciders and early stops are the format's, not a model of them.

**Stages.** Each ``add`` of every game handed out so far is one stage: the games a stage plans
depend on the stage before (a knockout's next round, a Swiss round's pairing, an adaptive batch),
so they cannot start before it ends. A format that stops on its own (``FormatRun.over``) is given
its games ``wave`` at a time (as many as run at once), and stops being given games once over; its
games *played* are those handed out, its counted games those its result rests on.

**The final order.** The format's own (``FormatRun.final_order``: a bracket's placing, Swiss
standings), else the standings' one rule (``league.stats.ranking``: the Bradley-Terry order of the
counted games, ``standings_order``), bots of exactly equal strength put in an order drawn from the
simulation's stream (an order by names would be right or wrong by the names alone).

**Scored against the truth** (``design_simulation.true_strengths``: each bot's true mean score
against the field, its Elo order unless the cycle makes it otherwise): whether the truly strongest
is first, whether the first K are the true top K as a set, and Kendall's tau (tau-b, ``kendall_tau``)
of the order to the true strengths. Bots of equal true strength count either way.

Everything is a function of the seed: simulated league ``i`` of a format draws from
``SeedSequence([seed, crc32(format name), i])``, and its league seed (a bracket drawn at random) from it.
"""

from __future__ import annotations

import itertools
import math
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from league.plan.adaptive_simulation import Model
from league.plan.design_simulation import SAME_STRENGTH, true_strengths
from league.plan.formats.base import FormatRun
from league.plan.game_spec import GameSpec
from league.stats.game_record import GameRecord
from league.stats.pairwise import pairwise_results
from league.stats.strength import estimate
from league.stats.ties import best_first, tied_runs

_RESULTS = {
    1: {"scores": [2, 0], "ranks": [1, 2], "winner": 0},
    0: {"scores": [1, 1], "ranks": [1, 1], "winner": None},
    -1: {"scores": [0, 2], "ranks": [2, 1], "winner": 1},
}
"""Seat 0's outcome (1 a win, 0 a draw, -1 a loss) as the synthetic game stores it (``engine.synthetic.rules``)."""
LEAGUE_SEED_BITS = 63


def synthetic_record(spec: GameSpec, outcome: int) -> GameRecord:
    """``spec`` played, seat 0's outcome ``outcome``: the results line the store would read back (``GameRecord``).

    Its fingerprint is its game id, padded to today's 24 digits: every made-up game is a distinct
    game (``league.stats.distinct``), as games of the synthetic game on distinct seeds are.
    """
    result = _RESULTS[outcome]
    line = {
        "game_id": spec.game_id,
        "spec": {
            "game_id": spec.game_id,
            "index": spec.index,
            "league": spec.league,
            "variant": spec.variant,
            "seats": list(spec.seats),
            "seed": spec.seed,
            "round": spec.round,
            "game": "synthetic",
        },
        "result": {
            "scores": list(result["scores"]),
            "ranks": list(result["ranks"]),
            "termination": "NORMAL",
            "offenders": [],
            "winner": result["winner"],
        },
        "fingerprint": spec.game_id.ljust(24, "0"),
    }
    return GameRecord.from_json(line)


class GameDraws:
    """Games of two seats played by draws from a model: seat 0's chances (``model.game_chances``), cached a seating."""

    def __init__(self, model: Model, rng: np.random.Generator) -> None:
        self.model, self.rng = model, rng
        self._cumulative: dict[tuple[str, ...], tuple[float, float]] = {}

    def play(self, specs: Sequence[GameSpec]) -> list[GameRecord]:
        """Each game's record, one uniform draw a game, in the order given."""
        uniforms = self.rng.random(len(specs))
        records = []
        for spec, uniform in zip(specs, uniforms, strict=True):
            if len(spec.seats) != 2:
                raise ValueError(f"the simulation plays games of two seats; game {spec.index} seats {len(spec.seats)}")
            bounds = self._cumulative.get(spec.seats)
            if bounds is None:
                win, _, loss = self.model.game_chances(spec.seats[0], spec.seats[1], True)
                bounds = self._cumulative[spec.seats] = (win, win + loss)
            outcome = 1 if uniform < bounds[0] else -1 if uniform < bounds[1] else 0
            records.append(synthetic_record(spec, outcome))
        return records


@dataclass(frozen=True)
class Played:
    """One simulated league of a format.

    Attributes:
        stages: Games handed out at each stage, in order (module docstring).
        played: Games played in all.
        counted: The games its result rests on (``FormatRun.counted``).
        order: Its final order, best first.
    """

    stages: list[int]
    played: int
    counted: int
    order: list[str]


def play_format(
    run: FormatRun,
    bots: Sequence[str],
    draws: GameDraws,
    wave: int | None = None,
) -> Played:
    """Drive ``run`` to its end on games drawn by ``draws``; its stages, games and final order.

    Args:
        run: A fresh run of the format (nothing given to it yet).
        bots: Every bot of the league (the standings order ranks them all).
        draws: Where outcomes come from.
        wave: The most games handed out at once (as many as run at once), for a format that stops
            on its own; None: every game planned and not yet played, at once.
    """
    stages: list[int] = []
    records: dict[str, GameRecord] = {}
    given = 0
    while not run.over and given < len(run.games):
        end = len(run.games) if wave is None else min(len(run.games), given + wave)
        batch = list(run.games[given:end])
        played = draws.play(batch)
        given = end
        stages.append(len(batch))
        for record in played:
            records[record.game_id] = record
        run.add(played)
    counted = [records[spec.game_id] for spec in run.counted if spec.game_id in records]
    order = run.final_order()
    if order is None:
        order = standings_order(bots, counted, draws.rng)
    return Played(stages, given, len(counted), list(order))


def standings_order(bots: Sequence[str], records: Sequence[GameRecord], rng: np.random.Generator) -> list[str]:
    """The standings' order of ``records`` (``league.stats.ranking.rank_league``'s), exact ties in a drawn order.

    The order ``rank_league`` gives is ``best_first`` of the Bradley-Terry point fit, which its
    bootstrap never moves; so the fit alone is made here (``estimate`` with no resamples). Bots
    without games come last, all tied.
    """
    results = pairwise_results(bots, records)
    fitted = estimate(results, samples=0)
    names = [*results.bots, *results.unrated]
    elo = [*(float(value) for value in fitted.elo), *(math.nan for _ in results.unrated)]
    order = [names[k] for k in best_first(names, elo)]
    for run in tied_runs(names, best_first(names, elo), elo):
        start = order.index(run[0])
        order[start : start + len(run)] = [run[k] for k in rng.permutation(len(run))]
    return order


def kendall_tau(order: Sequence[str], strengths: Mapping[str, float]) -> float:
    """Kendall's tau-b between an order (best first) and true strengths (higher better); 1 is the true order.

    Over every pair of bots: concordant when the one placed higher is truly stronger, discordant
    when weaker, neither when their strengths are equal (within ``SAME_STRENGTH``); tau-b divides
    by the square root of the pairs untied in each (the order ties none): (C - D) / sqrt(n0 (n0 - T)).
    """
    n0 = len(order) * (len(order) - 1) // 2
    concordant = discordant = tied = 0
    for upper, lower in itertools.combinations(order, 2):
        difference = strengths[upper] - strengths[lower]
        if abs(difference) <= SAME_STRENGTH:
            tied += 1
        elif difference > 0:
            concordant += 1
        else:
            discordant += 1
    if n0 == 0 or n0 == tied:
        return math.nan
    return (concordant - discordant) / math.sqrt(n0 * (n0 - tied))


def top_right(order: Sequence[str], strengths: Mapping[str, float], k: int) -> bool:
    """Whether the first ``k`` of ``order`` are the truly strongest ``k`` as a set (equal strengths either way)."""
    inside, outside = order[:k], order[k:]
    if not outside:
        return True
    return min(strengths[bot] for bot in inside) >= max(strengths[bot] for bot in outside) - SAME_STRENGTH


@dataclass(frozen=True)
class SimulatedFormat:
    """One format as the simulation plays it.

    Attributes:
        name: Its name in the table (``knockout``, ``swiss``, ``qualifier + knockout``).
        settings: Its settings, for people (``3 pairs a series``).
        start: A fresh run of it from a league seed.
        wave: Games handed out at once, for a format that stops on its own (``play_format``); None: all.
    """

    name: str
    settings: str
    start: Callable[[int], FormatRun]
    wave: int | None = None


@dataclass(frozen=True)
class FormatOutcome:
    """What one format did over the simulated leagues.

    Attributes:
        name: The format's name.
        settings: Its settings, for people.
        leagues: Each simulated league.
        best_first: The share whose order puts a truly strongest bot first.
        top_right: Per K from 1, the share whose first K are the true top K as a set.
        tau: Per league, Kendall's tau-b of its order to the truth.
    """

    name: str
    settings: str
    leagues: list[Played]
    best_first: float
    top_right: list[float]
    tau: list[float] = field(default_factory=list)

    @property
    def mean_games(self) -> float:
        """The mean games played in a league."""
        return float(np.mean([league.played for league in self.leagues]))

    @property
    def mean_tau(self) -> float:
        """The mean Kendall's tau (NaN where every bot is equally strong)."""
        return float(np.mean(self.tau))

    def wall_seconds(self, workers: int, seconds_per_game: float) -> float:
        """The mean wall time of a league with ``workers`` games at once: its stages one after another."""
        return seconds_per_game * float(np.mean([stage_rounds(league.stages, workers) for league in self.leagues]))


def stage_rounds(stages: Sequence[int], workers: int) -> int:
    """The rounds of ``workers`` games at once a league takes, stage after stage: the sum of ceil(games / workers)."""
    return sum(math.ceil(games / workers) for games in stages)


def league_streams(seed: int, name: str, leagues: int) -> list[np.random.Generator]:
    """The random stream of each simulated league of the format ``name`` under ``seed``."""
    streams = np.random.SeedSequence([seed, zlib.crc32(name.encode())]).spawn(leagues)
    return [np.random.default_rng(stream) for stream in streams]


def simulate_format(format_: SimulatedFormat, model: Model, leagues: int, seed: int, top: int = 3) -> FormatOutcome:
    """``leagues`` leagues of ``format_`` on ``model``'s bots, each scored against the truth (module docstring).

    Args:
        format_: The format and how to start it.
        model: The true strengths (its bots in the league's order).
        leagues: How many leagues to simulate.
        seed: Every draw derives from it.
        top: The largest K whose top-K share is kept (at most the bots less one).
    """
    bots = list(model.elos)
    strengths = true_strengths(model)
    strongest = max(strengths.values())
    played = []
    for rng in league_streams(seed, format_.name, leagues):
        league_seed = int(rng.integers(2**LEAGUE_SEED_BITS))
        played.append(play_format(format_.start(league_seed), bots, GameDraws(model, rng), format_.wave))
    best = [strengths[league.order[0]] >= strongest - SAME_STRENGTH for league in played]
    kept = max(1, min(top, len(bots) - 1))
    tops = [float(np.mean([top_right(league.order, strengths, k) for league in played])) for k in range(1, kept + 1)]
    taus = [kendall_tau(league.order, strengths) for league in played]
    return FormatOutcome(format_.name, format_.settings, played, float(np.mean(best)), tops, taus)
