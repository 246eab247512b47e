"""A qualifier, then finals: the best K of the league's format go on to a knockout (``finals: {format, best}``).

The attack2048 paper's proposal for many entrants (its section 5.3): a qualifying league whose best
go on to a knockout, so that the games shown live are few and a knockout's luck of the draw is
earned. The league file's ``format`` is the qualifier (``round_robin``, ``swiss``, ``tables`` or
``adaptive``: a format that ranks a field, ``Format.qualifies``) and

    finals: {format: knockout, best: 4}

sends its best 4 to the finals' format (one that takes a seeded field, ``Format.seeded_finals``),
with that format's own keys (``knockout: {pairs_per_series: 2, elimination: double}``) except its
seeding: the finals are seeded by the qualifier's order, the top qualifier the top seed. The
qualifier's order is its format's own (``FormatRun.final_order``: a Swiss's standings), else the
league's ranking rule over the qualifier's games (``league.stats.ranking``: Bradley-Terry).

``Staged`` is the two stages as one ``Format`` and ``QualifiedRun`` as one ``FormatRun``: the
qualifier's games, then, once its last game is taken (every game it counts stored, or it stopped),
the finals' games, numbered on, their ids under the stage ``finals``. So one ``league run`` plays
both; a run stopped in either stage goes on where it stopped (a fresh ``QualifiedRun`` fed the stored
games finds the qualifier whole and the same finalists, so no series is played twice); the same file
and seed give the same finalists and bracket whatever the workers. A bot added to a round-robin
qualifier plays only its own games there (its pairs' ids are new, the others' stay), and the
finals follow the new order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from league.match.did_you_mean import did_you_mean
from league.plan.formats.base import Format, FormatInputs, FormatRun
from league.plan.game_spec import GameSpec
from league.plan.knockout_series import KnockoutPlan
from league.plan.schedule import Schedule
from league.stats.game_record import GameRecord

if TYPE_CHECKING:
    from league.plan.config_schema import LeagueConfig

STAGE = "finals"
"""The finals' stage name in their game ids."""


class FinalsConfig(BaseModel):
    """``finals: {format, best}``: the best ``best`` of the qualifier go on to the ``format`` (module docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: str = "knockout"
    best: int = Field(strict=True)


def check_finals(config: LeagueConfig, formats: dict[str, Format]) -> None:
    """Refuse a ``finals`` key that cannot be played: ``ValueError("finals.KEY: problem; fix")``."""
    finals = config.finals
    if finals is None:
        return
    if finals.format not in formats:
        known = ", ".join(name for name, format_ in formats.items() if format_.seeded_finals)
        raise ValueError(
            f"finals.format: unknown format {finals.format!r}{did_you_mean(finals.format, list(formats))};"
            f" finals are played as: {known}"
        )
    stage = formats[finals.format]
    if not stage.seeded_finals:
        known = ", ".join(name for name, format_ in formats.items() if format_.seeded_finals)
        raise ValueError(f"finals.format: {finals.format} does not take a seeded field of finalists; give {known}")
    own = formats[config.format]
    if not own.qualifies:
        fits = ", ".join(name for name, format_ in formats.items() if format_.qualifies)
        raise ValueError(
            f"finals: format {config.format} does not rank a field for finals to take the best of; give format:"
            f" {fits} (the qualifier), or leave finals out"
        )
    bots = len(config.bots)
    if finals.best > bots:
        raise ValueError(
            f"finals.best: {finals.best} is more than the {bots} bots of this league; give best: {bots} or fewer"
        )
    if finals.best < 2:
        raise ValueError(f"finals.best: finals of {finals.best} bot play nothing; give best: 2 or more")
    stage.check_finals(config, finals.best)


def finals_inputs(inputs: FormatInputs, finalists: Sequence[str]) -> FormatInputs:
    """What the finals play from: the league's inputs, its bots the finalists (by seed), its format the finals'."""
    config = inputs.config
    assert config.finals is not None
    by_name = {bot.name: bot for bot in config.bots}
    update = {"format": config.finals.format, "bots": [by_name[name] for name in finalists], "finals": None}
    return dataclasses.replace(inputs, config=config.model_copy(update=update))


class QualifiedRun(FormatRun):
    """The qualifier's run, then the finals' run of its best, seeded by its order (module docstring).

    Args:
        inputs: What the league plays from.
        qualifier: The qualifier's run.
        finals: The finals' format (``Format.seeded_finals``).
        best: How many go on.
    """

    def __init__(self, inputs: FormatInputs, qualifier: FormatRun, finals: Format, best: int) -> None:
        self.inputs, self.qualifier, self.finals_format, self.best = inputs, qualifier, finals, best
        self.finals: FormatRun | None = None
        self.finalists: list[str] = []
        self.qualifier_order: list[str] = []
        """The qualifier's order once it is over: its own (``final_order``), else the ranking rule's."""
        self._offset = 0  # where the finals' games begin, once they do
        self._games = list(qualifier.games)
        self._stored: dict[str, GameRecord] = {}

    @property
    def games(self) -> Sequence[GameSpec]:
        """The qualifier's games, then the finals' (numbered on)."""
        return self._games

    @property
    def counted(self) -> Sequence[GameSpec]:
        """The qualifier's counted games, then every game of the finals."""
        if self.finals is None:
            return self.qualifier.counted
        return [*self.qualifier.counted, *self._games[self._offset :]]

    @property
    def most_games(self) -> int:
        """The qualifier's most, and the finals' at their longest (their own most, once started)."""
        if self.finals is not None:
            return self._offset + self.finals.most_games
        return self.qualifier.most_games + len(self.finals_format.planned(self._placeholder_inputs()))

    def add(self, records: Iterable[GameRecord]) -> list[GameSpec]:
        """Feed the stage each game is of; once the qualifier's last game is taken, the finals' first games."""
        records = [record for record in records if not record.infra]
        if self.finals is not None:
            return self._numbered(self.finals.add(records))
        for record in records:
            self._stored.setdefault(record.game_id, record)
        planned = list(self.qualifier.add(records))
        self._games += planned
        if planned or not self._qualifier_done():
            return planned
        counted = {spec.game_id for spec in self.qualifier.counted}
        order = self.qualifier.final_order() or self._ranked([self._stored[game_id] for game_id in counted])
        self.qualifier_order = list(order)
        self.finalists = self.qualifier_order[: self.best]
        self._offset = len(self._games)
        self.finals = self.finals_format.seeded_run(finals_inputs(self.inputs, self.finalists), self.finalists, STAGE)
        made = self._numbered(list(self.finals.games))
        made += self._numbered(self.finals.add(self._stored.values()))  # a resumed league: its finals stored
        stored, self._stored = self._stored, {}
        return [spec for spec in made if spec.game_id not in stored]  # to play: those not stored already

    def _qualifier_done(self) -> bool:
        """Whether the qualifier has nothing left: stopped, or every game it counts stored."""
        return self.qualifier.over or all(spec.game_id in self._stored for spec in self.qualifier.counted)

    def _ranked(self, records: Sequence[GameRecord]) -> list[str]:
        """The qualifier's order by the league's ranking rule (``league.stats.ranking``), its seed the league's."""
        from league.stats.ranking import rank_league  # a fit only a finished qualifier needs

        return rank_league(self.inputs.bots, records, seed=self.inputs.seed).order

    def _numbered(self, specs: Sequence[GameSpec]) -> list[GameSpec]:
        made = [dataclasses.replace(spec, index=len(self._games) + k) for k, spec in enumerate(specs)]
        self._games += made
        return made

    def _placeholder_inputs(self) -> FormatInputs:
        """The finals' inputs with the file's first ``best`` bots for finalists (for counting the most they play)."""
        return finals_inputs(self.inputs, self.inputs.bots[: self.best])

    def progress(self) -> str:
        """The finals' progress once they started, else the qualifier's."""
        return self.finals.progress() if self.finals is not None else self.qualifier.progress()

    def closing_lines(self) -> list[str]:
        """The qualifier's lines, who went on, and the finals' lines."""
        lines = self.qualifier.closing_lines()
        if self.finals is None:
            return [*lines, f"finals: not started: the qualifier is still playing (its best {self.best} go on)"]
        return [*lines, f"finals: {', '.join(self.finalists)} went on", *self.finals.closing_lines()]

    def manifest(self) -> dict[str, Any]:
        """The qualifier's part, the finals' part, and ``finals``: their format, how many went on, and who."""
        finals = self.finals.manifest() if self.finals is not None else {}
        stage = {"format": self.finals_format.name, "best": self.best, "finalists": self.finalists}
        return {**self.qualifier.manifest(), **finals, "finals": stage}

    def final_order(self) -> list[str] | None:
        """The finals' placing, then the bots they left out in the qualifier's order.

        Before the finals, the qualifier's own order so far (a Swiss's standings), None where it has none
        (a round robin: the standings are then by Bradley-Terry, ``league.stats.ranking``).
        """
        if self.finals is None:
            return self.qualifier.final_order()
        placed = self.finals.final_order() or self.finalists
        return [*placed, *(bot for bot in self.qualifier_order if bot not in placed)]


class Staged(Format):
    """A qualifier's format with finals after it (``finals:``), as one format; named as its qualifier.

    Args:
        qualifier: The league's format.
        finals: The finals' format.
        best: How many go on.
    """

    plans_as_it_goes = True

    def __init__(self, qualifier: Format, finals: Format, best: int) -> None:
        self.qualifier, self.finals, self.best = qualifier, finals, best
        self.name = qualifier.name  # type: ignore[misc]  # the manifest's format: the report finds both parts
        self.keys = {**qualifier.keys, **finals.keys}  # type: ignore[misc]

    def seats(self, config: LeagueConfig) -> list[int]:
        """The qualifier's seats and the finals'."""
        own = self.qualifier.seats(config)
        return [*own, *(count for count in self.finals.seats(config) if count not in own)]

    def check(self, config: LeagueConfig) -> None:
        """The qualifier's checks (the finals' are ``check_finals``)."""
        self.qualifier.check(config)

    def planned(self, inputs: FormatInputs) -> Schedule:
        """The qualifier's most, then the finals' at their longest (the file's first bots standing in as finalists)."""
        finals = finals_inputs(inputs, inputs.bots[: self.best])
        return KnockoutPlan([self.qualifier.planned(inputs), self.finals.planned(finals)])

    def start(self, inputs: FormatInputs) -> QualifiedRun:
        """The qualifier's first games; the finals follow it."""
        return QualifiedRun(inputs, self.qualifier.start(inputs), self.finals, self.best)

    def describe(self, config: LeagueConfig) -> str:
        """The qualifier's words, and the finals'."""
        finals = config.model_copy(update={"format": self.finals.name, "finals": None})
        return (
            f"{self.qualifier.describe(config)}; then its best {self.best} to finals, {self.finals.name}"
            f" {self.finals.describe(finals)}"
        )

    def plan_lines(self, inputs: FormatInputs, planned: Sequence[GameSpec]) -> list[str]:
        """The qualifier's lines, of its own games (the finals' depend on who goes on)."""
        qualifier = planned.parts[0] if isinstance(planned, KnockoutPlan) else planned
        return self.qualifier.plan_lines(inputs, qualifier)

    def fewer_games(self, config: LeagueConfig) -> str:
        """The qualifier's way, or fewer finalists."""
        return f"{self.qualifier.fewer_games(config)}, or send fewer to the finals (finals.best: {self.best})"
