"""A built-in bot driven in the referee's own process, through the bot side of its game's protocol.

It is a ``Transport`` like a bot program's pipes, so both paths share the same bytes, parser and
clocks; it belongs with the players, not the sandbox, since it runs no program and knows games.
A built-in thinks in the referee's thread: where it did not block (its thread made no voluntary
context switch), the wall time it spent beyond its thread's CPU time is time the machine kept it
from a CPU, which the ``own`` clock does not charge; a built-in that slept or blocked is charged
all of that thinking's wall time.

A built-in that owes several replies at once (codevs21 solo: every move after the last pack)
decides one each time the referee asks (``BotDriver.replies``), as a program printing each move
as soon as it is decided would: each is charged to its own request, and a spent time bank keeps
what the replies before it earned.
"""

from __future__ import annotations

import resource
import time
import traceback
from collections.abc import Iterator

from engine.protocol import BotDriver
from sandbox.transport import Transport


class InProcessTransport(Transport):
    """A built-in bot answering in this process through its game's bot-side protocol."""

    def __init__(self, driver: BotDriver, max_line_bytes: int = 1 << 20) -> None:
        super().__init__(max_line_bytes)
        self.driver = driver
        self.pending = b""
        self.closed = False
        self.error = ""
        self.trace = ""
        self.owed: Iterator[str] | None = None
        """The replies of the last line received not yet taken, each decided when taken."""
        self.thread_cpu_ns = 0
        self.thread_waited_ns = 0
        """Time the built-in's thinking waited for a CPU (wall less CPU time, where it never blocked)."""
        self._flushed_at_ns = time.monotonic_ns()

    def send(self, data: bytes) -> None:
        if self.closed:
            return
        self._flushed_at_ns = time.monotonic_ns()
        text = (self.pending + data).decode("ascii")
        *lines, self.pending = text.split("\n")
        self.pending = self.pending.encode("ascii")
        began = _thread_usage()  # once for all the lines: reading a thread's counters is a system call
        try:
            for line in lines:
                try:
                    self.owed = self.driver.replies(line.removesuffix("\r"))
                except Exception as error:  # a bug in a built-in bot is its forfeit, not the league's end
                    self._failed(error)
                    return
                if not self._take_reply():
                    return
            if self.owed is not None and b"\n" not in self.buffer:  # asked again: the next reply owed
                self._take_reply()
        finally:
            cpu_ns, switches = _thread_usage()
            self.thread_cpu_ns += cpu_ns - began[0]
            wall_ns = time.monotonic_ns() - self._flushed_at_ns
            self.thread_waited_ns += wall_ns - (cpu_ns - began[0]) if switches == began[1] else 0

    def _take_reply(self) -> bool:
        """Decide the next reply owed, if any, and receive it; False when the built-in failed doing so."""
        assert self.owed is not None
        try:
            reply = next(self.owed, None)
        except Exception as error:  # a bug in a built-in bot is its forfeit, not the league's end
            self._failed(error)
            return False
        if reply is None:
            self.owed = None
        else:
            self._received(reply.encode("ascii", "replace") + b"\n")
        return True

    def _failed(self, error: Exception) -> None:
        """Stop the built-in after a bug of its own: its error and traceback are kept for the detail."""
        self.error = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        self.trace = traceback.format_exc()
        self.close()

    def flushed_at_ns(self) -> int | None:
        return self._flushed_at_ns

    def cpu_ns(self) -> int | None:
        return self.thread_cpu_ns

    def wait_ns(self) -> int | None:
        return max(0, self.thread_waited_ns)

    def close(self) -> None:
        self.closed = True
        self._ended()

    def describe_exit(self) -> str:
        return f"(built-in) raised {self.error}" if self.error else "(built-in) stopped"

    def stderr_text(self) -> str:
        """The traceback of the error that stopped the built-in, if one did."""
        return self.trace


def _thread_usage() -> tuple[int, int]:
    """This thread's CPU time (ns) and its voluntary context switches (each a time it blocked or slept)."""
    usage = resource.getrusage(resource.RUSAGE_THREAD)
    return round((usage.ru_utime + usage.ru_stime) * 1e9), usage.ru_nvcsw
