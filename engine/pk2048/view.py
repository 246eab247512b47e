"""What a pk2048 replay shows of each state, and how tense it is (league/replay/rebuild.py reads this).

A frame is the shared board of the game being played, the game number and games won, each seat's
score in this game and its special operations left, the last operation (interference, bomb,
slide) with its spawn, and, right after a game ended, that game's end and final board (the next
game's fresh board is the same every game).
"""

from __future__ import annotations

import copy
import math
from typing import Any

from engine.pk2048.match import PK2048State
from engine.pk2048.rules import DIRECTION_NAMES, GEOMETRY, START_BOARD, exponent_of

ASSETS = ("tiles2048.js",)
"""Shared scripts the viewer needs (league/replay/assets/)."""

TENSION = (
    "Tension rises as the shared board fills up and runs out of slides, as the two scores draw level on a board"
    " of big tiles, and in the later games of the best of three."
)

_START_PRESSURE = GEOMETRY.pressure(START_BOARD)


def frame(state: PK2048State) -> dict[str, Any]:
    """The shared board (exponents, cells 1..16 row-major), the match so far, the last operation, a game's end."""
    data: dict[str, Any] = {
        "board": list(state.board),
        "game": state.game_index + 1,
        "games": state.games_per_match,
        "wins": list(state.wins),
        "first": state.game_first_seat(),
        "scores": list(state.scores),
        "interference_used": list(state.interference_used),
        "bomb_used": list(state.bomb_used),
        "operations": state.operations,
        "target": state.target_tile,
        "results": [[record["winner"], record["reason"], record["decided_by"]] for record in state.games],
        "plies": state.plies,
        "to_move": [] if state.over else [state.to_move],
        "over": state.over,
    }
    if state.operations and not state.over:
        # Turns alternate within a game, so the seat that just moved is the other one.
        data["last"] = {
            "seat": 1 - state.to_move,
            "answer": list(state.last_answer),
            "spawn": list(state.last_spawn),
        }
    if state.games and (state.over or state.operations == 0):
        record = state.games[-1]
        data["ended"] = {
            key: record[key]
            for key in ("game", "winner", "reason", "decided_by", "termination", "offender", "scores", "detail")
        }
        data["ended"]["board"] = [exponent_of(value) for value in record["final_board"]]
    return data


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    """The frame as a spectator may see it while the game is played: the whole frame, a perfect-information game.

    Every operation is told to the opponent, because turns strictly alternate, with the board and both scores
    (engine/pk2048/README.md, section 2, "The state line"), and the spawns are chance, drawn after each operation,
    not a secret: nothing is hidden.

    Args:
        view: A full frame (``frame``).

    Returns:
        A copy of ``view``.
    """
    return copy.deepcopy(view)


def public_move(move: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """A judged move as a spectator may see it, given the (full) frame it led to: the whole move.

    Every answer is sent to the opponent in its next state line (fields 3 to 5) and seen on the board
    (engine/pk2048/README.md, section 2, "The state line"): each move is public as it is.

    Args:
        move: A judged move (``{"seat", "role", "reply", "ms", "fault"?, "event"?, "opening"?}``).
        view: The full frame the move led to.

    Returns:
        A copy of ``move``.
    """
    return copy.deepcopy(move)


def tension(state: PK2048State) -> float:
    """0 (calm) to 1: the board's fill and stiffness (6 tenths), a close race among big tiles, the match stage.

    The fill counts from the start position (so every game starts calm); the score race counts
    as the largest tile nears the target; the stage is how many games were played before this
    one. Right after a game ended, its final board and scores count (the moment it was decided),
    not the next game's fresh start.
    """
    board, scores, played = state.board, state.scores, sum(state.wins)
    if state.games and (state.over or state.operations == 0):
        ended = state.games[-1]
        board = tuple(exponent_of(value) for value in ended["final_board"])
        scores, played = ended["scores"], played - 1
    crowd = max(0.0, GEOMETRY.pressure(board) - _START_PRESSURE) / (1 - _START_PRESSURE)
    s0, s1 = scores
    closeness = 1 - abs(s0 - s1) / max(s0 + s1, 1)
    target = math.log2(state.target_tile)
    progress = min(1.0, max(0.0, (max(board) - 2) / max(target - 2, 1)))
    stage = min(1.0, played / max(state.games_per_match - 1, 1))
    return min(1.0, 0.6 * crowd + 0.25 * closeness * progress + 0.15 * stage)


def _board_lines(board: list[int]) -> list[str]:
    shown = [str(1 << v) if v else "." for v in board]
    width = max(len(cell) for cell in shown)
    return [" ".join(f"{cell:>{width}}" for cell in shown[row * 4 : row * 4 + 4]) for row in range(4)]


def _specials(data: dict[str, Any], seat: int) -> str:
    left = [
        name
        for name, used in (("interference", data["interference_used"][seat]), ("bomb", data["bomb_used"][seat]))
        if not used
    ]
    return " and ".join(left) if left else "none"


def operation_text(answer: list[int]) -> str:
    """An answer ``I B D`` in words: "interference on cell 5", "bomb cell 7, then up", "slide left"."""
    interference, bomb, direction = answer
    if interference:
        return f"interference on cell {interference}"
    slide = DIRECTION_NAMES.get(direction, str(direction))
    return f"bomb cell {bomb}, then {slide}" if bomb else f"slide {slide}"


def text(data: dict[str, Any]) -> str:
    """A frame as terminal text: the game, the board (values, . empty), scores, specials left, what just happened."""
    wins = data["wins"]
    lines = [f"game {data['game']} of {data['games']} · games won {wins[0]} : {wins[1]}"]
    ended = data.get("ended")
    if ended:
        lines.append(
            f"game {ended['game']} over: seat {ended['winner']} wins ({ended['reason']}, by {ended['decided_by']});"
            f" scores {ended['scores'][0]} : {ended['scores'][1]}"
        )
        lines.append(f"final board of game {ended['game']}:")
        lines += _board_lines(ended["board"])
        if not data["over"]:
            lines.append(f"game {data['game']} starts, seat {data['first']} first")
        return "\n".join(lines)
    lines += _board_lines(data["board"])
    lines.append(f"scores {data['scores'][0]} : {data['scores'][1]}")
    lines.append(f"specials left: seat 0 {_specials(data, 0)}; seat 1 {_specials(data, 1)}")
    last = data.get("last")
    if last:
        spawn = f"; a {last['spawn'][1]} spawned on cell {last['spawn'][0]}" if last["spawn"][0] else ""
        lines.append(f"seat {last['seat']}: {operation_text(last['answer'])}{spawn}")
    if data["to_move"]:
        lines.append(f"seat {data['to_move'][0]} to move")
    return "\n".join(lines)
