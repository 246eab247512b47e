"""The referee: one loop that plays a match of any game between bots.

It starts and stops the processes the state asks for, sends each request's bytes, waits for the
replies with deadlines (several at once for simultaneous phases), charges each seat's clocks,
parses and judges every reply in one place, and turns every fault into data. It never blocks on
a bot: all pipes are non-blocking and every wait has a deadline.
"""

from __future__ import annotations

import dataclasses
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Fault, Game, ProcessKey, Request, State, Termination
from engine.protocol import RefereeProtocol
from league.match.fault_hints import reply_hint, stderr_hints, with_hints
from league.match.inprocess import InProcessTransport
from league.match.record import ClockSettings, MatchRecord, Move, StderrTail
from sandbox.process import BotProcess, LaunchError
from sandbox.procfs import OpenCounter
from sandbox.startup import wait_until_idle
from sandbox.tcp import TcpBotProcess
from sandbox.transport import LineEvent, LineKind, Poller, Transport

Launcher = Callable[[ProcessKey], Transport]
"""Starts the bot process of one seat's role for one epoch."""

_OWN_THREAD = "/proc/thread-self/schedstat"

_NS_PER_MS = 1_000_000
_RECHECK_NS = 2 * _NS_PER_MS
"""How soon the ``own`` clock looks again at a bot that seems over its time while it is ready to run."""
_EVENT_NAMES = {LineKind.LINE: "line", LineKind.EOF: "eof", LineKind.OVERLONG: "overlong", LineKind.FLOOD: "flood"}
"""How each kind of reading is named in a stored move (see ``Move.event``)."""
_RETRY = object()
"""What ``Referee._judge`` returns for a rejected reply the bot may follow with another."""


@dataclass(frozen=True, slots=True)
class _Ahead:
    """A built-in's answers given while it read its greeting: charged to its first request."""

    wall_ns: int
    cpu_ns: int | None
    wait_ns: int | None

    @property
    def counters(self) -> tuple[int | None, int | None]:
        """Its CPU time and run-queue wait before the greeting: where the first request's clock starts."""
        return self.cpu_ns, self.wait_ns


@dataclass(eq=False, slots=True)
class _Pending:
    """A request sent and not yet answered: what its reply is timed against."""

    request: Request
    transport: Transport
    allowance_ms: int
    wait_ns: int
    """How long after its clock starts the referee waits for the reply (allowance, margin, 1 ms)."""
    sent_ns: int
    cpu_start_ns: int | None
    wait_start_ns: int | None = None
    """The bot's run-queue wait when its clock started (the ``own`` clock), or None."""
    referee_busy_ns: int = 0
    referee_wait_ns: int = 0
    """How long the referee itself waited for a CPU before it read the reply (not the bot's time)."""
    flushed_ns: int | None = None
    thought_ahead_ns: int = 0


class Referee:
    """Plays one match.

    Args:
        game: The game with its variant parameters.
        launchers: Per seat, how to start that seat's processes.
        seed: The match seed (randomness of the game itself).
        clock: How reply times are measured (default: wall time, no margin).
    """

    def __init__(
        self, game: Game, launchers: Sequence[Launcher], seed: int, clock: ClockSettings | None = None
    ) -> None:
        self.game = game
        self.clock = clock or ClockSettings()
        self.game_deadline_ns: int | None = None
        self.launchers = list(launchers)
        self.seed = seed
        self.protocol: RefereeProtocol = game.referee_protocol()
        self.rules = self.protocol.line_rules
        self.line_reading = (self.rules.skip_blank, self.rules.fragment_at_eof_is_line, self.rules.max_bytes)
        self.running: dict[ProcessKey, Transport] = {}
        self.all_running: frozenset[ProcessKey] | None = None
        """The state's last set of wanted processes while exactly those were running (None after a change)."""
        self.poller = self._make_poller()
        self.moves: list[Move] = []
        self.time_used_ms = [0] * len(self.launchers)
        self.stderr: list[StderrTail] = []
        self.hints: dict[int, list[str]] = {}
        """Per seat, the hints for bot authors its processes' stderr gave (``league.match.fault_hints``)."""
        self.failed_launches: set[ProcessKey] = set()
        self.thought_ahead: dict[Transport, _Ahead] = {}
        self.wake_wait_ns = 0
        """How long the referee waited for a CPU after its last wake-up (the ``own`` clock)."""
        self.own_thread: OpenCounter | None = None
        """The referee thread's own ``schedstat``, under the ``own`` clock (opened by ``play``, in its thread)."""
        self.by_request: dict[Request, Transport] = {}
        """The transport found for a request, kept until a process stops (a lookup every ply)."""

    _now = staticmethod(time.monotonic_ns)
    """The referee's clock (ns); a replay swaps in a clock of its own."""

    def _make_poller(self) -> Poller:
        """What the referee waits on pipes with; a replay swaps in one that waits on its own clock."""
        return Poller()

    def play(self) -> MatchRecord:
        """Play the match to its end and release every process."""
        state = self.game.new_state(self.seed, len(self.launchers))
        if self.clock.kind == "own":
            self.own_thread = OpenCounter(_OWN_THREAD)
        if self.clock.game_wall_s is not None:
            self.game_deadline_ns = self._now() + int(self.clock.game_wall_s * 1e9)
        try:
            while not state.is_over():
                self._sync_processes(state)
                if state.is_over():
                    break
                self._ask(state, state.to_act())
        finally:
            self._stop(list(self.running), state)
            self.poller.close()
            if self.own_thread is not None:
                self.own_thread.close()
        # The stderr tails are whole only once every process has stopped: their hints join the detail here.
        result = with_hints(state.result(), self.hints)
        return MatchRecord(result, self.moves, self.time_used_ms, state.to_json(), self.stderr)

    # -- processes -------------------------------------------------------------------------
    def _sync_processes(self, state: State) -> None:
        wanted = state.processes()
        if wanted is self.all_running:  # the very set of the last ply, all running: the usual case
            return
        if self.failed_launches:
            wanted = wanted - self.failed_launches  # a set of its own, which the state never returns
        if wanted == self.running.keys():
            self.all_running = wanted
            return
        self.all_running = None
        self._stop([key for key in self.running if key not in wanted], state)
        started: dict[ProcessKey, Transport] = {}
        for key in sorted(wanted - self.running.keys()):  # every process needed now, started at once
            try:
                started[key] = self.running[key] = self.launchers[key.seat](key)
            except LaunchError as error:
                self.failed_launches.add(key)
                state.fault(Fault(key.seat, Termination.CRASH, self._code(state, key, Termination.CRASH), str(error)))
            else:
                self.poller.add(started[key])
            if state.is_over():
                return
        self._await_connections(state, started)
        if state.is_over():
            return
        # Fair start-up: the first request's clock starts once the programs wait for input.
        wait_until_idle([t for t in started.values() if isinstance(t, BotProcess)], self.clock.startup_wait_ms / 1000)
        for key, transport in started.items():
            greeting = self.protocol.greeting(state, key)
            if greeting:
                began = self._now()
                counters = self._counters(transport)
                transport.send(greeting)
                if isinstance(transport, InProcessTransport) and transport.buffer:
                    # A built-in that answered while reading (codevs21 solo: its first move)
                    # thought on its clock: charged to its first request, as a program's would be.
                    self.thought_ahead[transport] = _Ahead(self._now() - began, *counters)
            if self.protocol.ends_input_after_greeting(state, key):
                transport.end_input()

    def _await_connections(self, state: State, started: dict[ProcessKey, Transport]) -> None:
        """Wait for TCP clients to connect, all at once; one that does not has crashed."""
        waiting = {key: transport for key, transport in started.items() if transport.connecting()}
        while waiting:
            now = self._now()
            for key, transport in list(waiting.items()):
                if transport.connecting() and now < transport.connect_deadline_ns:
                    continue
                del waiting[key]
                if not transport.connected():
                    code = self._code(state, key, Termination.CRASH)
                    detail = f"seat {key.seat}'s TCP client {transport.connect_failure()}"
                    state.fault(Fault(key.seat, Termination.CRASH, code, detail))
            if waiting:
                deadline = min(transport.connect_deadline_ns for transport in waiting.values())
                self.poller.wait(max(0.0, (deadline - self._now()) / 1e9))

    def _code(self, state: State, key: ProcessKey, termination: Termination) -> str:
        return self.protocol.fault_code(state, Request(key.seat, key.role), termination)

    def _stop(self, keys: list[ProcessKey], state: State) -> None:
        """Say farewell, then end the processes together: wait, SIGTERM, SIGKILL."""
        if not keys:
            return
        self.all_running = None
        self.by_request.clear()
        keys = sorted(keys, key=lambda key: self.protocol.stop_rank(state, key))
        transports = [self.running.pop(key) for key in keys]
        for key, transport in zip(keys, transports, strict=False):
            self.poller.remove(transport)
            farewell = self.protocol.farewell(state, key)
            if farewell:
                transport.send(farewell)
        processes = [t for t in transports if isinstance(t, BotProcess)]
        for transport in transports:
            if not isinstance(transport, BotProcess):
                transport.close()
        stop_processes(processes, self.protocol.shutdown_wait_ms() / 1000)
        for key, transport in zip(keys, transports, strict=True):
            text = transport.stderr_text()
            if text:
                self.stderr.append(StderrTail(key.seat, key.role, key.epoch, text))
                self._note_hints(key.seat, transport, text)

    def _note_hints(self, seat: int, transport: Transport, text: str) -> None:
        """Keep the hints a jailed program's stderr gives (a TCP client is meant to connect: no network hint)."""
        if not isinstance(transport, BotProcess) or not transport.plan.jailed:
            return
        network = transport.plan.network or isinstance(transport, TcpBotProcess)
        kept = self.hints.setdefault(seat, [])
        kept += [hint for hint in stderr_hints(seat, text, network) if hint not in kept]

    def _transport(self, request: Request) -> Transport:
        transport = self.by_request.get(request)
        if transport is not None:
            return transport
        for key, transport in self.running.items():
            if key.seat == request.seat and key.role == request.role:
                self.by_request[request] = transport
                return transport
        raise RuntimeError(f"no process for {request}: the state asked before starting one")

    # -- requests --------------------------------------------------------------------------
    def _ask(self, state: State, requests: list[Request]) -> None:
        speakers = [(request, self._transport(request)) for request in requests]
        if len(speakers) > 1:
            # Programs are asked first. A built-in answers inside send(), and while it thinks the
            # referee cannot read: that time is the referee's, not charged to the programs waiting.
            speakers.sort(key=lambda speaker: isinstance(speaker[1], InProcessTransport))
        own_clock = self.clock.kind == "own"
        pending: list[_Pending] = []
        for request, transport in speakers:
            sending_wait_ns = 0
            ahead = self.thought_ahead.pop(transport, None) if self.thought_ahead else None
            cpu_start, wait_start = self._counters(transport) if ahead is None else ahead.counters
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
                before = self._own_wait_ns()
                transport.send(data)
                sending_wait_ns = self._own_wait_ns() - before
            else:
                transport.send(data)
            allowance = state.time_allowance_ms(request)
            wait_ns = (self.clock.wait_ms(allowance) + 1) * _NS_PER_MS
            thought = ahead.wall_ns if ahead is not None else 0
            sent = self._now()
            pending.append(
                _Pending(request, transport, allowance, wait_ns, sent, cpu_start, wait_start, thought_ahead_ns=thought)
            )
            pending[-1].referee_wait_ns = sending_wait_ns
        accepted: dict[Request, Any] = {}
        self.wake_wait_ns = 0
        skip_blank, fragment_at_eof_is_line, max_bytes = self.line_reading
        while pending:
            now = self._now()
            next_deadline: int | None = None
            for wait in pending[:]:
                request = wait.request
                if wait.flushed_ns is None:  # kept once known: an NG sent later does not restart the clock
                    wait.flushed_ns = wait.transport.flushed_at_ns()
                start = wait.flushed_ns
                since = (start if start is not None else wait.sent_ns) + wait.referee_busy_ns - wait.thought_ahead_ns
                event = wait.transport.take_line(skip_blank, fragment_at_eof_is_line, max_bytes)
                if event is None and self.rules.broken_pipe_is_crash and wait.transport.stdin_broken:
                    event = LineEvent(LineKind.EOF, b"", now)  # the request could not be written
                if event is None:
                    deadline = since + wait.wait_ns
                    if self.game_deadline_ns is not None:
                        deadline = min(deadline, self.game_deadline_ns)
                    if now >= deadline and own_clock and self._owed_ns(wait, now - since, deadline):
                        deadline = since + wait.wait_ns  # the machine kept the bot waiting: it gets that time
                    if now < deadline:
                        next_deadline = deadline if next_deadline is None else min(next_deadline, deadline)
                        continue
                    # No reply in time: charge at least the allowance + 1 ms, a timeout by any clock.
                    elapsed_ms = max(self._charged_ms(wait, now - since), wait.allowance_ms + 1)
                else:
                    wait.referee_wait_ns += self.wake_wait_ns
                    elapsed_ms = self._charged_ms(wait, max(0, event.at_ns - since))
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
                    self.wake_wait_ns = self._poll_counting_wait(max(0.0, timeout_s))
                else:
                    self.poller.wait(max(0.0, timeout_s))
        if accepted:
            state.apply(accepted)
            for key, data in self.protocol.notices(state, accepted):
                transport = self.running.get(key)
                if transport is not None:
                    transport.send(data)

    def _counters(self, transport: Transport) -> tuple[int | None, int | None]:
        """The bot's CPU time and run-queue wait now, as far as the clock needs them (None: not needed or unknown)."""
        kind = self.clock.kind
        if kind == "wall":
            return None, None
        return transport.own_counters() if kind == "own" else (transport.cpu_ns(), None)

    def _own_wait_ns(self) -> int:
        """How long the referee's thread has waited, ready to run, for a CPU so far (0 where unknown)."""
        counts = self.own_thread.schedstat() if self.own_thread is not None else None
        return counts[1] if counts is not None else 0

    def _poll_counting_wait(self, timeout_s: float) -> int:
        """Wait on the pipes as usual; how long the referee then waited for a CPU before it ran again (ns)."""
        before = self._own_wait_ns()
        self.poller.wait(timeout_s)
        return self._own_wait_ns() - before

    def _owed_ns(self, wait: _Pending, wall_ns: int, deadline: int) -> bool:
        """Under the ``own`` clock, at the wall deadline: give the bot the time the machine denied it, if any.

        Moves the reply's wait on by what the bot is still owed (never past the clock's guard);
        False when it is owed nothing: the deadline stands. The kernel adds a wait for a CPU to a
        thread's count only once the thread runs again, so a bot that looks over its time while it
        is ready to run, with less CPU time than its allowance, may be waiting still: it is looked at
        again shortly (``_RECHECK_NS``) rather than timed out on a count that is not yet complete.
        """
        guard_ns = (self.clock.guard_ms(wait.allowance_ms) + 1) * _NS_PER_MS
        if wall_ns >= guard_ns or (self.game_deadline_ns is not None and deadline >= self.game_deadline_ns):
            return False
        allowance_ns = wait.allowance_ms * _NS_PER_MS
        used, waited = wait.transport.own_counters()
        owed_ns = allowance_ns - self._own_ns(wait, wall_ns, used, waited) + _NS_PER_MS
        if owed_ns <= 0:
            start = wait.cpu_start_ns
            cpu_ns = (used - start) / wait.transport.cores if used is not None and start is not None else 0
            if not (wait.transport.ready_to_run() and cpu_ns <= allowance_ns):
                return False
            owed_ns = _RECHECK_NS
        wait.wait_ns = min(guard_ns, wall_ns + owed_ns)
        return True

    def _own_ns(self, wait: _Pending, wall_ns: int, used: int | None, waited: int | None) -> int:
        """What the ``own`` clock charges for ``wall_ns``: less the time the bot waited, ready, for a CPU.

        The bot's main thread's run-queue wait and the referee's own waits for a CPU while it wrote
        the request and before it read the reply are not the bot's time. Its CPU time divided by its
        cores is charged at least: a bot whose own processes keep each other waiting has used its
        cores all the same. Where either measure is missing, the wall time.

        Args:
            wait: The reply's request.
            wall_ns: Wall time since its clock started.
            used: The bot's CPU time now (``Transport.own_counters``).
            waited: Its main thread's run-queue wait now.
        """
        if waited is None or used is None or wait.wait_start_ns is None or wait.cpu_start_ns is None:
            return wall_ns
        ran = wall_ns - (waited - wait.wait_start_ns) - wait.referee_wait_ns
        return int(max(ran, (used - wait.cpu_start_ns) / wait.transport.cores, 0))

    def _charged_ms(self, wait: _Pending, wall_ns: int) -> int:
        """The whole ms a reply is charged: by the clock's measure (wall, own or CPU time), less the margin."""
        kind = self.clock.kind
        if kind == "own":
            measured = self._own_ns(wait, wall_ns, *wait.transport.own_counters()) // _NS_PER_MS
        elif kind == "cpu" and wait.cpu_start_ns is not None:
            used = wait.transport.cpu_ns()
            measured = (used - wait.cpu_start_ns) // _NS_PER_MS if used is not None else wall_ns // _NS_PER_MS
        else:
            measured = wall_ns // _NS_PER_MS
        return max(0, measured - self.clock.margin_ms)

    def _judge(self, state: State, request: Request, wait: _Pending, event: LineEvent | None, elapsed_ms: int) -> Any:
        """Time first, then the stream, then the form, then the rules.

        Returns:
            The action; None after a fault; ``_RETRY`` for a rejected line the rules let the bot
            follow with another in the same time (the referee keeps waiting, nothing is charged).
        """
        seat, transport = request.seat, wait.transport
        reply = event.data.decode("latin-1") if event is not None else ""
        move = Move(seat, request.role, reply, elapsed_ms, event=_EVENT_NAMES[event.kind] if event else "silence")
        self.moves.append(move)
        fault = None
        if event is None and self.game_deadline_ns is not None and self._now() >= self.game_deadline_ns:
            fault = Fault(
                seat,
                Termination.TIMEOUT,
                self.protocol.fault_code(state, request, Termination.TIMEOUT),
                f"seat {seat} had not answered {self.protocol.describe(state, request)} when the match's"
                f" wall limit of {self.clock.game_wall_s} s ran out",
            )
        # The line's own verdict (form, rules, or over the cap), worked out once.
        reading: tuple[Any, Fault | None] | None = None
        if event is not None and event.kind == LineKind.LINE:
            reading = self._read(state, request, reply)
        elif event is not None and event.kind == LineKind.OVERLONG:
            reading = (None, self._stream_fault(state, request, transport, event))
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
            fault = self._stream_fault(state, request, transport, event)
        if fault is not None and event is None and fault.termination == Termination.TIMEOUT:
            fault = dataclasses.replace(fault, detail=fault.detail + _silence(transport))
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
                _kill_now(transport)
            return None
        self._send(transport, self.protocol.acceptance(state, request, action))
        return action

    def _read(self, state: State, request: Request, reply: str) -> tuple[Any, Fault | None]:
        """A reply line's action, or the fault of its form (parse) or of the rules (check)."""
        try:
            action = self.protocol.parse(state, request, reply)
        except Exception as error:  # noqa: BLE001 - any reply that breaks the parser is bad output
            return None, Fault(
                request.seat,
                Termination.BAD_OUTPUT,
                self.protocol.fault_code(state, request, Termination.BAD_OUTPUT),
                f"seat {request.seat} sent a malformed reply to {self.protocol.describe(state, request)}"
                f" ({_shorten(reply)}): {_cut(str(error))}{reply_hint(reply)}",
            )
        return action, state.check(request, action)

    @staticmethod
    def _send(transport: Transport, data: bytes) -> None:
        if data:
            transport.send(data)

    def _stream_fault(self, state: State, request: Request, transport: Transport, event: LineEvent | None) -> Fault:
        """The fault of a reply that never came, a stream that ended, or a line over the cap."""
        seat = request.seat
        what = self.protocol.describe(state, request)
        if event is None:
            termination = Termination.TIMEOUT
            detail = f"seat {seat} sent no reply to {what} within {state.time_allowance_ms(request)} ms"
        elif event.kind == LineKind.EOF:
            termination = Termination.CRASH
            detail = f"seat {seat} {transport.describe_exit()} before answering {what}"
            if transport.buffer:  # bytes without their newline, which the rules do not take as a line
                detail += f"; it sent {_shorten(bytes(transport.buffer).decode('latin-1'))} without a newline"
        elif event.kind == LineKind.FLOOD:
            termination = Termination.BAD_OUTPUT
            detail = f"seat {seat} printed over {transport.max_output_bytes} bytes in this game, by {what}"
        else:
            termination = Termination.BAD_OUTPUT
            detail = f"seat {seat} sent a line over {len(event.data)} bytes for {what}"
        return Fault(seat, termination, self.protocol.fault_code(state, request, termination), detail)


def _kill_now(transport: Transport) -> None:
    """Kill a bot program at once (its stdin closed, its whole group SIGKILLed); its stop reaps it."""
    if isinstance(transport, BotProcess):
        transport.begin_stop()  # notes every process of the bot first, jailed ones included
        transport.kill_group(signal.SIGKILL)


def _silence(transport: Transport) -> str:
    """What a timed-out bot did print, when that explains the timeout ("" when it does not)."""
    if transport.buffer:
        return f"; it sent {_shorten(bytes(transport.buffer).decode('latin-1'))} without a newline"
    if transport.bytes_read == 0:
        return f"; {transport.silence_hint()}"
    return ""


def _shorten(text: str, limit: int = 80) -> str:
    """A reply quoted for a detail sentence, cut to ``limit`` characters."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def _cut(text: str, limit: int = 200) -> str:
    """A message cut to ``limit`` characters."""
    return text if len(text) <= limit else text[:limit] + "..."


def stop_processes(processes: list[BotProcess], wait_s: float, term_grace_s: float = 1.0) -> None:
    """End several bot processes at once: close stdin, wait, SIGTERM, wait, SIGKILL, reap.

    Args:
        processes: The processes to end.
        wait_s: How long they may take to exit by themselves.
        term_grace_s: How long after SIGTERM before SIGKILL.
    """
    for process in processes:
        process.begin_stop()
    deadline = time.monotonic() + wait_s
    alive = [p for p in processes if p.popen.poll() is None]
    while alive and time.monotonic() < deadline:
        time.sleep(0.005)
        alive = [p for p in alive if p.popen.poll() is None]
    for process in alive:
        process.kill_group(signal.SIGTERM)
    deadline = time.monotonic() + term_grace_s
    while alive and time.monotonic() < deadline:
        time.sleep(0.005)
        alive = [p for p in alive if p.popen.poll() is None]
    for process in processes:
        process.shutdown(wait_s=0.0, term_grace_s=0.0)


def play_match(game: Game, launchers: Sequence[Launcher], seed: int, clock: ClockSettings | None = None) -> MatchRecord:
    """Play one match of ``game`` between the seats' launchers."""
    return Referee(game, launchers, seed, clock).play()
