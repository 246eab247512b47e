"""What a synthetic replay shows of each state, and how tense it is (league/replay/rebuild.py reads this).

``public_view`` and ``public_move`` give what a spectator may see while the game is played.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.synthetic.protocol import format_elo
from engine.synthetic.rules import SyntheticState

TENSION = (
    "Tension is how open the result was once both strengths were stated: 1 when seat 0's chances to win"
    " and to lose are equal."
)


def frame(state: SyntheticState) -> dict[str, Any]:
    """Each seat's stated Elo and style (None until stated), seat 0's chances, whose turn, and the end once over."""
    probabilities = state.probabilities()
    data: dict[str, Any] = {
        "elos": list(state.elos),
        "styles": list(state.styles),
        "elo_difference": state.difference(),
        "probabilities": None if probabilities is None else list(probabilities),
        "plies": state.plies,
        "to_move": [] if state.over else [state.to_move],
        "over": state.over,
    }
    if state.over:
        result = state.result()
        data["end"] = {"winner": result.extra["winner"], "reason": state.reason, "detail": state.detail}
    return data


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    """The frame as a spectator may see it while the game is played: no strength stated in secret.

    Seat 1 is asked for its strength without being told what seat 0 stated (engine/synthetic/README.md,
    section 1, "A game"), and the game is over as soon as seat 1 has replied; the result then
    gives both (section 5, ``extra``). So before the end every stated Elo and style is None, and
    ``hidden`` (present only then) says per seat whether it has stated one; the end is shown whole.

    Args:
        view: A full frame (``frame``).

    Returns:
        A new frame; ``view`` is not changed.
    """
    data = copy.deepcopy(view)
    if view["over"]:
        return data
    data["hidden"] = [elo is not None for elo in view["elos"]]
    data["elos"] = [None for _ in view["elos"]]
    data["styles"] = [None for _ in view["styles"]]
    return data


def public_move(move: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """A judged move as a spectator may see it, given the (full) frame it led to.

    A reply is a stated strength, kept from seat 1 until the game is over (engine/synthetic/README.md,
    section 1): a reply that led to a frame before the end (seat 0's) has reply ``""`` and
    ``hidden: True``; its time, event and fault are public. Replies that led to the end are shown.

    Args:
        move: A judged move (``{"seat", "role", "reply", "ms", "fault"?, "event"?, "opening"?}``).
        view: The full frame the move led to.

    Returns:
        A new move; ``move`` is not changed.
    """
    data = copy.deepcopy(move)
    if not view["over"]:
        data.update(reply="", hidden=True)
    return data


def tension(state: SyntheticState) -> float:
    """0 (calm) to 1: one minus the gap between seat 0's chances to win and to lose, once both are known."""
    probabilities = state.probabilities()
    if probabilities is None:
        return 0.0
    win, _, loss = probabilities
    return min(1.0, max(0.0, 1.0 - abs(win - loss)))


def _stated(data: dict[str, Any], seat: int) -> str:
    elo, style = data["elos"][seat], data["styles"][seat]
    if elo is None:
        return "not stated yet"
    return format_elo(elo) + (f" {style}" if style else "")


def text(data: dict[str, Any], with_end: bool = True) -> str:
    """A frame as terminal text: each seat's strength, seat 0's chances, and (``with_end``) the end once over."""
    lines = [f"seat {seat}: {_stated(data, seat)}" for seat in (0, 1)]
    if data["probabilities"] is not None:
        win, draw, loss = data["probabilities"]
        d = data["elo_difference"]
        lines.append(f"d = {d:g} Elo: seat 0's chances to win {win:.3f}, draw {draw:.3f}, lose {loss:.3f}")
    if data["over"] and with_end:
        lines.append(f"over: {data['end']['detail']} ({data['end']['reason']})")
    return "\n".join(lines)
