"""The league a contest plays, played on and on: started again on its new field whenever an entry changes.

One daemon thread runs ``league.cluster.runner.run_league`` on the league of the house bots and the
entries (``league.contest.field``). When an entry changes (a new valid version), the run is stopped
(its games in flight are dropped, what is stored stays) and started again on the new field: every stored
game of a pair that did not change keeps its id, so nothing is played twice, and a new version starts
with its warm-up. When the format's play is over (an adaptive league settled, a round robin played), the
loop waits for the next change. The league's seed stays secret while the contest runs (``publish=False``):
later versions play on it.

Ray is started by the caller (``Contest.start``, on the main thread) and outlives each run.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from league.cluster.live_tap import LiveSink
from league.cluster.runner import RunSummary, run_league
from league.contest.field import FieldError, field_league
from league.contest.model import Submission
from league.plan.config import ConfigError, League
from league.plan.formats.base import FormatRun
from league.store.results import StoreBusy, StoreWriteError

RETRY_S = 5.0
"""How long the loop waits before trying again after a run that could not start (a busy store, a full disk)."""


@dataclass
class PlayState:
    """Where the contest's play stands (read by the board; replaced whole, never changed in place).

    Attributes:
        league: The league played now, None before the first field is read.
        run: Its format's play, None before it started.
        stored: Games stored of its schedule, as the runner last told.
        total: Games of its schedule so far.
        sentence: What the loop is doing, for people.
        playing: Whether a run is going on now.
    """

    league: League | None = None
    run: FormatRun | None = None
    stored: int = 0
    total: int = 0
    sentence: str = "starting"
    playing: bool = False


class PlayLoop:
    """Plays the contest's league on its current field, in a thread of its own.

    Args:
        path: The league file.
        entries: Gives the entries now (per author, their newest valid version).
        on_change: Called with the new state after each stored batch of games and each change of field or state.
        address: A Ray cluster's address, or None for the local cluster the caller started.
        live: Where the games being played go while a page watches them (``league.live.games.LiveGames``).
    """

    def __init__(
        self,
        path: Path,
        entries: Callable[[], Mapping[str, Submission]],
        on_change: Callable[[PlayState], None],
        address: str | None = None,
        live: LiveSink | None = None,
    ) -> None:
        self.path = path
        self.live = live
        self.entries = entries
        self.on_change = on_change
        self.address = address
        self.state = PlayState()
        self.runs = 0
        """Runs started so far (one per field, and one after each restart of the contest)."""
        self._interrupt = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="contest-play", daemon=True)

    def start(self) -> None:
        """Start playing."""
        self._thread.start()

    def field_changed(self) -> None:
        """An entry changed: stop the run (if any) and start one on the new field."""
        self._interrupt.set()

    def stop(self, timeout: float = 60.0) -> None:
        """Stop the run (the games in flight are dropped, what is stored stays) and the thread."""
        self._stopping.set()
        self._interrupt.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _loop(self) -> None:
        while not self._stopping.is_set():
            self._interrupt.clear()
            try:
                wait = self._play_once()
            except Exception as error:  # noqa: BLE001 - the loop goes on; the organiser's page shows what happened
                self._tell(PlayState(sentence=f"the contest could not play ({_said(error)}); trying again"))
                wait = RETRY_S
            if self._stopping.is_set():
                break
            self._interrupt.wait(wait)  # a new entry, a stop, or the time to try again

    def _play_once(self) -> float | None:
        """One run on the current field; how long to wait before the next (None: until the field changes)."""
        try:
            league = field_league(self.path, self.entries())
        except (ConfigError, FieldError) as error:
            self._tell(PlayState(sentence=f"cannot play: {error}"))
            return None
        self.runs += 1
        self._tell(PlayState(league=league, sentence="starting the league's run", playing=True))
        try:
            summary = run_league(
                league,
                self.address,
                on_progress=lambda stored, total: self._progress(league, stored, total),
                on_run=lambda run: self._with_run(league, run),
                stop=self._interrupt,
                publish=False,
                live=self.live,
            )
        except (StoreBusy, StoreWriteError) as error:
            self._tell(PlayState(league=league, sentence=f"paused: {error}; trying again in {RETRY_S:g} s"))
            return RETRY_S
        except Exception as error:  # noqa: BLE001 - the loop goes on; the organiser's page shows what happened
            self._tell(
                PlayState(league=league, sentence=f"the run failed ({_said(error)}); trying again in {RETRY_S:g} s")
            )
            return RETRY_S
        self._tell(self._ended(league, summary))
        return None

    def _ended(self, league: League, summary: RunSummary) -> PlayState:
        """The state after a run: stopped for a new field, or over and waiting for one."""
        run = summary.run
        if summary.interrupted:
            sentence = "a new version arrived: the league starts again on the new field"
        elif run is not None and run.over:
            sentence = f"{' '.join(run.closing_lines())} Waiting for a new version."
        else:
            sentence = "every game of the league is played; waiting for a new version"
        stored = summary.skipped + summary.played
        return PlayState(league, run, stored, summary.total, sentence, playing=False)

    def _with_run(self, league: League, run: FormatRun) -> None:
        state = self.state
        self._tell(PlayState(league, run, state.stored, state.total, f"playing: {run.progress()}", playing=True))

    def _progress(self, league: League, stored: int, total: int) -> None:
        state = self.state
        progress = state.run.progress() if state.run is not None else ""
        sentence = f"playing: {stored} of {total} games stored" + (f", {progress}" if progress else "")
        self._tell(PlayState(league, state.run, stored, total, sentence, playing=True))

    def _tell(self, state: PlayState) -> None:
        self.state = state
        self.on_change(state)


def _said(error: Exception) -> str:
    """An unexpected error as one line (its type and message)."""
    return traceback.format_exception_only(error)[-1].strip()
