"""``format: swiss``: R rounds, each pairing bots of equal or near scores who have not met (``swiss`` keys).

Round 1 is paired from the draw order (``swiss.seeding``: drawn from the league seed, or the file's
order); round r + 1 only once every game of round r is stored, from the standings after it
(``league.plan.swiss_pairing``), so the same stored games give the same pairings whoever played
them and in whatever order they finished, and a resumed league re-derives the rounds it played.
Each pairing plays ``games_per_round`` games a round: by default 2, a seat-swapped pair on one
seed (a unit, its seats balanced by construction); with 1, a single game, the seat going to the bot
that sat first less often. A bot's round scores its games' points (a win 1, a draw 1/2), a bye a
win of every game (``league.plan.swiss_standings``, with the tie-breaks and the final order).

The games are a ``SwissSchedule``'s (``league.plan.schedule``, kind "swiss"): a game's id and seed
hold its pairing, its seats and its unit's number ``round * units + unit`` (0-based; ``units`` the
seat-swapped pairs a round, an odd last game a unit of its own), so ids are stable across runs and
never those of another format's games.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core import derive_seed, plural
from league.plan.formats.base import Format, FormatInputs, FormatRun
from league.plan.formats.round_robin import check_pairs
from league.plan.game_spec import GameSpec
from league.plan.schedule import Schedule, Seating
from league.plan.swiss_pairing import RoundPairing, max_rounds, pair_round, rounds_problem
from league.plan.swiss_standings import (
    Meeting,
    PlayedRound,
    decided_by,
    final_order,
    standings,
)
from league.stats.game_record import INFRA_ERROR, GameRecord
from league.stats.sprt import game_points

if TYPE_CHECKING:
    from league.plan.config_schema import LeagueConfig


class SwissConfig(BaseModel):
    """``swiss: {rounds, games_per_round, seeding}``: how ``format: swiss`` pairs and plays.

    ``rounds`` (default: ceil(log2 N) + 1 for N bots, at most the N - 1 the field allows, N when
    odd), ``games_per_round`` each pairing plays a round (default 2: a seat-swapped pair), and
    ``seeding``: the draw order that ranks bots level on score in the pairing and breaks the last
    tie of the standings, ``random`` (drawn from the league seed, the default) or ``file`` (the
    bots' order in the file).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    rounds: int | None = Field(None, ge=1, strict=True)
    games_per_round: int = Field(2, ge=1, strict=True)
    seeding: Literal["random", "file"] = "random"


def swiss_settings(config: LeagueConfig) -> SwissConfig:
    """The league's ``swiss`` keys, defaults where not given."""
    return getattr(config, "swiss", None) or SwissConfig()


def rounds_of(settings: SwissConfig, field: int) -> int:
    """The rounds a field of ``field`` bots plays: the given ones, else ceil(log2 N) + 1 capped by the field."""
    if settings.rounds is not None:
        return settings.rounds
    return min((field - 1).bit_length() + 1, max_rounds(field))


def draw_order(bots: Sequence[str], seed: int, seeding: str) -> list[str]:
    """The draw order: the file's, or a shuffle of it drawn from the league seed."""
    order = list(bots)
    if seeding == "random":
        random.Random(derive_seed(seed, "swiss", "draw")).shuffle(order)
    return order


class SwissSchedule(Schedule):
    """The games of some Swiss rounds, in order: each round's pairings, ``games_per_round`` games each.

    A round is ``games_per_round`` games of each of its pairings, every pairing's first game first;
    games 2u and 2u + 1 of a pairing share a seed with the seats swapped, its first bot first in 2u
    (an odd last game too).

    Args:
        league: The league's name.
        variants: Variant names.
        seed: The league seed.
        fingerprints: Per bot and variant name, what it stands for.
        pairings: Per round, its pairings (the bot that sits first in the first game first), as many each.
        games_per_round: Games each pairing plays a round.
        first_round: The 0-based number of the first of these rounds in the league.
    """

    kind = "swiss"

    def __init__(
        self,
        league: str,
        variants: Sequence[str],
        seed: int,
        fingerprints: dict[str, str] | None,
        pairings: Sequence[Sequence[tuple[str, str]]],
        games_per_round: int,
        first_round: int = 0,
    ) -> None:
        width = len(pairings[0]) if pairings else 0
        super().__init__(league, variants, seed, fingerprints, len(pairings), width * games_per_round)
        self.pairings = [list(round_) for round_ in pairings]
        self.width = width
        self.games_per_round = games_per_round
        self.first_round = first_round

    def _seating(self, slot: int) -> Seating:
        offset, column = divmod(slot, self.columns)
        game, number = divmod(column, self.width)
        pairing = self.pairings[offset][number]
        unit, swapped = divmod(game, 2)
        unit_number = (self.first_round + offset) * ((self.games_per_round + 1) // 2) + unit
        match_seed = derive_seed(self.seed, "swiss", unit_number, ",".join(sorted(pairing)))
        return pairing, unit_number, (pairing[1], pairing[0]) if swapped else pairing, match_seed


def circle_rounds(bots: Sequence[str], rounds: int) -> list[list[tuple[str, str]]]:
    """``rounds`` rounds of the circle method over ``bots`` (an odd field's bye left out): stand-ins for ``planned``."""
    field: list[str | None] = [*bots, *([None] if len(bots) % 2 else [])]
    made = []
    for _ in range(rounds):
        half = len(field) // 2
        pairs = zip(field[:half], reversed(field[half:]), strict=True)
        made.append([(a, b) for a, b in pairs if a is not None and b is not None])
        field = [field[0], field[-1], *field[1:-1]]
    return made


class SwissRun(FormatRun):
    """A Swiss league's rounds as games, fed its stored games.

    Args:
        inputs: What the league plays from (one variant).
        settings: Its ``swiss`` keys.
    """

    def __init__(self, inputs: FormatInputs, settings: SwissConfig) -> None:
        self.bots = inputs.bots
        (self.variant,) = inputs.variants
        self.seed = inputs.seed
        self.settings = settings
        self.rounds = rounds_of(settings, len(self.bots))
        self.games_per_round = settings.games_per_round
        self.draw_order = draw_order(self.bots, inputs.seed, settings.seeding)
        self._naming = (inputs.league, dict(inputs.fingerprints), inputs.openings)
        self.paired: list[RoundPairing] = []
        self.round_games: list[list[GameSpec]] = []
        self.played: list[PlayedRound] = []
        self._records: dict[str, GameRecord] = {}
        self._games: list[GameSpec] = []
        self._plan_next()

    @property
    def games(self) -> Sequence[GameSpec]:
        """The games of every round paired so far."""
        return self._games

    @property
    def most_games(self) -> int:
        """Every round's games: ``rounds`` x floor(N / 2) pairings x ``games_per_round``."""
        return self.rounds * (len(self.bots) // 2) * self.games_per_round

    def add(self, records: Iterable[GameRecord]) -> list[GameSpec]:
        """Take stored games (INFRA_ERROR ones wait for their replay); the games of the rounds this pairs."""
        for record in records:  # kept whether paired yet or not: a resumed run finds the rounds to come stored
            if record.result.termination != INFRA_ERROR:
                self._records[record.game_id] = record
        planned: list[GameSpec] = []
        while len(self.played) < len(self.round_games):
            games = self.round_games[len(self.played)]
            if any(spec.game_id not in self._records for spec in games):
                break
            pairing = self.paired[len(self.played)]
            self.played.append(played_round(pairing, [self._records.pop(spec.game_id) for spec in games]))
            if len(self.played) < self.rounds:
                planned += self._plan_next()
        return planned

    def _plan_next(self) -> list[GameSpec]:
        """Pair the next round from the standings after the rounds played; its games, numbered on from the last."""
        number = len(self.paired)
        table = standings(self.bots, self.played, self.games_per_round)
        pairing = pair_round(table, self.draw_order, self.seed, number + 1, self.rounds)
        league, fingerprints, openings = self._naming
        schedule = SwissSchedule(
            league, [self.variant], self.seed, fingerprints, [pairing.pairings], self.games_per_round, number
        )
        schedule.openings = openings
        start = len(self._games)
        made = [dataclasses.replace(spec, index=start + k) for k, spec in enumerate(schedule)]
        self.paired.append(pairing)
        self.round_games.append(made)
        self._games += made
        return made

    def standings(self) -> list[dict[str, Any]]:
        """The standings after the rounds played, best first: each bot's score, Buchholz and Sonneborn-Berger."""
        table = standings(self.bots, self.played, self.games_per_round)
        return [dataclasses.asdict(figures) for figures in final_order(table, self.draw_order)]

    def final_order(self) -> list[str]:
        """The Swiss standings' order: score, Buchholz, Sonneborn-Berger, then the draw order."""
        return [row["bot"] for row in self.standings()]

    def progress(self) -> str:
        """``round 3 of 5``."""
        return f"round {min(len(self.played) + 1, self.rounds)} of {self.rounds}"

    def manifest(self) -> dict[str, Any]:
        """The rounds paired (pairings, bye, repeats, game ids per pairing), and the standings after those played."""
        rounds = []
        for number, (pairing, games) in enumerate(zip(self.paired, self.round_games, strict=True)):
            width = len(pairing.pairings)
            rounds.append(
                {
                    "round": number + 1,
                    "pairings": [list(pair) for pair in pairing.pairings],
                    "game_ids": [[spec.game_id for spec in games[k::width]] for k in range(width)],
                    "bye": pairing.bye,
                    "repeats": [list(pair) for pair in pairing.repeats],
                }
            )
        settings = {"rounds": self.rounds, "games_per_round": self.games_per_round, "seeding": self.settings.seeding}
        return {
            "swiss": {
                **settings,
                "draw_order": self.draw_order,
                "rounds_paired": rounds,
                "rounds_played": len(self.played),
                "standings": self.standings(),
            }
        }

    def closing_lines(self) -> list[str]:
        """Who leads (or won) and by what: its score, Buchholz and Sonneborn-Berger, and what put it above the next."""
        if not self.played:
            return [f"swiss: no round of {self.rounds} played yet; run the league again to go on"]
        table = final_order(standings(self.bots, self.played, self.games_per_round), self.draw_order)
        top, runner_up = table[0], table[1]
        done = len(self.played) == self.rounds
        most = len(self.played) * self.games_per_round
        figures = (
            f"{top.score:g} of {most:g} points (Buchholz {top.buchholz:g}, Sonneborn-Berger {top.sonneborn_berger:g})"
        )
        how = f", ahead of {runner_up.bot} on {decided_by(top, runner_up)}" if top.score == runner_up.score else ""
        repeats = sum(len(pairing.repeats) for pairing in self.paired[: len(self.played)])
        again = f"; {plural(repeats, 'pairing')} repeated an earlier one (none without was left)" if repeats else ""
        if done:
            return [f"swiss: {top.bot} wins after {plural(self.rounds, 'round')} with {figures}{how}{again}"]
        return [
            f"swiss: {len(self.played)} of {plural(self.rounds, 'round')} played, {top.bot} leading with"
            f" {figures}{how}{again}; run the league again to go on"
        ]


def played_round(pairing: RoundPairing, records: Sequence[GameRecord]) -> PlayedRound:
    """A round's results from its stored games (any order): each pairing's points and first seats."""
    meetings = []
    for pair in pairing.pairings:
        games = [record for record in records if set(record.spec.seats) == set(pair)]
        points = tuple(sum(game_points(record, bot) for record in games) for bot in pair)
        firsts = tuple(sum(record.spec.seats[0] == bot for record in games) for bot in pair)
        meetings.append(Meeting(pair, points, firsts))  # type: ignore[arg-type]
    return PlayedRound(tuple(meetings), pairing.bye)


class SwissFormat(Format):
    """``format: swiss``: R rounds of pairings by score, tie-broken by Buchholz and Sonneborn-Berger."""

    name = "swiss"
    qualifies = True  # its best may go on to finals (league.plan.formats.finals)
    report_key = "swiss"
    plans_as_it_goes = True
    keys = {"swiss": "pairs bots by score round by round"}

    def seats(self, config: LeagueConfig) -> list[int]:
        """Two a game: a Swiss pairs bots (a table game is refused with the fix)."""
        return [2]

    def check(self, config: LeagueConfig) -> None:
        """Pairs (a game of more players is refused), one variant, no ``games_per_pair``, rounds the field can pair."""
        check_pairs(config)
        if len(config.variants) != 1:
            raise ValueError("variants: a Swiss ranks under one rule set; give one variant (a league file for each)")
        if "games_per_pair" in config.model_fields_set:
            raise ValueError(
                "games_per_pair: a Swiss plays swiss.games_per_round games a pairing each round; give that instead"
                " (default 2, a seat-swapped pair)"
            )
        problem = rounds_problem(rounds_of(swiss_settings(config), len(config.bots)), len(config.bots))
        if problem:
            raise ValueError(problem)

    def planned(self, inputs: FormatInputs) -> Schedule:
        """The most it plays: each round's floor(N / 2) pairings (circle-method stand-ins), ``games_per_round`` each."""
        settings = swiss_settings(inputs.config)
        rounds = circle_rounds(inputs.bots, rounds_of(settings, len(inputs.bots)))
        schedule = SwissSchedule(
            inputs.league, inputs.variants, inputs.seed, dict(inputs.fingerprints), rounds, settings.games_per_round
        )
        schedule.openings = inputs.openings
        return schedule

    def start(self, inputs: FormatInputs) -> SwissRun:
        """Round 1 paired; feed it the stored games to go on."""
        return SwissRun(inputs, swiss_settings(inputs.config))

    def describe(self, config: LeagueConfig) -> str:
        """``5 rounds, 2 games per pairing, a seat-swapped pair``."""
        settings = swiss_settings(config)
        rounds = plural(rounds_of(settings, len(config.bots)), "round")
        games = settings.games_per_round
        how = (
            "a single game, seats by history"
            if games == 1
            else "a seat-swapped pair"
            if games == 2
            else "seat-swapped pairs on shared seeds"
        )
        return f"{rounds}, {plural(games, 'game')} per pairing, {how}"

    def fewer_games(self, config: LeagueConfig) -> str:
        """Fewer rounds or fewer games a round."""
        settings = swiss_settings(config)
        rounds = rounds_of(settings, len(config.bots))
        games = settings.games_per_round
        return f"play fewer rounds (swiss.rounds: {rounds}) or games a round (swiss.games_per_round: {games})"

    def plan_lines(self, inputs: FormatInputs, planned: Sequence[GameSpec]) -> list[str]:
        """The bye of an odd field and the order that breaks the last ties."""
        settings = swiss_settings(inputs.config)
        order = "drawn from the league seed" if settings.seeding == "random" else "the file's"
        lines = [f"pairings by score each round; ties: Buchholz, Sonneborn-Berger, then the draw order ({order})"]
        if len(inputs.bots) % 2:
            points = plural(settings.games_per_round, "point")
            bots = len(inputs.bots)
            lines.append(f"{bots} bots: one sits out each round (a bye scores {points}, a win of each game)")
        return lines
