"""The runs of ``format: knockout`` (``league.plan.formats.knockout``): a bracket of pairs, or rounds of tables.

Both take stored games in schedule order only (``SeriesWalk``): a series (a bracket's match, or a
table) is settled once every game it planned, and every game planned before them, is taken; it is
then decided or given one more pair (set), and what that makes ready is planned, in order. So the
same stored games give the same games, ids and bracket whatever order they were stored in, and a
fresh run fed a stopped run's games plans again exactly the series it had planned, finding their
games stored: no series is played twice.
"""

from __future__ import annotations

import dataclasses
from abc import abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any

from league.plan.bracket import Bracket, Elimination
from league.plan.formats.base import FormatInputs, FormatRun
from league.plan.game_spec import GameSpec
from league.plan.knockout_series import Decision, SeriesRules, SeriesSchedule, decide
from league.plan.schedule import Schedule
from league.plan.table_knockout import TableDecision, TableSeriesSchedule, deal, decide_table, round_sizes
from league.stats.game_record import GameRecord

STAGE = "knockout"
"""The stage name in a knockout's game ids when it is the league's only stage."""


def _points(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.2f}".rstrip("0")


class SeriesWalk(FormatRun):
    """Games planned series by series, taken in schedule order; a series settled once all its planned games are.

    Args:
        inputs: What the league plays from.
        rules: The series' length and decider.
        stage: The stage's name in the game ids.
    """

    def __init__(self, inputs: FormatInputs, rules: SeriesRules, stage: str) -> None:
        self.inputs, self.rules, self.stage = inputs, rules, stage
        self._games: list[GameSpec] = []
        self._series_of: dict[str, str] = {}  # game id -> series key
        self._planned: dict[str, int] = {}  # series key -> games planned
        self._taken_of: dict[str, list[GameRecord]] = {}  # series key -> its games taken, in schedule order
        self._stored: dict[str, GameRecord] = {}
        self._taken = 0

    @property
    def games(self) -> Sequence[GameSpec]:
        """Every game planned so far, in schedule order."""
        return self._games

    def add(self, records: Iterable[GameRecord]) -> list[GameSpec]:
        """Take stored games; the games of the series (or extra pairs) this plans next, in order."""
        start = len(self._games)
        for record in records:
            if not record.infra:
                self._stored.setdefault(record.game_id, record)
        while self._taken < len(self._games) and self._games[self._taken].game_id in self._stored:
            game_id = self._games[self._taken].game_id
            self._taken += 1
            key = self._series_of[game_id]
            taken = self._taken_of.setdefault(key, [])
            taken.append(self._stored[game_id])
            if len(taken) == self._planned[key]:
                self._settle(key, taken)
        return list(self._games[start:])

    @abstractmethod
    def _settle(self, key: str, taken: list[GameRecord]) -> None:
        """Decide series ``key`` from its games taken (in schedule order), or plan it more; plan what is ready."""

    def _plan(self, key: str, schedule: Schedule, positions: Iterable[int]) -> None:
        """Plan the games at ``positions`` of a series' schedule."""
        for position in positions:
            spec = dataclasses.replace(schedule[position], index=len(self._games))
            self._games.append(spec)
            self._series_of[spec.game_id] = key
            self._planned[key] = self._planned.get(key, 0) + 1

    def games_of(self) -> dict[str, list[str]]:
        """Per series planned, its games' ids in schedule order."""
        found: dict[str, list[str]] = {}
        for spec in self._games:
            found.setdefault(self._series_of[spec.game_id], []).append(spec.game_id)
        return found


class KnockoutRun(SeriesWalk):
    """A bracket of series between two bots (``league.plan.bracket``, ``league.plan.knockout_series``).

    Args:
        inputs: What the league plays from.
        seeds: The field by seed, top seed first.
        rules: The series' length and decider.
        elimination: ``single`` or ``double``.
        stage: The stage's name in the game ids.
    """

    def __init__(
        self,
        inputs: FormatInputs,
        seeds: Sequence[str],
        rules: SeriesRules | None = None,
        elimination: Elimination = "single",
        stage: str = STAGE,
    ) -> None:
        super().__init__(inputs, rules or SeriesRules(), stage)
        self.bracket = Bracket.build(seeds, elimination)
        self.winners: dict[str, str] = {}
        self.decisions: dict[str, Decision] = {}
        self.schedules: dict[str, SeriesSchedule] = {}  # the series planned, in the order planned
        self._plan_ready()

    def _settle(self, key: str, taken: list[GameRecord]) -> None:
        """Decide series ``key`` from its games taken, or plan it one more pair; plan what is ready then."""
        schedule = self.schedules[key]
        seed_of = {bot: number for number, bot in enumerate(self.bracket.seeds)}
        higher = min(schedule.pairing, key=seed_of.__getitem__)
        decision = decide(schedule.pairing, taken, self.rules, higher)
        self.decisions[key] = decision
        if decision.winner is None:
            self._plan(key, schedule, schedule.pair_games(decision.pairs))
            return
        self.winners[key] = decision.winner
        self._plan_ready()

    def _plan_ready(self) -> None:
        sides = self.bracket.sides(self.winners)
        for series in self.bracket.ready(self.winners):
            if series.key in self.schedules:
                continue
            upper, lower = sides[series.key]
            inputs = self.inputs
            schedule = SeriesSchedule(
                inputs.league,
                self.stage,
                series.key,
                (str(upper), str(lower)),
                inputs.variants,
                self.rules.most_pairs,
                inputs.seed,
                inputs.fingerprints,
                inputs.openings,
            )
            self.schedules[series.key] = schedule
            self._plan(series.key, schedule, range(2 * len(inputs.variants) * self.rules.pairs))

    @property
    def most_games(self) -> int:
        """The games planned and those every series still open may add at its longest."""
        per_pair = 2 * len(self.inputs.variants)
        unplanned = len(self.bracket.series) - len(self.schedules)
        open_ = [key for key in self.schedules if key not in self.winners]
        extra = sum(self.rules.most_pairs * per_pair - self._planned[key] for key in open_)
        return len(self._games) + extra + unplanned * self.rules.most_pairs * per_pair

    def champion(self) -> str | None:
        """The final's winner, None while it is open."""
        return self.bracket.champion(self.winners)

    def progress(self) -> str:
        """``3 of 7 series decided``."""
        return f"{len(self.winners)} of {len(self.bracket.series)} series decided"

    def closing_lines(self) -> list[str]:
        """The champion, and the final's score; or how many series are still to play."""
        champion = self.champion()
        if champion is None:
            left = len(self.bracket.series) - len(self.winners)
            return [f"The knockout is not over: {left} of {len(self.bracket.series)} series still to play."]
        final = self.bracket.final
        decision = self.decisions[final.key]
        upper, lower = self.schedules[final.key].pairing
        points = decision.points if champion == upper else decision.points[::-1]
        runner_up = lower if champion == upper else upper
        score = f"{_points(points[0])}-{_points(points[1])}"
        return [f"Champion: {champion}, beating {runner_up} {score} in the final ({decision.how})."]

    def final_order(self) -> list[str]:
        """The bracket's placing (``league.plan.bracket.Bracket.placing``)."""
        return self.bracket.placing(self.winners)

    def manifest(self) -> dict[str, Any]:
        """``{"knockout": ...}``: the bracket's series, sides, scores, winners and games, for the report."""
        sides = self.bracket.sides(self.winners)
        games_of = self.games_of()
        series = []
        for slot in self.bracket.series:
            decision = self.decisions.get(slot.key)
            schedule = self.schedules.get(slot.key)
            series.append(
                {
                    "key": slot.key,
                    "bracket": slot.bracket,
                    "round": slot.round,
                    "number": slot.number,
                    "level": slot.level,
                    "sources": [side.words(self.bracket.seeds) for side in slot.sides],
                    "sides": list(schedule.pairing) if schedule else list(sides[slot.key]),
                    "points": list(decision.points) if decision else None,
                    "pairs": decision.pairs if decision else 0,
                    "winner": self.winners.get(slot.key),
                    "decided_by": decision.how if decision else "",
                    "games": games_of.get(slot.key, []),
                }
            )
        rules = self.rules
        return {
            "knockout": {
                "stage": self.stage,
                "elimination": self.bracket.elimination,
                "seeds": list(self.bracket.seeds),
                "byes": self.bracket.byes(),
                "pairs_per_series": rules.pairs,
                "extra_pairs": rules.extra_pairs,
                "then": rules.then,
                "series": series,
                "champion": self.champion(),
                "placing": self.final_order(),
            }
        }


class TableKnockoutRun(SeriesWalk):
    """Rounds of tables, the best ``advance`` of each going on, down to a final table (``league.plan.table_knockout``).

    Args:
        inputs: What the league plays from.
        seeds: The field by seed, top seed first.
        rules: ``pairs`` sets a table, up to ``extra_pairs`` more while tied at the cut, then ``then``.
        size: The most bots at a table.
        advance: How many of each table go on.
        stage: The stage's name in the game ids.
    """

    def __init__(
        self,
        inputs: FormatInputs,
        seeds: Sequence[str],
        rules: SeriesRules,
        size: int,
        advance: int,
        stage: str = STAGE,
    ) -> None:
        super().__init__(inputs, rules, stage)
        self.seeds, self.size, self.advance = tuple(seeds), size, advance
        self.sizes = round_sizes(len(seeds), size, advance)
        self.rounds: list[list[str]] = []  # per round, its tables' keys
        self.schedules: dict[str, TableSeriesSchedule] = {}
        self.decisions: dict[str, TableDecision] = {}
        self._start_round(list(seeds))

    def _start_round(self, field: Sequence[str]) -> None:
        number = len(self.rounds) + 1
        final = len(field) <= self.size
        tables = [list(field)] if final else deal(field, self.size)
        keys = ["F"] if final else [f"T{number}.{n}" for n in range(1, len(tables) + 1)]
        self.rounds.append(keys)
        for key, table in zip(keys, tables, strict=True):
            inputs = self.inputs
            schedule = TableSeriesSchedule(
                inputs.league,
                self.stage,
                key,
                table,
                inputs.variants,
                self.rules.most_pairs,
                inputs.seed,
                inputs.fingerprints,
                inputs.openings,
            )
            self.schedules[key] = schedule
            self._plan(key, schedule, (p for s in range(self.rules.pairs) for p in schedule.set_games(s)))

    def _settle(self, key: str, taken: list[GameRecord]) -> None:
        schedule = self.schedules[key]
        cut = 1 if key == "F" else self.advance
        decision = decide_table(schedule.table, taken, self.rules, cut, self.seeds)
        self.decisions[key] = decision
        if decision.order is None:
            self._plan(key, schedule, schedule.set_games(decision.sets))
            return
        current = self.rounds[-1]
        if key == "F" or any(self.decisions.get(k) is None or self.decisions[k].order is None for k in current):
            return
        seed_of = {bot: number for number, bot in enumerate(self.seeds)}
        going = [(place, seed_of[bot], bot) for k in current for place, bot in enumerate(self.went_on(k))]
        self._start_round([bot for _, _, bot in sorted(going)])

    def went_on(self, key: str) -> list[str]:
        """The bots of table ``key`` who went on (its winner at the final table), [] while it is open."""
        decision = self.decisions.get(key)
        if decision is None or decision.order is None:
            return []
        return decision.order[: 1 if key == "F" else self.advance]

    @property
    def most_games(self) -> int:
        """The games planned, those every table still open may add, and the rounds to come at their longest."""
        variants = len(self.inputs.variants)
        open_ = [key for key in self.schedules if key not in self.decisions or self.decisions[key].order is None]
        extra = sum(len(self.schedules[key]) - self._planned[key] for key in open_)
        later = sum(
            size * variants * self.rules.most_pairs for sizes in self.sizes[len(self.rounds) :] for size in sizes
        )
        return len(self._games) + extra + later

    def champion(self) -> str | None:
        """The final table's winner, None while it is open."""
        won = self.went_on("F")
        return won[0] if won else None

    def progress(self) -> str:
        """``round 2 of 3, 1 of 2 tables decided``."""
        current = self.rounds[-1]
        done = sum(1 for key in current if self.went_on(key))
        return f"round {len(self.rounds)} of {len(self.sizes)}, {done} of {len(current)} tables decided"

    def closing_lines(self) -> list[str]:
        """The champion and the final table's points; or that it is not over."""
        champion = self.champion()
        if champion is None:
            return [f"The knockout is not over: {self.progress()}."]
        decision = self.decisions["F"]
        order = decision.order or []
        table = ", ".join(f"{bot} {_points(decision.points[bot])}" for bot in order)
        return [f"Champion: {champion}, first at the final table ({table}; {decision.how})."]

    def final_order(self) -> list[str]:
        """The final table's order, then by the round that put a bot out (later first), its place there, its seed."""
        seed_of = {bot: number for number, bot in enumerate(self.seeds)}
        final = self.decisions.get("F")
        placed = list(final.order) if final is not None and final.order is not None else []
        out = []
        for number, keys in enumerate(self.rounds):
            for key in keys:
                decision = self.decisions.get(key)
                if key == "F" or decision is None or decision.order is None:
                    continue
                for place, bot in enumerate(decision.order[self.advance :]):
                    out.append((-number, place, seed_of[bot], bot))
        gone = [bot for *_, bot in sorted(out)]
        still = [bot for bot in self.seeds if bot not in placed and bot not in gone]
        return [*placed, *still, *gone]

    def manifest(self) -> dict[str, Any]:
        """``{"knockout": ...}``: every round's tables, their bots, points, order and games, for the report."""
        games_of = self.games_of()
        rounds = []
        for keys in self.rounds:
            tables = []
            for key in keys:
                decision = self.decisions.get(key)
                tables.append(
                    {
                        "key": key,
                        "bots": list(self.schedules[key].table),
                        "points": decision.points if decision else None,
                        "order": decision.order if decision else None,
                        "went_on": self.went_on(key),
                        "sets": decision.sets if decision else 0,
                        "decided_by": decision.how if decision else "",
                        "games": games_of.get(key, []),
                    }
                )
            rounds.append(tables)
        rules = self.rules
        return {
            "knockout": {
                "kind": "tables",
                "stage": self.stage,
                "seeds": list(self.seeds),
                "players_per_table": self.size,
                "advance": self.advance,
                "pairs_per_series": rules.pairs,
                "extra_pairs": rules.extra_pairs,
                "then": rules.then,
                "rounds": rounds,
                "champion": self.champion(),
                "placing": self.final_order(),
            }
        }
