"""Do the report's intervals, LOS and settled places keep their promise? Leagues of known strengths, simulated.

``python benchmarks/hidden_truth.py [--leagues 200] [--seed 25] [--near-tie-share 0.25] [--draw-rates 0 0.5]
[--figures FILE]``

Each seeded round robin draws its truth from a ``Population``: 4 to 8 bots spread as in a real
contest (``league.plan.adaptive_simulation.spread_elos``: gaps of about 80 Elo, a quarter of
neighbours near-twins within 5 Elo, all within 600 Elo so that no bot wins every game by design),
a draw rate, a first-seat advantage and 20 to 60 games a pair. No game is played: outcomes are
drawn from the synthetic game's model (``engine.synthetic.model``) and stored as that game stores
them (``league_records``). The report's own ``league.stats.analysis.assess`` judges each league,
and is judged against the truth:

- **Coverage**: the share of (league, bot) whose 95% interval covers the true rating: Bradley-Terry
  (draws half) fitted to the model's expected scores as if every pair played without end
  (``League.rating_truth``): the stated Elo centred without draws, a narrower scale with them (gaps
  7% narrower than BayesElo's at a draw rate of 0.3, 20% at 0.5), so the stated Elos' coverage follows.
- **LOS calibration**: every pair's LOS of the higher-rated over the lower, binned; per bin the
  mean LOS beside the share truly ordered so.
- **Settled places wrong**: the share of leagues where a place the verdict calls settled
  (``league.stats.verdict.settled_places``) holds a bot whose true place differs; beside it, the
  share where a settled neighbour pair is truly the other way round.

Shares of bots or pairs carry a binomial standard error and one over leagues (a league's bots and
pairs share its games; the larger is the one to read). The figures follow per kind of league too.
Seeded simulation: load changes only the seconds taken (200 leagues: about 30 s on 2 cores).
The leagues are drawn, simulated and judged in ``benchmarks/hidden_leagues.py``.
``tests/league/stats/test_hidden_truth.py`` runs a smaller one through ``measure``; ``--figures
FILE`` writes the figures as JSON for ``benchmarks/run_all.py``.
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.figures import HIGHER, Figure, write_figures  # noqa: E402
from benchmarks.hidden_leagues import Judged, Population, measure  # noqa: E402

AREA = "statistics"
"""The table of ``benchmarks/RESULTS.md`` these figures go in."""
PROMISED_COVERAGE = 0.95
PROMISED_SETTLED_WRONG = 0.05
LOS_EDGES = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0)
"""The bins of LOS, each from an edge to the next (the last one includes 1)."""
NEAR_NINETY = (0.85, 0.95)
"""The bin of "LOS near 0.9"."""


@dataclass(frozen=True)
class Share:
    """A share of ``hits`` in ``total``, with its Monte Carlo standard errors.

    Attributes:
        hits: The items that hit.
        total: All items.
        league_standard_error: For items that leagues group (a league's bots or pairs share its games),
            the share's standard error over leagues; NaN where the items are leagues.
    """

    hits: int
    total: int
    league_standard_error: float = math.nan

    @property
    def value(self) -> float:
        return self.hits / self.total if self.total else math.nan

    @property
    def binomial_error(self) -> float:
        """The standard error were the items independent."""
        return math.sqrt(self.value * (1 - self.value) / self.total) if self.total else math.nan

    @property
    def standard_error(self) -> float:
        """The larger of the binomial and the over-leagues standard error."""
        return float(np.fmax(self.binomial_error, self.league_standard_error))

    def text(self) -> str:
        """``0.943 ± 0.007 (± 0.008 over leagues; 1,234 of 1,308)``."""
        over = f"± {self.league_standard_error:.3f} over leagues; " if self.league_standard_error >= 0 else ""
        return f"{self.value:.3f} ± {self.binomial_error:.3f} ({over}{self.hits:,} of {self.total:,})"


def share_over_leagues(hits: Sequence[int], totals: Sequence[int]) -> Share:
    """The pooled share of items grouped by league (hits and items per league), its error a ratio's over leagues."""
    hit, total = np.asarray(hits, dtype=float), np.asarray(totals, dtype=float)
    share, leagues = hit.sum() / total.sum(), len(total)
    residual = hit - share * total
    spread = math.sqrt(leagues / max(leagues - 1, 1) * float(residual @ residual)) / total.sum()
    return Share(int(hit.sum()), int(total.sum()), spread)


def coverage(judged: Sequence[Judged], stated: bool = False) -> Share:
    """Intervals covering the true rating (``stated``: the stated Elo centred), of every (league, bot)."""
    per_league = [one.covered_stated if stated else one.covered for one in judged]
    return share_over_leagues(list(map(sum, per_league)), list(map(len, per_league)))


def all_covered(judged: Sequence[Judged], stated: bool = False) -> Share:
    """Leagues where every bot's interval covers its true rating (``stated``: its stated Elo centred)."""
    return Share(sum(all(one.covered_stated if stated else one.covered) for one in judged), len(judged))


@dataclass(frozen=True)
class LosBin:
    """Pairs whose LOS fell in [low, high) (the last bin includes 1): their mean LOS and the share truly ordered so."""

    low: float
    high: float
    mean_los: float
    ordered: Share


def los_calibration(judged: Sequence[Judged], edges: Sequence[float] = LOS_EDGES) -> list[LosBin]:
    """Every pair of every league binned by LOS (from each edge to the next); empty bins left out."""
    los = np.array([value for one in judged for value in one.los])
    ordered = np.array([value for one in judged for value in one.ordered], dtype=bool)
    league = np.repeat(np.arange(len(judged)), [len(one.los) for one in judged])
    bins = []
    for low, high in itertools.pairwise(edges):
        inside = (los >= low) & ((los < high) if high < 1 else (los <= high))
        if inside.any():
            hits = np.bincount(league[inside], ordered[inside], minlength=len(judged))
            totals = np.bincount(league[inside], minlength=len(judged))
            bins.append(LosBin(low, high, float(los[inside].mean()), share_over_leagues(hits, totals)))
    return bins


def settled_wrong(judged: Sequence[Judged], by_pairs: bool = False) -> Share:
    """Leagues with a settled place held by the wrong bot (``by_pairs``: with a settled neighbour pair reversed)."""
    return Share(sum((one.reversed_pairs if by_pairs else one.wrong_places) > 0 for one in judged), len(judged))


KINDS: dict[str, Callable[[Judged], str]] = {
    "draw rate": lambda one: "under 0.25" if one.league.draw_rate < 0.25 else "0.25 or more",
    "bots": lambda one: "under 6" if len(one.league.elos) < 6 else "6 or more",
    "games a pair": lambda one: "under 40" if one.league.games_per_pair < 40 else "40 or more",
    "separated groups": lambda one: "some" if one.separated else "none",
}
"""How the leagues are split to show where a promise holds or breaks."""


def by_kind(judged: Sequence[Judged]) -> list[str]:
    """Coverage (true ratings, stated Elos), LOS near 0.9 and settled places wrong, per kind of league."""
    lines = []
    for kind, band_of in KINDS.items():
        bands: dict[str, list[Judged]] = {}
        for one in judged:
            bands.setdefault(band_of(one), []).append(one)
        for band, group in sorted(bands.items()):
            near = los_calibration(group, NEAR_NINETY)
            los = f"{near[0].ordered.text()} at mean {near[0].mean_los:.3f}" if near else "no pairs"
            lines.append(
                f"  {kind} {band} ({len(group)} leagues): coverage {coverage(group).text()},"
                f" of the stated Elos {coverage(group, stated=True).text()};"
                f" LOS near 0.9 ordered {los}; settled places wrong {settled_wrong(group).text()}"
            )
    return lines


def report_lines(judged: Sequence[Judged]) -> list[str]:
    """The figures, for people."""
    lines = []
    for stated in (False, True):
        what = "the stated Elos (BayesElo's scale), centred" if stated else "the true ratings"
        lines.append(
            f"95% intervals covering {what}: {coverage(judged, stated).text()};"
            f" every bot covered in {all_covered(judged, stated).text()} leagues"
        )
    lines.append("LOS of the higher-rated over the lower, every pair: bin, pairs, mean LOS, truly ordered so")
    for found in [*los_calibration(judged), *los_calibration(judged, NEAR_NINETY)]:
        error = found.ordered.standard_error
        off = f"{(found.ordered.value - found.mean_los) / error:+.1f} SE" if error else "SE 0"
        lines.append(
            f"  {found.low:.2f}-{found.high:.2f}: {found.ordered.total:5,d} pairs, mean LOS {found.mean_los:.3f},"
            f" ordered {found.ordered.text()} ({off})"
        )
    lines.append(
        f"settled places wrong: {settled_wrong(judged).text()} leagues;"
        f" a settled neighbour pair reversed: {settled_wrong(judged, by_pairs=True).text()};"
        f" places settled {sum(one.settled for one in judged):,} of {sum(len(one.covered) for one in judged):,}"
    )
    effects = sorted(one.design_effect for one in judged)
    lines.append(f"design effect: median {statistics.median(effects):.2f}, range {effects[0]:.2f} to {effects[-1]:.2f}")
    lines.append("by kind of league:")
    return lines + by_kind(judged)


def figures_of(judged: Sequence[Judged]) -> list[Figure]:
    """Coverage beside 95%, each LOS bin's ordered share beside its mean LOS, settled places wrong beside 5%."""
    name = f"hidden truth, {len(judged)} simulated leagues"
    found, wrong = coverage(judged), settled_wrong(judged)
    figures = [
        Figure(
            AREA,
            f"{name}: 95% intervals covering the true rating ({found.total:,} ratings)",
            100 * found.value,
            "%",
            baseline=100 * PROMISED_COVERAGE,
            baseline_name="the promise",
            better=HIGHER,
            note=f"± {100 * found.binomial_error:.1f} % binomial, ± {100 * found.league_standard_error:.1f} % over"
            f" leagues; every bot covered in {100 * all_covered(judged).value:.0f} % of leagues;"
            f" of the stated Elos (BayesElo's scale) {100 * coverage(judged, stated=True).value:.1f} %",
        )
    ]
    near_ninety = [("near 0.9, ", found_bin) for found_bin in los_calibration(judged, NEAR_NINETY)]
    for near, bin_ in near_ninety + [("", found_bin) for found_bin in los_calibration(judged)]:
        share = bin_.ordered
        off = (share.value - bin_.mean_los) / share.standard_error if share.standard_error else 0.0
        figures.append(
            Figure(
                AREA,
                f"{name}: pairs given LOS {near}{bin_.low:.2f} to {bin_.high:.2f}, truly so ordered ({share.total:,})",
                100 * share.value,
                "%",
                baseline=100 * bin_.mean_los,
                baseline_name="their mean LOS",
                better=HIGHER,
                note=f"± {100 * share.binomial_error:.1f} % binomial, ± {100 * share.league_standard_error:.1f} % over"
                f" leagues; {abs(off):.1f} of the larger {'above' if off > 0 else 'below'} their mean LOS",
            )
        )
    return figures + [
        Figure(
            AREA,
            f"{name}: leagues with a settled place held by the wrong bot",
            100 * wrong.value,
            "%",
            baseline=100 * PROMISED_SETTLED_WRONG,
            baseline_name="the most promised",
            target=100 * PROMISED_SETTLED_WRONG,
            note=f"± {100 * wrong.standard_error:.1f} % Monte Carlo standard error;"
            f" with a settled neighbour pair reversed {100 * settled_wrong(judged, by_pairs=True).value:.1f} %",
        )
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--leagues", type=int, default=200, help="simulated leagues (default 200)")
    parser.add_argument("--seed", type=int, default=25, help="seeds every league (default 25)")
    parser.add_argument(
        "--near-tie-share", type=float, default=0.25, help="share of neighbours within 5 Elo (default 0.25)"
    )
    parser.add_argument(
        "--draw-rates", type=float, nargs=2, default=[0.0, 0.5], metavar=("LOW", "HIGH"), help="(default 0 0.5)"
    )
    parser.add_argument("--figures", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args()
    if args.leagues < 2:
        parser.error("give --leagues of at least 2")
    if not (0 <= args.near_tie_share <= 1 and 0 <= args.draw_rates[0] <= args.draw_rates[1] < 1):
        parser.error("give --near-tie-share in [0, 1] and --draw-rates LOW HIGH with 0 <= LOW <= HIGH < 1")
    population = Population(draw_rates=tuple(args.draw_rates), near_tie_share=args.near_tie_share)
    print(f"hidden truth: {args.leagues} round robins of {population.describe()}; seed {args.seed}", flush=True)
    started = time.perf_counter()
    judged = measure(args.leagues, args.seed, population)
    print("\n".join(report_lines(judged)))
    print(f"({time.perf_counter() - started:.0f} s)")
    if args.figures:
        write_figures(args.figures, figures_of(judged))


if __name__ == "__main__":
    main()
