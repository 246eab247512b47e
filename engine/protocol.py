"""The two sides of a game's wire protocol, as every game implements them.

The referee side turns a state into the exact bytes a bot process receives and a reply line into
a typed action; the bot side turns received lines back into typed observations for a built-in
bot and its actions into reply lines. Neither side does any I/O: the referee (league/match/referee.py)
and the stdio runner below move the bytes.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import IO, Any

from engine.core import Fault, ProcessKey, Request, State, Termination


@dataclass(frozen=True)
class LineRules:
    """How a game's rules read a reply line.

    Attributes:
        max_bytes: The rules' cap on a reply line without its LF; None leaves only the sandbox cap.
        skip_blank: Whether a line that is empty after trimming is skipped (clock keeps running).
        fragment_at_eof_is_line: Whether bytes followed by EOF without LF count as a reply.
        broken_pipe_is_crash: Whether a request that cannot be written (the bot closed its stdin)
            is a crash at once, rather than swallowed until the reply's read reports the end.
    """

    max_bytes: int | None = None
    skip_blank: bool = False
    fragment_at_eof_is_line: bool = True
    broken_pipe_is_crash: bool = False


class ParseError(Exception):
    """A reply that is not well formed; its message is the detail shown to people."""


class RefereeProtocol(ABC):
    """The referee side of one game's protocol."""

    line_rules: LineRules = LineRules()
    kills_offenders: bool = False
    """Whether a bot that faults is killed at once, with no farewell and no grace to exit (the rules
    of games that play on with a fallback seat: nimmt and fish, section 7.2), rather than stopped
    with the others when its processes are no longer needed."""

    def greeting(self, state: State, key: ProcessKey) -> bytes:
        """Bytes sent once when a process starts, before any request (setup lines)."""
        return b""

    def ends_input_after_greeting(self, state: State, key: ProcessKey) -> bool:
        """Whether the process's stdin is closed once its greeting is written (codevs21's solo)."""
        return False

    @abstractmethod
    def request(self, state: State, request: Request) -> bytes:
        """The exact bytes of a request."""

    @abstractmethod
    def parse(self, state: State, request: Request, line: str) -> Any:
        """A reply line (without LF) as a typed action.

        Raises:
            ParseError: The line is not a well-formed reply to this request.
        """

    @abstractmethod
    def fault_code(self, state: State, request: Request, termination: Termination) -> str:
        """The game's reason code for a fault the referee detected itself."""

    def describe(self, state: State, request: Request) -> str:
        """Names a request in a detail sentence, e.g. "turn 12"."""
        return "its request"

    def shutdown_wait_ms(self) -> int:
        """How long a process may take to exit by itself once its stdin is closed."""
        return 0

    def acceptance(self, state: State, request: Request, action: Any) -> bytes:
        """Bytes sent at once to a bot whose reply was judged well formed and legal (an ``OK``)."""
        return b""

    def rejection(self, state: State, request: Request, fault: Fault) -> bytes:
        """Bytes sent at once to a bot whose reply was malformed or illegal (an ``NG``)."""
        return b""

    def retries_rejected(self, state: State) -> bool:
        """Whether a rejected reply may be followed by another within the same allowance."""
        return False

    def notices(self, state: State, applied: Mapping[Request, Any]) -> list[tuple[ProcessKey, bytes]]:
        """Information lines to send after ``applied`` was played (acks, reveals)."""
        return []

    def stop_rank(self, state: State, key: ProcessKey) -> Any:
        """Sort key of processes stopped together: farewells go out in this order."""
        return key

    def farewell(self, state: State, key: ProcessKey) -> bytes:
        """Bytes sent to a process when it is no longer needed (before stdin closes)."""
        return b""


class BotDriver(ABC):
    """The bot side of one game's protocol, driving one built-in bot."""

    @abstractmethod
    def feed(self, line: str) -> str | None:
        """Take one received line (without LF); return a reply (without LF) when one is due."""

    def replies(self, line: str) -> Iterator[str]:
        """Take one received line (without LF) now; its replies (each without LF), each decided when asked for.

        A bot that owes several replies at once (codevs21 solo: every move after the last pack)
        decides each only as it is taken, so each can be printed as soon as it is decided. By
        default, ``feed``'s reply, if any.
        """
        reply = self.feed(line)
        return iter(() if reply is None else (reply,))


def run_stdio(driver: BotDriver, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
    """Speak a protocol on stdin/stdout until stdin closes.

    Args:
        driver: The bot side to run.
        stdin: Where lines come from (default ``sys.stdin``).
        stdout: Where replies go, each flushed as soon as it is decided (default ``sys.stdout``).
    """
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for raw in stdin:
        for reply in driver.replies(raw.rstrip("\r\n")):
            stdout.write(reply + "\n")
            stdout.flush()
