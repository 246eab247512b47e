"""How long does ``league.stats.analysis.assess`` take on a big league? Synthetic records, timed.

Usage: ``python benchmarks/analysis_speed.py [--games N] [--bots N] [--samples N]``

Builds N synthetic stored records (8 bots by default, ratings spread evenly over -300..300 Elo,
a 40 Elo first-seat advantage, 10% draws) twice: a round robin (seat-swapped pairs, two
variants on the same seeds) and a league of 4-seat tables (each table played once per rotation).
Prints the seconds to turn the records into pairwise arrays and the seconds of the whole
``assess`` (arrays, fit, bootstrap of 200 resamples or more until the design effect's Monte Carlo
error is at most 0.03, LOS, place probabilities, split halves, 5-fold cross-validation, Hodge share,
cycles, verdict), best of three runs, and how many resamples the design effect needed.

Measured on 2026-11-24 (2-core VM shared with other jobs, 100,000 games, 200 resamples):

    8 bots   round robin  arrays 0.14 s  assess 0.34 s
             tables       arrays 0.21 s  assess 0.54 s
    20 bots  round robin  arrays 0.14 s  assess 0.34 s
             tables       arrays 0.21 s  assess 1.27 s
    30 bots  round robin  arrays 0.16 s  assess 0.43 s
             tables       arrays 0.22 s  assess 1.43 s

Measured on 2026-11-27, nothing else running (load average under 1), 100,000 games, 8 bots, this
machine being slower that day: the code before the design effect's noise was measured (2d1ea18,
run in the same minutes) against now (resamples drawn until the noise is at most 0.03, at most 10
million unit draws; separations):

    before   round robin  arrays 0.39 s  assess 0.92 s
             tables       arrays 0.45 s  assess 1.54 s
    now      round robin  arrays 0.36 s  assess 1.47 s  (400 resamples: design effect 1.00 +/- 0.030)
             tables       arrays 0.50 s  assess 2.67 s  (400 resamples: design effect 1.51 +/- 0.058)
"""

import argparse
import itertools
import math
import time

import numpy as np
from simulated_records import record, tables

from league.stats.analysis import assess
from league.stats.pairwise import pairwise_results


def round_robin(games, names, seed):
    rng = np.random.default_rng(seed)
    ratings = dict(zip(names, np.linspace(-300, 300, len(names)), strict=True))
    records = []
    for round_ in itertools.count():
        for pair in itertools.combinations(names, 2):
            for seats in (list(pair), list(pair[::-1])):
                for variant in ("one", "two"):
                    expected = 1 / (1 + 10 ** (-(ratings[seats[0]] - ratings[seats[1]] + 40) / 400))
                    draw = rng.random() < 0.1
                    ranks = [1, 1] if draw else [1, 2] if rng.random() < expected else [2, 1]
                    records.append(record(len(records), seats, ranks, round_, variant))
                    if len(records) == games:
                        return records
    return records


def table_league(games, names, seed):
    """``games`` records of 4-seat tables (``simulated_records.tables``), the bots' ratings as in the round robin."""
    ratings = dict(zip(names, np.linspace(-300, 300, len(names)), strict=True))
    return tables(ratings, count=math.ceil(games / 4), size=4, seed=seed)[:games]


def best_of_three(action):
    times = []
    for _ in range(3):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    names = [f"bot{k}" for k in range(args.bots)]
    for label, build in (("round robin", round_robin), ("tables", table_league)):
        records = build(args.games, names, seed=0)
        arrays = best_of_three(lambda records=records: pairwise_results(names, records))
        whole = best_of_three(lambda records=records: assess(names, records, names, samples=args.samples))
        found = assess(names, records, names, samples=args.samples)
        print(
            f"{label:12s} arrays {arrays:.2f} s  assess {whole:.2f} s  ({found.samples} resamples: design effect"
            f" {found.design_effect:.2f} +/- {found.design_effect_se:.3f})"
        )
    print(assess(names, records, names, samples=args.samples).verdict)


if __name__ == "__main__":
    main()
