"""The faults of a reply, as data: what went wrong, with the sentence a bot author reads.

A line that breaks the parser or the rules, a reply that never came, a stream that ended, a
flood or a line over the cap, a seat still thinking when the match's wall limit ran out: each is
a ``Fault`` with its game's reason code and a detail that quotes what the bot did send.
"""

from __future__ import annotations

from typing import Any

from engine.core import Fault, Request, State, Termination
from engine.protocol import RefereeProtocol
from league.match.fault_hints import reply_hint
from sandbox.transport import LineEvent, LineKind, Transport


def read_reply(protocol: RefereeProtocol, state: State, request: Request, reply: str) -> tuple[Any, Fault | None]:
    """A reply line's action, or the fault of its form (parse) or of the rules (check)."""
    try:
        action = protocol.parse(state, request, reply)
    except Exception as error:  # noqa: BLE001 - any reply that breaks the parser is bad output
        return None, Fault(
            request.seat,
            Termination.BAD_OUTPUT,
            protocol.fault_code(state, request, Termination.BAD_OUTPUT),
            f"seat {request.seat} sent a malformed reply to {protocol.describe(state, request)}"
            f" ({_shorten(reply)}): {_cut(str(error))}{reply_hint(reply)}",
        )
    return action, state.check(request, action)


def stream_fault(
    protocol: RefereeProtocol, state: State, request: Request, transport: Transport, event: LineEvent | None
) -> Fault:
    """The fault of a reply that never came, a stream that ended, or a line over the cap."""
    seat = request.seat
    what = protocol.describe(state, request)
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
    return Fault(seat, termination, protocol.fault_code(state, request, termination), detail)


def game_wall_fault(protocol: RefereeProtocol, state: State, request: Request, game_wall_s: float | None) -> Fault:
    """The fault of a seat still thinking when the match's wall limit of ``game_wall_s`` ran out."""
    seat = request.seat
    return Fault(
        seat,
        Termination.TIMEOUT,
        protocol.fault_code(state, request, Termination.TIMEOUT),
        f"seat {seat} had not answered {protocol.describe(state, request)} when the match's"
        f" wall limit of {game_wall_s} s ran out",
    )


def silence_note(transport: Transport) -> str:
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
