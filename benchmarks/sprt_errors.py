"""Does the SPRT keep its promise? Its wrong-verdict rates and games, simulated on the synthetic game's model.

``python benchmarks/sprt_errors.py [--tests 1000] [--elo0 0] [--elo1 10] [--draw-rate 0.3]``

Runs ``--tests`` sequential tests with the true difference at ``elo0`` and as many at ``elo1``
(normalized Elo), each pair of games drawn from the synthetic game's model (engine/synthetic:
BayesElo with the given draw rate; the candidate sits first in one game of each pair and second in
the other), and each test decided exactly as a league decides it: ``league.stats.sprt``'s LLR after
every pair (computed for all tests at once by ``llr_batch``, the same fit), stopping at the first
crossing. Prints, per true difference, the share of wrong verdicts (H1 at elo0, H0 at elo1) with its
Monte Carlo standard error and its 95% upper bound, beside alpha and beta; the mean and 90th
percentile of games; and the games a fixed-length test with the same error rates needs (the normal
approximation: ((z_alpha + z_beta) / (difference in t per pair))^2 pairs).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.synthetic.model import draw_elo, outcome_probabilities  # noqa: E402
from league.stats.sprt import H0, H1, NELO_PER_T, SprtSettings, llr_batch, normalized_elo  # noqa: E402


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


def simulate(pair: np.ndarray, settings: SprtSettings, tests: int, max_pairs: int, seed: int) -> tuple[list, list]:
    """Run ``tests`` tests on pairs drawn from ``pair``; each test's verdict (None at the cap) and pairs."""
    rng = np.random.default_rng(seed)
    counts = np.zeros((tests, 5))
    verdicts: list[str | None] = [None] * tests
    lengths = [max_pairs] * tests
    active = np.arange(tests)
    for step in range(1, max_pairs + 1):
        draws = rng.choice(5, size=len(active), p=pair)
        counts[active, draws] += 1
        values = llr_batch(counts[active], settings)
        done = (values >= settings.upper) | (values <= settings.lower)
        for row, value in zip(active[done], values[done], strict=True):
            verdicts[row] = settings.verdict(float(value))
            lengths[row] = step
        active = active[~done]
        if not len(active):
            break
    return verdicts, lengths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tests", type=int, default=1000, help="tests at each true difference (default 1000)")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--draw-rate", type=float, default=0.3)
    parser.add_argument("--max-pairs", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    settings = SprtSettings(args.elo0, args.elo1, args.alpha, args.beta)
    z = statistics.NormalDist().inv_cdf
    step_t = (args.elo1 - args.elo0) / NELO_PER_T * math.sqrt(2)  # a pair's t-value is sqrt(2) times a game's
    fixed_pairs = math.ceil(((z(1 - args.alpha) + z(1 - args.beta)) / step_t) ** 2)
    print(
        f"SPRT H0 {args.elo0:g} against H1 {args.elo1:g} normalized Elo, alpha {args.alpha:g}, beta {args.beta:g},"
        f" draw rate {args.draw_rate:g}; {args.tests} tests at each true difference"
    )
    for truth, wrong, promise in ((args.elo0, H1, args.alpha), (args.elo1, H0, args.beta)):
        started = time.perf_counter()
        pair = distribution_at(truth, args.draw_rate)
        verdicts, lengths = simulate(pair, settings, args.tests, args.max_pairs, args.seed + int(truth * 1000))
        share = sum(verdict == wrong for verdict in verdicts) / args.tests
        error = math.sqrt(max(share * (1 - share), 1e-12) / args.tests)
        undecided = sum(verdict is None for verdict in verdicts)
        games = sorted(2 * length for length in lengths)
        print(
            f"  true {truth:g}: wrong verdict ({wrong}) {share:.4f} ± {error:.4f}"
            f" (95% upper {share + 1.645 * error:.4f}; promised {promise:g});"
            f" games mean {statistics.fmean(games):,.0f}, 90th percentile"
            f" {games[int(0.9 * len(games)) - 1]:,}; undecided at the cap {undecided}"
            f" ({time.perf_counter() - started:.0f} s)"
        )
    print(f"  a fixed-length test with the same error rates: {2 * fixed_pairs:,} games")


if __name__ == "__main__":
    main()
