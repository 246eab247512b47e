"""Which places are settled, how many more games would settle the rest, and the verdict in plain words.

A place is settled at 95% when its bot's likelihood of superiority over each ranked neighbour
is at least 0.95: LOS(higher, lower) >= 0.95 for the neighbour above it and for the one below
(the first place has only one below, the last only one above). Ranks are the Bradley-Terry
order, highest rating first.

Enough games? The standard deviation of a difference of ratings shrinks as 1/sqrt(games), so a
neighbour pair d Elo apart with standard deviation s (the one LOS uses) settles, if d stays as
measured, once every pair plays (1.645 s / d)^2 times the games it has played so far (1.645:
the one-sided 95% normal quantile; the prior's small pull is ignored). Neighbours less than
``RESOLUTION_ELO`` apart may be truly equal, and no number of games settles a tie: for them the
figure given is the games that would tell ``RESOLUTION_ELO`` Elo apart.

Neighbours in two groups of a separation (``league.stats.separation``: the higher's group never lost
a point to the lower's) have no measured gap: their Elo difference is set by the prior, so neither
LOS nor the formula above means anything there. Their order is settled by the sign test alone
(the higher's group took all m independent units the groups met in, a seat-swapped pair or a table
counting once, and 1/2^m <= 0.05: m >= 5; LOS where they met only through common opponents), no
games are suggested to bound the gap (none would), and the verdict names the groups instead of
counting the gap as measured. Where the lower's group is the one that never lost a point, the
order is the prior's and never settled. Groups that never met, not even through common opponents,
are ordinary neighbours whose order the prior alone gives: games between them are suggested.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from league.stats.cycles import Cycles, Transitivity
from league.stats.evidence import Prediction
from league.stats.separation import APART, DOMINATES, Crossing, Separation, won_all

SETTLED = 0.95
Z_ONE_SIDED = 1.6448536269514722
"""LOS >= 0.95 when the difference is at least this many standard deviations."""

RESOLUTION_ELO = 20.0
"""Neighbours closer than this may be tied; the games needed to resolve this gap are given instead."""

SIGN_TEST_UNITS = math.ceil(math.log(1 - SETTLED) / math.log(0.5))
"""Independent units all won that settle an order by the sign test at 95% (5: 1/2^5 < 0.05)."""


@dataclass(frozen=True)
class Neighbours:
    """One pair of neighbours in the Bradley-Terry order.

    Attributes:
        higher: The bot ranked above.
        lower: The bot ranked below.
        difference: Their rating difference (Elo, at least 0).
        sd: Its standard deviation (Laplace, scaled by the design effect).
        los: P(higher is stronger than lower).
        settled: Whether ``los`` >= 0.95.
        factor: Times the games played so far that every pair would need for this order to
            settle (for a possible tie: to tell ``RESOLUTION_ELO`` apart); 1 when settled.
        more_games_per_pair: Games more per pair that this means (0 when settled).
        tie: Whether they are closer than ``RESOLUTION_ELO`` (never for separated neighbours).
        meaning: One sentence (empty when settled).
        separated: Whether they lie in two groups of a separation (their gap is then a lower bound only).
        gap_at_least: For separated neighbours, the data's 95% lower bound on their groups' gap (Elo), if any.
    """

    higher: str
    lower: str
    difference: float
    sd: float
    los: float
    settled: bool
    factor: float
    more_games_per_pair: int
    tie: bool
    meaning: str
    separated: bool = False
    gap_at_least: float | None = None


def neighbours(
    order: list[int],
    bots: list[str],
    elo: np.ndarray,
    sd_of: np.ndarray,
    los: np.ndarray,
    games_per_pair: float,
    met: np.ndarray | None = None,
    per: str = "per pair",
    separation: Separation | None = None,
) -> list[Neighbours]:
    """Every pair of neighbours in ``order``, settled or not, with the games that would settle it.

    Args:
        order: Bot indices, best first.
        bots: The rated bots.
        elo: Their ratings.
        sd_of: ``sd_of[i, j]``: standard deviation of elo[i] - elo[j] (the design effect included).
        los: The likelihood-of-superiority matrix.
        games_per_pair: Games (pairwise results) per pair that met so far, per variant.
        met: ``met[i, j]``: whether bots i and j played each other (default: every pair did).
        per: What the games are counted per, in the sentences ("per pair", "per pair and variant").
        separation: The league's groups (``league.stats.separation``); neighbours in two groups are
            judged by the sign test (module docstring).
    """
    found = []
    for high, low in itertools.pairwise(order):
        crossing = separation.crossing(bots[high], bots[low]) if separation is not None else None
        if crossing is not None and crossing.kind != APART:
            figures = float(elo[high] - elo[low]), float(sd_of[high, low]), float(los[high, low])
            found.append(_separated(bots[high], bots[low], *figures, crossing, separation))
            continue
        difference, sd, superiority = float(elo[high] - elo[low]), float(sd_of[high, low]), float(los[high, low])
        settled = superiority >= SETTLED
        tie = difference < RESOLUTION_ELO
        gap = max(difference, RESOLUTION_ELO)
        factor = 1.0 if settled else max(1.0, (Z_ONE_SIDED * sd / gap) ** 2)
        more = math.ceil(games_per_pair * (factor - 1)) if not settled else 0
        pair = f"{bots[high]} above {bots[low]}"
        apart = (
            " (their groups never met, not even through common opponents: the prior alone orders them, and games"
            " between them would measure their gap)"
            if crossing is not None
            else ""
            if met is None or met[high, low]
            else " (they never play each other here: their order comes from common opponents)"
        )
        if settled:
            meaning = ""
        elif tie:
            meaning = (
                f"{pair} ({difference:.0f} Elo apart, LOS {superiority:.2f}) looks like a tie: no number of games"
                f" settles a true tie; telling {RESOLUTION_ELO:.0f} Elo apart needs about {factor:.1f} times the"
                f" games, {more} more {per}{apart}."
            )
        else:
            meaning = (
                f"{pair} ({difference:.0f} Elo apart, LOS {superiority:.2f}) would settle at 95% with about"
                f" {factor:.1f} times the games, {more} more {per}, if the gap holds{apart}."
            )
        found.append(
            Neighbours(bots[high], bots[low], difference, sd, superiority, settled, factor, more, tie, meaning)
        )
    return found


def _separated(
    higher: str, lower: str, difference: float, sd: float, superiority: float, crossing: Crossing, groups: Separation
) -> Neighbours:
    """Neighbours in two groups one of which never lost a point to the other: the order by the sign test, no gap."""
    gap = crossing.gap
    loser = lower if crossing.kind == DOMINATES else higher
    won = f"{won_all(gap.games)} against {loser}'s, in {groups.units(gap.units)}"
    if crossing.kind != DOMINATES:  # the lower's group dominates: the prior alone rates it below
        settled = False
        evidence = f" ({won})" if gap.games else ", met only through common opponents"
        meaning = (
            f"{higher} above {lower} is the prior's doing: {lower}'s group never lost a point to {higher}'s{evidence},"
            " so the data would rate it higher, by a gap they do not bound."
        )
    elif gap.units:
        settled = gap.units >= SIGN_TEST_UNITS
        meaning = (
            ""
            if settled
            else f"{higher} above {lower}: {higher}'s group {won}, too few to settle the order;"
            f" {groups.units(SIGN_TEST_UNITS - gap.units, more=True)} won would settle it at 95%, but no number of"
            " games bounds their gap from above."
        )
    else:
        settled = superiority >= SETTLED
        meaning = (
            ""
            if settled
            else f"{higher} above {lower} (LOS {superiority:.2f}): {higher}'s group never lost a point to {lower}'s,"
            " met only through common opponents; games between them would settle the order, never bound the gap."
        )
    factor = 1.0 if settled else math.nan
    return Neighbours(
        higher,
        lower,
        difference,
        sd,
        superiority,
        settled,
        factor,
        0,
        False,
        meaning,
        True,
        gap.at_least if crossing.kind == DOMINATES else None,
    )


def league_games_needed(pairs: list[Neighbours], games_per_pair: float, per: str = "per pair") -> str:
    """One sentence: the games per pair that would settle every neighbour (but the possible ties)."""
    if all(pair.settled for pair in pairs):
        return "Every neighbour's order is settled at 95%: no more games are needed."
    ties = [f"{pair.higher}/{pair.lower}" for pair in pairs if not pair.settled and pair.tie]
    open_pairs = [pair for pair in pairs if not pair.settled and not pair.tie and not pair.separated]
    if not ties and not open_pairs:
        return (
            "Only neighbours across a separation are unsettled: games between them settle their order, never their gap."
        )
    tie_text = f"; the possible ties ({', '.join(ties)}) no number of games settles" if ties else ""
    if not open_pairs:
        return f"The only unsettled neighbours ({', '.join(ties)}) look tied, and no number of games settles a tie."
    factor = max(pair.factor for pair in open_pairs)
    more = math.ceil(games_per_pair * (factor - 1))
    but = " but the possible ties" if ties else ""
    return (
        f"Settling every neighbour{but} at 95% needs about {factor:.1f} times the games, {more} more {per}"
        f" ({games_per_pair:.0f} so far){tie_text}."
    )


def settled_places(pairs: list[Neighbours]) -> list[bool]:
    """Per place (best first), whether it is settled: its LOS with each neighbour at least 0.95."""
    above = [True, *(pair.settled for pair in pairs)]
    below = [*(pair.settled for pair in pairs), True]
    return [high and low for high, low in zip(above, below, strict=True)]


def verdict(
    settled: list[bool],
    transitivity: Transitivity,
    prediction: Prediction,
    cycles: Cycles | None = None,
    separation: Separation | None = None,
) -> str:
    """The verdict in plain words, e.g. "General strength explains 94% of the results; places 1-3 are settled ...".

    A separation is named, its gaps said to be lower bounds: they are never counted as measured.
    """
    parts = []
    if transitivity.noisy:
        parts.append("the results are mostly sampling noise")
    elif transitivity.share is not None and transitivity.cycle_rank > 0:
        parts.append(f"general strength explains {transitivity.share:.0%} of the results")
    if cycles is not None and cycles.total:
        a, b, c = cycles.cycles[0]
        count = "a significant 3-cycle" if cycles.total == 1 else f"{cycles.total} significant 3-cycles"
        parts.append(f"{count} ({a} beats {b}, {b} beats {c}, {c} beats {a}{'' if cycles.total == 1 else ', ...'})")
    places = [place + 1 for place, done in enumerate(settled) if done]
    others = [place + 1 for place, done in enumerate(settled) if not done]
    if len(settled) < 2:
        parts.append("with fewer than two rated bots there is no ranking to settle")
    elif not others:
        parts.append(f"every place (1-{len(settled)}) is settled at 95%")
    elif not places:
        parts.append("no place is settled at 95%")
    else:
        noun, verb = ("place", "is") if len(places) == 1 else ("places", "are")
        rest = "is not" if len(others) == 1 else "are not"
        parts.append(f"{noun} {_places(places)} {verb} settled at 95%; {_places(others)} {rest}")
    if separation is not None and len(separation.groups) > 1:
        groups = " | ".join(", ".join(group) for group in separation.groups)
        what = []
        if separation.separated:
            what.append("where one never lost a point to another, their gap is a lower bound, not measured")
        if separation.apart:
            what.append("where two never met, not even through common opponents, the prior alone orders them")
        parts.append(f"the bots fall into {len(separation.groups)} groups ({groups}): {'; '.join(what)}")
    if prediction.gain is not None and not prediction.better:
        parts.append("the ratings do not predict held-out games clearly better than the seat alone")
    text = "; ".join(parts) + "."
    return text[0].upper() + text[1:]


def _places(places: list[int]) -> str:
    """1 2 3 5 -> "1-3 and 5"; 4 5 -> "4 and 5"."""
    runs: list[list[int]] = []
    for place in places:
        if runs and place == runs[-1][-1] + 1:
            runs[-1].append(place)
        else:
            runs.append([place])
    items: list[str] = []
    for run in runs:
        items += [f"{run[0]}-{run[-1]}"] if len(run) > 2 else [str(place) for place in run]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
