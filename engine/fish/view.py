"""What a fish replay shows of each state, and how tense it is (league/replay/rebuild.py reads this).

A frame holds the 60 cells' fish (0: melted), every penguin's cell and how many cells it can
still reach, the scores, and the last few placements and moves (with their turn numbers), so the
viewer can draw what just happened even where a faulted seat's fallback moved in the same step.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.fish.board import ROW_LENGTHS, ROW_STARTS, ROWS
from engine.fish.rules import OVER, PLACE, FishState

ASSETS: tuple[str, ...] = ()
"""Shared scripts the viewer needs (league/replay/assets/): none."""

TENSION = (
    "Tension rises as penguins are about to be cut off (only one or two cells left to slide to) and as the"
    " whole board runs out of moves, the more so while the fish race is close."
)

_OPEN = 6
"""A penguin that can reach this many cells or more is in no danger of being cut off."""
_PLENTY = 40
"""Moves left on the whole board at which the end is not yet in sight."""


def _mobility(state: FishState) -> list[list[int]]:
    """Per seat, per penguin (placement order), how many cells it can slide to now."""
    taken = state.occupied()
    return [[len(state.destinations(cell, taken)) for cell in cells] for cells in state.penguins]


def frame(state: FishState) -> dict[str, Any]:
    """The board, penguins and their room, scores and tiles, faults, the last plays, and the end once over."""
    n = state.players
    data: dict[str, Any] = {
        "players": n,
        "phase": state.phase,
        "plies": state.turn,
        "to_move": [] if state.phase == OVER else [state.to_move],
        "over": state.phase == OVER,
        "per_player": state.penguins_per_player,
        "fish": list(state.fish),
        "penguins": [list(cells) for cells in state.penguins],
        "room": _mobility(state),
        "scores": list(state.scores),
        "tiles": list(state.tiles),
        "live": list(state.live),
        "faults": [{key: record[key] for key in ("seat", "kind", "turn")} for record in state.faults],
        "recent": [[state.turn - len(state.log[-n:]) + 1 + i, *entry] for i, entry in enumerate(state.log[-n:])],
        "skipped": sorted({seat for seat, turn in state.skips if turn == state.turn}),
    }
    if state.phase == OVER:
        data["end"] = {"reason": state.reason, "ranks": state.ranks()}
    return data


def _parts(state: FishState) -> tuple[float, float, float]:
    """The tension's parts: penguins near being cut off, the board running out of moves, a close race."""
    rooms = [room for seat in _mobility(state) for room in seat if room > 0]
    if not rooms:
        return 0.0, 1.0, 1.0
    danger = sorted((max(0, _OPEN - room) / (_OPEN - 1)) for room in rooms)
    cutoff = 0.6 * danger[-1] + 0.4 * sum(danger) / len(danger)
    scarcity = max(0.0, 1 - sum(rooms) / _PLENTY)
    top = sorted(state.scores, reverse=True)
    close = 1 - min(1.0, (top[0] - top[1]) / 20)
    return cutoff, scarcity, close


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    """The frame as a spectator may see it while the game is played: the whole frame, a perfect-information game.

    "The game has no hidden information and no chance after the board is dealt" (engine/fish/README.md, section 1),
    and every bot is sent the board: nothing is hidden.

    Args:
        view: A full frame (``frame``).

    Returns:
        A copy of ``view``.
    """
    return copy.deepcopy(view)


def public_move(move: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """A judged move as a spectator may see it, given the (full) frame it led to: the whole move.

    Every placement and move is sent to everybody (``PLACED``, ``MOVED``: engine/fish/README.md, section 2.2,
    "Messages"): each move is public as it is.

    Args:
        move: A judged move (``{"seat", "role", "reply", "ms", "fault"?, "event"?, "opening"?}``).
        view: The full frame the move led to.

    Returns:
        A copy of ``move``.
    """
    return copy.deepcopy(move)


def tension(state: FishState) -> float:
    """0 (calm) to 1: penguins nearly cut off (6 tenths), few moves left (4 tenths); less in a lopsided race."""
    if state.phase == PLACE or state.turn == 0:
        return 0.0
    cutoff, scarcity, close = _parts(state)
    return min(1.0, (0.6 * cutoff + 0.4 * scarcity) * (0.75 + 0.25 * close))


def text(data: dict[str, Any]) -> str:
    """A frame as terminal text: the rows of tiles (fish, ``.`` melted, ``aN``..``dN`` penguins), then scores."""
    owner = {cell: seat for seat, cells in enumerate(data["penguins"]) for cell in cells}
    lines = []
    for r in range(ROWS):
        row = []
        for cell in range(ROW_STARTS[r], ROW_STARTS[r] + ROW_LENGTHS[r]):
            fish = data["fish"][cell]
            shown = str(fish) if fish else "."
            row.append(f"{'abcd'[owner[cell]]}{shown}" if cell in owner else shown)
        lines.append(f"r{r}: {'  ' if r % 2 == 0 else ''}" + "".join(f"{cell:<4}" for cell in row).rstrip())
    for turn, seat, *where in data["recent"]:
        if turn == data["plies"]:
            cells = [f"({where[i]},{where[i + 1]})" for i in range(0, len(where), 2)]
            lines.append(f"turn {turn}: seat {seat} {'placed on' if len(cells) == 1 else 'moved'} {' -> '.join(cells)}")
    scores = "  ".join(
        f"{'abcd'[seat]}: {data['scores'][seat]} fish, {data['tiles'][seat]} tiles"
        + ("" if data["live"][seat] else " (faulted)")
        for seat in range(data["players"])
    )
    lines.append(f"{scores}   turn {data['plies']}, {data['phase']}   (a-d: seat 0-3's penguins, . melted)")
    if data["over"]:
        lines.append(f"over ({data['end']['reason']}): ranks {' '.join(map(str, data['end']['ranks']))}")
    return "\n".join(lines)
