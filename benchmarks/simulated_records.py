"""Stored game records simulated from known strengths: one record, and a league of multi-seat tables.

Shared by ``benchmarks/analysis_speed.py`` (as ``simulated_records``, a module beside it) and the
stats tests (as ``benchmarks.simulated_records``; their round robins are in
``tests/league/stats/simulated_leagues.py``). Numpy, the standard library and ``league.stats.game_record``
only, so both can import it.
"""

import math
from collections.abc import Mapping, Sequence

import numpy as np

from league.stats.game_record import GameRecord


def record(index: int, seats: Sequence[str], ranks: Sequence[int], round_: int, variant: str = "v") -> GameRecord:
    """One game as ``games.jsonl`` stores it: its spec and a normal result with these ranks (scores all 0)."""
    line = {
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
    return GameRecord.from_json(line)


def tables(ratings: Mapping[str, float], count: int, size: int, seed: int = 3) -> list[GameRecord]:
    """Tables of ``size`` seats played once per rotation; ranks from Gumbel-perturbed strengths (Plackett-Luce).

    Args:
        ratings: Each bot's strength (Elo).
        count: How many tables; each gives ``size`` records, one a rotation of its seats.
        size: Seats a table, drawn without replacement from the bots.
        seed: Seeds the draws of the tables and of their results.
    """
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
