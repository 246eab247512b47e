"""What a versus2048 replay shows of each state, and how tense it is (league/replay/rebuild.py reads this)."""

from __future__ import annotations

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
