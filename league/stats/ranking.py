"""Who won? The one order of the standings: the format's own result where it has one, else Bradley-Terry.

The report's standings, ``league standings`` and the table ``league run`` ends with all order the
bots by this rule, computed here (``rank_league``) and nowhere else:

0. A format with a result of its own places the bots by it (``FormatRun.final_order``, kept in the
   folder's manifest as ``final_order`` by the runner): a knockout's placing (champion, runner-up,
   then by the round that put a bot out, ``league.plan.bracket``), a Swiss league's standings
   (score, Buchholz, Sonneborn-Berger, the draw order: ``league.plan.swiss_standings``), finals'
   placing then the bots they left out in the qualifier's order (``league.plan.formats.finals``).
   The format breaks its own ties, so its places are 1, 2, 3, ... as its section of the report
   numbers them; the Bradley-Terry strengths below stay columns beside it, and the report's strength
   table keeps their order. A page then names one winner: the one its format's section names.
   Which rule placed the bots is said under the table (``league.report.standings_rule``).

Every other league (round robin, gauntlet, tables, SPRT, adaptive) is ordered by strength:

1. Each bot's Bradley-Terry strength (``league.stats.bradley_terry``: the peak of the posterior of
   every scored game at once, on the Elo scale, with the first-seat advantage in games of two and
   without a seat term at tables), with the 95% interval of ``league.stats.strength`` (the hull of
   a bootstrap over the games' resampling units and the model's own interval). Highest first; the
   report's strength table has the same order.
2. Exact ties (``league.stats.ties``: strengths within a millionth of an Elo) share a place and
   are listed by name; the page says who is tied.
3. Bots without games have no strength: they come last, sharing the last place, by name.

The fit sees the games as a set: the same games in any order, stored or played, give the same
strengths and places (to the solver's last bits, which ``league.stats.ties`` never compares).

Why Bradley-Terry, and TrueSkill only as a column. The league's TrueSkill
(``league.stats.ratings``) is an online filter: every game moves the ratings once, in the order the
games are fed, and is never revisited. The same games fed in another order give other ratings, and
a bot that took more points and won the head-to-head can end below the other (issue 32: five bots,
minimax placed above mybot, which had 26 points to 24, won their games 6-4 and led Bradley-Terry).
An order-free fit is needed.

TrueSkill Through Time (the ``trueskillthroughtime`` package) lets skills drift between games; a
league's bots do not change while it runs (an edited bot is a new version, with games of its own),
and without drift it is TrueSkill's message passing iterated to convergence over all the games at
once: the peak of a Thurstone-Mosteller model with a Gaussian prior, which is Bradley-Terry's model
up to its link (normal instead of logistic). It would be a new dependency and a second solver for
nearly the same answer (tried on this module's test of issue 32's five bots, its version 1.1.0 put
them in Bradley-Terry's order), in pure Python and without a bootstrap: over a second for those 100
games, where a league may hold a million.

Bradley-Terry is already the league's order-free fit, with intervals, likelihoods of superiority,
place probabilities, settled places and separation groups (``league.stats.analysis``, whose table
is fitted once with the standings: ``Ranking.fitted``), and variant ranks
(``league.stats.variant_ranks``) and adaptive leagues' stopping rule (``league.stats.active_ranking``,
on seat-swapped pairs) fit the same model. It covers every format without a result of its own:
games of two (round robin, gauntlet, sprt, adaptive) with a first-seat advantage, and tables of
three to six seats (nimmt, fish) through their n(n-1)/2 pairwise results (``league.stats.pairwise``),
a table resampled whole.
Where every pair met equally often in both seats (a round robin), the strengths are in the order of
the points (the fit's equations give more strength for more points against the same opponents;
Zermelo 1929 without the seat term), so the standings never put a bot with fewer points above one
with more; in a gauntlet or an adaptive league they weigh whom the points were taken from.

Why a format's own result comes first. A knockout or a Swiss league is played to its own rule, and
its section of the report and ``league run``'s closing line name its result (the champion, the
Swiss winner): standings by strength would contradict them, putting the champion second where
another bot was stronger over the few games a bracket plays. That result is order-free too: a
format takes stored games in schedule order only (``league.plan.formats.base``), so the same games
give the same placing whatever order they were stored in.

Two kinds of league have no strengths and keep their own order-free rule, said on their pages: a
solo league (nobody played anybody) is ranked as the CODE VS 2.1 qualifier was
(``league.stats.qualifier``: sums over the same seeds), and a league whose every game ended in a
fault rates nobody (``league.report.all_faults``: points, then fewer faults).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from league.stats.analysis import games_seed
from league.stats.game_record import GameRecord
from league.stats.pairwise import pairwise_results
from league.stats.strength import DESIGN_EFFECT_SE, StrengthEstimate, estimate
from league.stats.ties import best_first, shared_places, tied_runs

RULE = (
    "the order by Bradley-Terry strength (elo), fitted to every game at once, so the order the games were"
    " played or stored in changes nothing; bots of equal strength share a place and are listed by name, bots"
    " without games come last"
)
"""The rule in words, for the standings' legend (the report's and the terminal's)."""

TIE_WHAT = "Bradley-Terry strength"
"""What tied bots are tied on, for ``league.stats.ties.tie_sentence``."""


@dataclass(frozen=True)
class Ranking:
    """The standings' order of a league (module docstring) and the strengths it comes from.

    Attributes:
        order: Every bot of the league, best first.
        places: Per bot of ``order``, its place (tied bots share the best of theirs).
        ties: Runs of bots with games whose strengths are equal, best first, each by name.
        unrated: The bots without games (last in ``order``).
        fitted: The Bradley-Terry estimate, its bots those with games (``fitted.bots``).
        seed: The seed its resamples were drawn from.
        by_format: Whether ``order`` is the format's own result (rule 0), not the strengths' order.
    """

    order: list[str]
    places: list[int]
    ties: list[list[str]]
    unrated: list[str]
    fitted: StrengthEstimate
    seed: int
    by_format: bool = False

    def strength(self, name: str) -> tuple[float, float, float]:
        """A bot's strength and the low and high ends of its 95% interval (Elo; NaN for a bot without games)."""
        if name not in self.fitted.bots:
            return math.nan, math.nan, math.nan
        k = self.fitted.bots.index(name)
        return float(self.fitted.elo[k]), float(self.fitted.low[k]), float(self.fitted.high[k])


def manifest_order(manifest: Mapping[str, Any]) -> list[str] | None:
    """The format's own order of the bots that a folder's manifest keeps (``final_order``), or None for none."""
    order = manifest.get("final_order")
    if not isinstance(order, list) or not all(isinstance(bot, str) for bot in order):
        return None
    return order


def rank_league(
    bots: Sequence[str],
    records: Sequence[GameRecord],
    samples: int = 200,
    seed: int | None = None,
    final_order: Sequence[str] | None = None,
) -> Ranking:
    """The bots best first by the standings' rule (module docstring), with their strengths.

    Args:
        bots: Every bot of the league.
        records: Its scored games, in any order (games of one seat and INFRA_ERROR games count for nothing).
        samples: Bootstrap resamples drawn first; more are drawn until the design effect's Monte Carlo
            error is at most ``league.stats.strength.DESIGN_EFFECT_SE``, as the report's strength table does.
        seed: Seeds the resampling (default: drawn from the games' own seeds, in no order of theirs).
        final_order: The format's own order, best first (the manifest's: ``manifest_order``), or None for
            Bradley-Terry's. Its names not among ``bots`` are left out; ``bots`` it does not name (none, for
            a manifest the runner wrote) follow it in Bradley-Terry's order.
    """
    results = pairwise_results(bots, records)
    seed = games_seed(records) if seed is None else seed
    fitted = estimate(results, samples, seed, target_se=DESIGN_EFFECT_SE)
    names = [*results.bots, *results.unrated]
    elo = [*(float(value) for value in fitted.elo), *(math.nan for _ in results.unrated)]
    order = best_first(names, elo)
    rated = [k for k in order if k < len(results.bots)]
    strengths = [names[k] for k in order]
    if final_order is not None:
        named = set(bots)
        placed = list(dict.fromkeys(bot for bot in final_order if bot in named))
        placed += [bot for bot in strengths if bot not in placed]
        return Ranking(
            order=placed,
            places=list(range(1, len(placed) + 1)),
            ties=[],
            unrated=list(results.unrated),
            fitted=fitted,
            seed=seed,
            by_format=True,
        )
    return Ranking(
        order=strengths,
        places=shared_places(order, elo),
        ties=tied_runs(names, rated, elo),
        unrated=list(results.unrated),
        fitted=fitted,
        seed=seed,
    )
