"""Separations: groups of bots that never lost a point to the bots below them, whose gaps the data cannot bound.

Bradley-Terry's maximum-likelihood ratings exist only when the graph with an arrow from i to j
whenever i took a point off j (a win, or a draw) is strongly connected (Zermelo 1929, Ford 1957).
Where it is not, its strongly connected components are groups: inside a group every bot can be
compared through results going both ways; between two groups that met, the upper one won every
game. The likelihood then keeps rising as their gap grows, so the data bound the gap from below
only: the gap the fit reports, and the intervals that reach across it, are set by the prior
(``league.stats.bradley_terry.PRIOR_SD``), and would grow with a wider prior. More games between
a bot that always wins and one that always loses would not bound it either.

What the data do say: the upper group scored all n of the games between the two, so by the
one-sided 95% Clopper-Pearson bound its score rate against the lower group is at least
0.05^(1/n), that is at least 400 log10(p / (1 - p)) Elo on average (729 Elo for 200 games; no
bound below 5 games, where p could still be 1/2).

Groups are ordered best first by their best rating in the fit (the fit keeps every group that won
every game against another above it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from league.stats.cycles import pair_scores

BOUND_LEVEL = 0.05
"""One-sided error of the lower bound on a gap."""


@dataclass(frozen=True)
class Gap:
    """What the data say of the gap between two groups.

    Attributes:
        upper: The upper group's number (1 best).
        lower: The lower group's number.
        games: Games between the two groups (every one won by the upper group; 0 if they never met).
        at_least: The data's 95% lower bound on the gap (Elo, mean over the groups' games); None
            where too few games bound it above 0 (or none were played).
    """

    upper: int
    lower: int
    games: int
    at_least: float | None


@dataclass(frozen=True)
class Separation:
    """The league's groups, best first, and the gaps between neighbouring groups.

    Attributes:
        groups: Bot names per group, best first (one group: no separation).
        gaps: Between each group and the next one below (``len(groups) - 1`` of them).
        meaning: One sentence ("" when there is one group).
    """

    groups: list[list[str]]
    gaps: list[Gap]
    meaning: str

    @property
    def separated(self) -> bool:
        """Whether the bots fall into two groups or more."""
        return len(self.groups) > 1

    def group_of(self, bot: str) -> int:
        """The group number (1 best) of ``bot``."""
        return next(number for number, group in enumerate(self.groups, start=1) if bot in group)

    def gap_between(self, higher: str, lower: str) -> Gap | None:
        """The gap between the groups of ``higher`` and ``lower`` (None when they share a group)."""
        upper, below = self.group_of(higher), self.group_of(lower)
        if upper == below:
            return None
        if below == upper + 1:
            return self.gaps[upper - 1]
        return Gap(upper, below, 0, None)


def separations(bots: list[str], counts: np.ndarray, elo: np.ndarray) -> Separation:
    """The groups of bots that never lost a point to another group, and what bounds their gaps (module docstring).

    Args:
        bots: The rated bots.
        counts: ``(bots, bots, 3)`` win/draw/loss counts of the first bot against the second.
        elo: Their fitted ratings (they order the groups).
    """
    scores, games = pair_scores(counts)
    took_points = (scores > 0) | np.eye(len(bots), dtype=bool)
    reach = _closure(took_points)
    same = reach & reach.T
    groups: list[list[int]] = []
    placed = np.zeros(len(bots), dtype=bool)
    for bot in range(len(bots)):
        if not placed[bot]:
            members = np.flatnonzero(same[bot])
            placed[members] = True
            groups.append(sorted(members.tolist(), key=lambda k: (-elo[k], bots[k])))
    groups.sort(key=lambda members: (-elo[members[0]], bots[members[0]]))
    gaps = [
        _gap(number, games[np.ix_(upper, lower)].sum())
        for number, (upper, lower) in enumerate(zip(groups, groups[1:], strict=False), start=1)
    ]
    named = [[bots[k] for k in members] for members in groups]
    return Separation(named, gaps, _meaning(named, gaps))


def _closure(arrows: np.ndarray) -> np.ndarray:
    """Reachability: ``reach[i, j]`` when a path of arrows leads from i to j (repeated squaring)."""
    reach = arrows.astype(bool)
    for _ in range(max(1, math.ceil(math.log2(max(len(reach), 2))))):
        grown = (reach.astype(np.int64) @ reach.astype(np.int64)) > 0
        if np.array_equal(grown, reach):
            break
        reach = grown
    return reach


def _gap(upper: int, games: float) -> Gap:
    """The gap between group ``upper`` and the next, from the ``games`` between them (all won by the upper)."""
    count = int(round(games))
    rate = BOUND_LEVEL ** (1 / count) if count else 0.0
    at_least = 400 * math.log10(rate / (1 - rate)) if 0.5 < rate < 1 else None
    return Gap(upper, upper + 1, count, at_least)


def _gap_text(upper: str, lower: str, gap: Gap) -> str:
    """What the games between two groups say of their gap, e.g. "a won all 200 games against b: at least 729 Elo"."""
    if not gap.games:
        return f"{upper} never met {lower}, so nothing measured their gap"
    if gap.at_least is None:
        return f"{upper} won all {gap.games} games against {lower}, too few to bound the gap even from below"
    return f"{upper} won all {gap.games} games against {lower}: the gap is at least {gap.at_least:.0f} Elo (95%)"


def _meaning(groups: list[list[str]], gaps: list[Gap]) -> str:
    """One sentence naming the groups and what the data say of their gaps ("" for one group)."""
    if len(groups) < 2:
        return ""
    shown = " | ".join(", ".join(group) for group in groups)
    bounds = "; ".join(
        _gap_text(", ".join(groups[gap.upper - 1]), ", ".join(groups[gap.lower - 1]), gap) for gap in gaps
    )
    return (
        f"The bots fall into {len(groups)} groups, each of which never lost a point to the groups below it"
        f" ({shown}). The data bound those gaps from below only ({bounds}): the Elo shown across them, and the"
        " intervals that reach across them, come from the prior, and no number of games between a bot that"
        " always wins and one that always loses would bound them."
    )
