"""Bots best first by their ratings, with exact ties in one stated order: by name.

A fitted rating is a float from an iterative solver. Two bots with identical results get ratings
that are equal in exact arithmetic but may differ in their last bits, and which way they differ
moves with the numerical libraries (numpy 2.4 put two such bots one way, an earlier release the
other). So the order never compares such bits:

* Ratings within ``TIE_TOLERANCE`` (in the rating's own unit, Elo or TrueSkill's) of the best of
  their run are one tie. A run starts at its best rating and takes every lower one within the
  tolerance of it, so a tie never creeps down a ladder of near-equal values.
* Bots tied on every key given are listed by name (Python's order of strings, the same everywhere)
  and share a place: places run 1, 1, 3 as a game's ranks do ("ties share a rank").

The tolerance is a millionth of an Elo: far below any difference a report shows (0.1 Elo) and far
above the solver's noise (about 1e-10 Elo here).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

TIE_TOLERANCE = 1e-6


def tie_classes(values: Sequence[float], tolerance: float = TIE_TOLERANCE) -> list[int]:
    """Per value, its tie class: 0 for the highest values, one more for each lower run (NaN last).

    Args:
        values: Ratings, higher is better; NaN (no rating) ranks below every number, all NaNs tied.
        tolerance: How far below a run's best value a value may lie and still tie with it.
    """
    numbers = [-math.inf if math.isnan(value) else float(value) for value in values]
    descending = sorted(range(len(numbers)), key=lambda k: -numbers[k])
    classes = [0] * len(numbers)
    top, number = math.nan, -1
    for k in descending:
        value = numbers[k]
        if not (value == top or top - value <= tolerance):
            top, number = value, number + 1
        classes[k] = number
    return classes


def best_first(names: Sequence[str], *keys: Sequence[float]) -> list[int]:
    """Indices of ``names``, best first: by the first key, bots tied there by the next, then by name.

    Args:
        names: The bots.
        keys: Per bot, higher is better; each compared with ``tie_classes`` (module docstring), as
            ``shared_places`` compares them.
    """
    classes = [tie_classes(key) for key in keys]
    return sorted(range(len(names)), key=lambda k: (*(column[k] for column in classes), names[k]))


def shared_places(order: Sequence[int], *keys: Sequence[float]) -> list[int]:
    """Per position of ``order``, its place: bots tied on every key share the best of their places.

    Args:
        order: Bot indices best first (``best_first`` of the same keys).
        keys: The keys ``order`` was made from.
    """
    classes = [tie_classes(key) for key in keys]
    places: list[int] = []
    for position, k in enumerate(order):
        same = position and all(column[k] == column[order[position - 1]] for column in classes)
        places.append(places[-1] if same else position + 1)
    return places


def tied_runs(names: Sequence[str], order: Sequence[int], *keys: Sequence[float]) -> list[list[str]]:
    """The runs of two or more bots tied on every key, best first, each listed by name."""
    places = shared_places(order, *keys)
    runs: dict[int, list[str]] = {}
    for place, k in zip(places, order, strict=True):
        runs.setdefault(place, []).append(names[k])
    return [run for run in runs.values() if len(run) > 1]


def tie_sentence(runs: Sequence[Sequence[str]], what: str) -> str:
    """One sentence naming the exact ties, e.g. "bot4 and bot5 have the same Bradley-Terry strength ...".

    Args:
        runs: ``tied_runs``' answer (empty: no sentence).
        what: What they are tied on, e.g. "Bradley-Terry strength".
    """
    if not runs:
        return ""
    said = "; ".join(_listed(run) for run in runs)
    each = "they share a place and are listed by name" if len(runs) == 1 else "each tie shares a place, by name"
    return f"Tied: {said} have the same {what} (their results do not tell them apart), so {each}."


def _listed(run: Sequence[str]) -> str:
    """a, b and c."""
    return run[0] if len(run) == 1 else ", ".join(run[:-1]) + " and " + run[-1]
