"""How the league reads one game's result seat by seat: each seat's own fault, and where each seat is placed.

A result keeps the game's own ranks (rules/<game>.md) and one termination for the whole game
(the first fault's). The league's standings, cross table, ratings and fault counts read it seat
by seat, through this module alone:

- ``seat_faults``: each faulted seat's own kind, reason code and detail, as the game's result
  gives them (``Result.faults``, one an offender). A result stored before results had that field
  is read from the shapes its ``extra`` kept (nimmt's and geister's ``extra.faults[seat]``, fish's
  ``extra.faults`` by seat, codevs21 versus's ``extra.records[seat].end``), else the game's
  termination, reason code and detail.
- ``places``: each seat's rank as the league counts it. It is the game's rank, except that a
  faulted seat never ranks level with or above a seat that did not fault, and seats that faulted
  and share a rank (several nimmt seats failing the same request, a geister double fault) all take
  the last place their tie spans: two seats that fault together in a game of two both rank 2. A
  seat that did not fault keeps the game's rank among the seats that did not fault (ties among
  them share the first place they span, as the game's ranks do). ``place_points`` gives the
  standings' points by rank from them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.codevs21.state import FAULT_CODES as CODEVS21_CODES
from engine.fish.rules import FAULT_CODES as FISH_CODES
from league.stats.game_record import RecordResult

_CODEVS21_KINDS = {code: termination.value for termination, code in CODEVS21_CODES.items()}
_FISH_KINDS = {code: termination.value for termination, code in FISH_CODES.items()}


@dataclass(frozen=True)
class SeatFault:
    """One seat's own fault in a game.

    Attributes:
        termination: Its kind (``TIMEOUT``, ``CRASH``, ``BAD_OUTPUT``, ``ILLEGAL_MOVE``, ``MAX_PLIES``).
        reason_code: The game's own code for it.
        detail: The sentence about it (the game's whole detail where the result keeps none per seat).
    """

    termination: str
    reason_code: str
    detail: str


def seat_faults(result: RecordResult) -> dict[int, SeatFault]:
    """Each offending seat's own fault, by seat (see the module docstring for where it is read).

    Args:
        result: A stored result (``scores``, ``ranks``, ``termination``, ``offenders``, ``extra`` ...).
    """
    offenders = result.offenders
    if not offenders:
        return {}
    game = SeatFault(str(result.termination), str(result.reason_code or ""), str(result.detail or ""))
    if result.faults is not None:
        own = {
            int(fault.seat): SeatFault(str(fault.termination), str(fault.reason_code), str(fault.detail))
            for fault in result.faults
        }
    else:
        own = _faults_stored_before(result.extra or {}, game)
    return {seat: own.get(seat, game) for seat in offenders}


def _faults_stored_before(extra: Mapping[str, Any], game: SeatFault) -> dict[int, SeatFault]:
    """The per-seat faults a result stored before ``Result.faults`` kept in its ``extra``, in each game's shape."""
    found: dict[int, SeatFault] = {}
    faults = extra.get("faults")
    if isinstance(faults, list):
        for index, record in enumerate(faults):
            if not isinstance(record, dict):
                continue
            if "seat" in record:  # fish: one record per fault, {seat, kind, turn}
                kind = str(record.get("kind", ""))
                termination = record.get("termination") or _FISH_KINDS.get(kind, game.termination)
                found[int(record["seat"])] = SeatFault(str(termination), kind, game.detail)
            elif "termination" in record:  # nimmt, geister's double fault: an entry a seat, None where it did not fault
                reason, detail = record.get("reason") or "", record.get("detail") or game.detail
                found[index] = SeatFault(str(record["termination"]), str(reason), str(detail))
    records = extra.get("records")
    if isinstance(records, list):  # codevs21: each seat's end, "fault:<code>" where it faulted
        for seat, record in enumerate(records):
            end = str(record.get("end", "")) if isinstance(record, dict) else ""
            code = end.removeprefix("fault:")
            if end.startswith("fault:") and code in _CODEVS21_KINDS:
                found[seat] = SeatFault(_CODEVS21_KINDS[code], code, game.detail)
    return found


def places(result: RecordResult) -> list[int]:
    """Each seat's rank as the league counts it (the module docstring): standings and ratings read this.

    Args:
        result: A stored result (``ranks``, ``offenders``).

    Returns:
        Per seat its rank, 1 first, equal ranks ties: the stored list itself when no seat faulted.
    """
    ranks: list[int] = result.ranks
    offenders = result.offenders
    if not offenders:
        return ranks
    faulted = set(offenders)
    live = sorted(rank for seat, rank in enumerate(ranks) if seat not in faulted)
    fell = sorted(ranks[seat] for seat in faulted)
    alive = len(live)
    return [
        alive + bisect_right(fell, rank) if seat in faulted else 1 + bisect_left(live, rank)
        for seat, rank in enumerate(ranks)
    ]


def place_points(ranks: Sequence[int], faulted: Collection[int], seat: int) -> float:
    """A seat's points by rank in the standings: 1 for first, 0 for last, linear between.

    Seats without a fault that tie share the places they span (``rank_points``); a faulted seat
    gets the points of its own rank, the last place of its tie: two seats that faulted together in
    a game of two get 0 each, so a game's points add up to half its seats unless faulted seats tie.

    Args:
        ranks: The league's ranks of the game's seats (``places``).
        faulted: The seats that faulted (the result's ``offenders``).
        seat: The seat whose points are wanted.
    """
    seats = len(ranks)
    if seat in faulted and seats > 1:
        return (seats - ranks[seat]) / (seats - 1)
    if seats == 2:  # two seats: win 1, draw 1/2, loss 0
        mine, theirs = ranks[seat], ranks[1 - seat]
        return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    return rank_points(ranks, seat)


def rank_points(ranks: Sequence[int], seat: int) -> float:
    """A seat's points for its rank: 1 for first, 0 for last, linear between; ties share the places they span.

    Ranks ``1 1`` of two seats are places 1 and 2, so each gets 1/2 (a draw); ranks ``1 2 2 4``
    give 1, 1/2, 1/2, 0. The points add up to half the seats. This is also a seat's mean pairwise
    result against the others (above 1, level 1/2, below 0).

    Args:
        ranks: Every seat's rank in the game (1 is best; equal ranks are ties).
        seat: The seat whose points are wanted.
    """
    seats = len(ranks)
    if seats < 2:
        return 1.0
    mine = ranks[seat]
    place = 1 + sum(rank < mine for rank in ranks) + (ranks.count(mine) - 1) / 2  # dense ranks (1 1 2) too
    return (seats - place) / (seats - 1)
