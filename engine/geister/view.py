"""What a geister replay shows of each state, and how tense it is (league/replay/rebuild.py reads this).

A frame holds every piece in seat 0's frame (seat 0 at the bottom, seat 1 at the top) with its
true colour: the replay reveals everything, and the viewer chooses whose knowledge to show.
``public_view`` and ``public_move`` give what a spectator may see while the game is played.
"""

from __future__ import annotations

import copy
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


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    """The frame as a spectator may see it while the game is played: no colour the rules keep secret.

    Each player names its red ghosts in secret and neither is told the other's choice before the
    game ends (engine/geister/README.md, section 1, "Setup"); a ghost's colour becomes known to
    both when it is captured ("Captures"), an escaping ghost is blue ("Winning"), and the end
    messages show every colour (section 2.3, "The board string"). So until the game is over
    every ghost still on the board has ``red`` None (also while its owner has not set up yet);
    captured and escaped ghosts keep their colour, and a frame of the end is shown whole. What a
    player could deduce (a ghost on its exit when its owner's turn began is red; the last four
    of a colour) is not drawn.

    Args:
        view: A full frame (``frame``).

    Returns:
        A new frame; ``view`` is not changed.
    """
    data = copy.deepcopy(view)
    if view["over"]:
        return data
    for pieces in data["pieces"]:
        for piece in pieces:
            if isinstance(piece["at"], list):
                piece["red"] = None
    return data


def public_move(move: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """A judged move as a spectator may see it, given the (full) frame it led to.

    A setup reply (``SET:ABCD``) names the red ghosts, secret until the game ends
    (engine/geister/README.md, section 1, "Setup"), so every answer to the setup request (a frame
    before the first ply, the referee's opening plies aside) is hidden. So is a rejected command
    after which the game goes on (``ng_terminate: false``, section 2.4): whether a move was legal
    can tell a colour (under ``move_off`` only a blue may leave the board), and the opponent is
    never told of it. A hidden move's reply is ``""`` and it has ``hidden: True``; its time, event
    and fault are public. Moves that led to the end are shown whole, as the end reveals every colour.

    Args:
        move: A judged move (``{"seat", "role", "reply", "ms", "fault"?, "event"?, "opening"?}``).
        view: The full frame the move led to.

    Returns:
        A new move; ``move`` is not changed.
    """
    data = copy.deepcopy(move)
    if view["over"]:
        return data
    setup = view["plies"] == 0 and not move.get("opening")
    if setup or move.get("fault"):
        data.update(reply="", hidden=True)
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


def public_tension(state: GeisterState) -> float:
    """``tension`` as a spectator can know it while the game is played: no colour the rules keep secret in it.

    ``tension``'s escape threat follows the true blues, which would tell a watcher where they are (see
    ``public_view``). Here a side's threat is its nearest ghost on the board to an exit, of either colour,
    times the share of blues among its ghosts on the board (known from the captures, whose colours are
    public). The capture brink and the balance are public as they are; the end is shown whole.
    """
    if state.phase == SETUP:
        return 0.0
    if state.phase == OVER:
        return tension(state)
    parts = _parts(state)
    escape = max(_public_threat(state, seat) for seat in (0, 1))
    decision, also = max(escape, parts["brink"]), min(escape, parts["brink"])
    return min(1.0, (0.8 * decision + 0.2 * also) * (0.8 + 0.2 * parts["level"]))


def _public_threat(state: GeisterState, seat: int) -> float:
    """0 to 1: how close ``seat``'s nearest ghost on the board is to an exit, times the share of blues among them."""
    if state.reds[seat] is None:
        return 0.0
    on_board = [square for square in state.squares[seat] if square not in (CAPTURED, ESCAPED)]
    blues_taken = sum(
        square == CAPTURED and state.colour(seat, i) == "B" for i, square in enumerate(state.squares[seat])
    )
    if not on_board:
        return 0.0
    share = max(0, 4 - blues_taken) / len(on_board)
    steps = min(abs(x - ex) + abs(y - ey) for x, y in on_board for ex, ey in EXITS)
    return min(1.0, share) * (max(0, _FAR - steps) / _FAR) ** 1.5


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
