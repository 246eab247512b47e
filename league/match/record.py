"""What a match leaves behind (every reply, each seat's stderr, the result) and how replies are timed.

The referee (league/match/referee.py) fills these in; the CLI prints them and the worker stores them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import Result


@dataclass
class Move:
    """One reply as the referee saw it.

    Attributes:
        seat: Who replied.
        role: In which role.
        reply: The line (decoded as Latin-1, so any byte survives), or "" when none came.
        elapsed_ms: Whole ms from the request's last byte to the reply's LF.
        fault: The reason code when the reply was a fault.
        event: What came: ``line`` (a reply line), ``eof`` (the stream ended), ``silence``
            (nothing in time), ``overlong`` (a line over the cap) or ``flood`` (output over the
            game's cap). Replays need it to tell an ended stream from a silent one.
    """

    seat: int
    role: str
    reply: str
    elapsed_ms: int
    fault: str | None = None
    event: str = "line"


@dataclass(frozen=True)
class StderrTail:
    """What one bot process wrote to stderr (its last few KB), kept with the match.

    Attributes:
        seat: Whose process.
        role: In which role.
        epoch: Which of the seat's processes in that role (a game of a best of three, a half).
        text: The tail, decoded leniently.
    """

    seat: int
    role: str
    epoch: int
    text: str


@dataclass
class MatchRecord:
    """What a match produced: the result, every reply with its time, each seat's time, stderr.

    Attributes:
        result: The outcome.
        moves: Every reply in order.
        time_used_ms: Per seat, the sum of its replies' elapsed times.
        final_state: The state at the end, as JSON data (for replays and summaries).
        stderr: What each process wrote to stderr, in the order they stopped (silent ones left out).
        opening: The opening's plies the referee played, in the game's reply notation (None: no opening).
    """

    result: Result
    moves: list[Move] = field(default_factory=list)
    time_used_ms: list[int] = field(default_factory=list)
    final_state: dict[str, Any] = field(default_factory=dict)
    stderr: list[StderrTail] = field(default_factory=list)
    opening: list[str] | None = None


@dataclass(frozen=True)
class ClockSettings:
    """How the referee measures the time a reply took.

    Attributes:
        kind: ``own`` (the default: wall time less the time the bot waited, ready to run, for a CPU
            the machine gave to others; so a bot that sleeps or blocks is charged and one the machine
            starved is not), ``wall`` (monotonic wall time, the rules' own measure) or ``cpu`` (the
            CPU time the bot's processes used).
        margin_ms: Harness overhead forgiven on every reply: the referee waits this much longer
            and charges this much less.
        game_wall_s: Wall time the whole match may take before the awaited bot is timed out.
        startup_wait_ms: Longest wait for freshly started programs to settle (sandbox/startup.py)
            before their first request; 0 sends it at once.
    """

    kind: str = "own"
    margin_ms: int = 0
    game_wall_s: float | None = None
    startup_wait_ms: int = 2000

    def wait_ms(self, allowance_ms: int) -> int:
        """How long to wait (wall time) for a reply allowed ``allowance_ms`` before its time is judged.

        Under ``own`` the referee then waits on by what the machine denied the bot, up to ``guard_ms``.
        """
        if self.kind == "cpu":  # a bot that sleeps uses no CPU: still bound the wait
            return self.guard_ms(allowance_ms)
        return allowance_ms + self.margin_ms

    def guard_ms(self, allowance_ms: int) -> int:
        """The longest wall time a reply may take under a clock that does not charge all of it (``cpu``, ``own``)."""
        if self.kind == "own":
            return max(3 * allowance_ms, allowance_ms + 1000) + self.margin_ms
        return max(2 * allowance_ms, allowance_ms + 1000) + self.margin_ms
