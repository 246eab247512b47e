"""What a league will take before it runs: its games counted, a few of them played here, scaled up.

``league validate`` never builds a league's schedule: its format's ``planned`` (``league.plan.formats``) gives it as a
``league.plan.schedule.Schedule``, which counts its games and makes only those asked for, so a league of
millions of games is told in a moment and in little memory. ``estimate`` plays a sample of its games
(one from each of a few pairings and variants, from rounds spread over the schedule: one game a bot
would miss the pairing whose games are long) and scales their times and their stored records up to
the whole league: the time at the league's concurrency and the bytes of ``games.jsonl`` and
``moves.jsonl``, told in units people read, with a warning for a league past a day or past its disk.
Each sample game is also shown to ``on_game``: ``league.report.replay_size`` builds its replay
page there, to add the report's replay pages to the estimate.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core import plural
from league.plan.config import League
from league.plan.formats import league_format
from league.plan.schedule import Schedule
from league.store.results import split_record

SAMPLE_GAMES = 12
"""The most games ``league validate`` plays to estimate a league."""
SAMPLE_BUDGET_S = 120.0
"""After this many seconds of sample games no further one is started (the estimate says so)."""
LONG_LEAGUE_S = 24 * 3600.0
"""A league expected to take longer than this is warned about."""
LOG_OFFSET = 10**10
"""A typical offset into the move log, as a results line's ``log`` pointer spells it (its length counts)."""


@dataclass(frozen=True)
class Estimate:
    """What a league will take, scaled up from its sample games.

    Attributes:
        seconds: Wall time at the league's concurrency.
        games_bytes: Bytes of ``games.jsonl`` (the results).
        moves_bytes: Bytes of ``moves.jsonl`` (the move log).
        played: Sample games played.
        planned: Sample games planned (more than ``played`` when the time allowed ran out).
        games: Games in the league.
        workers: The league's concurrency.
        budget_s: Seconds after which no sample game was started.
        replays_bytes: Bytes of the report's ``replays/`` (the games' pages and ``highlights.html``);
            None where they were not counted (``league.report.replay_size`` counts them).
        replay_pages: The games' replay pages the report writes (``highlights.html`` not counted).
    """

    seconds: float
    games_bytes: float
    moves_bytes: float
    played: int
    planned: int
    games: int
    workers: int
    budget_s: float = SAMPLE_BUDGET_S
    replays_bytes: float | None = None
    replay_pages: int = 0

    @property
    def folder_bytes(self) -> float:
        """Bytes of the store and the replay pages: most of the report folder (its report, tables and charts aside)."""
        return self.games_bytes + self.moves_bytes + (self.replays_bytes or 0.0)

    def lines(self) -> list[str]:
        """The estimate for people: the time, the store's size and the replay pages' size, each on one line."""
        sampled = f"from {plural(self.played, 'sample game')} spread over the schedule"
        if self.played < self.planned:
            sampled = (
                f"from {self.played} of {self.planned} sample games (no more were started after"
                f" {duration(self.budget_s)}: the games of the pairings and variants not sampled may take longer)"
            )
        store = self.games_bytes + self.moves_bytes
        lines = [
            f"estimated time: about {duration(self.seconds)} with {plural(self.workers, 'worker')}, {sampled}",
            f"estimated store: about {size(store)} (games.jsonl {size(self.games_bytes)},"
            f" moves.jsonl {size(self.moves_bytes)})",
        ]
        if self.replays_bytes is None:
            return lines
        return [
            *lines,
            f"estimated replay pages: about {size(self.replays_bytes)} ({plural(self.replay_pages, 'game page')} and"
            f" highlights.html in replays/); with the store, {size(self.folder_bytes)} of the report folder (its"
            " report, tables and charts aside)",
        ]

    def warnings(self, league: League) -> list[str]:
        """One line each for a league past a day, and for a store larger than the free space of its disk."""
        out = []
        if self.seconds > LONG_LEAGUE_S:
            out.append(
                f"this league would take about {duration(self.seconds)} ({self.games:,} games with"
                f" {plural(self.workers, 'worker')}); {_fewer_games(league)}, or run it on a cluster"
                " (`league run --address`)"
            )
        free = free_bytes(league.output)
        store = self.folder_bytes
        if free is not None and store > free:
            out.append(
                f"its store{' and replay pages' if self.replays_bytes is not None else ''} would take about"
                f" {size(store)}, more than the {size(free)} free on the"
                f" disk of {league.output}; {_fewer_games(league)}, or choose another output: folder"
            )
        return out


def _fewer_games(league: League) -> str:
    """How to make a league smaller, in its own format's key (``Format.fewer_games``)."""
    return league_format(league.config).fewer_games(league.config)


def estimate(
    league: League,
    schedule: Schedule,
    samples: int = SAMPLE_GAMES,
    budget_s: float = SAMPLE_BUDGET_S,
    on_start: Callable[[int], None] | None = None,
    on_game: Callable[[dict[str, Any], float], None] | None = None,
) -> Estimate:
    """Play a sample of ``schedule`` here, one game at a time, and scale its times and records up.

    Args:
        league: The league.
        schedule: Its schedule (``planned_schedule``).
        samples: The most sample games (``Schedule.sample``).
        budget_s: No sample game is started after this many seconds (one is always played).
        on_start: Called with the number of sample games planned, before the first is played.
        on_game: Called with each sample game's record and the number of the league's games it stands for.
    """
    from league.cluster.runner import league_setup
    from league.cluster.worker import play_game

    setup = league_setup(league)
    picks = schedule.sample(samples)
    if on_start is not None:
        on_start(len(picks))
    started = time.monotonic()
    seconds = games_bytes = moves_bytes = weights = 0.0
    played = 0
    for spec, weight in picks:
        if played and time.monotonic() - started > budget_s:
            break
        begun = time.monotonic()
        record = play_game(spec.to_json(), setup)
        seconds += (time.monotonic() - begun) * weight
        results, log = stored_bytes(record)
        games_bytes += results * weight
        moves_bytes += log * weight
        if on_game is not None:
            on_game(record, weight)
        weights += weight
        played += 1
    scale = len(schedule) / weights if weights else 0.0
    workers = league.config.concurrency
    return Estimate(
        seconds * scale / workers,
        games_bytes * scale,
        moves_bytes * scale,
        played,
        len(picks),
        len(schedule),
        workers,
        budget_s,
    )


def stored_bytes(record: dict[str, Any]) -> tuple[int, int]:
    """The bytes a game's record takes in ``games.jsonl`` and in ``moves.jsonl``, as the store writes them."""
    results, rest = split_record(record)
    log = len(_line(rest)) if rest is not None else 0
    if rest is not None:
        results = results.with_log([LOG_OFFSET, log])
    return len(_line(results.to_json())), log


def _line(data: dict[str, Any]) -> bytes:
    """A store line (``league.store.results``: compact JSON and a newline)."""
    return json.dumps(data, separators=(",", ":")).encode() + b"\n"


def free_bytes(folder: Path) -> int | None:
    """The free bytes of the disk holding ``folder`` (or the nearest folder above it that exists); None if unknown."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    try:
        return shutil.disk_usage(existing).free
    except OSError:
        return None


def duration(seconds: float) -> str:
    """A time for people: ``45 s``, ``12 minutes``, ``3.4 hours``, ``102 days``, ``24 years``."""
    for unit, length, above in (("years", 365.25 * 86400, 730 * 86400), ("days", 86400, 36 * 3600)):
        if seconds >= above:
            return f"{_figure(seconds / length)} {unit}"
    if seconds >= 90 * 60:
        return f"{_figure(seconds / 3600)} hours"
    if seconds >= 90:
        return f"{_figure(seconds / 60)} minutes"
    return f"{max(1, round(seconds))} s"


def size(count: float) -> str:
    """Bytes for people: ``512 bytes``, ``4.1 kB``, ``38 MB``, ``1.2 TB`` (powers of 1000)."""
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= scale:
            return f"{_figure(count / scale)} {unit}"
    return f"{round(count)} bytes"


def _figure(value: float) -> str:
    """A figure of two or three significant digits: ``3.4``, ``12``, ``102``, ``1,250``."""
    return f"{value:.1f}" if value < 9.95 else f"{round(value):,}"
