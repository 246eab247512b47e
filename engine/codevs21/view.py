"""What a codevs21 replay shows of each state, and how tense it is (league/replay/rebuild.py reads this).

The state keeps only the replies (its JSON form has no field), so a frame computes each seat's
well from the state's game, and the turn just played again from the well before it, on a copy that
records every chain step: the well at the moment each step's runs were found and the cells that
step erased (obstruction beside them included), so the viewer can show the drop and each step in
turn. Scores are exact integers past 2**53: frames carry them as strings.

A replay asks for a frame after every turn of one state object; the well before the turn is kept
from the previous call (``_Memo``), so a game of 1000 turns is not replayed 1000 times. Asked
about any other state, the frame rebuilds the well before the last turn from the replies.
"""

from __future__ import annotations

import copy
import weakref
from dataclasses import dataclass
from typing import Any

from engine.codevs21.field import Cell, Field, attack
from engine.codevs21.packs import Pack, Params, rotate
from engine.codevs21.state import SOLO, Codevs21State
from engine.codevs21.versus import VersusGame

ASSETS: tuple[str, ...] = ()
"""Shared scripts the viewer needs (league/replay/assets/): none."""

TENSION = (
    "Tension rises as a well's stack climbs towards the top (in versus, obstruction waiting to fall counts too),"
    " as blocks pile up ready for a long chain, and when a long chain goes off."
)

_LONG_CHAIN = 6
"""A chain this long counts as a full burst of tension (a single erase counts nothing)."""


class _Recorder(Field):
    """A field that keeps what a turn did: the cells the pack's blocks landed on, and each chain step."""

    def start(self) -> _Recorder:
        """Forget any earlier turn."""
        self.dropped: list[Cell] = []
        self.stages: list[tuple[list[list[int]], list[Cell]]] = []
        return self

    def _runs(self, moved: set[Cell]) -> list[list[Cell]]:
        if not self.dropped and not self.stages:  # the first search: the blocks just dropped
            self.dropped = sorted(moved)
        return super()._runs(moved)

    def _erase(self, runs: list[list[Cell]]) -> tuple[set[Cell], int]:
        erased, count = super()._erase(runs)
        self.stages.append(([column[:] for column in self.columns], sorted(erased)))
        return erased, count


@dataclass
class _Before:
    """A seat's well before a turn, and the pack it drops that turn (obstruction inserted)."""

    columns: list[list[int]]
    score: int
    fire: int
    max_chain: int
    turns: int
    pack: Pack | None


def _fields(state: Codevs21State) -> list[Field]:
    game = state.game
    return [player.well for player in game.players] if isinstance(game, VersusGame) else [game.well]


def _befores(state: Codevs21State) -> list[_Before]:
    """Each seat's well now, and the pack it drops next (None once over)."""
    over = state.is_over()
    return [
        _Before(
            [column[:] for column in well.columns],
            well.score,
            well.fire,
            well.max_chain,
            well.turns,
            None if over else state.pack_of(seat),
        )
        for seat, well in enumerate(_fields(state))
    ]


def _turn(params: Params, befores: list[_Before], replies: list[Any]) -> list[dict[str, Any]]:
    """What each seat's reply did: its move, the drop, every chain step, the points and the attack."""
    turned = []
    for before, reply in zip(befores, replies, strict=True):
        if isinstance(reply, str) or before.pack is None:  # a fault: the move was not applied
            turned.append({"fault": str(reply)})
            continue
        x, rotation = reply
        rotated = rotate(before.pack, params.T, rotation)
        field = _Recorder(
            params, [column[:] for column in before.columns], before.score, before.fire, before.max_chain, before.turns
        ).start()
        steps = field.play(rotated, x)
        shown = []
        for (chain, erased, score), (columns, cells) in zip(steps, field.stages, strict=True):
            step = {"chain": chain, "count": erased, "score": str(score), "field": columns, "erased": cells}
            step["attack"] = attack(chain, erased, before.fire)
            shown.append(step)
        turned.append(
            {
                "move": [x, rotation],
                "pack": list(rotated),
                "dropped": field.dropped,
                "steps": shown,
                "points": str(field.score - before.score),
                "attack": sum(step["attack"] for step in shown),
                "fired": field.fire > before.fire,
            }
        )
    return turned


class _Memo:
    """The well before the next turn of the one state a replay is showing, and the last turn worked out."""

    def __init__(self) -> None:
        self.state: weakref.ReferenceType[Codevs21State] | None = None
        self.replies = -1
        self.befores: list[_Before] = []
        self.last: list[dict[str, Any]] | None = None

    def last_turn(self, state: Codevs21State) -> list[dict[str, Any]] | None:
        """Each seat's last turn (None before the first), and the wells now kept for the next."""
        count = len(state.replies)
        mine = self.state is not None and self.state() is state
        if not (mine and count == self.replies):
            if count == 0:
                last = None
            elif mine and count == self.replies + 1:
                last = _turn(state.params, self.befores, state.replies[-1])
            else:
                data = state.to_json()
                earlier = Codevs21State.from_json({**data, "replies": data["replies"][:-1]})
                last = _turn(state.params, _befores(earlier), state.replies[-1])
            self.state, self.replies, self.last = weakref.ref(state), count, last
            self.befores = _befores(state)
        return self.last


_MEMO = _Memo()


def frame(state: Codevs21State) -> dict[str, Any]:
    """Each seat's well (columns bottom first), record, stock and next pack; the turn just played, step by step."""
    params, game = state.params, state.game
    over = state.is_over()
    last = _MEMO.last_turn(state)
    seats = []
    records = state.records()
    for seat, well in enumerate(_fields(state)):
        record = records[seat]
        data: dict[str, Any] = {
            "field": [list(column) for column in well.columns],
            "score": str(well.score),
            "fire": well.fire,
            "max_chain": well.max_chain,
            "turns": well.turns,
            "end": record["end"],
            "used_ms": state.used_ms[seat],
            "fault": state.faults[seat],
            "pack": None if over else list(state.pack_of(seat)),
            "last": None if last is None else last[seat],
        }
        if isinstance(game, VersusGame):
            data["stock"] = game.players[seat].stock
        seats.append(data)
    return {
        "mode": state.mode,
        "W": params.W,
        "H": params.H,
        "T": params.T,
        "S": params.S,
        "N": params.N,
        "turn": state.turn,
        "plies": state.turn,
        "to_move": [] if over else list(range(state.seats)),
        "over": over,
        "seats": seats,
    }


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    """The frame as a spectator may see it while the game is played: the whole frame, a perfect-information game.

    Every pack is sent to every bot at the start, and in versus each turn's request holds both packs with their
    obstruction, the opponent's last move and both stocks (engine/codevs21/README.md, sections 2.1 and 2.3); both
    moves of a turn are judged in one request phase and framed together, after it: nothing is hidden.

    Args:
        view: A full frame (``frame``).

    Returns:
        A copy of ``view``.
    """
    return copy.deepcopy(view)


def public_move(move: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """A judged move as a spectator may see it, given the (full) frame it led to: the whole move.

    In versus each move is sent to the opponent with the next turn (``Xo Ro``: engine/codevs21/README.md, section
    2.3), and a solo game has no opponent: each move is public as it is.

    Args:
        move: A judged move (``{"seat", "role", "reply", "ms", "fault"?, "event"?, "opening"?}``).
        view: The full frame the move led to.

    Returns:
        A copy of ``move``.
    """
    return copy.deepcopy(move)


def tension(state: Codevs21State) -> float:
    """0 (calm) to 1: the highest stack, obstruction waiting included (65%), blocks loaded (10%), last chain (25%)."""
    params, game = state.params, state.game
    stocks = [player.stock for player in game.players] if isinstance(game, VersusGame) else [0]
    worst = 0.0
    for well, stock in zip(_fields(state), stocks, strict=True):
        height = min(1.0, (max(len(column) for column in well.columns) + stock / params.W) / params.H)
        loaded = sum(len(column) for column in well.columns) / (params.W * params.H)
        worst = max(worst, 0.65 * height + 0.1 * min(1.0, loaded))
    chain = 0
    if game.steps:
        turns = [game.steps[-1]] if state.mode == SOLO else list(game.steps[-1])
        chain = max(len(steps) for steps in turns)
    return min(1.0, worst + 0.25 * min(1.0, max(0, chain - 1) / (_LONG_CHAIN - 1)))


def _well_lines(columns: list[list[int]], S: int, top: int) -> list[str]:
    """A well as text, top row first: numbers, ``#`` obstruction, ``.`` empty."""
    lines = []
    for y in range(top - 1, -1, -1):
        cells = []
        for column in columns:
            value = column[y] if y < len(column) else 0
            cells.append(f"{'#' if value > S else str(value) if value else '.':>3}")
        lines.append(f"{y:>3} |{''.join(cells)}")
    return lines


def text(data: dict[str, Any]) -> str:
    """A frame as terminal text: each seat's last move and chain steps, then the wells side by side."""
    lines = []
    S, versus = data["S"], data["mode"] != SOLO
    for seat, info in enumerate(data["seats"]):
        stock = f" · stock {info['stock']}" if versus else ""
        head = f"seat {seat}: score {info['score']} · fire {info['fire']} · max chain {info['max_chain']}{stock}"
        lines.append(head + (f" · {info['end']}" if info["end"] else ""))
        last = info["last"]
        if last is None:
            continue
        if "fault" in last:
            lines.append(f"  no move: fault {last['fault']}")
            continue
        x, rotation = last["move"]
        sent = f", sends {last['attack']} obstruction" if versus and last["attack"] else ""
        lines.append(f"  dropped at X={x} R={rotation}: chain {len(last['steps'])}, +{last['points']} points{sent}")
        for step in last["steps"]:
            cells = " ".join(f"{x},{y}" for x, y in step["erased"])
            lines.append(f"    step {step['chain']}: erases {step['count']} (+{step['score']} raw): {cells}")
    top = max(1, max(len(column) for info in data["seats"] for column in info["field"]))
    wells = [_well_lines(info["field"], S, top) for info in data["seats"]]
    width = max(len(line) for line in wells[0])
    for row in range(top):
        lines.append("     ".join(f"{well[row]:<{width}}" for well in wells))
    state = "over" if data["over"] else f"turn {data['turn'] + 1} of {data['N']} next"
    lines.append(f"{data['mode']} · well {data['W']}x{data['H']} · sum {S} · {state} (# obstruction)")
    return "\n".join(lines)
