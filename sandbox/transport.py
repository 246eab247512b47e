"""Line transports to one bot: what the referee writes to and reads lines from.

A transport buffers what a bot printed and hands out complete lines; it never blocks. The
referee waits on several transports at once with a ``Poller``. A real process over pipes is
``sandbox.process.BotProcess``; a built-in bot answering in the referee's own process is
``league.match.inprocess.InProcessTransport``. This module knows no game: it moves bytes and lines.
"""

from __future__ import annotations

import select
import time
from abc import ABC, abstractmethod
from collections import deque
from enum import StrEnum
from typing import NamedTuple

_BLANK = bytes(range(0x21))
_READ, _WRITE = select.POLLIN, select.POLLOUT


class LineKind(StrEnum):
    """What reading a reply produced."""

    LINE = "line"
    EOF = "eof"
    OVERLONG = "overlong"
    FLOOD = "flood"


class LineEvent(NamedTuple):
    """A reply as read: a complete line, the end of the stream, a line over the cap, or a flood.

    Attributes:
        kind: Which of the four.
        data: The line without its LF (for EOF: an unterminated fragment, maybe empty).
        at_ns: ``time.monotonic_ns()`` when it became complete.
    """

    kind: LineKind
    data: bytes
    at_ns: int


class Transport(ABC):
    """One bot's byte stream, seen as lines."""

    def __init__(self, max_line_bytes: int, max_output_bytes: int = 16 << 20) -> None:
        self.max_line_bytes = max_line_bytes
        self.max_output_bytes = max_output_bytes
        self.buffer = bytearray()
        self.eof = False
        self.bytes_read = 0
        self.stdin_broken = False
        self._eof_at_ns = 0
        self._line_at_ns: deque[int] = deque()
        self._skipping_line = False
        self._open_overlong = False

    @abstractmethod
    def send(self, data: bytes) -> None:
        """Queue bytes for the bot and write what can be written now (never blocks)."""

    @abstractmethod
    def flushed_at_ns(self) -> int | None:
        """When the last queued byte was written, or None while some are pending."""

    @abstractmethod
    def close(self) -> None:
        """End the conversation and release the bot."""

    def end_input(self) -> None:
        """Close the bot's stdin once everything queued has been written (it then reads EOF).

        The default does nothing: a bot without a stdin of its own (a built-in) needs no EOF.
        """
        return None

    connect_deadline_ns = 0
    """For bots that must first connect (TCP): when they must have connected by."""

    def connecting(self) -> bool:
        """Whether the bot is still to connect before it can be spoken to (TCP clients)."""
        return False

    def connected(self) -> bool:
        """Whether the bot can be spoken to (always, but for TCP clients that never connected)."""
        return True

    def connect_failure(self) -> str:
        """Why a TCP client never connected, as a phrase after "its TCP client"."""
        return ""

    def silence_hint(self) -> str:
        """What to check when a bot that timed out has sent nothing at all."""
        return "it has printed nothing at all: is its stdout flushed after each line?"

    def describe_exit(self) -> str:
        """A phrase about how the bot ended, for details ("exited with status 1")."""
        return "closed its output"

    cores: float = 1.0
    """CPUs the bot's processes may use together (its ``limits.cores``): what a reply's CPU time is divided by."""

    def cpu_ns(self) -> int | None:
        """CPU time the bot has used so far, in ns, or None where it cannot be measured."""
        return None

    def wait_ns(self) -> int | None:
        """How long the bot's main thread has waited, ready to run, for a CPU so far (ns), or None where unknown.

        The kernel counts it per thread (``/proc/PID/schedstat``): time the machine did not give
        the bot, which the ``own`` clock does not charge.
        """
        return None

    def own_counters(self) -> tuple[int | None, int | None]:
        """What the ``own`` clock reads at each end of a reply: (CPU time, main thread's run-queue wait), ns.

        The CPU time is the floor of the charge (a bot whose processes keep each other waiting is
        charged its CPU time all the same); either may be None where unknown.
        """
        return self.cpu_ns(), self.wait_ns()

    def ready_to_run(self) -> bool:
        """Whether the bot's main thread is running or waiting for a CPU now (False: blocked, or unknown)."""
        return False

    def thinking(self, asked: bool) -> None:  # noqa: B027 - only bots with a CPU weight of their own change it
        """Called with True when the bot is asked for a reply, with False once it has answered."""

    def stderr_text(self) -> str:
        """What the bot wrote to stderr (its last few KB), for people reading a faulted game."""
        return ""

    def _received(self, chunk: bytes) -> None:
        now = time.monotonic_ns()
        self.bytes_read += len(chunk)
        self.buffer += chunk
        self._line_at_ns.extend([now] * chunk.count(b"\n"))

    def _ended(self) -> None:
        if not self.eof:
            self.eof = True
            self._eof_at_ns = time.monotonic_ns()

    def take_line(self, skip_blank: bool, fragment_at_eof_is_line: bool, cap: int | None) -> LineEvent | None:
        """The next reply if one is complete, else None.

        Args:
            skip_blank: Drop lines that are empty once trimmed of spaces, tabs and CR.
            fragment_at_eof_is_line: Whether an unterminated fragment before EOF is a line.
            cap: The game's own cap on a line (without LF); the transport's cap applies too.
        """
        limit = self.max_line_bytes if cap is None else min(cap, self.max_line_bytes)
        if self.bytes_read > self.max_output_bytes:
            return LineEvent(LineKind.FLOOD, b"", time.monotonic_ns())
        while True:
            end = self.buffer.find(b"\n")
            if self._skipping_line:  # the rest of a line over the cap that was already answered
                if end < 0:
                    self.buffer.clear()
                    return LineEvent(LineKind.EOF, b"", self._eof_at_ns) if self.eof else None
                del self.buffer[: end + 1]
                self._line_at_ns.popleft()
                self._skipping_line = False
                continue
            if end < 0:
                if len(self.buffer) > limit:
                    self._open_overlong = True  # its LF is still to come
                    return LineEvent(LineKind.OVERLONG, bytes(self.buffer[:limit]), time.monotonic_ns())
                if self.eof:
                    fragment = bytes(self.buffer)
                    if fragment and fragment_at_eof_is_line and not (skip_blank and not fragment.strip(_BLANK)):
                        self.buffer.clear()
                        return LineEvent(LineKind.LINE, fragment, self._eof_at_ns)
                    return LineEvent(LineKind.EOF, fragment, self._eof_at_ns)
                return None
            line = bytes(self.buffer[:end])
            del self.buffer[: end + 1]
            at_ns = self._line_at_ns.popleft()
            if len(line) > limit:
                return LineEvent(LineKind.OVERLONG, line[:limit], at_ns)
            if skip_blank and not line.strip(b" \t\r"):
                continue
            return LineEvent(LineKind.LINE, line, at_ns)

    def skip_line(self) -> None:
        """Drop the rest of the line over the cap just reported (up to its LF, maybe still to come)."""
        if not self._open_overlong:
            return  # a complete line over the cap is gone already
        self._open_overlong = False
        end = self.buffer.find(b"\n")
        if end >= 0:
            del self.buffer[: end + 1]
            self._line_at_ns.popleft()
        else:
            self.buffer.clear()
            self._skipping_line = True

    def read_fds(self) -> list[int]:
        """File descriptors to wait on for reading (none for in-process bots)."""
        return []

    def pushing_back(self) -> bool:
        """Whether to stop reading the bot's output for now: a line over the cap or a flood is waiting."""
        return self.bytes_read > self.max_output_bytes or len(self.buffer) > self.max_line_bytes

    def write_fds(self) -> list[int]:
        """File descriptors to wait on for writing pending bytes."""
        return []

    def watches(self) -> tuple[tuple[int, int], ...]:
        """What to wait on now: (descriptor, poll events) pairs, from ``read_fds`` and ``write_fds``."""
        return tuple((fd, _READ) for fd in self.read_fds()) + tuple((fd, _WRITE) for fd in self.write_fds())

    def on_ready(self, fd: int) -> None:  # noqa: B027 - transports without pipes have nothing to move
        """Move bytes on a ready descriptor."""


class Poller:
    """Waits on many transports' pipes with one long-lived ``poll`` object (a handful of pipes each time).

    Before each wait the watched set is brought in line with what each transport wants now:
    stdout and stderr for reading (unless it is pushing back on a flooding bot), stdin only
    while bytes are pending.
    """

    def __init__(self) -> None:
        self.watched = select.poll()
        self.transports: list[Transport] = []
        self.registered: dict[int, tuple[Transport, int]] = {}
        self.last_watches: list[tuple[tuple[int, int], ...]] | None = None

    def add(self, transport: Transport) -> None:
        """Watch a transport."""
        self.transports.append(transport)
        self.last_watches = None

    def remove(self, transport: Transport) -> None:
        """Stop watching a transport (before it is closed)."""
        self.transports.remove(transport)
        self.last_watches = None
        for fd, (owner, _) in list(self.registered.items()):
            if owner is transport:
                self.watched.unregister(fd)
                del self.registered[fd]

    def _sync(self) -> None:
        watches = [transport.watches() for transport in self.transports]
        if watches == self.last_watches:
            return  # the usual case: every pipe is watched as at the last wait
        self.last_watches = watches
        wanted: dict[int, tuple[Transport, int]] = {}
        for transport, pairs in zip(self.transports, watches, strict=True):
            for fd, events in pairs:
                wanted[fd] = (transport, events)
        for fd in self.registered.keys() - wanted.keys():
            self.watched.unregister(fd)
        for fd, watch in wanted.items():
            if self.registered.get(fd) != watch:
                self.watched.register(fd, watch[1])  # registering a watched descriptor again modifies it
        self.registered = wanted

    def wait(self, timeout_s: float) -> None:
        """Wait up to ``timeout_s`` until some watched pipe is ready, and move its bytes.

        Args:
            timeout_s: The longest wait; 0 polls.
        """
        self._sync()
        if not self.registered:
            if timeout_s > 0:
                time.sleep(timeout_s)
            return
        for fd, _ in self.watched.poll(max(0.0, timeout_s) * 1000):  # ms, rounded up
            owner = self.registered.get(fd)
            if owner is not None:
                owner[0].on_ready(fd)

    def close(self) -> None:
        """Stop watching every pipe."""
        for fd in self.registered:
            self.watched.unregister(fd)
        self.registered = {}
        self.transports = []
        self.last_watches = None
