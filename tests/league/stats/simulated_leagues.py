"""Leagues simulated from known strengths with a seeded RNG, shaped like stored records."""

import itertools
import math

import numpy as np


def record(index, seats, ranks, round_, variant="v"):
    return {
        "game_id": f"g{index}",
        "spec": {"index": index, "variant": variant, "seats": list(seats), "seed": round_, "round": round_},
        "result": {
            "scores": [0] * len(seats),
            "ranks": list(ranks),
            "termination": "NORMAL",
            "offenders": [],
            "plies": 1,
            "extra": {},
        },
    }


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


def tables(ratings, count, size, seed=3):
    """Tables of ``size`` seats played once per rotation; ranks from Gumbel-perturbed strengths (Plackett-Luce)."""
    rng = np.random.default_rng(seed)
    names = list(ratings)
    records = []
    for table in range(count):
        group = [str(name) for name in rng.choice(names, size, replace=False)]
        for rotation in range(size):
            seats = group[rotation:] + group[:rotation]
            performance = np.array([ratings[name] for name in seats]) * math.log(10) / 400 + rng.gumbel(size=size)
            ranks = np.empty(size, dtype=int)
            ranks[np.argsort(-performance)] = np.arange(1, size + 1)
            records.append(record(len(records), seats, ranks.tolist(), table))
    return records
