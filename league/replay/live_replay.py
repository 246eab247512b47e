"""A game replayed while it is played: its frames as its moves come, by the replays' own referee.

``league.replay.rebuild`` replays a stored game from all its moves at once. A game being played has only
the moves judged so far (``league.cluster.live_tap``); ``LiveReplay`` runs the same ``ReplayReferee`` on a
thread of its own, each seat's process a ``LiveTransport`` that waits, wherever the referee needs the seat's
next reply (or silence), until that move has come. Every decision of the replay rests on a move the real
referee judged, so the frames are those the stored game's replay shows, in the same order, each as soon as
its moves are in. A feed closed before its game ended (the game was dropped) lets the replay run out on
silences: its last frames then say nothing true, and ``LiveReplay.complete`` is False.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from engine.core import Game, ProcessKey, State
from engine.openings import Opening
from league.replay.rebuild import Frame, RecordedTransport, ReplayReferee, StoredMove, VirtualClock, view_module
from sandbox.transport import Transport

WAIT_SLICE_S = 1.0
"""How long a transport waits on the feed at a time (it waits on until the move comes or the feed closes)."""


class MoveFeed:
    """The moves of a game as they come, sorted into each seat-role's queue; the replay's transports wait on it."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._queues: dict[tuple[int, str], deque[StoredMove]] = {}
        self.closed = False
        self.count = 0
        """Moves fed so far."""

    def queue(self, seat: int, role: str) -> deque[StoredMove]:
        """The seat-role's moves still to come (shared by its processes in turn, as a replay's are)."""
        with self._changed:
            return self._queues.setdefault((seat, role), deque())

    def add(self, moves: Sequence[Sequence[Any]]) -> None:
        """More moves, in the order judged, as the store keeps them (``league.cluster.worker.stored_move``)."""
        with self._changed:
            for data in moves:
                move = StoredMove.from_stored(data)
                self._queues.setdefault((move.seat, move.role), deque()).append(move)
            self.count += len(moves)
            self._changed.notify_all()

    def close(self) -> None:
        """No more moves will come (the game ended, or it was dropped)."""
        with self._changed:
            self.closed = True
            self._changed.notify_all()

    def wait_for(self, queue: deque[StoredMove]) -> None:
        """Return once ``queue`` has a move or the feed is closed."""
        with self._changed:
            while not queue and not self.closed:
                self._changed.wait(WAIT_SLICE_S)


class LiveTransport(RecordedTransport):
    """A seat's process in a live replay: a recorded one whose next reply may not have come yet.

    Wherever the replay asks when the seat's next reply (or silence) comes, it first waits for that move.
    """

    def __init__(self, queue: deque[StoredMove], clock: VirtualClock, feed: MoveFeed) -> None:
        super().__init__(queue, clock)
        self.feed = feed

    def _await_move(self) -> None:
        if self.owed and not self.ended and not self.queue:
            self.feed.wait_for(self.queue)

    def due_ns(self) -> int | None:
        self._await_move()
        return super().due_ns()

    def silent_until_ns(self) -> int | None:
        self._await_move()
        return super().silent_until_ns()


class _LiveReferee(ReplayReferee):
    """The replay's referee, telling each new frame as it is kept, with its public tension."""

    def __init__(self, *args: Any, on_frame: Callable[[Frame, float], None], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.on_frame = on_frame
        self.public_tension = getattr(self.view, "public_tension", self.view.tension)

    def _capture(self, state: State, first: bool = False) -> None:
        before = len(self.frames)
        super()._capture(state, first)
        if len(self.frames) > before:
            self.on_frame(self.frames[-1], round(float(self.public_tension(state)), 4))


class LiveReplay:
    """One game replayed on a thread of its own while its moves are fed.

    Args:
        game: The game with the variant's parameters it is played under.
        seats: How many seats it has.
        seed: The match seed.
        opening: What it starts from (``league.plan.openings.opening_of`` of its spec), or None.
        on_frame: Called on the replay's thread with each new frame and its tension as a spectator can know it
            (the view's ``public_tension`` where the game hides something its ``tension`` follows, else the
            frame's own); it must return at once.
        on_end: Called on the replay's thread once the replay has ended, with the replayed result (JSON form).
    """

    def __init__(
        self,
        game: Game,
        seats: int,
        seed: int,
        opening: Opening | None,
        on_frame: Callable[[Frame, float], None],
        on_end: Callable[[dict[str, Any]], None],
    ) -> None:
        self.feed = MoveFeed()
        self.view = view_module(type(game).name)
        clock = VirtualClock()

        def launcher(_seat: int) -> Callable[[ProcessKey], Transport]:
            def launch(key: ProcessKey) -> Transport:
                return LiveTransport(self.feed.queue(key.seat, key.role), clock, self.feed)

            return launch

        self._referee = _LiveReferee(
            game, [launcher(seat) for seat in range(seats)], seed, self.view, clock, None, opening, on_frame=on_frame
        )
        self._on_end = on_end
        self.complete = False
        """Whether the replay ended with its game's moves all fed before the feed closed (its frames are true)."""
        self.failure = ""
        """Why the replay failed (a bug of ours: the frames stop there), or empty."""
        self._thread = threading.Thread(target=self._run, name="live-replay", daemon=True)

    def start(self) -> None:
        """Start replaying (the frames come as the moves are fed)."""
        self._thread.start()

    def add(self, moves: Sequence[Sequence[Any]]) -> None:
        """More moves of the game, in the order judged."""
        self.feed.add(moves)

    def close(self, complete: bool) -> None:
        """No more moves: the game ended (``complete``) or was dropped."""
        self.complete = complete
        self.feed.close()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the replay to end."""
        self._thread.join(timeout)

    @property
    def frames(self) -> list[Frame]:
        """The frames kept so far."""
        return self._referee.frames

    def _run(self) -> None:
        result: dict[str, Any] = {}
        try:
            match = self._referee.play()
            if self._referee.last_state is not None:
                self._referee.finish(self._referee.last_state)  # its frame is told as every other
            result = match.result.to_json()
        except Exception as error:  # noqa: BLE001 - a replay's failure stops its frames, never the league
            self.failure = f"{type(error).__name__}: {error}".splitlines()[0]
        finally:
            self.feed.close()
            self._on_end(result)
