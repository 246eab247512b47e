"""The games being played now, each replayed into public frames as its moves come, for the pages that show them.

``LiveGames`` is what a run's ``league.cluster.live_tap.LivePoller`` feeds (its ``LiveSink``): each new game gets
a number (its address on the pages), a ``LiveReplay`` on a thread of its own, and its frames as spectators may see
them: every frame's view and moves pass the game's ``public_view`` and ``public_move`` (``engine/<game>/view.py``)
before they are kept, and its tension is the game's ``public_tension`` where it has one (geister's follows the
true blues), so nothing the rules hide from a player reaches a page. No stderr is ever kept here. A frame is
encoded once, for every page that shows it. The games that ended stay a while (``ENDED_KEPT``), so a page
that follows one sees its end and a broadcast can replay its tense stretch.

A page that follows a game says so (``following``), and the list of games glances at them (``glance``): while
nobody does, ``watched`` is False and the run asks the workers nothing at all.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from league.plan.openings import opening_of
from league.replay.live_replay import LiveReplay
from league.replay.rebuild import Frame, game_for_record, view_module

ENDED_KEPT = 8
"""Games kept after they ended (their frames and result), newest first."""
WATCH_GRACE_S = 3.0
"""How long games stay watched after the last page that followed them went (a reload comes back at once)."""


@dataclass
class LiveGame:
    """One game being played (or just ended), as the pages show it.

    Attributes:
        number: Its number in this run (its page: ``/live/games/NUMBER``).
        game_id: The league's id of the game (its stored record's, once stored).
        game: The game's name (its viewer: ``engine/<game>/viewer.js``).
        seats: The bots' names, seat 0 first.
        variant: The rule variant's name.
        frames: The public frames so far, each encoded once as the JSON the pages send.
        tensions: Each frame's tension, 0 (calm) to 1.
        over: Whether the game has ended (its frames are all there once ``replayed``).
        result: The game's result once over, as its record has it (JSON form); None before, or if it failed.
        dropped: The game stopped without an end (its run stopped, or its worker died): it is played again.
        replayed: The replay has ended: no frame comes any more.
        started: When it was first seen (``time.monotonic``).
    """

    number: int
    game_id: str
    game: str
    seats: list[str]
    variant: str
    frames: list[str] = field(default_factory=list)
    tensions: list[float] = field(default_factory=list)
    over: bool = False
    result: dict[str, Any] | None = None
    dropped: bool = False
    replayed: bool = False
    started: float = field(default_factory=time.monotonic)

    @property
    def finished(self) -> bool:
        """Whether no frame comes any more and how it ended is known: ended (or dropped) and its replay done.

        A replay can end before the run tells that its game did (the rules ended it with the last moves fed).
        """
        return self.replayed and (self.over or self.dropped)

    def summary(self) -> dict[str, Any]:
        """What a list of games shows of it (JSON-ready)."""
        return {
            "number": self.number,
            "game_id": self.game_id,
            "game": self.game,
            "seats": self.seats,
            "variant": self.variant,
            "frames": len(self.frames),
            "tension": self.tensions[-1] if self.tensions else 0.0,
            "over": self.over,
            "dropped": self.dropped,
            "result": public_result(self.result),
        }


def public_result(result: dict[str, Any] | None) -> dict[str, Any] | None:
    """What a page shows of a game's result: scores, ranks, how it ended and its one sentence (no stderr)."""
    if result is None:
        return None
    keys = ("scores", "ranks", "termination", "reason_code", "detail", "plies", "offenders")
    return {key: result[key] for key in keys if key in result}


def encode_frame(view: ModuleType, frame: Frame, tension: float | None = None) -> str:
    """A frame as the pages send it: its public view and moves (``public_view``, ``public_move``), its tension.

    ``tension`` is the public one (``league.replay.live_replay.LiveReplay``); None takes the frame's own.
    """
    tension = frame.tension if tension is None else tension
    data: dict[str, Any] = {
        "view": view.public_view(frame.view),
        "tension": tension,
        "moves": [view.public_move(move, frame.view) for move in frame.moves],
    }
    if frame.opening_end:
        data["opening_end"] = True
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


class LiveGames:
    """The games a run plays now and has just played, replayed into public frames (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)
        self._by_key: dict[str, LiveGame] = {}
        self._replays: dict[str, LiveReplay] = {}
        self._games: dict[int, LiveGame] = {}
        self._ended: list[int] = []
        self._followers = 0
        self._watched_until = 0.0
        self.polls = 0
        """How many times the run has handed moves over (a page that starts the watching waits for the first)."""
        self.changes = 0
        """How many times the list of games has changed (a game came, ended or went): pages compare it."""

    # -- the pages ----------------------------------------------------------------------------------------------

    @property
    def followers(self) -> int:
        """How many pages follow games now."""
        return self._followers

    def watched(self) -> bool:
        """Whether a page follows games now, did a moment ago (``WATCH_GRACE_S``), or glanced at them lately."""
        return self._followers > 0 or time.monotonic() < self._watched_until

    def glance(self, seconds: float) -> None:
        """A page shows the games without following one (the list): they are watched for ``seconds`` more."""
        with self._lock:
            self._watched_until = max(self._watched_until, time.monotonic() + seconds)

    @contextlib.contextmanager
    def following(self) -> Iterator[None]:
        """While a page follows games: the run asks its workers for their moves."""
        with self._lock:
            self._followers += 1
        try:
            yield
        finally:
            with self._lock:
                self._followers -= 1
                self._watched_until = max(self._watched_until, time.monotonic() + WATCH_GRACE_S)

    def games(self) -> list[LiveGame]:
        """The games being played, oldest first, then those that ended, newest first."""
        with self._lock:
            playing = [game for game in self._games.values() if not game.over and not game.dropped]
            ended = [self._games[number] for number in reversed(self._ended) if number in self._games]
        return playing + ended

    def game(self, number: int) -> LiveGame | None:
        """A game by its number, while it is kept."""
        with self._lock:
            return self._games.get(number)

    # -- the run (``LiveSink``) ---------------------------------------------------------------------------------

    def update(self, updates: list[dict[str, Any]]) -> None:
        """New moves of games (``league.cluster.live_tap.WatchedGames.since``), and games gone from every worker."""
        self.polls += 1
        for update in updates:
            key = update["key"]
            if update.get("gone"):
                self._gone(key)
                continue
            replay = self._replays.get(key)
            if replay is None:
                if "played" not in update:
                    continue  # a game first seen ended and forgotten meanwhile
                replay = self._start(key, update["played"])
            replay.add(update["moves"])
            if update["over"]:
                self._over(key, update.get("result"))

    def _start(self, key: str, played: dict[str, Any]) -> LiveReplay:
        spec = played["spec"]
        game = game_for_record(spec["game"], played["rules"])
        view = view_module(spec["game"])
        live = LiveGame(next(self._numbers), spec["game_id"], spec["game"], list(spec["seats"]), spec["variant"])

        def on_frame(frame: Frame, tension: float) -> None:
            encoded = encode_frame(view, frame, tension)
            live.tensions.append(tension)
            live.frames.append(encoded)

        def on_end(_result: dict[str, Any]) -> None:
            live.replayed = True
            self.changes += 1

        opening = opening_of(spec.get("opening"), spec["seed"])
        replay = LiveReplay(game, len(spec["seats"]), spec["seed"], opening, on_frame, on_end)
        with self._lock:
            self._by_key[key] = live
            self._replays[key] = replay
            self._games[live.number] = live
            self.changes += 1
        replay.start()
        return replay

    def _over(self, key: str, result: dict[str, Any] | None) -> None:
        with self._lock:
            live, replay = self._by_key.pop(key, None), self._replays.pop(key, None)
            if live is None or replay is None:
                return
            live.over, live.result = True, result
            live.dropped = result is None
            self._keep_ended(live)
        replay.close(complete=result is not None)

    def _gone(self, key: str) -> None:
        with self._lock:
            live, replay = self._by_key.pop(key, None), self._replays.pop(key, None)
            if live is None or replay is None:
                return
            live.dropped = True
            self._keep_ended(live)
        replay.close(complete=False)

    def _keep_ended(self, live: LiveGame) -> None:
        """(Holding the lock.) The game joins those that ended; the oldest beyond ``ENDED_KEPT`` are forgotten."""
        self._ended.append(live.number)
        while len(self._ended) > ENDED_KEPT:
            self._games.pop(self._ended.pop(0), None)
        self.changes += 1
