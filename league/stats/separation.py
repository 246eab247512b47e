"""Separations: groups of bots that never lost a point to the bots below them, whose gaps the data cannot bound.

Bradley-Terry's maximum-likelihood ratings exist only when the graph with an arrow from i to j
whenever i took a point off j (a win, or a draw) is strongly connected (Zermelo 1929, Ford 1957).
Where it is not, its strongly connected components are groups: inside a group every bot can be
compared through results going both ways. Between two groups, three things can be:

- one **dominates** the other: it took points off the other (directly or through other groups),
  which never took one back. Where they met, it won every game. The likelihood keeps rising as their
  gap grows, so the data bound the gap from below only: the gap the fit reports, and the intervals
  that reach across it, are set by the prior (``league.stats.bradley_terry.PRIOR_SD``), and would
  grow with a wider prior. More games between a bot that always wins and one that always loses
  would not bound it either.
- they are **apart**: neither reaches the other, not even through common opponents. Nothing in the
  data orders them; the prior alone does, and games between them would measure their gap.

What the data say of a gap where two groups met: the upper won every game of the m independent
units they met in (a round's seat-swapped pair of games, or a table, ``league.stats.pairwise``: its
games share a seed and may be one outcome, so a unit counts as one game however many it holds).
By the one-sided 95% Clopper-Pearson bound the upper group's chance of taking a unit is at least
0.05^(1/m), so its score rate against the lower one is too: at least 400 log10(p / (1 - p)) Elo on
average (729 Elo for 200 units; no bound below 5, where p could still be 1/2).

Groups are ordered best first topologically: a group comes after every group that dominates it
directly (took a point off it), ties broken by the best rating in the fit, then by name.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from league.stats.cycles import pair_scores
from league.stats.one_way import elo_bound
from league.stats.pairwise import PairwiseResults
from league.stats.ties import tie_classes

DOMINATES, REVERSED, APART = "dominates", "reversed", "apart"
"""How two bots' groups stand, seen from the one rated higher (``Separation.crossing``)."""


@dataclass(frozen=True)
class Gap:
    """What the games between two groups say of their gap.

    Attributes:
        upper: The upper group's number (1 best).
        lower: The lower group's number.
        games: Pairwise results between the two groups (every one won by the upper group; 0 if they never met).
        units: Independent units they met in (seat-swapped pairs of games, or tables).
        at_least: The data's 95% lower bound on the gap (Elo, mean over the groups' games); None
            where too few units bound it above 0 (or they never met).
    """

    upper: int
    lower: int
    games: int
    units: int
    at_least: float | None


@dataclass(frozen=True)
class Crossing:
    """Two bots in different groups, the first rated above the second.

    Attributes:
        kind: ``DOMINATES`` (the higher's group never lost a point to the lower's, and took some),
            ``REVERSED`` (the lower's group never lost a point to the higher's: the prior alone rates it
            below) or ``APART`` (neither group reaches the other).
        gap: The games between their two groups, from the dominating group's side (none when apart).
    """

    kind: str
    gap: Gap


@dataclass(frozen=True)
class Separation:
    """The league's groups, best first, how they stand, and the gaps between neighbouring groups.

    Attributes:
        groups: Bot names per group, in topological order (one group: no separation).
        gaps: Between each group and the next one in that order (``len(groups) - 1`` of them).
        reach: ``reach[g, h]``: group g took points off group h, directly or through others (0-based).
        met: ``met[g, h]``: ``(games, units)`` between groups g and h (0-based).
        unit: What a unit is, in words ("seat-swapped pair" of games, "table").
        meaning: One sentence ("" when there is one group).
    """

    groups: list[list[str]]
    gaps: list[Gap]
    reach: np.ndarray
    met: dict[tuple[int, int], tuple[int, int]]
    unit: str
    meaning: str

    @property
    def separated(self) -> bool:
        """Whether a group dominates another (its gap bounded from below only)."""
        return bool((self.reach & ~self.reach.T).any())

    @property
    def apart(self) -> bool:
        """Whether two groups never met, not even through common opponents."""
        neither = ~self.reach & ~self.reach.T
        np.fill_diagonal(neither, False)
        return bool(neither.any())

    def units(self, count: int, more: bool = False) -> str:
        """``count`` units in words: "1 table", "12 seat-swapped pairs", "4 more tables"."""
        return f"{count} {'more ' if more else ''}{self.unit}{'' if count == 1 else 's'}"

    def group_of(self, bot: str) -> int:
        """The group number (1 best) of ``bot``."""
        return next(number for number, group in enumerate(self.groups, start=1) if bot in group)

    def crossing(self, higher: str, lower: str) -> Crossing | None:
        """How the groups of ``higher`` (rated above) and ``lower`` stand (None when they share a group)."""
        upper, below = self.group_of(higher) - 1, self.group_of(lower) - 1
        if upper == below:
            return None
        if self.reach[upper, below] and not self.reach[below, upper]:
            return Crossing(DOMINATES, _gap(self.met, upper, below))
        if self.reach[below, upper]:
            return Crossing(REVERSED, _gap(self.met, below, upper))
        return Crossing(APART, Gap(upper + 1, below + 1, 0, 0, None))


def _gap(met: dict[tuple[int, int], tuple[int, int]], upper: int, lower: int) -> Gap:
    """The gap between two groups (0-based), the first the upper one, from ``Separation.met``."""
    games, units = met.get((min(upper, lower), max(upper, lower)), (0, 0))
    return Gap(upper + 1, lower + 1, games, units, lower_bound(units))


def separations(results: PairwiseResults, elo: np.ndarray) -> Separation:
    """The groups of bots that never lost a point to another group, and what bounds their gaps (module docstring).

    Args:
        results: The league's pairwise results (``results.bots`` are the rated bots).
        elo: Their fitted ratings (they break ties in the order of groups).
    """
    bots = results.bots
    scores, games = pair_scores(results.counts())
    took_points = (scores > 0) | np.eye(len(bots), dtype=bool)
    reach = _closure(took_points)
    same = reach & reach.T
    rating_class = tie_classes(elo.tolist())  # exact ties by name (league.stats.ties)
    members: list[list[int]] = []
    placed = np.zeros(len(bots), dtype=bool)
    for bot in range(len(bots)):
        if not placed[bot]:
            group = np.flatnonzero(same[bot])
            placed[group] = True
            members.append(sorted(group.tolist(), key=lambda k: (rating_class[k], bots[k])))
    members = _topological(members, took_points, rating_class, bots)
    group_of = np.empty(len(bots), dtype=np.int64)
    for number, group in enumerate(members):
        group_of[group] = number
    firsts = [group[0] for group in members]  # a group reaches what any of its bots reaches
    group_reach = reach[np.ix_(firsts, firsts)] & ~np.eye(len(members), dtype=bool)
    met = _met(results, group_of, games)
    gaps = [_gap(met, number, number + 1) for number in range(len(members) - 1)]
    named = [[bots[k] for k in group] for group in members]
    separation = Separation(named, gaps, group_reach, met, "table" if results.tables else "seat-swapped pair", "")
    return replace(separation, meaning=_meaning(separation))


def won_all(games: int) -> str:
    """In words: "won all 200 games", or "won the only game"."""
    return "won the only game" if games == 1 else f"won all {games} games"


def lower_bound(units: int) -> float | None:
    """The 95% lower bound (Elo) on a gap where the upper side took every one of ``units`` units; None below 5.

    ``league.stats.one_way.elo_bound``: below 5 units the bound is no gap at all.
    """
    bound = elo_bound(units) if units else 0.0
    return bound if bound > 0 else None


def _closure(arrows: np.ndarray) -> np.ndarray:
    """Reachability: ``reach[i, j]`` when a path of arrows leads from i to j (repeated squaring)."""
    reach = arrows.astype(bool)
    for _ in range(max(1, math.ceil(math.log2(max(len(reach), 2))))):
        grown = (reach.astype(np.int64) @ reach.astype(np.int64)) > 0
        if np.array_equal(grown, reach):
            break
        reach = grown
    return reach


def _topological(members: list[list[int]], took_points: np.ndarray, rating_class: list[int], bots: list[str]) -> list:
    """Groups best first: each after every group that took a point off it; ties by best rating, then name.

    ``rating_class`` is each bot's ``league.stats.ties.tie_classes`` of its rating (0 best).
    """
    into = [
        {g for g, other in enumerate(members) if g != h and took_points[np.ix_(other, group)].any()}
        for h, group in enumerate(members)
    ]
    ordered: list[list[int]] = []
    left = set(range(len(members)))
    while left:
        ready = [h for h in left if not into[h] & left] or list(left)  # a cycle cannot be: groups are components
        best = min(ready, key=lambda h: (rating_class[members[h][0]], bots[members[h][0]]))
        ordered.append(members[best])
        left.remove(best)
    return ordered


def _met(results: PairwiseResults, group_of: np.ndarray, games: np.ndarray) -> dict[tuple[int, int], tuple[int, int]]:
    """Per pair of groups (0-based, lower number first): the pairwise results and distinct units between them."""
    size = len(results.bots)
    first, second = group_of[results.row_cell // size], group_of[results.row_cell % size]
    across = first != second
    low, high = np.minimum(first, second)[across], np.maximum(first, second)[across]
    met: dict[tuple[int, int], tuple[int, int]] = {}
    for pair in set(zip(low.tolist(), high.tolist(), strict=True)):
        rows = across.nonzero()[0][(low == pair[0]) & (high == pair[1])]
        upper = np.flatnonzero(group_of == pair[0])
        lower = np.flatnonzero(group_of == pair[1])
        met[pair] = (int(round(games[np.ix_(upper, lower)].sum())), len(set(results.row_unit[rows].tolist())))
    return met


def _gap_text(separation: Separation, gap: Gap) -> str:
    """What the games between two groups say of their gap, e.g. "a won all 200 games against b: at least 729 Elo"."""
    upper, lower = ", ".join(separation.groups[gap.upper - 1]), ", ".join(separation.groups[gap.lower - 1])
    if not separation.reach[gap.upper - 1, gap.lower - 1]:
        return f"{upper} and {lower} never met, not even through common opponents: the prior alone orders them"
    if not gap.games:
        return f"{upper} never lost a point to {lower}, whom they met only through common opponents"
    won = f"{upper} {won_all(gap.games)} against {lower} ({separation.units(gap.units)})"
    if gap.at_least is None:
        return f"{won}, too few to bound the gap even from below"
    return f"{won}: the gap is at least {gap.at_least:.0f} Elo (95%)"


def _meaning(separation: Separation) -> str:
    """One sentence naming the groups and what the data say of their gaps ("" for one group)."""
    groups = separation.groups
    if len(groups) < 2:
        return ""
    shown = " | ".join(", ".join(group) for group in groups)
    bounds = "; ".join(_gap_text(separation, gap) for gap in separation.gaps)
    head = f"The bots fall into {len(groups)} groups ({shown}), best first, each compared only within itself."
    if not separation.separated:
        return f"{head} Between them: {bounds}; games between them would measure their gaps."
    return (
        f"{head} Where a group never lost a point to another, the data bound their gap from below only ({bounds}):"
        " the Elo shown across it, and the intervals that reach across it, come from the prior, and no number of"
        " games between a bot that always wins and one that always loses would bound it."
    )
