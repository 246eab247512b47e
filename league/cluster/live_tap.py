"""Games followed while they are played: the moves each worker's referee has judged, asked for while someone watches.

A worker keeps, for each game it plays and the few it has just played (``WatchedGames``), what the record will
say of it (``as_played``) and its referee's own list of moves: the referee does nothing more for a watcher, and
nothing at all is sent while no one watches. The driver's ``LivePoller`` asks every worker, every ``POLL_S``
while its sink says someone watches, for the moves each game has had since those it already has (a cursor a
game), and hands them to the sink (``league.live.games.LiveGames``), which replays them into frames. A worker
answers on a thread of its own (``GameWorker.live``), so a game is never held up by the asking.

Each game a worker starts has a key of its own (its host, process and a count): a game taken over by an idle
worker (``league.cluster.pool``) is two games here until one of them ends.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import socket
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import ray

from league.cluster.worker import stored_move
from league.match.record import Move

POLL_S = 0.2
"""How often the driver asks the workers for new moves while someone watches."""
ANSWER_WAIT_S = 5.0
"""How long one round of asking waits for the workers' answers (a worker that died answers never)."""
FINISHED_KEPT = 4
"""Games a worker keeps after they end, so that their last moves are asked for before they are forgotten."""


@dataclass
class _Watched:
    key: str
    played: dict[str, Any]
    moves: list[Move]
    over: bool = False
    result: dict[str, Any] | None = None


class WatchedGames:
    """The games a worker plays now and has just played, with their referees' moves (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[str, _Watched] = {}
        self._ended: deque[str] = deque()
        self._count = itertools.count()
        self._prefix = f"{socket.gethostname()}:{os.getpid()}:"

    def next_key(self) -> str:
        """A key for the next game this worker plays."""
        return f"{self._prefix}{next(self._count)}"

    def add(self, key: str, played: dict[str, Any], moves: list[Move]) -> None:
        """A game whose referee starts now: what its record says of it (``as_played``) and the referee's moves."""
        with self._lock:
            self._games[key] = _Watched(key, played, moves)

    def end(self, key: str, result: dict[str, Any] | None) -> None:
        """The game has ended with ``result`` (None: it failed): its moves are all there; the oldest ended go."""
        with self._lock:
            game = self._games.get(key)
            if game is None:
                return
            game.over, game.result = True, result
            self._ended.append(key)
            while len(self._ended) > FINISHED_KEPT:
                self._games.pop(self._ended.popleft(), None)

    def since(self, cursors: dict[str, int]) -> list[dict[str, Any]]:
        """Each game's moves after the first ``cursors[key]`` (all, for a game not in ``cursors``).

        Returns:
            One update a game: ``key``, ``start`` (the index of its first move), ``moves`` (as the store keeps
            them, ``stored_move``), ``over`` (with the record's ``result`` once over: None for a game that failed
            for a reason of ours), and for a game not in ``cursors`` what its record says of it
            (``played``: its spec naming the game, its rules). A move in the referee's list is final: the
            referee adds it once judged (``league.match.referee``).
        """
        with self._lock:
            games = list(self._games.values())
        updates = []
        for game in games:
            over, result = game.over, game.result  # read first: every move added before it ended is read next
            start = cursors.get(game.key, 0)
            update: dict[str, Any] = {
                "key": game.key,
                "start": start,
                "moves": [stored_move(move) for move in game.moves[start:]],
                "over": over,
                **({"result": result} if over else {}),
            }
            if game.key not in cursors:
                update["played"] = game.played
            updates.append(update)
        return updates


class LiveSink(Protocol):
    """Where followed games go (``league.live.games.LiveGames``)."""

    def watched(self) -> bool:
        """Whether anyone watches now (while no one does, nothing is asked)."""
        ...

    def update(self, updates: list[dict[str, Any]]) -> None:
        """New moves of games (``WatchedGames.since``), and ``{"key", "gone": True}`` for a game no worker has."""
        ...


class LivePoller:
    """Asks the workers for their games' new moves while someone watches, on a thread of its own.

    Args:
        actors: The started workers' actors now (``WorkerPool.actors``).
        sink: Where the moves go.
    """

    def __init__(self, actors: Callable[[], list[Any]], sink: LiveSink) -> None:
        self.actors = actors
        self.sink = sink
        self._cursors: dict[str, int] = {}
        self._owners: dict[str, Any] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="live-poller", daemon=True)

    def start(self) -> None:
        """Start asking."""
        self._thread.start()

    def stop(self) -> None:
        """Stop asking, after a last round while someone watches (so the games that ended meanwhile end).

        The games still followed then are told gone: the run stopped with them in flight (they are played again).
        """
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(ANSWER_WAIT_S + 1)
        if self.sink.watched():
            with contextlib.suppress(Exception):
                self.poll()
        self.sink.update([{"key": key, "gone": True} for key in self._owners])
        self._cursors.clear()
        self._owners.clear()

    def _run(self) -> None:
        while not self._stop.wait(POLL_S):
            if self.sink.watched():
                with contextlib.suppress(Exception):  # Ray going down with the run: the next round, or none
                    self.poll()

    def poll(self) -> None:
        """One round: every worker asked, every answer handed to the sink, games their workers no longer have gone.

        A game is gone when the worker that played it answered without it, or is no longer among the workers
        (it died); a worker that does not answer in time keeps its games for the next round.
        """
        actors = self.actors()
        asked = {actor.live.remote(dict(self._cursors)): actor for actor in actors}
        if not asked:
            return
        ready, _ = ray.wait(list(asked), num_returns=len(asked), timeout=ANSWER_WAIT_S)
        updates: list[dict[str, Any]] = []
        answered: set[Any] = set()
        for ref in ready:
            with contextlib.suppress(Exception):  # a worker that died meanwhile: its games go with it
                answer = ray.get(ref)
                answered.add(asked[ref])
                updates += answer
                for update in answer:
                    self._owners[update["key"]] = asked[ref]
        for update in updates:
            self._cursors[update["key"]] = update["start"] + len(update["moves"])
        seen = {update["key"] for update in updates}
        gone = [
            key
            for key, owner in self._owners.items()
            if key not in seen and (owner in answered or all(owner is not actor for actor in actors))
        ]
        for key in gone:
            self._cursors.pop(key, None)
            del self._owners[key]
        self.sink.update(updates + [{"key": key, "gone": True} for key in gone])
