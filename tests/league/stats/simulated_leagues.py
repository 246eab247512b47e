"""Round robins simulated from known strengths with a seeded RNG, shaped like stored records.

One record and leagues of tables are in ``benchmarks/simulated_records.py``, shared with a benchmark.
"""

import itertools

import numpy as np

from benchmarks.simulated_records import record


def round_robin(score_of, names, rounds, seed=1, variants=("v",), draws=0.0):
    """A round robin: every pair plays a seat-swapped pair of games per round and variant.

    ``score_of(first, second)`` is the first seat's chance to win; a share ``draws`` of games is drawn.
    """
    rng = np.random.default_rng(seed)
    records = []
    for round_ in range(rounds):
        for pair in itertools.combinations(names, 2):
            for seats in (pair, pair[::-1]):
                for variant in variants:
                    if rng.random() < draws:
                        ranks = [1, 1]
                    else:
                        ranks = [1, 2] if rng.random() < score_of(*seats) else [2, 1]
                    records.append(record(len(records), seats, ranks, round_, variant))
    return records


def elo_model(ratings, first_seat=0.0):
    """The Bradley-Terry model with a first-seat advantage (Elo)."""
    return lambda a, b: 1 / (1 + 10 ** (-(ratings[a] - ratings[b] + first_seat) / 400))


def rock_paper_scissors(strength=0.85):
    beats = {("rock", "scissors"), ("scissors", "paper"), ("paper", "rock")}
    return lambda a, b: strength if (a, b) in beats else 1 - strength
