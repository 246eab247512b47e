"""A league format behind one small interface: what it plays first, what next, when it is done and why.

A format is one module of ``league.plan.formats`` holding one ``Format`` (registered in
``league.plan.formats.FORMATS``, one line a format). The runner, ``league validate``, ``league plan``
and the command line know formats only through it, as fastchess's ``Scheduler`` and Ray Tune's
``TrialScheduler`` are known to their runners:

* ``seats``: the seat counts its games need, checked against every variant;
* ``check``: its own keys of the league file (raise ``ValueError`` naming the key and the fix); ``keys``:
  the keys it alone gives a meaning to, which a league of another format is refused (the schema does it);
* ``planned``: the most it may play, counted lazily (a ``Schedule``): what ``validate`` counts,
  samples and estimates;
* ``start``: its ``FormatRun`` over the league's stored games;
* ``describe``: its words in the plan line (``league l: game, FORMAT, N games (WORDS), seed``) and
  lines of its own below it;
* ``report_key``: which section of the report shows it (``league.report`` holds the sections, a wing
  above this one; the manifest's ``format`` names the section, so a folder's report needs no league file).

A ``FormatRun`` is a format's play, fed stored games in any order. It takes them in schedule order
only (a game waits until every game it depends on is stored), so the same stored games give the
same next games, whoever played them and in whatever order they finished: the same config and seed
give the same games whatever the number of workers, and a resumed run goes on where it stopped.

What a format plays from is computed from the league file and passed on (``FormatInputs``): the
league seed, the bots' fingerprints and the openings are never set on ``League`` afterwards.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from engine.core import Game
    from league.plan.config_schema import LeagueConfig
    from league.plan.game_spec import GameSpec
    from league.plan.openings import Openings
    from league.plan.schedule import Schedule
    from league.stats.game_record import GameRecord


@dataclass(frozen=True)
class FormatInputs:
    """What a format plays from: the league file's data and what was computed from it, passed on.

    Attributes:
        config: The validated league file (the format's own keys among it).
        games: Per variant name, the game with that variant's parameters.
        seed: The league seed (the file's, the one its folder stores, or a new draw).
        fingerprints: Per bot and variant name, a digest of what it stands for (part of every game id).
        openings: What each pair of games starts from (``league.plan.openings``), None for the rules' start.
    """

    config: LeagueConfig
    games: Mapping[str, Game]
    seed: int
    fingerprints: Mapping[str, str]
    openings: Openings | None = None

    @property
    def league(self) -> str:
        """The league's name (part of every game id)."""
        return self.config.name

    @property
    def bots(self) -> list[str]:
        """The bots' names in the file's order."""
        return [bot.name for bot in self.config.bots]

    @property
    def variants(self) -> list[str]:
        """The variants' names in the file's order."""
        return list(self.games)


class FormatRun(ABC):
    """A format's play over a league's stored games: what to play, given what is stored.

    ``games`` starts as what the format plays first; each ``add`` of stored games may plan more
    (returned, and appended to ``games``). A run is ``over`` once it has stopped before playing all
    it planned (a verdict, a settled ranking): games still waiting are not handed out, those in
    flight are stored and count for nothing (they are not in ``counted``).
    """

    @property
    @abstractmethod
    def games(self) -> Sequence[GameSpec]:
        """Every game planned so far, in schedule order (their ``index`` numbers them from 0)."""

    @abstractmethod
    def add(self, records: Iterable[GameRecord]) -> list[GameSpec]:
        """Take stored games (any order; INFRA_ERROR ones wait for a replay); the games to play it plans next, in order.

        Games it plans that are among those fed to it are in ``games`` but not returned (stored already).
        """

    @property
    def counted(self) -> Sequence[GameSpec]:
        """The games the league's result rests on (the manifest's ids, the report's games): all planned, unless over."""
        return self.games

    @property
    def over(self) -> bool:
        """Whether the format has stopped before playing all it planned; False for formats that play it all."""
        return False

    takes_results: ClassVar[bool] = True
    """Whether ``add`` looks at the stored games at all (a run of a fixed schedule does not: none is read for it)."""

    @property
    def most_games(self) -> int:
        """The most games it may still plan in all (for the number of workers worth starting): ``games`` by default."""
        return len(self.games)

    def progress(self) -> str:
        """Where it stands, for the progress bar (``LLR 1.2 (-2.94, 2.94), 40 pairs``); "" for nothing to say."""
        return ""

    def closing_lines(self) -> list[str]:
        """What ``league run`` says of it at the end, one line each (the SPRT's verdict, the champion)."""
        return []

    def manifest(self) -> dict[str, Any]:
        """What the folder's manifest keeps of it beside the counted games' ids (for the report), JSON data."""
        return {}

    def final_order(self) -> list[str] | None:
        """The format's own order of the bots, best first (a bracket's placing, Swiss standings), or None."""
        return None


class Format(ABC):
    """One league format (``format: NAME`` in the league file)."""

    name: ClassVar[str]
    """Its name in the league file."""

    report_key: ClassVar[str] = ""
    """The report section that shows it (``league.report``), "" for none of its own."""

    plans_as_it_goes: ClassVar[bool] = False
    """Whether its games depend on results (``planned`` is then the most it may play, not what it will)."""

    keys: ClassVar[dict[str, str]] = {}
    """The league file's keys it alone gives a meaning to, each with what it does for the refusal of another
    format's league (``sprt: only format: sprt runs a sequential test``)."""

    file_keys: ClassVar[tuple[str, ...]] = ()
    """Its keys (``section.key``) that name a path, taken from the league file's folder when relative."""

    qualifies: ClassVar[bool] = False
    """Whether it ranks a whole field, so that its best can go on to finals (``league.plan.formats.finals``)."""

    seeded_finals: ClassVar[bool] = False
    """Whether it can be played as finals: a field of finalists seeded by a qualifier (``seeded_run``)."""

    alone_too: ClassVar[bool] = False
    """Whether a variant that seats one bot alone fits it too, besides its ``seats`` (an SPRT of a solo game)."""

    @abstractmethod
    def seats(self, config: LeagueConfig) -> list[int]:
        """The seat counts its games have (two for pairs, the table sizes, one alone)."""

    def check(self, config: LeagueConfig) -> None:
        """Refuse its keys of the league file when wrong: ``ValueError("KEY: problem; fix")``. Nothing by default."""
        return

    @abstractmethod
    def planned(self, inputs: FormatInputs) -> Schedule:
        """The most it may play, counted and indexed without being built (``league validate`` counts these)."""

    @abstractmethod
    def start(self, inputs: FormatInputs) -> FormatRun:
        """Its play from the first game on; feed it the stored games (``FormatRun.add``) to go on."""

    def check_finals(self, config: LeagueConfig, best: int) -> None:
        """Refuse its keys where it is played as finals of ``best`` (``seeded_finals``); nothing by default."""
        return

    def seeded_run(self, inputs: FormatInputs, seeds: Sequence[str], stage: str) -> FormatRun:
        """Its play as finals: ``seeds`` by seed, top first, its game ids under ``stage`` (``seeded_finals``)."""
        raise NotImplementedError(f"format {self.name} is not played as finals")

    @abstractmethod
    def describe(self, config: LeagueConfig) -> str:
        """Its words in the plan line, after the count of games: ``2 per pair and variant``."""

    def plan_lines(self, inputs: FormatInputs, planned: Sequence[GameSpec]) -> list[str]:
        """Lines of its own below the plan line (indented there by two): a gauntlet's candidates, the balance."""
        return []

    def fewer_games(self, config: LeagueConfig) -> str:
        """How to make its league smaller, in its own key (for ``league validate``'s warnings)."""
        return f"play fewer games (games_per_pair: {config.games_per_pair:,})"


class ScheduledFormat(Format):
    """A format whose schedule is fixed in advance, whatever the results (round robin, gauntlet, tables, solo)."""

    def start(self, inputs: FormatInputs) -> FormatRun:
        """Its schedule, played whole (``ScheduledRun``)."""
        return ScheduledRun(self.planned(inputs))


def registry(formats: Iterable[Format]) -> dict[str, Format]:
    """Formats by name (their names distinct)."""
    found: dict[str, Format] = {}
    for format_ in formats:
        if format_.name in found:
            raise ValueError(f"two formats are named {format_.name}")
        found[format_.name] = format_
    return found


class ScheduledRun(FormatRun):
    """The run of a format that plays a schedule fixed in advance, whatever the results (round robin, tables, solo).

    Args:
        schedule: Its games in schedule order.
    """

    takes_results = False

    def __init__(self, schedule: Sequence[GameSpec]) -> None:
        self._games = list(schedule)

    @property
    def games(self) -> Sequence[GameSpec]:
        """Its whole schedule."""
        return self._games

    def add(self, records: Iterable[GameRecord]) -> list[GameSpec]:
        """Nothing more to plan: its schedule was whole from the start."""
        return []
