"""How the referee times a reply: when its clock starts, how long it waits, what it charges.

A request sent and not yet answered is a ``PendingReply``; ``ReplyClock`` measures it by the
match's ``ClockSettings`` (wall, ``own`` or CPU time, less the margin) and, under the ``own``
clock, gives a bot the time the machine kept it waiting for a CPU.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.core import Request
from league.match.record import ClockSettings
from sandbox.procfs import OpenCounter
from sandbox.transport import Poller, Transport

_OWN_THREAD = "/proc/thread-self/schedstat"

_NS_PER_MS = 1_000_000
_RECHECK_NS = 2 * _NS_PER_MS
"""How soon the ``own`` clock looks again at a bot that seems over its time while it is ready to run."""


@dataclass(frozen=True, slots=True)
class ThoughtAhead:
    """A built-in's answers given while it read its greeting: charged to its first request."""

    wall_ns: int
    cpu_ns: int | None
    wait_ns: int | None

    @property
    def counters(self) -> tuple[int | None, int | None]:
        """Its CPU time and run-queue wait before the greeting: where the first request's clock starts."""
        return self.cpu_ns, self.wait_ns


@dataclass(eq=False, slots=True)
class PendingReply:
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

    def clock_start_ns(self) -> int:
        """When the reply's clock started: the request flushed (else sent), on by the referee's busy time.

        Moved back by what a built-in thought ahead while it read its greeting.
        """
        if self.flushed_ns is None:  # kept once known: an NG sent later does not restart the clock
            self.flushed_ns = self.transport.flushed_at_ns()
        start = self.flushed_ns
        return (start if start is not None else self.sent_ns) + self.referee_busy_ns - self.thought_ahead_ns


class ReplyClock:
    """Times one match's replies by its clock settings.

    Args:
        settings: How reply times are measured.

    Attributes:
        game_deadline_ns: When the match's wall limit runs out (the referee's clock), or None.
        own_thread: The referee thread's own ``schedstat``, under the ``own`` clock (opened by
            ``start``, in the thread that plays).
    """

    def __init__(self, settings: ClockSettings) -> None:
        self.settings = settings
        self.game_deadline_ns: int | None = None
        self.own_thread: OpenCounter | None = None

    def start(self, now: Callable[[], int]) -> None:
        """Start the match's clocks, in the thread that plays it.

        Args:
            now: The referee's clock (ns), read for the match's wall limit.
        """
        if self.settings.kind == "own":
            self.own_thread = OpenCounter(_OWN_THREAD)
        if self.settings.game_wall_s is not None:
            self.game_deadline_ns = now() + int(self.settings.game_wall_s * 1e9)

    def close(self) -> None:
        """Release what ``start`` opened."""
        if self.own_thread is not None:
            self.own_thread.close()

    def reply_wait_ns(self, allowance_ms: int) -> int:
        """How long after its clock starts the referee waits for a reply allowed ``allowance_ms`` (margin, 1 ms)."""
        return (self.settings.wait_ms(allowance_ms) + 1) * _NS_PER_MS

    def counters(self, transport: Transport) -> tuple[int | None, int | None]:
        """The bot's CPU time and run-queue wait now, as far as the clock needs them (None: not needed or unknown)."""
        kind = self.settings.kind
        if kind == "wall":
            return None, None
        return transport.own_counters() if kind == "own" else (transport.cpu_ns(), None)

    def referee_wait_ns(self) -> int:
        """How long the referee's thread has waited, ready to run, for a CPU so far (0 where unknown)."""
        counts = self.own_thread.schedstat() if self.own_thread is not None else None
        return counts[1] if counts is not None else 0

    def poll_counting_wait(self, poller: Poller, timeout_s: float) -> int:
        """Wait on the pipes as usual; how long the referee then waited for a CPU before it ran again (ns)."""
        before = self.referee_wait_ns()
        poller.wait(timeout_s)
        return self.referee_wait_ns() - before

    def give_owed_time(self, wait: PendingReply, wall_ns: int, deadline: int) -> bool:
        """Under the ``own`` clock, at the wall deadline: give the bot the time the machine denied it, if any.

        Moves the reply's wait on by what the bot is still owed (never past the clock's guard);
        False when it is owed nothing: the deadline stands. The kernel adds a wait for a CPU to a
        thread's count only once the thread runs again, so a bot that looks over its time while it
        is ready to run, with less CPU time than its allowance, may be waiting still: it is looked at
        again shortly (``_RECHECK_NS``) rather than timed out on a count that is not yet complete.
        """
        guard_ns = (self.settings.guard_ms(wait.allowance_ms) + 1) * _NS_PER_MS
        if wall_ns >= guard_ns or (self.game_deadline_ns is not None and deadline >= self.game_deadline_ns):
            return False
        allowance_ns = wait.allowance_ms * _NS_PER_MS
        used, waited = wait.transport.own_counters()
        owed_ns = allowance_ns - self.own_ns(wait, wall_ns, used, waited) + _NS_PER_MS
        if owed_ns <= 0:
            start = wait.cpu_start_ns
            cpu_ns = (used - start) / wait.transport.cores if used is not None and start is not None else 0
            if not (wait.transport.ready_to_run() and cpu_ns <= allowance_ns):
                return False
            owed_ns = _RECHECK_NS
        wait.wait_ns = min(guard_ns, wall_ns + owed_ns)
        return True

    @staticmethod
    def own_ns(wait: PendingReply, wall_ns: int, used: int | None, waited: int | None) -> int:
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

    def charged_ms(self, wait: PendingReply, wall_ns: int) -> int:
        """The whole ms a reply is charged: by the clock's measure (wall, own or CPU time), less the margin."""
        kind = self.settings.kind
        if kind == "own":
            measured = self.own_ns(wait, wall_ns, *wait.transport.own_counters()) // _NS_PER_MS
        elif kind == "cpu" and wait.cpu_start_ns is not None:
            used = wait.transport.cpu_ns()
            measured = (used - wait.cpu_start_ns) // _NS_PER_MS if used is not None else wall_ns // _NS_PER_MS
        else:
            measured = wall_ns // _NS_PER_MS
        return max(0, measured - self.settings.margin_ms)
