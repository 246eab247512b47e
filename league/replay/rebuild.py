"""Replays: every state of a stored game, rebuilt from its record by the referee itself.

A record keeps every reply a bot made (``[seat, role, reply, elapsed_ms, fault, event]``, see
``league.cluster.worker.stored_move``), the game, its variant and its seed. Replaying runs the league's
own referee on a clock of its own (``VirtualClock``): each seat's process is a
``RecordedTransport`` that answers each request with the seat's next stored reply exactly
``elapsed_ms`` after it, stays silent where the bot was silent, and ends its stream where the bot
did. So the rules, the clocks, the faults and the fallback seats of nimmt and fish play out again
as they did, in no time, and every state on the way is seen. A game's ``view`` module
(``engine/<game>/view.py``) turns each state into a frame for the viewer and rates its tension.

The replayed result is compared with the stored one; where they differ (a record from before
moves kept their event, a reply cut to a few hundred characters in the store) the replay says so
rather than passing off another game as the stored one.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from engine import get_game
from engine.core import Game, ProcessKey, Request, State
from engine.openings import Opening
from league.match.record import ClockSettings, MatchRecord, Move
from league.match.referee import Referee
from league.stats.game_record import GameRecord, RecordResult
from sandbox.process import LaunchError
from sandbox.transport import LineEvent, LineKind, Poller, Transport

_NS_PER_MS = 1_000_000
_EVENT_KINDS = {"line": LineKind.LINE, "eof": LineKind.EOF, "overlong": LineKind.OVERLONG, "flood": LineKind.FLOOD}
RESULT_FIELDS = ("scores", "ranks", "termination", "offenders", "reason_code", "plies")
"""What must agree between a stored result and its replay for the replay to be that game."""


@dataclass(frozen=True)
class StoredMove:
    """One stored reply: who, what, how long it took, and what came (see ``Move``)."""

    seat: int
    role: str
    reply: str
    elapsed_ms: int
    fault: str | None
    event: str

    @classmethod
    def from_stored(cls, data: Sequence[Any]) -> StoredMove:
        """From the store's list form; records from before events were kept guess the event."""
        seat, role, reply, elapsed_ms, fault = data[:5]
        event = data[5] if len(data) > 5 else ("line" if reply or fault is None else "silence")
        return cls(int(seat), str(role), str(reply), int(elapsed_ms), fault, str(event))


class VirtualClock:
    """A monotonic clock in ns that only moves when told to."""

    def __init__(self) -> None:
        self.now_ns = 0

    def __call__(self) -> int:
        return self.now_ns

    def advance_to(self, when_ns: int) -> None:
        """Move the clock forward to ``when_ns`` (never back)."""
        self.now_ns = max(self.now_ns, when_ns)


class RecordedTransport(Transport):
    """One seat's process in a replay: its stored replies, each on time, on the virtual clock.

    Args:
        queue: The seat-role's stored moves still to come, shared by its processes in turn (a
            pk2048 best of three starts a process per game; the moves follow on).
        clock: The replay's clock.
    """

    def __init__(self, queue: deque[StoredMove], clock: VirtualClock) -> None:
        super().__init__(max_line_bytes=1 << 30, max_output_bytes=1 << 62)
        self.queue = queue
        self.clock = clock
        self.owed = False
        self.expecting = False
        self.asked_ns = clock()
        self.ended = False

    def expect_request(self) -> None:
        """The next line sent is a request (``ReplayReferee._ask`` says so before sending it)."""
        self.expecting = True

    def send(self, data: bytes) -> None:
        # Only a request starts a reply's clock; greetings and notices (nimmt tells every seat the
        # reveal, then asks one seat TAKE) and rejections (geister's NG) do not.
        if self.expecting:
            self.expecting = False
            self.owed = True
            self.asked_ns = self.clock()

    def flushed_at_ns(self) -> int | None:
        return self.asked_ns

    def close(self) -> None:
        self.ended = True

    def due_ns(self) -> int | None:
        """When the next stored reply comes, or None if none is to come (silence, or the record ends)."""
        if not self.owed or not self.queue or self.queue[0].event == "silence":
            return None
        return self.asked_ns + self.queue[0].elapsed_ms * _NS_PER_MS

    def silent_until_ns(self) -> int | None:
        """When the referee gave up on a silence that comes next: the request's time plus what it charged."""
        if not self.owed or not self.queue or self.queue[0].event != "silence":
            return None
        return self.asked_ns + self.queue[0].elapsed_ms * _NS_PER_MS

    def late_line(self) -> tuple[LineEvent, int] | None:
        """The next stored reply, with its charge, where it came after the deadline the referee just reached.

        A referee that wakes late finds a line that came after the deadline and judges it (a late
        reply), where the replay's clock, at the deadline, would see a silence.
        """
        due = self.due_ns()
        if self.ended or due is None:
            return None
        elapsed_ms = self.queue[0].elapsed_ms
        self.clock.advance_to(due)
        event = self.take_line(False, False, None)
        return None if event is None else (event, elapsed_ms)

    def take_line(self, skip_blank: bool, fragment_at_eof_is_line: bool, cap: int | None) -> LineEvent | None:
        if self.ended:
            return LineEvent(LineKind.EOF, b"", self.clock())
        due = self.due_ns()
        if due is None or due > self.clock():
            return None
        move = self.queue[0]
        self.clock.advance_to(due)
        return LineEvent(_EVENT_KINDS.get(move.event, LineKind.LINE), move.reply.encode("latin-1"), due)

    def judged(self) -> None:
        """The referee judged a reply (or a silence) of this process: the next stored move is next."""
        if not self.queue:
            return
        move = self.queue.popleft()
        if move.event == "eof":
            self.ended = True
        # A rejected reply the bot follows with another (geister's NG) keeps the request's clock; an
        # overlong line is rejected so too (the referee skips it and waits on).
        retried = move.fault is not None and bool(self.queue) and move.event in ("line", "overlong")
        self.owed = retried


class VirtualPoller(Poller):
    """Waits by moving the virtual clock: to the next stored reply that is due, or by the timeout."""

    def __init__(self, clock: VirtualClock) -> None:
        super().__init__()
        self.clock = clock

    def wait(self, timeout_s: float) -> None:
        """Move the clock to the next stored reply due, else by the timeout, and on to when a silence was noticed.

        A referee notices a silence a little after its deadline (it woke late); the stored charge
        says when, so the clock goes on to that moment and the replay charges the same.
        """
        target = self.clock() + math.ceil(max(0.0, timeout_s) * 1e9)
        recorded = [t for t in self.transports if isinstance(t, RecordedTransport)]
        dues = [due for t in recorded if (due := t.due_ns()) is not None]
        if dues and min(dues) <= target:
            self.clock.advance_to(min(dues))
            return
        noticed = [when for t in recorded if (when := t.silent_until_ns()) is not None and when >= target]
        self.clock.advance_to(min([*noticed, *dues]) if noticed else target)

    def close(self) -> None:
        self.transports = []


@dataclass
class Frame:
    """One moment of a replay: the game's view of the state and the moves that led to it.

    Attributes:
        view: The game's frame data (``engine/<game>/view.py``), JSON-ready.
        tension: How tense the position is, 0 (calm) to 1.
        moves: The replies judged since the previous frame, as dicts (an opening's ply has
            ``opening: true``: the referee played it, no bot).
        opening_end: Whether this frame is the position the opening led to (the bots play from here).
    """

    view: dict[str, Any]
    tension: float
    moves: list[dict[str, Any]] = field(default_factory=list)
    opening_end: bool = False


class ReplayReferee(Referee):
    """The league's referee on a virtual clock, keeping a frame after every request phase."""

    def __init__(
        self,
        game: Game,
        launchers: Sequence[Callable[[ProcessKey], Transport]],
        seed: int,
        view: ModuleType,
        clock: VirtualClock,
        game_wall_s: float | None,
        opening: Opening | None = None,
    ) -> None:
        self.virtual = clock
        wall = ClockSettings(kind="wall", margin_ms=0, game_wall_s=game_wall_s)
        super().__init__(game, launchers, seed, wall, opening)
        self.view = view
        self.frames: list[Frame] = []
        self.shown_moves = 0
        self.last_state: State | None = None

    def _now(self) -> int:  # type: ignore[override]
        return self.virtual()

    def _make_poller(self) -> Poller:
        return VirtualPoller(self.virtual)

    def _ask(self, state: State, requests: list[Request], play: bool = True) -> None:
        self._capture(state, first=True)
        for request in requests:
            transport = self._transport(request)
            if isinstance(transport, RecordedTransport):
                transport.expect_request()
        super()._ask(state, requests, play)
        self._capture(state)

    def _opened_ply(self, state: State, request: Request, ply: str) -> None:
        """A frame after each ply of the opening, its move marked as the opening's; the last one marks its end."""
        self._capture(state, first=True)
        self.moves.append(Move(request.seat, request.role, ply, 0))
        self._capture(state)
        self.frames[-1].moves[-1]["opening"] = True
        assert self.opening is not None
        if not self.opening.pending(state):
            self.frames[-1].opening_end = True

    def _judge(self, state: State, request: Request, wait: Any, event: LineEvent | None, elapsed_ms: int) -> Any:
        if event is None and isinstance(wait.transport, RecordedTransport):
            late = wait.transport.late_line()  # a silence here, where the record has a line read late
            if late is not None:
                event, elapsed_ms = late
        action = super()._judge(state, request, wait, event, elapsed_ms)
        if isinstance(wait.transport, RecordedTransport):
            wait.transport.judged()
        return action

    def _capture(self, state: State, first: bool = False) -> None:
        """Keep a frame of ``state`` (the first one only once, before anything was asked)."""
        self.last_state = state
        if first and self.frames:
            return
        moves = [_move_dict(move) for move in self.moves[self.shown_moves :]]
        self.shown_moves = len(self.moves)
        self.frames.append(Frame(self.view.frame(state), round(float(self.view.tension(state)), 4), moves))

    def finish(self, state: State) -> None:
        """Keep a last frame where the end came outside a request phase (a program that could not start)."""
        if not self.frames or self.shown_moves < len(self.moves) or self.view.frame(state) != self.frames[-1].view:
            self._capture(state)


def _move_dict(move: Move) -> dict[str, Any]:
    data: dict[str, Any] = {"seat": move.seat, "role": move.role, "reply": move.reply, "ms": move.elapsed_ms}
    if move.fault:
        data["fault"] = move.fault
    if move.event != "line":
        data["event"] = move.event
    return data


@dataclass
class Replay:
    """A game replayed from its record.

    Attributes:
        game: The game's name.
        seats: The bots' names, seat 0 first.
        seed: The match seed.
        frames: Every state shown, in order.
        result: The replayed result (JSON form).
        stored: The stored result (JSON form).
        diverged: Empty when the replay is the stored game, else a sentence saying how it differs.
        stderr: The stored stderr tails.
        tension_text: The game's one sentence on what its tension measures.
    """

    game: str
    seats: list[str]
    seed: int
    frames: list[Frame]
    result: dict[str, Any]
    stored: dict[str, Any]
    diverged: str
    stderr: list[dict[str, Any]]
    tension_text: str


def view_module(game_name: str) -> ModuleType:
    """The game's view module (``engine/<game>/view.py``): ``frame``, ``tension`` and ``TENSION``."""
    return importlib.import_module(f"engine.{game_name}.view")


def replay_game(game: Game, record: GameRecord, details: Mapping[str, Any]) -> Replay:
    """Rebuild every state of a stored game.

    Args:
        game: The game with the variant's parameters the record was played under.
        record: The game's results line (``spec``, ``result``).
        details: Its move-log entry (``moves``; ``stderr`` and ``opening`` if kept: ``ResultStore.details``).
    """
    spec = record.spec
    seats = list(spec.seats)
    stored = record.result
    moves = _with_events(details.get("moves") or [], stored)
    queues: dict[tuple[int, str], deque[StoredMove]] = {}
    for move in moves:
        queues.setdefault((move.seat, move.role), deque()).append(move)
    clock = VirtualClock()
    refused = _refused_launches(stored, moves, type(game).roles)

    def launcher(seat: int) -> Callable[[ProcessKey], Transport]:
        def launch(key: ProcessKey) -> Transport:
            if (key.seat, key.role) in refused:
                raise LaunchError(stored.detail or f"seat {key.seat} could not be started")
            return RecordedTransport(queues.setdefault((key.seat, key.role), deque()), clock)

        return launch

    view = view_module(type(game).name)
    played = details.get("opening")
    opening = Opening(moves=tuple(played)) if played is not None else None
    launchers = [launcher(seat) for seat in range(len(seats))]
    referee = ReplayReferee(game, launchers, int(spec.seed), view, clock, None, opening)
    match = referee.play()
    if referee.last_state is not None:
        referee.finish(referee.last_state)
    result = match.result.to_json()
    return Replay(
        game=type(game).name,
        seats=seats,
        seed=int(spec.seed),
        frames=referee.frames,
        result=result,
        stored=stored.to_json(),
        diverged=divergence(stored.to_json(), result),
        stderr=list(details.get("stderr") or []),
        tension_text=view.TENSION,
    )


def replay_match(game: Game, seats: Sequence[str], seed: int, record: MatchRecord) -> Replay:
    """A replay of a match just played (``league play --replay``), from its in-memory record."""
    line = GameRecord.from_json(
        {"game_id": "", "spec": {"seats": list(seats), "seed": seed}, "result": record.result.to_json()}
    )
    details = {
        "moves": [[m.seat, m.role, m.reply, m.elapsed_ms, m.fault, m.event] for m in record.moves],
        "stderr": [dataclasses.asdict(tail) for tail in record.stderr],  # as the worker stores them
        **({"opening": record.opening} if record.opening is not None else {}),
    }
    return replay_game(game, line, details)


def _with_events(stored: list[Sequence[Any]], result: RecordResult) -> list[StoredMove]:
    """The stored moves, each with what came.

    Records from before moves kept their event lack it: there an offender's last empty reply in a
    game that ended by a CRASH is the end of its stream, other empty faulted replies are silences.
    """
    moves = [StoredMove.from_stored(move) for move in stored]
    if result.termination == "CRASH":
        for seat in result.offenders:
            last = max((i for i, move in enumerate(moves) if move.seat == seat), default=None)
            if last is not None and len(stored[last]) <= 5 and not moves[last].reply and moves[last].fault:
                moves[last] = dataclasses.replace(moves[last], event="eof")
    return moves


def _refused_launches(stored: RecordResult, moves: list[StoredMove], roles: Sequence[str]) -> set[tuple[int, str]]:
    """Seat-roles whose program could not be started: a CRASH offender's roles that never replied at all."""
    if stored.termination != "CRASH":
        return set()
    replied = {(move.seat, move.role) for move in moves}
    offenders = stored.offenders
    return {(seat, role) for seat in offenders for role in roles if (seat, role) not in replied}


def divergence(stored: dict[str, Any], replayed: dict[str, Any]) -> str:
    """A sentence on how a replayed result differs from the stored one ("" when it does not)."""
    differing = [name for name in RESULT_FIELDS if stored.get(name) != replayed.get(name)]
    if not differing:
        return ""
    parts = ", ".join(f"{name} {replayed.get(name)!r} where the store has {stored.get(name)!r}" for name in differing)
    return f"this replay differs from the stored game ({parts}): the record lacks what it needs to replay exactly"


def game_for_record(game_name: str, variant_params: dict[str, Any]) -> Game:
    """The game object a record was played under."""
    return get_game(game_name)(**variant_params)
