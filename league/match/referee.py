"""The referee: one loop that plays a match of any game between bots.

It keeps the processes the state asks for (``seat_processes``), sends each request's bytes, waits
for the replies with deadlines (several at once for simultaneous phases), charges each seat's
clocks (``reply_clock``), parses and judges every reply in one place, and turns every fault into
data (``reply_faults``). It never blocks on a bot: all pipes are non-blocking and every wait has
a deadline.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine.core import Fault, Game, ProcessKey, Request, State, Termination
from engine.openings import Opening, OpeningPlay, opening_rules
from engine.protocol import RefereeProtocol
from league.match.fault_hints import with_hints
from league.match.inprocess import InProcessTransport
from league.match.record import ClockSettings, MatchRecord, Move
from league.match.reply_clock import PendingReply, ReplyClock
from league.match.reply_faults import game_wall_fault, read_reply, silence_note, stream_fault
from league.match.seat_processes import SeatProcesses, kill_now
from sandbox.transport import LineEvent, LineKind, Poller, Transport

Launcher = Callable[[ProcessKey], Transport]
"""Starts the bot process of one seat's role for one epoch."""

_EVENT_NAMES = {LineKind.LINE: "line", LineKind.EOF: "eof", LineKind.OVERLONG: "overlong", LineKind.FLOOD: "flood"}
"""How each kind of reading is named in a stored move (see ``Move.event``)."""
_RETRY = object()
"""What ``Referee._judge`` returns for a rejected reply the bot may follow with another."""


class Referee:
    """Plays one match.

    Args:
        game: The game with its variant parameters.
        launchers: Per seat, how to start that seat's processes.
        seed: The match seed (randomness of the game itself).
        clock: How reply times are measured (default: wall time, no margin).
        opening: What the match starts from (``engine.openings``): the referee plays its plies on
            behalf of the seats before the bots are asked past it; None starts from the rules' start.
    """

    def __init__(
        self,
        game: Game,
        launchers: Sequence[Launcher],
        seed: int,
        clock: ClockSettings | None = None,
        opening: Opening | None = None,
    ) -> None:
        self.game = game
        self.clock = clock or ClockSettings()
        self.reply_clock = ReplyClock(self.clock)
        self.launchers = list(launchers)
        self.seed = seed
        self.protocol: RefereeProtocol = game.referee_protocol()
        self.rules = self.protocol.line_rules
        self.line_reading = (self.rules.skip_blank, self.rules.fragment_at_eof_is_line, self.rules.max_bytes)
        self.poller = self._make_poller()
        self.processes = SeatProcesses(self.launchers, self.protocol, self.poller, self.reply_clock, self._now)
        self.moves: list[Move] = []
        self.time_used_ms = [0] * len(self.launchers)
        self.opening = None if opening is None else OpeningPlay(opening_rules(game), opening, self.protocol)

    _now = staticmethod(time.monotonic_ns)
    """The referee's clock (ns); a replay swaps in a clock of its own."""

    def _make_poller(self) -> Poller:
        """What the referee waits on pipes with; a replay swaps in one that waits on its own clock."""
        return Poller()

    @property
    def running(self) -> dict[ProcessKey, Transport]:
        """The processes running now."""
        return self.processes.running

    def play(self) -> MatchRecord:
        """Play the match to its end and release every process."""
        state = self.game.new_state(self.seed, len(self.launchers))
        self.reply_clock.start(self._now)
        try:
            while not state.is_over():
                self.processes.sync(state)
                if state.is_over():
                    break
                if self.opening is not None and self.opening.pending(state) and self.opening.rules.starts(state):
                    self._open(state)
                    continue
                self._ask(state, state.to_act())
        finally:
            self.processes.stop(list(self.processes.running), state)
            self.poller.close()
            self.reply_clock.close()
        # The stderr tails are whole only once every process has stopped: their hints join the detail here.
        result = with_hints(state.result(), self.processes.hints)
        opened = list(self.opening.played) if self.opening is not None else None
        return MatchRecord(result, self.moves, self.time_used_ms, state.to_json(), self.processes.stderr, opened)

    def _open(self, state: State) -> None:
        """Play the opening's next ply for the seat to act (asking the bots first where the game still asks them)."""
        assert self.opening is not None
        if self.opening.rules.asked_anyway(state):
            self._ask(state, state.to_act(), play=False)
            if state.is_over():
                return
        self._opened_ply(state, *self.opening.play_ply(state))

    def _opened_ply(self, state: State, request: Request, ply: str) -> None:
        """Called after each ply of the opening, played for ``request`` (a replay keeps a frame)."""

    def _transport(self, request: Request) -> Transport:
        return self.processes.transport(request)

    # -- requests --------------------------------------------------------------------------
    def _ask(self, state: State, requests: list[Request], play: bool = True) -> None:
        """Ask ``requests`` and play the accepted replies (judged but not played when not ``play``: an opening's)."""
        speakers = [(request, self._transport(request)) for request in requests]
        if len(speakers) > 1:
            # Programs are asked first. A built-in answers inside send(), and while it thinks the
            # referee cannot read: that time is the referee's, not charged to the programs waiting.
            speakers.sort(key=lambda speaker: isinstance(speaker[1], InProcessTransport))
        clock = self.reply_clock
        own_clock = self.clock.kind == "own"
        thought_ahead = self.processes.thought_ahead
        pending: list[PendingReply] = []
        for request, transport in speakers:
            sending_wait_ns = 0
            ahead = thought_ahead.pop(transport, None) if thought_ahead else None
            cpu_start, wait_start = clock.counters(transport) if ahead is None else ahead.counters
            data = self.protocol.request(state, request)
            transport.thinking(True)  # its full CPU weight while it is asked (sandbox/cgroups.py)
            if pending and isinstance(transport, InProcessTransport):
                began = self._now()
                transport.send(data)
                for earlier in pending:
                    earlier.referee_busy_ns += self._now() - began
            elif own_clock and not isinstance(transport, InProcessTransport):
                # A referee kept from its CPU while it writes does not charge the program (a built-in
                # counts its own thread's waits while it thinks).
                before = clock.referee_wait_ns()
                transport.send(data)
                sending_wait_ns = clock.referee_wait_ns() - before
            else:
                transport.send(data)
            allowance = state.time_allowance_ms(request)
            wait_ns = clock.reply_wait_ns(allowance)
            thought = ahead.wall_ns if ahead is not None else 0
            sent = self._now()
            pending.append(
                PendingReply(
                    request, transport, allowance, wait_ns, sent, cpu_start, wait_start, thought_ahead_ns=thought
                )
            )
            pending[-1].referee_wait_ns = sending_wait_ns
        accepted: dict[Request, Any] = {}
        wake_wait_ns = 0  # how long the referee waited for a CPU after its last wake-up (the ``own`` clock)
        game_deadline_ns = clock.game_deadline_ns
        skip_blank, fragment_at_eof_is_line, max_bytes = self.line_reading
        while pending:
            now = self._now()
            next_deadline: int | None = None
            for wait in pending[:]:
                request = wait.request
                since = wait.clock_start_ns()
                event = wait.transport.take_line(skip_blank, fragment_at_eof_is_line, max_bytes)
                if event is None and self.rules.broken_pipe_is_crash and wait.transport.stdin_broken:
                    event = LineEvent(LineKind.EOF, b"", now)  # the request could not be written
                if event is None:
                    deadline = since + wait.wait_ns
                    if game_deadline_ns is not None:
                        deadline = min(deadline, game_deadline_ns)
                    if now >= deadline and own_clock and clock.give_owed_time(wait, now - since, deadline):
                        deadline = since + wait.wait_ns  # the machine kept the bot waiting: it gets that time
                    if now < deadline:
                        next_deadline = deadline if next_deadline is None else min(next_deadline, deadline)
                        continue
                    # No reply in time: charge at least the allowance + 1 ms, a timeout by any clock.
                    elapsed_ms = max(clock.charged_ms(wait, now - since), wait.allowance_ms + 1)
                else:
                    wait.referee_wait_ns += wake_wait_ns
                    elapsed_ms = clock.charged_ms(wait, max(0, event.at_ns - since))
                action = self._judge(state, request, wait, event, elapsed_ms)
                if action is _RETRY:
                    continue
                pending.remove(wait)
                wait.transport.thinking(False)
                if state.is_over():
                    return
                if action is not None:
                    accepted[request] = action
            if pending:
                timeout_s = 0.0 if next_deadline is None else (next_deadline - self._now()) / 1e9
                if own_clock:
                    wake_wait_ns = clock.poll_counting_wait(self.poller, max(0.0, timeout_s))
                else:
                    self.poller.wait(max(0.0, timeout_s))
        if accepted and play:
            state.apply(accepted)
            for key, data in self.protocol.notices(state, accepted):
                transport = self.processes.running.get(key)
                if transport is not None:
                    transport.send(data)

    def _judge(
        self, state: State, request: Request, wait: PendingReply, event: LineEvent | None, elapsed_ms: int
    ) -> Any:
        """Time first, then the stream, then the form, then the rules.

        Returns:
            The action; None after a fault; ``_RETRY`` for a rejected line the rules let the bot
            follow with another in the same time (the referee keeps waiting, nothing is charged).
        """
        reply = event.data.decode("latin-1") if event is not None else ""
        move = Move(
            request.seat, request.role, reply, elapsed_ms, event=_EVENT_NAMES[event.kind] if event else "silence"
        )
        try:
            return self._judged(state, request, wait, event, elapsed_ms, move)
        finally:
            self.moves.append(move)  # once judged: a move in the list is final (a watcher reads it meanwhile)

    def _judged(
        self, state: State, request: Request, wait: PendingReply, event: LineEvent | None, elapsed_ms: int, move: Move
    ) -> Any:
        """``_judge``'s verdict on ``move`` (its fault set on it), before it joins the moves."""
        seat, transport = request.seat, wait.transport
        reply = move.reply
        fault = None
        game_deadline_ns = self.reply_clock.game_deadline_ns
        if event is None and game_deadline_ns is not None and self._now() >= game_deadline_ns:
            fault = game_wall_fault(self.protocol, state, request, self.clock.game_wall_s)
        # The line's own verdict (form, rules, or over the cap), worked out once.
        reading: tuple[Any, Fault | None] | None = None
        if event is not None and event.kind == LineKind.LINE:
            reading = read_reply(self.protocol, state, request, reply)
        elif event is not None and event.kind == LineKind.OVERLONG:
            reading = (None, stream_fault(self.protocol, state, request, transport, event))
        rejected = reading[1] if reading is not None else None
        in_time = elapsed_ms <= wait.allowance_ms
        if rejected is not None and fault is None and in_time and self.protocol.retries_rejected(state):
            if event is not None and event.kind == LineKind.OVERLONG:
                transport.skip_line()
            move.fault = rejected.reason_code
            self._send(transport, self.protocol.rejection(state, request, rejected))
            return _RETRY
        self.time_used_ms[seat] += elapsed_ms
        fault = fault or state.charge_time(request, elapsed_ms)
        if fault is None and reading is None:
            fault = stream_fault(self.protocol, state, request, transport, event)
        if fault is not None and event is None and fault.termination == Termination.TIMEOUT:
            fault = dataclasses.replace(fault, detail=fault.detail + silence_note(transport))
        action = None
        if fault is None:
            assert reading is not None
            action, fault = reading
            if fault is not None:
                self._send(transport, self.protocol.rejection(state, request, fault))
        if fault is not None:
            move.fault = fault.reason_code
            state.fault(fault)
            if self.protocol.kills_offenders:
                kill_now(transport)
            return None
        self._send(transport, self.protocol.acceptance(state, request, action))
        return action

    @staticmethod
    def _send(transport: Transport, data: bytes) -> None:
        if data:
            transport.send(data)


def play_match(
    game: Game,
    launchers: Sequence[Launcher],
    seed: int,
    clock: ClockSettings | None = None,
    opening: Opening | None = None,
) -> MatchRecord:
    """Play one match of ``game`` between the seats' launchers (from ``opening`` where one is given)."""
    return Referee(game, launchers, seed, clock, opening).play()
