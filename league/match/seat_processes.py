"""The processes of a match, one per (seat, role, epoch): started, greeted and stopped as the state asks.

``SeatProcesses`` starts every process the state wants at once (a program that cannot start, or a
TCP client that does not connect, has crashed: a fault, as data), greets it once it waits for
input, finds the process that answers a request, and stops those no longer wanted: farewell,
then wait, SIGTERM, SIGKILL. What their stderr said is kept, with the hints it gives bot authors.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Sequence

from engine.core import Fault, ProcessKey, Request, State, Termination
from engine.protocol import RefereeProtocol
from league.match.fault_hints import stderr_hints
from league.match.inprocess import InProcessTransport
from league.match.record import StderrTail
from league.match.reply_clock import ReplyClock, ThoughtAhead
from sandbox.process import BotProcess, LaunchError
from sandbox.startup import wait_until_idle
from sandbox.tcp import TcpBotProcess
from sandbox.transport import Poller, Transport


class SeatProcesses:
    """The running processes of one match, and what the stopped ones left.

    Args:
        launchers: Per seat, how to start that seat's processes.
        protocol: The game's referee side of the protocol (greeting, farewell, fault codes).
        poller: What the referee waits on pipes with; every running process is added to it.
        reply_clock: The match's reply clock (a built-in's time thought while it reads its greeting).
        now: The referee's clock (ns).

    Attributes:
        running: The processes running now.
        all_running: The state's last set of wanted processes while exactly those were running
            (None after a change).
        failed_launches: The processes that could not start (never started again).
        by_request: The transport found for a request, kept until a process stops (a lookup every ply).
        thought_ahead: Per built-in, what it answered while it read its greeting (charged to its first request).
        stderr: The stderr tails of the processes stopped so far.
        hints: Per seat, the hints for bot authors its processes' stderr gave (``league.match.fault_hints``).
    """

    def __init__(
        self,
        launchers: Sequence[Callable[[ProcessKey], Transport]],
        protocol: RefereeProtocol,
        poller: Poller,
        reply_clock: ReplyClock,
        now: Callable[[], int],
    ) -> None:
        self.launchers = launchers
        self.protocol = protocol
        self.poller = poller
        self.reply_clock = reply_clock
        self.now = now
        self.running: dict[ProcessKey, Transport] = {}
        self.all_running: frozenset[ProcessKey] | None = None
        self.failed_launches: set[ProcessKey] = set()
        self.by_request: dict[Request, Transport] = {}
        self.thought_ahead: dict[Transport, ThoughtAhead] = {}
        self.stderr: list[StderrTail] = []
        self.hints: dict[int, list[str]] = {}

    def sync(self, state: State) -> None:
        """Run exactly the processes the state wants: stop the others, start and greet the new ones."""
        wanted = state.processes()
        if wanted is self.all_running:  # the very set of the last ply, all running: the usual case
            return
        if self.failed_launches:
            wanted = wanted - self.failed_launches  # a set of its own, which the state never returns
        if wanted == self.running.keys():
            self.all_running = wanted
            return
        self.all_running = None
        self.stop([key for key in self.running if key not in wanted], state)
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
        startup_wait_s = self.reply_clock.settings.startup_wait_ms / 1000
        wait_until_idle([t for t in started.values() if isinstance(t, BotProcess)], startup_wait_s)
        for key, transport in started.items():
            greeting = self.protocol.greeting(state, key)
            if greeting:
                began = self.now()
                counters = self.reply_clock.counters(transport)
                transport.send(greeting)
                if isinstance(transport, InProcessTransport) and transport.buffer:
                    # A built-in that answered while reading (codevs21 solo: its first move)
                    # thought on its clock: charged to its first request, as a program's would be.
                    self.thought_ahead[transport] = ThoughtAhead(self.now() - began, *counters)
            if self.protocol.ends_input_after_greeting(state, key):
                transport.end_input()

    def _await_connections(self, state: State, started: dict[ProcessKey, Transport]) -> None:
        """Wait for TCP clients to connect, all at once; one that does not has crashed."""
        waiting = {key: transport for key, transport in started.items() if transport.connecting()}
        while waiting:
            now = self.now()
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
                self.poller.wait(max(0.0, (deadline - self.now()) / 1e9))

    def _code(self, state: State, key: ProcessKey, termination: Termination) -> str:
        return self.protocol.fault_code(state, Request(key.seat, key.role), termination)

    def stop(self, keys: list[ProcessKey], state: State) -> None:
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

    def transport(self, request: Request) -> Transport:
        """The running process that answers ``request`` (its seat and role)."""
        transport = self.by_request.get(request)
        if transport is not None:
            return transport
        for key, transport in self.running.items():
            if key.seat == request.seat and key.role == request.role:
                self.by_request[request] = transport
                return transport
        raise RuntimeError(f"no process for {request}: the state asked before starting one")


def kill_now(transport: Transport) -> None:
    """Kill a bot program at once (its stdin closed, its whole group SIGKILLed); its stop reaps it."""
    if isinstance(transport, BotProcess):
        transport.begin_stop()  # notes every process of the bot first, jailed ones included
        transport.kill_group(signal.SIGKILL)


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
