"""What a nimmt replay shows of each state, and how tense it is (league/replay/rebuild.py reads this).

A frame holds the table as it stands (the four rows, every hand, the totals) and the round just
revealed: every seat's card, shown together, and where each went, lowest first (the row it
joined, or the row its player took, with the cards and bullheads taken). While a low card's
owner chooses a row, the round is shown revealed but not yet placed. ``public_view`` and
``public_move`` give what a spectator may see while the game is played.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.nimmt.rules import EARLY_STOP, OVER, ROW_LIMIT, TAKE_PHASE, NimmtState, bullheads, row_cost, target_row

ASSETS: tuple[str, ...] = ()
"""Shared scripts the viewer needs (league/replay/assets/): none."""

TENSION = (
    "Tension rises as rows fill up towards the sixth card that takes them (the fullest row counts most),"
    " and peaks when a round makes someone take a row full of bullheads."
)

_TAKE_SCALE = 10
"""Bullheads taken in one round that count as a full shock (a 55 plus a few cards)."""


def _last_round(state: NimmtState) -> dict[str, Any] | None:
    """The round last revealed: its cards, the rows before it, and where each card went.

    Read from the end of the state's log (at most one deal's entries), so it is cheap however
    long the game.
    """
    log = state.log
    reveal_at = next((i for i in range(len(log) - 1, -1, -1) if log[i][0] == "reveal"), None)
    if reveal_at is None:
        return None
    before: list[list[int]] = []
    deal, number = 0, 0
    for entry in reversed(log[:reveal_at]):
        if entry[0] == "reveal":
            number += 1
        elif not before and entry[0] in ("round", "deal"):
            before = entry[1] if entry[0] == "round" else entry[3]
        if entry[0] == "deal":
            deal = entry[1]
            break
    cards: list[int] = list(log[reveal_at][1])
    after = log[reveal_at + 1 :]
    chose = next((entry for entry in after if entry[0] == "chose"), None)
    resolved = any(entry[0] == "round" for entry in after)
    rows = [list(row) for row in before]
    placed: list[dict[str, Any]] = []
    for card, seat in sorted((card, seat) for seat, card in enumerate(cards)) if resolved else []:
        k = target_row(rows, card)
        step: dict[str, Any] = {"seat": seat, "card": card}
        if k is None:  # the low card: its owner chose a row
            assert chose is not None, "a resolved round with a low card has its row choice"
            k = chose[2]
            step.update(row=k, took=rows[k], bullheads=row_cost(rows[k], state.table), chose=True)
            rows[k] = [card]
        elif len(rows[k]) == ROW_LIMIT:
            step.update(row=k, took=rows[k], bullheads=row_cost(rows[k], state.table))
            rows[k] = [card]
        else:
            step["row"] = k
            rows[k].append(card)
        placed.append(step)
    return {
        "deal": deal,
        "round": number + 1,
        "cards": cards,
        "before": [list(row) for row in before],
        "placed": placed,
        "resolved": resolved,
    }


def frame(state: NimmtState) -> dict[str, Any]:
    """The rows, hands, totals and faults now, and the round last revealed with where each card went."""
    over = state.phase == OVER
    data: dict[str, Any] = {
        "players": state.players,
        "table": state.table,
        "deal": state.deal,
        "deals": state.deals,
        "target": state.target,
        "round": state.round,
        "phase": state.phase,
        "rows": [list(row) for row in state.rows],
        "costs": [row_cost(row, state.table) for row in state.rows],
        "hands": [list(hand) for hand in state.hands],
        "totals": list(state.totals),
        "faults": [None if fault is None else fault["reason"] for fault in state.faults],
        "plies": state.plies,
        "to_move": [] if over else sorted(state.awaiting),
        "over": over,
        "last": _last_round(state),
    }
    low = state.low_card()
    if low is not None:
        data["take"] = {"card": low[0], "seat": low[1]}
    if over:
        data["end"] = {"reason": state.reason, "ranks": state.ranks()}
    return data


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    """The frame as a spectator may see it while the game is played: every hand only as its size.

    A seat is told only its own hand; "the other hands and the unused cards stay hidden", to the
    end of the game (engine/nimmt/README.md, section 2.3, "Order of messages"; the unused cards are
    in no frame). The cards picked in a round are revealed together (``REVEAL``), and the row
    choice (``CHOSE``), the rows (``ROWS``) and the totals (``SCORES``) are told to everybody
    (section 2.2, "Messages"), so ``last``, ``take``, the rows, costs and totals are public. Each
    of ``hands`` becomes the number of cards in it; the rest is as in the full frame.

    Args:
        view: A full frame (``frame``).

    Returns:
        A new frame; ``view`` is not changed.
    """
    data = copy.deepcopy(view)
    data["hands"] = [len(hand) for hand in view["hands"]]
    return data


def _reading(reply: str) -> int | None:
    """An answer's number as the referee reads it (engine/nimmt/README.md, section 2.4), or None."""
    text = reply.removesuffix("\r").strip(" \t")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def _told(seat: int, view: dict[str, Any]) -> set[int]:
    """What everybody was told ``seat`` answered in the frame's last round: its card, and its row choice."""
    last = view["last"]
    if last is None:
        return set()
    rows = {step["row"] for step in last["placed"] if step.get("chose") and step["seat"] == seat}
    return {last["cards"][seat], *rows}


def public_move(move: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """A judged move as a spectator may see it, given the (full) frame it led to.

    A ``PLAY`` answer is a card of the seat's hand, secret until the round's cards are revealed
    together; a ``TAKE`` answer is told to everybody in ``CHOSE`` (engine/nimmt/README.md, sections
    1 and 2.3). So an answer is shown only when it is what the frame it led to shows this seat
    played or chose in its last round. Hidden (reply ``""``, ``hidden: True``) are a faulted
    answer (a late card is one the seat held, an illegal one tells a card it does not hold:
    section 4, "Faults"), and the cards picked in a round abandoned by an early stop, which are
    never revealed (section 4, "Early stop"). Time, event and fault are public.

    Args:
        move: A judged move (``{"seat", "role", "reply", "ms", "fault"?, "event"?, "opening"?}``).
        view: The full frame the move led to.

    Returns:
        A new move; ``move`` is not changed.
    """
    data = copy.deepcopy(move)
    abandoned = view["over"] and view["end"]["reason"] == EARLY_STOP
    told = not abandoned and not move.get("fault") and _reading(move["reply"]) in _told(move["seat"], view)
    if not told:
        data.update(reply="", hidden=True)
    return data


def tension(state: NimmtState) -> float:
    """0 (calm) to 1: how full the rows are (7 tenths) and the bullheads the last round made someone take (3 tenths)."""
    fill = [(len(row) - 1) / (ROW_LIMIT - 1) for row in state.rows]
    crowd = 0.45 * max(fill) + 0.25 * sum(fill) / len(fill)
    last = _last_round(state)
    shock = 0.0
    if state.phase == TAKE_PHASE:
        shock = 0.7
    elif last is not None and last["resolved"]:
        shock = min(1.0, sum(step.get("bullheads", 0) for step in last["placed"]) / _TAKE_SCALE)
    return min(1.0, crowd + 0.3 * shock)


def _row_text(row: list[int], table: str) -> str:
    return " ".join(f"{card}{'*' * (bullheads(card, table) - 1) if bullheads(card, table) > 1 else ''}" for card in row)


def text(data: dict[str, Any]) -> str:
    """A frame as terminal text: the round revealed and where its cards went, the rows, hands and totals."""
    lines = []
    last = data.get("last")
    if last is not None:
        cards = "  ".join(f"seat {seat}: {card}" for seat, card in enumerate(last["cards"]))
        lines.append(f"revealed (deal {last['deal']}, round {last['round']}): {cards}")
        for step in last["placed"]:
            where = f"{step['card']} (seat {step['seat']}) -> row {step['row']}"
            if "took" in step:
                how = "chose to take" if step.get("chose") else "takes"
                where += f", {how} {' '.join(map(str, step['took']))} ({step['bullheads']} bullheads)"
            lines.append(f"  {where}")
        if not last["resolved"]:
            lines.append("  (not placed: " + ("the round was abandoned)" if data["over"] else "a row is being chosen)"))
    if "take" in data:
        lines.append(f"seat {data['take']['seat']} must take a row for its low card {data['take']['card']}")
    for k, row in enumerate(data["rows"]):
        marker = "  <- full: the next card here takes it" if len(row) == ROW_LIMIT else ""
        lines.append(f"row {k}: {_row_text(row, data['table']):<30} ({data['costs'][k]} bullheads){marker}")
    for seat, hand in enumerate(data["hands"]):
        fault = f"  [fallback after {data['faults'][seat]}]" if data["faults"][seat] else ""
        lines.append(f"seat {seat}: total {data['totals'][seat]:>3}  hand {' '.join(map(str, hand)) or '-'}{fault}")
    state = "over" if data["over"] else f"{data['phase']}"
    lines.append(f"deal {data['deal']}, round {data['round']} · {state} · (* = an extra bullhead)")
    if data["over"]:
        end = data["end"]
        why = "stopped early: fewer than two live seats" if end["reason"] == EARLY_STOP else "complete"
        lines.append(f"game {why}; ranks {' '.join(map(str, end['ranks']))}")
    return "\n".join(lines)
