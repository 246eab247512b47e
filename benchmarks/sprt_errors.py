"""Does the SPRT keep its promise? Its wrong-verdict rates and games, simulated on the synthetic game's model.

``python benchmarks/sprt_errors.py [--tests 1000] [--elo0 0] [--elo1 10 5] [--draw-rate 0.3] [--figures FILE]``

For each ``--elo1`` (H0 ``elo0`` against H1 ``elo1``, normalized Elo) runs ``--tests`` sequential
tests with the true difference at ``elo0`` and as many at ``elo1``, each pair of games drawn from
the synthetic game's model (engine/synthetic: BayesElo with the given draw rate; the candidate
sits first in one game of each pair and second in the other), and each test decided exactly as a
league decides it: ``league.stats.sprt``'s LLR after every pair (computed for all tests at once by
``llr_batch``, the same fit), stopping at the first crossing of its bounds. Prints, per true
difference, the share of wrong verdicts (H1 at elo0, H0 at elo1) with its Monte Carlo standard
error and its 95% upper bound, beside alpha and beta; the mean and 90th percentile of games; and
the games a fixed-length test with the same error rates needs (the normal approximation:
((z_alpha + z_beta) / (difference in t per pair))^2 pairs). ``--figures FILE`` also writes these
figures as JSON for ``benchmarks/run_all.py``.

The figures come from simulation: the machine's load changes only the seconds taken. The tests at
both true differences run as one batch, and the LLRs after many pairs go to one ``llr_batch`` call
(see ``simulate``): a call's fixed cost is paid for many LLRs. The default run takes about 19
minutes on 2 cores (0 against 5 about 15 of them, its tests being 4 times as long).
``tests/league/stats/test_sprt_errors.py`` runs a smaller simulation through ``measure``, importing
this module as ``benchmarks.sprt_errors`` (hence ``benchmarks.figures`` here, not ``figures``).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.figures import Figure, write_figures  # noqa: E402
from engine.synthetic.model import draw_elo, outcome_probabilities  # noqa: E402
from league.stats.sprt import H0, H1, NELO_PER_T, SprtSettings, llr_batch, normalized_elo  # noqa: E402

ROWS_PER_CALL = 1000
"""About how many LLRs ``simulate`` asks of one ``llr_batch`` call: its cost a row is least near here."""
AREA = "statistics"
"""The table of ``benchmarks/RESULTS.md`` these figures go in."""


@dataclass(frozen=True)
class Outcome:
    """What the simulated tests did at one true difference.

    Attributes:
        settings: The test (hypotheses and error rates).
        truth: The true difference, normalized Elo (``elo0`` or ``elo1``).
        verdicts: Each test's verdict (None: undecided at the cap).
        games: Each test's games (twice its pairs).
    """

    settings: SprtSettings
    truth: float
    verdicts: list[str | None]
    games: list[int]

    @property
    def wrong(self) -> str:
        """The wrong verdict at this truth: H1 at ``elo0``, H0 at ``elo1``."""
        return H1 if self.truth == self.settings.elo0 else H0

    @property
    def promised(self) -> float:
        """The wrong-verdict rate the test promises here: alpha at ``elo0``, beta at ``elo1``."""
        return self.settings.alpha if self.wrong == H1 else self.settings.beta

    @property
    def wrong_share(self) -> float:
        """The share of tests that reached the wrong verdict."""
        return sum(verdict == self.wrong for verdict in self.verdicts) / len(self.verdicts)

    @property
    def standard_error(self) -> float:
        """The Monte Carlo standard error of ``wrong_share`` (binomial)."""
        share = self.wrong_share
        return math.sqrt(max(share * (1 - share), 1e-12) / len(self.verdicts))

    @property
    def undecided(self) -> int:
        """Tests still undecided at the cap."""
        return sum(verdict is None for verdict in self.verdicts)

    @property
    def mean_games(self) -> float:
        """The mean games of a test."""
        return statistics.fmean(self.games)

    @property
    def games_p90(self) -> int:
        """The 90th percentile of a test's games."""
        return sorted(self.games)[math.ceil(0.9 * len(self.games)) - 1]


def pair_distribution(logistic_elo: float, draw_rate: float) -> np.ndarray:
    """The chances of the candidate's pair scores 0, 1/4, 1/2, 3/4, 1 at a logistic Elo difference."""
    win, draw, loss = outcome_probabilities(logistic_elo, draw_elo(draw_rate))
    game = {0.0: loss, 0.5: draw, 1.0: win}  # no first-seat advantage: both games alike
    pair = np.zeros(5)
    for first, p in game.items():
        for second, q in game.items():
            pair[round((first + second) * 2)] += p * q
    return pair


def distribution_at(nelo: float, draw_rate: float) -> np.ndarray:
    """The pair distribution whose normalized Elo is ``nelo`` (the logistic difference found by bisection)."""
    low, high = -2000.0, 2000.0
    for _ in range(100):
        middle = (low + high) / 2
        if normalized_elo(pair_distribution(middle, draw_rate))[0] < nelo:
            low = middle
        else:
            high = middle
    return pair_distribution((low + high) / 2, draw_rate)


def simulate(
    distributions: np.ndarray, settings: SprtSettings, max_pairs: int, rng: np.random.Generator
) -> tuple[list[str | None], list[int]]:
    """Run one test a row of ``distributions`` (its pair distribution); each test's verdict (None at the cap) and pairs.

    Each test is decided by the league's LLR after every one of its pairs, against the league's
    bounds, and stops at its first crossing, as a league decides. The tests still going draw their
    next pairs in chunks (a chunk a test at first, more as tests end, about ``ROWS_PER_CALL`` LLRs
    a ``llr_batch`` call), and each chunk's LLRs after every pair are computed at once: the same
    values and the same first crossing as pair by pair, for fewer calls.
    """
    tests = len(distributions)
    cumulative = np.cumsum(distributions, axis=1)[:, :-1]
    counts = np.zeros((tests, 5))
    verdicts: list[str | None] = [None] * tests
    lengths = [max_pairs] * tests
    active = np.arange(tests)
    lower, upper = settings.lower, settings.upper
    taken = 0
    while len(active) and taken < max_pairs:
        chunk = min(max(1, ROWS_PER_CALL // len(active)), max_pairs - taken)
        draws = (rng.random((len(active), chunk, 1)) > cumulative[active][:, None, :]).sum(axis=2)
        after = counts[active][:, None, :] + np.cumsum(np.eye(5)[draws], axis=1)
        values = llr_batch(after.reshape(-1, 5), settings).reshape(len(active), chunk)
        crossed = (values >= upper) | (values <= lower)
        done = crossed.any(axis=1)
        for row, first, row_values in zip(active[done], crossed[done].argmax(axis=1), values[done], strict=True):
            verdicts[row] = H1 if row_values[first] >= upper else H0
            lengths[row] = taken + int(first) + 1
        counts[active] = after[:, -1]
        active = active[~done]
        taken += chunk
    return verdicts, lengths


def measure(settings: SprtSettings, tests: int, draw_rate: float, max_pairs: int, seed: int) -> list[Outcome]:
    """Simulate ``tests`` tests at true difference ``elo0`` and as many at ``elo1``, in one batch; both outcomes."""
    truths = (settings.elo0, settings.elo1)
    distributions = np.repeat([distribution_at(truth, draw_rate) for truth in truths], tests, axis=0)
    verdicts, lengths = simulate(distributions, settings, max_pairs, np.random.default_rng(seed))
    return [
        Outcome(
            settings,
            truth,
            verdicts[index * tests : (index + 1) * tests],
            [2 * pairs for pairs in lengths[index * tests : (index + 1) * tests]],
        )
        for index, truth in enumerate(truths)
    ]


def fixed_length_games(settings: SprtSettings) -> int:
    """The games of a fixed-length test with the same error rates (normal approximation, pairs of games)."""
    z = statistics.NormalDist().inv_cdf
    step_t = (settings.elo1 - settings.elo0) / NELO_PER_T * math.sqrt(2)  # a pair's t-value is sqrt(2) times a game's
    return 2 * math.ceil(((z(1 - settings.alpha) + z(1 - settings.beta)) / step_t) ** 2)


def figures_of(outcomes: list[Outcome]) -> list[Figure]:
    """Each true difference's wrong-verdict rate beside its promise, and its mean games beside a fixed test's."""
    figures = []
    for outcome in outcomes:
        test = outcome.settings
        name = (
            f"SPRT {test.elo0:g} against {test.elo1:g} nElo (alpha {test.alpha:g}, beta {test.beta:g}),"
            f" true {outcome.truth:g}, {len(outcome.verdicts):,} simulated tests"
        )
        rate_name = "alpha" if outcome.wrong == H1 else "beta"
        errors_off = (outcome.wrong_share - outcome.promised) / outcome.standard_error
        figures += [
            Figure(
                AREA,
                f"{name}: wrong verdicts ({outcome.wrong})",
                100 * outcome.wrong_share,
                "%",
                baseline=100 * outcome.promised,
                baseline_name=f"{rate_name}, the rate promised",
                note=f"± {100 * outcome.standard_error:.2f} % Monte Carlo standard error,"
                f" {abs(errors_off):.1f} of them {'above' if errors_off > 0 else 'below'} {rate_name}",
            ),
            Figure(
                AREA,
                f"{name}: mean games",
                outcome.mean_games,
                "games",
                baseline=fixed_length_games(test),
                baseline_name="a fixed-length test with the same error rates",
                note=f"90th percentile {outcome.games_p90:,}; undecided at the cap {outcome.undecided}",
            ),
        ]
    return figures


def report_line(outcome: Outcome) -> str:
    """One true difference's figures, for people."""
    share, error = outcome.wrong_share, outcome.standard_error
    return (
        f"  true {outcome.truth:g}: wrong verdict ({outcome.wrong}) {share:.4f} ± {error:.4f}"
        f" (95% upper {share + 1.645 * error:.4f}; promised {outcome.promised:g});"
        f" games mean {outcome.mean_games:,.0f}, 90th percentile {outcome.games_p90:,};"
        f" undecided at the cap {outcome.undecided}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tests", type=int, default=1000, help="tests at each true difference (default 1000)")
    parser.add_argument("--elo0", type=float, default=0.0, help="H0, normalized Elo (default 0)")
    parser.add_argument(
        "--elo1", type=float, nargs="+", default=[10.0, 5.0], help="H1 of each test run, normalized Elo (default 10 5)"
    )
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--draw-rate", type=float, default=0.3)
    parser.add_argument("--max-pairs", type=int, default=200_000, help="a test's cap (default 200,000 pairs)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--figures", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args()
    if args.tests < 1 or args.max_pairs < 1:
        parser.error("give --tests and --max-pairs of at least 1")
    if any(elo1 <= args.elo0 for elo1 in args.elo1):
        parser.error("give every --elo1 above --elo0")
    if not (0 < args.alpha < 0.5 and 0 < args.beta < 0.5 and 0 <= args.draw_rate < 1):
        parser.error("give --alpha and --beta in (0, 0.5) and --draw-rate in [0, 1)")
    outcomes: list[Outcome] = []
    for elo1 in args.elo1:
        settings = SprtSettings(args.elo0, elo1, args.alpha, args.beta)
        print(
            f"SPRT H0 {args.elo0:g} against H1 {elo1:g} normalized Elo, alpha {args.alpha:g}, beta {args.beta:g},"
            f" draw rate {args.draw_rate:g}; {args.tests:,} tests at each true difference",
            flush=True,
        )
        started = time.perf_counter()
        found = measure(settings, args.tests, args.draw_rate, args.max_pairs, args.seed + round(elo1 * 1000))
        for outcome in found:
            print(report_line(outcome))
        print(
            f"  a fixed-length test with the same error rates: {fixed_length_games(settings):,} games"
            f" ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
        outcomes += found
    if args.figures:
        write_figures(args.figures, figures_of(outcomes))


if __name__ == "__main__":
    main()
