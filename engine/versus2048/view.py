"""What a versus2048 replay shows of each state, and how tense it is (league/replay/rebuild.py reads this).

``public_view`` and ``public_move`` give what a spectator may see while the game is played.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.slide import square
from engine.versus2048.rules import OVER, PREGAME, Versus2048State

ASSETS = ("tiles2048.js",)
"""Shared scripts the viewer needs (league/replay/assets/)."""

TENSION = (
    "Tension rises as the more crowded board fills up and runs out of slides, and as the scores draw level"
    " late in the game."
)


def frame(state: Versus2048State) -> dict[str, Any]:
    """Both boards (exponents, row-major), scores, clocks, whose turn, and the end once over."""
    data: dict[str, Any] = {
        "size": state.board_size,
        "boards": [list(board) for board in state.boards],
        "scores": list(state.scores),
        "used_ms": list(state.used_ms),
        "phase": state.phase,
        "turn": state.turn,
        "turns": state.turns_per_player,
        "plies": state.plies,
        "to_move": [] if state.phase == OVER else [state.to_move],
        "over": state.phase == OVER,
    }
    if state.phase == OVER:
        data["end"] = {"loser": state.loser, "reason": state.reason, "detail": state.detail}
    return data


def _picking_blind(view: dict[str, Any]) -> bool:
    """Whether seat 1 is choosing its pre-game cell, not told where seat 0 put its ``1``."""
    return view["phase"] == PREGAME and view["to_move"] == [1]


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    """The frame as a spectator may see it while the game is played: seat 1's board hidden while it picks blind.

    In the pre-game seat 0 puts a ``1`` on seat 1's board, then seat 1 is sent only its player
    number and picks its cell without being told seat 0's (engine/versus2048/README.md, section
    2.1, "Order of messages"); the boards come with every turn input from then on (section 2.2).
    So while seat 1 picks, ``boards[1]`` is None; every other frame is the full one (the game has
    no other secret: nothing is random after the pre-game, section 1).

    Args:
        view: A full frame (``frame``).

    Returns:
        A new frame; ``view`` is not changed.
    """
    data = copy.deepcopy(view)
    if _picking_blind(view):
        data["boards"][1] = None
    return data


def public_move(move: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """A judged move as a spectator may see it, given the (full) frame it led to.

    Seat 0's pre-game reply names the cell seat 1 is not told while it picks its own
    (engine/versus2048/README.md, section 2.1): a reply that led to a frame in which seat 1 picks
    has reply ``""`` and ``hidden: True`` (its time, event and fault are public); every other
    move is public.

    Args:
        move: A judged move (``{"seat", "role", "reply", "ms", "fault"?, "event"?, "opening"?}``).
        view: The full frame the move led to.

    Returns:
        A new move; ``move`` is not changed.
    """
    data = copy.deepcopy(move)
    if _picking_blind(view):
        data.update(reply="", hidden=True)
    return data


def tension(state: Versus2048State) -> float:
    """0 (calm) to 1: the fuller, stiffer board (7 tenths), and a close score race late on (3 tenths)."""
    if state.phase == PREGAME:
        return 0.0
    geometry = square(state.board_size)
    crowd = max(geometry.pressure(board) for board in state.boards)
    s0, s1 = state.scores
    closeness = 1 - abs(s0 - s1) / max(s0 + s1, 1)
    progress = min(1.0, state.turn / state.turns_per_player)
    return min(1.0, 0.7 * crowd + 0.3 * closeness * progress)


def text(data: dict[str, Any]) -> str:
    """A frame as terminal text: both boards side by side (tile values, . empty), then scores."""
    n = data["size"]
    shown = [[str(1 << v) if v else "." for v in board] for board in data["boards"]]
    width = max(len(cell) for board in shown for cell in board)
    lines = [f"{'seat 0':<{n * (width + 1)}}   seat 1"]
    for row in range(n):
        halves = [" ".join(f"{cell:>{width}}" for cell in board[row * n : (row + 1) * n]) for board in shown]
        lines.append("    ".join(halves))
    lines.append(f"scores {data['scores'][0]} : {data['scores'][1]}   turn {data['turn']} of {data['turns']}")
    return "\n".join(lines)
