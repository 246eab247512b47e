"""League or tournament? Every format on one budget of games, simulated: who finds the best, the top 3, the order.

``python benchmarks/league_or_tournament.py [--leagues N] [--quick] [--figures FILE]`` answers the
attack2048 paper's question (its section 5.3: a knockout kept the symposium's games few enough to
show live, at the risk that two programs' compatibility decides; for many entrants, a qualifying
league whose best go on to a knockout) with ``league plan``'s own simulation
(``league.plan.format_comparison``): every format played through its real run on games drawn from
a known model, sized to one budget of games, scored against the truth.

The fields:

* **symposium**: the paper's five programs, their Elo gaps read from its table 1. Each of its
  four matches is a pair of scores; the score ratio is taken as the Bradley-Terry odds of the
  winner, 10^(gap / 400) = its score / the loser's: Miyoshi over Mikaerube 16760 / 2688 (318 Elo),
  Yagihara over Terada 1256 / 1040 (33 Elo), Yamaguchi over Miyoshi 12640 / 504 (560 Elo),
  Yamaguchi over Yagihara in the final 2776 / 1652 (90 Elo). Chained from the champion: Yamaguchi 0,
  Yagihara -90, Terada -123, Miyoshi -560, Mikaerube -878. No draws, no first-seat advantage
  (versus2048 swaps the seats in each pair). Budgets: a round robin of one pair (20 games) and of
  five pairs (100 games).
* **16 bots**, **64 bots**: strengths spread as ``league.plan.adaptive_simulation.spread_elos``
  draws them without near-twins (each gap drawn from an exponential of mean 60 Elo: a near-twin of
  the best would make "the best first" a coin toss for every format), one field each from a fixed
  seed; draw rate 0.2, first seat +20 Elo (the synthetic game's keys). Budget: a round robin of one
  pair.
* **16 bots in a cycle**: as the 16, gaps of about 30 Elo, styles rock, paper, scissors in turn
  down the field and a cycle of 80 Elo (the synthetic game's ``cycle_elo``): the truly strongest is
  the best mean score against the field, not the best Elo.

Per format: its settings, games (mean), the share of leagues whose winner is the truly strongest,
whose first 3 are the true top 3, the mean Kendall's tau-b of its order to the truth, and its wall
time in game lengths with 64 games at once (its stages one after another: a knockout's rounds
cannot overlap). A share's standard error is at most 0.5 / sqrt(leagues).

Figures (``--figures FILE``): each format's share of winners right beside the round robin's on the
same field and budget, and the time the 64-bot comparison took beside the round robin simulated
in counts (``design_simulation.simulate_round_robin``: no records, no runs).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.figures import HIGHER, Figure, write_figures  # noqa: E402
from engine.synthetic.model import STYLES  # noqa: E402
from league.plan.adaptive_batches import AdaptiveSettings  # noqa: E402
from league.plan.adaptive_simulation import Model, spread_elos  # noqa: E402
from league.plan.design_simulation import GuessedModel, simulate_round_robin, true_strengths  # noqa: E402
from league.plan.format_comparison import budget_of, compare_formats, synthetic_field  # noqa: E402
from league.plan.format_simulation import FormatOutcome  # noqa: E402

AREA = "statistics"
"""The table of ``benchmarks/RESULTS.md`` these figures go in."""
WORKERS = 64
TOP = 3
SEED = 2026
_MATCHES = [
    (("miyoshi", "mikaerube"), 16760, 2688),
    (("yagihara", "terada"), 1256, 1040),
    (("yamaguchi", "miyoshi"), 12640, 504),
    (("yamaguchi", "yagihara"), 2776, 1652),
]
"""Table 1's matches: (winner, loser), the winner's score, the loser's."""


@dataclass(frozen=True)
class Case:
    """One field at one budget."""

    name: str
    model: Model
    budget: int
    leagues: int


def symposium_elos() -> dict[str, float]:
    """The gaps of the paper's table 1: 10^(gap / 400) = winner's score / loser's, chained from the champion."""
    gap = {pair: 400 * np.log10(win / loss) for pair, win, loss in _MATCHES}
    yagihara = -gap[("yamaguchi", "yagihara")]
    miyoshi = -gap[("yamaguchi", "miyoshi")]
    return {
        "yamaguchi": 0.0,
        "yagihara": yagihara,
        "terada": yagihara - gap[("yagihara", "terada")],
        "miyoshi": miyoshi,
        "mikaerube": miyoshi - gap[("miyoshi", "mikaerube")],
    }


def cases(leagues: tuple[int, int, int]) -> list[Case]:
    """The fields and budgets of the module docstring, ``leagues`` simulated for 5, 16 and 64 bots."""
    few, some, many = leagues
    symposium = GuessedModel(symposium_elos())
    spread16 = spread_elos(16, np.random.default_rng(SEED), near_tie_share=0.0)
    spread64 = spread_elos(64, np.random.default_rng(SEED + 1), near_tie_share=0.0)
    cyclic = spread_elos(16, np.random.default_rng(SEED + 2), near_tie_share=0.0, gap=30.0)
    styles = {bot: STYLES[number % 3] for number, bot in enumerate(cyclic)}
    return [
        Case("symposium (5 bots, the paper's table 1), 1 pair a pair", symposium, budget_of(2, 5), few),
        Case("symposium (5 bots, the paper's table 1), 5 pairs a pair", symposium, budget_of(10, 5), few),
        Case("16 bots, spread", GuessedModel(spread16, 0.2, 20.0), budget_of(2, 16), some),
        Case(
            "16 bots in a rock-paper-scissors cycle of 80 Elo",
            GuessedModel(cyclic, 0.2, 20.0, styles, 80.0),
            budget_of(2, 16),
            some,
        ),  # fmt: skip
        Case("64 bots, spread", GuessedModel(spread64, 0.2, 20.0), budget_of(2, 64), many),
    ]


def run_case(case: Case) -> tuple[list[FormatOutcome], float]:
    """Every format that fits the case's field, on its budget; and the seconds it took."""
    bots = list(case.model.elos)
    settings = AdaptiveSettings(batch_units=2 * (len(bots) - 1))
    field = synthetic_field(bots, case.budget, WORKERS, settings)
    started = time.perf_counter()
    outcomes = compare_formats(field, case.model, case.leagues, SEED, TOP)
    return outcomes, time.perf_counter() - started


def table(case: Case, outcomes: list[FormatOutcome], seconds: float) -> str:
    """The case's table, with its field's true top 3."""
    strengths = true_strengths(case.model)
    best = sorted(strengths, key=lambda bot: -strengths[bot])[:TOP]
    shown = ", ".join(f"{bot} ({case.model.elos[bot]:+.0f} Elo)" for bot in best)
    lines = [
        f"{case.name}: budget {case.budget:,} games, {case.leagues:,} leagues each ({seconds:.1f} s);"
        f" the true top {TOP}: {shown}",
        f"  {'format':<18} {'games':>6} {'best first':>10} {'top 3':>6} {'tau':>5} {'wall (64 at once)':>18}  settings",
    ]
    for outcome in outcomes:
        rounds = outcome.wall_seconds(WORKERS, 1.0)
        lines.append(
            f"  {outcome.name:<18} {outcome.mean_games:>6,.0f} {outcome.best_first:>10.0%}"
            f" {outcome.top_right[-1]:>6.0%} {outcome.mean_tau:>5.2f} {rounds:>11.0f} games  {outcome.settings}"
        )
    return "\n".join(lines)


def case_figures(case: Case, outcomes: list[FormatOutcome]) -> list[Figure]:
    """Each format's winners right beside the round robin's."""
    robin = next(outcome for outcome in outcomes if outcome.name == "round robin")
    return [
        Figure(
            AREA,
            f"{case.name}, {case.budget:,} games: {outcome.name} finds the truly strongest",
            100 * outcome.best_first,
            "%",
            baseline=100 * robin.best_first,
            baseline_name="the round robin on the same budget",
            better=HIGHER,
            note=f"{case.leagues} leagues; top 3 right {outcome.top_right[-1]:.0%}, tau {outcome.mean_tau:.2f}",
        )
        for outcome in outcomes
        if outcome is not robin
    ]


def counts_seconds(case: Case) -> float:
    """The seconds ``design_simulation`` takes to simulate the case's round robins in counts."""
    started = time.perf_counter()
    simulate_round_robin(case.model, 2, case.leagues, np.random.default_rng(SEED))
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--leagues",
        type=int,
        nargs=3,
        default=[2000, 400, 100],
        metavar=("FIVE", "SIXTEEN", "SIXTY_FOUR"),
        help="leagues simulated per format for 5, 16 and 64 bots (2000 400 100)",
    )
    parser.add_argument("--quick", action="store_true", help="200, 50 and 10 leagues")
    parser.add_argument("--figures", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args()
    leagues = (200, 50, 10) if args.quick else tuple(args.leagues)
    figures: list[Figure] = []
    for case in cases(leagues):
        outcomes, seconds = run_case(case)
        print(table(case, outcomes, seconds), flush=True)
        print()
        figures += case_figures(case, outcomes)
        if len(case.model.elos) == 64:
            figures.append(
                Figure(
                    AREA,
                    f"64 bots: every format simulated {case.leagues} times through its real run",
                    seconds,
                    "s",
                    baseline=counts_seconds(case),
                    baseline_name="the round robin alone simulated in counts (no records, no runs)",
                    note=f"{len(outcomes)} formats",
                )
            )
    if args.figures:
        write_figures(args.figures, figures)


if __name__ == "__main__":
    main()
