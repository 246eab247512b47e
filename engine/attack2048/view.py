"""What an attack2048 replay shows of each state, and how tense it is (league/replay/rebuild.py reads this).

A frame is the current half's board, who attacks and who defends, the defender's score and the
attacker's counters, the last ply (a placement or a slide and its points), each finished half's
record, and in half 2 the board half 1 ended on, so both halves can be drawn side by side.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.attack2048 import ATTACK
from engine.attack2048.rules import DIRECTION_WORDS, GEOMETRY, SIZE, Attack2048State

ASSETS = ("tiles2048.js",)
"""Shared scripts the viewer needs (league/replay/assets/)."""

TENSION = (
    "Tension rises as the defender's board fills up and runs out of slides, and in the second half as the new"
    " defender's score closes in on the score to beat from the first half; once it is passed, the match is decided."
)


def live_scores(state: Attack2048State) -> list[int]:
    """Per bot its defender score so far, the half being played included."""
    scores = state.scores()
    if not state.over:
        scores[1 - state.attacker] = state.score
    return scores


def frame(state: Attack2048State) -> dict[str, Any]:
    """The board (exponents, row-major, index 4 * y + x), roles, scores, counters, the last ply, the halves."""
    data: dict[str, Any] = {
        "half": state.half,
        "board": list(state.board),
        "attacker": state.attacker,
        "defender": 1 - state.attacker,
        "role": state.to_move,
        "score": state.score,
        "scores": live_scores(state),
        "half_plies": state.plies,
        "cap": state.max_plies_per_half,
        "twos": state.twos,
        "fours": state.fours,
        "halves": [dict(record) for record in state.halves],
        "plies": state.total_plies,
        "to_move": [] if state.over else [state.seat_of(state.to_move)],
        "over": state.over,
    }
    if state.earning():
        data["credits"] = state.credits
    last = state.last_ply
    if last is not None:
        kind, seat, where, amount = last
        data["last"] = (
            {"kind": kind, "seat": seat, "cell": where, "value": amount}
            if kind == "place"
            else {"kind": kind, "seat": seat, "direction": DIRECTION_WORDS[str(where)], "gain": amount}
        )
    if state.first_half_board is not None:
        data["first_half_board"] = list(state.first_half_board)
    if state.over:
        scores = state.scores()
        if state.faulted is not None:
            winner: int | None = 1 - state.faulted
        else:
            winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
        data["end"] = {
            "winner": winner,
            "reason": state.reason,
            "termination": state.termination.value,
            "faulted": state.faulted,
            "detail": state.detail,
        }
    return data


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    """The frame as a spectator may see it while the game is played: the whole frame, a perfect-information game.

    Both roles are shown the whole board before every reply: the attacker before its placement, the defender after
    it (engine/attack2048/README.md, section 4, "Referee → bot"), and the frame holds nothing else a bot could not
    count from those boards: nothing is hidden.

    Args:
        view: A full frame (``frame``).

    Returns:
        A copy of ``view``.
    """
    return copy.deepcopy(view)


def public_move(move: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """A judged move as a spectator may see it, given the (full) frame it led to: the whole move.

    A placement or a slide is seen on the board the other role is shown next (engine/attack2048/README.md, section
    4, "Referee → bot"): each move is public as it is.

    Args:
        move: A judged move (``{"seat", "role", "reply", "ms", "fault"?, "event"?, "opening"?}``).
        view: The full frame the move led to.

    Returns:
        A copy of ``move``.
    """
    return copy.deepcopy(move)


def tension(state: Attack2048State) -> float:
    """0 (calm) to 1: the board's fill and stiffness (three quarters), and in half 2 the race to half 1's score.

    The race is 1 when the second defender's score equals the first's, falling off as they differ;
    once the score to beat is passed the match is decided, and tension drops to a fifth of the board's.
    Right after half 1 ended, its final board counts (the moment it was decided), not half 2's fresh one.
    """
    board = state.board
    if state.half == 2 and not state.plies and state.first_half_board is not None:
        board = state.first_half_board
    crowd = GEOMETRY.pressure(board)
    race = 0.0
    if state.half == 2 and state.halves:
        to_beat = state.halves[0]["score"]
        if state.score > to_beat:  # passed: the match is decided, whatever the rest of the half does
            return round(0.2 * crowd, 4)
        race = 1 - abs(state.score - to_beat) / max(state.score, to_beat, 1)
    return min(1.0, 0.75 * crowd + 0.25 * race)


def _board_lines(board: list[int]) -> list[str]:
    shown = [str(1 << v) if v else "." for v in board]
    width = max(len(cell) for cell in shown)
    return [" ".join(f"{cell:>{width}}" for cell in shown[row * SIZE : (row + 1) * SIZE]) for row in range(SIZE)]


def _half_text(record: dict[str, Any]) -> str:
    return (
        f"half {record['half']}: bot {record['attacker']} attacked, bot {record['defender']} defended,"
        f" score {record['score']} in {record['plies']} plies, end {record['end']}"
    )


def text(data: dict[str, Any]) -> str:
    """A frame as terminal text: the half's roles, its board (values, . empty), scores, the last ply."""
    role = "attacker" if data["role"] == ATTACK else "defender"
    mover = f" · {role} (bot {data['to_move'][0]}) to move" if data["to_move"] else ""
    lines = [f"half {data['half']} · bot {data['attacker']} attacks · bot {data['defender']} defends{mover}"]
    lines += [_half_text(record) for record in data["halves"]]
    if data["half"] == 2 and "first_half_board" in data and not data["half_plies"]:
        lines.append("half 1 ended on:")
        lines += _board_lines(data["first_half_board"])
        lines.append("half 2 board:")
    lines += _board_lines(data["board"])
    last = data.get("last")
    if last and last["kind"] == "place":
        x, y = last["cell"] % SIZE, last["cell"] // SIZE
        lines.append(f"bot {last['seat']} placed a {last['value']} at ({x},{y})")
    elif last:
        lines.append(f"bot {last['seat']} slid {last['direction']}: +{last['gain']}")
    lines.append(
        f"defender score {data['score']} · ply {data['half_plies']} of the half"
        f" · as defender: bot 0 {data['scores'][0]}, bot 1 {data['scores'][1]}"
    )
    if data["over"]:
        lines.append(f"over: {data['end']['detail']}")
    return "\n".join(lines)
