"""What a geister replay shows of each state, and how tense it is (league/replay/rebuild.py reads this).

A frame holds every piece in seat 0's frame (seat 0 at the bottom, seat 1 at the top) with its
true colour: the replay reveals everything, and the viewer chooses whose knowledge to show.
"""

from __future__ import annotations

from typing import Any

from engine.geister.board import CAPTURED, ESCAPED, EXITS, LETTERS, rotate
from engine.geister.rules import OVER, SETUP, GeisterState

ASSETS: tuple[str, ...] = ()
"""Shared scripts the viewer needs (league/replay/assets/): none."""

TENSION = (
    "Tension rises as a blue ghost closes in on an exit and as either side comes near to losing all its blues or"
    " all its reds, the more so while the captures stay level."
)

_FAR = 5
"""How far (in steps) every piece starts from its exits: the distance at which the escape threat is 0."""


def _where(seat: int, square: tuple[int, int]) -> list[int] | str:
    """A piece's square in seat 0's frame as [x, y], or ``captured`` / ``escaped``."""
    if square == CAPTURED:
        return "captured"
    if square == ESCAPED:
        return "escaped"
    x, y = square if seat == 0 else rotate(square)
    return [x, y]


def frame(state: GeisterState) -> dict[str, Any]:
    """Every piece (seat 0's frame, true colours), captures, time left, whose turn, and the end once over."""
    pieces = [
        [
            {
                "id": LETTERS[i],
                "at": _where(seat, square),
                "red": state.reds[seat] is not None and state.colour(seat, i) == "R",
            }
            for i, square in enumerate(state.squares[seat])
        ]
        for seat in (0, 1)
    ]
    data: dict[str, Any] = {
        "phase": state.phase,
        "plies": state.plies,
        "max_plies": state.max_plies,
        "escape": state.escape,
        "to_move": [request.seat for request in state.to_act()],
        "over": state.phase == OVER,
        "set": [reds is not None for reds in state.reds],
        "pieces": pieces,
        "captured_by": [sum(square == CAPTURED for square in state.squares[1 - seat]) for seat in (0, 1)],
        "remaining_ms": list(state.remaining_ms) if state.budget_ms is not None else None,
    }
    if state.phase == OVER:
        data["end"] = {"winner": state.winner, "reason": state.reason, "detail": state.detail}
    return data


def _threat(state: GeisterState, seat: int) -> float:
    """0 to 1: how close ``seat``'s nearest blue on the board is to one of its exits (1 on it, or escaped)."""
    if state.reds[seat] is None:
        return 0.0
    best = 0.0
    for i, square in enumerate(state.squares[seat]):
        if state.colour(seat, i) != "B" or square == CAPTURED:
            continue
        if square == ESCAPED:
            return 1.0
        steps = min(abs(square[0] - ex) + abs(square[1] - ey) for ex, ey in EXITS)
        best = max(best, (max(0, _FAR - steps) / _FAR) ** 1.5)
    return best


def _brink(state: GeisterState, seat: int) -> float:
    """0 to 1: how near ``seat`` is to losing all its blues or all its reds (squared share of one colour gone)."""
    if state.reds[seat] is None:
        return 0.0
    lost = {"R": 0, "B": 0}
    for i, square in enumerate(state.squares[seat]):
        if square == CAPTURED:
            lost[state.colour(seat, i)] += 1
    return (max(lost.values()) / 4) ** 2


def _parts(state: GeisterState) -> dict[str, float]:
    """The tension's parts: the escape threat and the capture brink of the worse-placed side, and the balance."""
    taken = [sum(square == CAPTURED for square in state.squares[1 - seat]) for seat in (0, 1)]
    return {
        "escape": round(max(_threat(state, seat) for seat in (0, 1)), 4),
        "brink": round(max(_brink(state, seat) for seat in (0, 1)), 4),
        "level": round(1 - abs(taken[0] - taken[1]) / 8, 4),
    }


def tension(state: GeisterState) -> float:
    """0 (calm) to 1: the nearer decision (a blue near an exit, a side near losing a colour), more when level."""
    if state.phase == SETUP:
        return 0.0
    parts = _parts(state)
    decision = max(parts["escape"], parts["brink"])
    also = min(parts["escape"], parts["brink"])
    return min(1.0, (0.8 * decision + 0.2 * also) * (0.8 + 0.2 * parts["level"]))


def text(data: dict[str, Any]) -> str:
    """A frame as terminal text: the board in seat 0's frame (upper case seat 0, lower case seat 1), then captures."""
    rows = [["." for _ in range(6)] for _ in range(6)]
    for ex, ey in EXITS:  # seat 0's exits on top, seat 1's at the bottom
        rows[ey][ex] = "^"
        rows[5 - ey][5 - ex] = "v"
    off: list[list[str]] = [[], []]
    for seat, pieces in enumerate(data["pieces"]):
        for piece in pieces:
            name = piece["id"] + (("r" if piece["red"] else "b") if data["set"][seat] else "?")
            name = name if seat == 0 else name.lower()
            if isinstance(piece["at"], list):
                x, y = piece["at"]
                rows[y][x] = name
            else:
                off[seat].append(f"{name} {piece['at']}")
    lines = ["   " + " ".join(f"{x:>2}" for x in range(6)) + "    (^ seat 0's exits, v seat 1's; r red, b blue)"]
    lines += [f"{y:>2} " + " ".join(f"{cell:>2}" for cell in row) for y, row in enumerate(rows)]
    for seat in (0, 1):
        lost = ", ".join(off[seat]) or "none"
        lines.append(f"seat {seat} ({'upper' if seat == 0 else 'lower'} case) off the board: {lost}")
    lines.append(f"captures {data['captured_by'][0]} : {data['captured_by'][1]}   ply {data['plies']}")
    if data["phase"] == SETUP:
        lines.append(
            "setup: " + ", ".join(f"seat {s} {'set' if done else 'choosing'}" for s, done in enumerate(data["set"]))
        )
    if data["over"]:
        lines.append(f"over: {data['end']['detail']} ({data['end']['reason']})")
    return "\n".join(lines)
