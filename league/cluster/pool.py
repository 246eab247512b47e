"""Long-lived Ray worker actors that play a league's games: Ray's cost is paid once a worker, not once a game.

A run starts one ``GameWorker`` actor per game at once (``concurrency`` of them, one CPU each)
and keeps them to its end. A worker keeps what every game shares warm: its process and imports,
the league's setup (put in Ray's object store once) and a sandbox whose probes ran once. It plays
one game a call, in the order given. ``WorkerPool``, on the driver, keeps up to
``CALLS_PER_WORKER`` games on each worker (one playing, the others queued behind it), so a worker
goes from one game to the next without waiting for the driver and its fsynced store writes, and
hands each game back the moment it finishes. An actor call skips what a task pays each time
(scheduling, leasing a worker, shipping the function).

Faults. A worker that dies (its process killed, its node lost) fails every game it held: those
it had finished come back as usual, the others come back unplayed, and only the first of them
(the one it was playing) has used a try. A new worker takes the dead one's place once it has
started; until then, or for ever on a cluster that lost the node's CPUs, the others play on. A
worker that fails to start ``START_TRIES`` times in a row is given up; when every one is, the pool
is ``broken`` and says why.

The end of a league. When no game is left to hand out, a worker with nothing to play takes over
a game queued on a busy one, so that a league does not end with one worker's queue while the
others wait: the queued call is cancelled (Ray skips it when the worker reaches it; a call already
begun plays to its end) and the game handed to the idle worker. Should both play it, the first
record back counts and the other is dropped: a game comes back once.

The driver's cost per game does not grow with the workers (``benchmarks/driver_scaling.py``).
Ray tells the pool of each call that comes back (a callback on the call's future puts it in a
queue): ``wait`` takes what is in the queue instead of asking ``ray.wait`` about every call out,
whose cost grows with the calls out. The workers that may take a game are kept in a heap by
their games (least first, then slot), the ones with a game queued in a heap by their games (most
first), so that ``submit`` and ``rebalance`` find theirs without looking at every worker.
"""

from __future__ import annotations

import contextlib
import functools
import heapq
import queue
import time
from collections import deque
from concurrent import futures
from dataclasses import dataclass, field
from typing import Any

import ray
from ray.exceptions import RayActorError, TaskCancelledError

from league.cluster.live_tap import WatchedGames
from league.cluster.worker import LeagueSetup, failure_detail, infra_record, play_game
from league.plan.game_spec import GameSpec
from league.store.results import INFRA_ERROR
from sandbox.jail import Sandbox
from sandbox.limits import Limits, SandboxMode

CALLS_PER_WORKER = 3
"""Games handed to one worker at once: the one it plays and two queued (enough to cover the driver's fsyncs)."""
START_TRIES = 3
"""Failed starts in a row after which a worker is given up."""
DEAD_WORKER_GRACE_S = 30.0
"""How long the games of a dead worker may take to come back (they fail together, at once in practice)."""
HEAP_SLACK = 4
"""A heap of workers is rebuilt from the workers once it holds this many places a worker (most of them stale)."""


class GameWorker:
    """One worker process's state between games: the league's setup and a sandbox made once.

    Plain Python (``WorkerPool`` makes it a Ray actor), so it can be tried without Ray. Its ``live`` answers
    on a thread of its own (the actor's ``live`` concurrency group) while ``play`` plays, one game at a time.

    Args:
        setup: What every game of the league needs besides its spec.
    """

    def __init__(self, setup: LeagueSetup) -> None:
        self.setup = setup
        self.sandbox: Sandbox | None = None
        self.node = {"node": ray.get_runtime_context().get_node_id()[:12]} if ray.is_initialized() else {}
        self.games = WatchedGames()

    def ready(self) -> bool:
        """Answer once started (the driver hands a worker games only then)."""
        return True

    def play(self, spec: dict[str, Any]) -> dict[str, Any]:
        """Play one game (``league.cluster.worker.play_game``) with this worker's sandbox; its record names the node.

        The node is the first 12 hex digits of its Ray id (none outside Ray). While it plays, ``live`` can tell
        its moves so far.
        """
        if self.sandbox is None:
            with contextlib.suppress(Exception):  # a sandbox that cannot be made is told by each game's record
                self.sandbox = Sandbox(SandboxMode(self.setup.sandbox), Limits(**self.setup.limits))
        key = self.games.next_key()
        record = None
        try:
            record = play_game(spec, self.setup, self.sandbox, functools.partial(self.games.add, key))
            return {**record, **self.node}
        finally:
            self.games.end(key, record["result"] if record is not None else None)

    @ray.method(concurrency_group="live")
    def live(self, cursors: dict[str, int]) -> list[dict[str, Any]]:
        """The games this worker plays now and has just played: ``WatchedGames.since``."""
        return self.games.since(cursors)


@dataclass(frozen=True)
class Outcome:
    """What came back for one game handed to the pool (one a game, whoever played it).

    Attributes:
        spec: The game.
        record: Its record (an ``INFRA_ERROR`` one when it failed for a reason of ours), or None when
            it came back unplayed: its worker died (or, rarer, it was cancelled on a busy worker for an
            idle one to take over, and the idle one failed to play it).
        detail: Why it came back unplayed.
        tried: It was being played when its worker died: that counts as one of its tries.
    """

    spec: GameSpec
    record: dict[str, Any] | None
    detail: str = ""
    tried: bool = False


@dataclass(eq=False)
class _Worker:
    """One worker's place in the pool: its actor (the latest, after a death) and the games handed to it."""

    slot: int
    actor: Any = None
    ready: bool = False
    given_up: bool = False
    failed_starts: int = 0
    calls: deque[_Call] = field(default_factory=deque)

    def load(self) -> int:
        """Games it still has to play (a game taken over by another worker is not one)."""
        return sum(1 for call in self.calls if not call.taken_over)


@dataclass(eq=False)
class _Call:
    """One game handed to one worker."""

    ref: Any
    future: futures.Future[Any]
    """The call's result (or error) once Ray has it."""
    spec: GameSpec
    worker: _Worker
    taken_over: bool = False
    """Cancelled here (skipped when the worker reaches it): ``twin``, on an idle worker, plays the game."""
    twin: _Call | None = None
    """The other call of the same game while both are out; the first played counts."""
    dropped: bool = False
    """Its twin's record counts: whatever comes back here is dropped."""


class WorkerPool:
    """``size`` worker actors and the games handed to them (use it as a context manager: it kills them at the end).

    Args:
        setup: What every game of the league needs besides its spec.
        size: Workers, that is games played at once.
        actor_class: What makes a worker's actor (``.remote(setup_ref)``); by default a ``GameWorker``
            actor of one CPU. A benchmark gives a stand-in that plays no game.
    """

    def __init__(self, setup: LeagueSetup, size: int, actor_class: Any = None) -> None:
        self._actor_class = actor_class or ray.remote(
            num_cpus=1, max_restarts=0, max_task_retries=0, concurrency_groups={"live": 1}
        )(GameWorker)
        self._setup_ref = ray.put(setup)
        self._calls: dict[Any, _Call] = {}
        self._starting: dict[Any, tuple[_Worker, futures.Future[Any]]] = {}
        self._arrived: queue.SimpleQueue[Any] = queue.SimpleQueue()
        """The refs of calls (and of workers' starts) whose result Ray has, in the order they came."""
        self._open: list[tuple[int, int]] = []
        """(games, slot) of started workers with room for a game; stale places (games since changed) are skipped."""
        self._loaded: list[tuple[int, int]] = []
        """(-games, slot) of started workers with a game queued; stale places are skipped."""
        self._ready_count = 0
        self._given_up_count = 0
        self.ready_at: float | None = None
        """When (``time.monotonic``) every worker had first answered; None until then."""
        self.start_failure = ""
        """Why the last worker that failed to start failed."""
        self._workers = [_Worker(slot) for slot in range(size)]
        for worker in self._workers:
            self._start(worker)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Kill every worker (games still on them are dropped: the next run plays them)."""
        for worker in self._workers:
            with contextlib.suppress(Exception):  # already dead, or Ray is going down
                ray.kill(worker.actor, no_restart=True)
        self._calls.clear()
        self._starting.clear()

    def actors(self) -> list[Any]:
        """The workers' actors that have started (``league.cluster.live_tap`` asks them what they play)."""
        return [worker.actor for worker in self._workers if worker.ready]

    def busy(self) -> bool:
        """Whether games handed to the pool have not all come back."""
        return bool(self._calls)

    def broken(self) -> bool:
        """Whether no worker is left to play: every one failed to start too often (``start_failure`` says why)."""
        return self._given_up_count == len(self._workers)

    def submit(self, spec: GameSpec) -> bool:
        """Hand a game to the started worker with the fewest games; False when every one has enough."""
        worker = self._least_loaded()
        if worker is None:
            return False
        self._call(worker, spec)
        return True

    def rebalance(self) -> None:
        """With no game left to hand out: each idle worker takes over a game queued on the busiest worker.

        The queued call is cancelled (a worker skips a cancelled call when it reaches it; one it has
        begun is played to its end and its record dropped) and the game handed to the idle worker;
        should both be played, the first record back counts and the other is dropped.
        """
        while (idle := self._least_loaded()) is not None and not idle.load():
            busiest = self._most_loaded()
            if busiest is None:
                return
            call = _queued(busiest)[-1]
            call.taken_over = True
            self._place(busiest)
            with contextlib.suppress(Exception):  # it came back meanwhile: its twin's record is dropped
                ray.cancel(call.ref)
            call.twin = self._call(idle, call.spec)
            call.twin.twin = call

    def wait(self) -> list[Outcome]:
        """Wait until something comes back; every game that has (maybe none: a worker started).

        Takes every call Ray has told of since the last wait, so that games that came back together
        are stored together.
        """
        if not self._calls and not self._starting:
            return []
        arrived = [self._arrived.get()]
        with contextlib.suppress(queue.Empty):
            while len(arrived) < len(self._calls) + len(self._starting):
                arrived.append(self._arrived.get_nowait())
        outcomes: list[Outcome] = []
        for ref in arrived:
            if ref in self._starting:
                self._answered(*self._starting.pop(ref))
            elif ref in self._calls:  # not if its worker's death already took it
                outcomes += self._came_back(self._calls[ref])
        return outcomes

    def _watch(self, ref: Any) -> futures.Future[Any]:
        """The ref's future; when Ray has its result, the ref goes into the queue that ``wait`` reads."""
        future = ref.future()
        future.add_done_callback(lambda _: self._arrived.put(ref))
        return future

    def _call(self, worker: _Worker, spec: GameSpec) -> _Call:
        ref = worker.actor.play.remote(spec.to_json())
        call = _Call(ref, self._watch(ref), spec, worker)
        worker.calls.append(call)
        self._calls[call.ref] = call
        self._place(worker)
        return call

    def _start(self, worker: _Worker) -> None:
        if worker.ready:
            self._ready_count -= 1
        worker.actor = self._actor_class.remote(self._setup_ref)
        worker.ready = False
        ref = worker.actor.ready.remote()
        self._starting[ref] = (worker, self._watch(ref))

    def _answered(self, worker: _Worker, answer: futures.Future[Any]) -> None:
        error = answer.exception()
        if error is not None:  # it died starting: on a node that failed, or ours
            worker.failed_starts += 1
            self.start_failure = _root_cause(error)
            worker.given_up = worker.failed_starts >= START_TRIES
            if worker.given_up:
                self._given_up_count += 1
            else:
                self._start(worker)
            return
        worker.ready, worker.failed_starts = True, 0
        self._ready_count += 1
        self._place(worker)
        if self.ready_at is None and self._ready_count == len(self._workers):
            self.ready_at = time.monotonic()

    def _came_back(self, call: _Call) -> list[Outcome]:
        detail = ""
        error = call.future.exception()
        if isinstance(error, RayActorError):
            return self._worker_died(call.worker)  # this game with the rest of its worker's
        if isinstance(error, TaskCancelledError):
            record, detail = None, "cancelled on a busy worker"
        elif error is not None:  # the game failed for a reason of ours: the runner retries it
            record = infra_record(call.spec.to_json(), failure_detail(getattr(error, "cause", None) or error))
        else:
            record = call.future.result()
        self._forget(call)
        return self._settled(call, record, detail)

    def _settled(
        self, call: _Call, record: dict[str, Any] | None, detail: str = "", tried: bool = False
    ) -> list[Outcome]:
        """The game's outcome from this call, if it counts (none while its twin still plays it, or once it has)."""
        twin = call.twin if call.twin is not None and call.twin.ref in self._calls else None
        if call.twin is not None:
            call.twin.twin, call.twin = None, None
        if call.dropped:
            return []
        if twin is not None:
            if record is None or record["result"]["termination"] == INFRA_ERROR:
                return []  # the twin plays it
            twin.dropped = True
        return [Outcome(call.spec, record, detail, tried)]

    def _worker_died(self, worker: _Worker) -> list[Outcome]:
        """Every game the dead worker held, in the order given: played, or unplayed (the first of those tried)."""
        calls = list(worker.calls)
        for call in calls:
            self._forget(call)
        futures.wait([call.future for call in calls], timeout=DEAD_WORKER_GRACE_S)
        outcomes, playing = [], True
        for call in calls:
            error = call.future.exception() if call.future.done() else TimeoutError("no answer after its worker died")
            if error is None:
                outcomes += self._settled(call, call.future.result())
            elif isinstance(error, TaskCancelledError):
                outcomes += self._settled(call, None, "cancelled on a busy worker")
            elif isinstance(error, RayActorError | TimeoutError):
                detail = f"its worker died ({failure_detail(error)})"
                outcomes += self._settled(call, None, detail, tried=playing and not call.taken_over)
                playing = playing and call.taken_over
            else:  # as in _came_back
                detail = failure_detail(getattr(error, "cause", None) or error)
                outcomes += self._settled(call, infra_record(call.spec.to_json(), detail))
        with contextlib.suppress(Exception):
            ray.kill(worker.actor, no_restart=True)
        self._start(worker)
        return outcomes

    def _forget(self, call: _Call) -> None:
        self._calls.pop(call.ref, None)
        with contextlib.suppress(ValueError):
            call.worker.calls.remove(call)
            self._place(call.worker)

    def _place(self, worker: _Worker) -> None:
        """Put a started worker in the heaps by its games now (its older places go stale: skipped when met)."""
        if not worker.ready:
            return
        load = worker.load()
        if load < CALLS_PER_WORKER:
            self._push(self._open, (load, worker.slot))
        if load > 1:
            self._push(self._loaded, (-load, worker.slot))

    def _push(self, heap: list[tuple[int, int]], place: tuple[int, int]) -> None:
        heapq.heappush(heap, place)
        if len(heap) > HEAP_SLACK * len(self._workers) + 16:  # stale places: rebuild from the workers (rare)
            current = [(worker.load(), worker.slot) for worker in self._workers if worker.ready]
            if heap is self._open:
                heap[:] = [place for place in current if place[0] < CALLS_PER_WORKER]
            else:
                heap[:] = [(-load, slot) for load, slot in current if load > 1]
            heapq.heapify(heap)

    def _least_loaded(self) -> _Worker | None:
        """The started worker with the fewest games (the lowest slot of those), if one has room."""
        return self._top(self._open, 1)

    def _most_loaded(self) -> _Worker | None:
        """The started worker with the most games (the lowest slot of those), if one has a game queued."""
        return self._top(self._loaded, -1)

    def _top(self, heap: list[tuple[int, int]], sign: int) -> _Worker | None:
        """The worker at the top of a heap, its stale places dropped on the way."""
        while heap:
            games, slot = heap[0]
            worker = self._workers[slot]
            if worker.ready and worker.load() == sign * games:
                return worker
            heapq.heappop(heap)
        return None


def _queued(worker: _Worker) -> list[_Call]:
    """The games queued behind the one a worker plays (its first not taken over), not taken over already."""
    return [call for call in worker.calls if not call.taken_over][1:]


def _root_cause(error: BaseException) -> str:
    """The line that says why a worker could not start: the last of Ray's message (its traceback's last line)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[-1] if len(lines) > 1 else failure_detail(error)
