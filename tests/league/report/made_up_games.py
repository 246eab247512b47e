"""Made-up league records for the games list's tests: what a league can hold, in a few hundred games.

Four bots (one named like an attack on the page), two variants, crashes and timeouts, a score past
2**53 and seeds past it too, stored in the order games finished rather than the schedule's.
"""

from __future__ import annotations

import random
import shlex

from league.stats.game_record import GameRecord

HOSTILE = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"> | `x`'
BIG_SCORE = 2**60 + 1


def made_up_records(count: int) -> list[GameRecord]:
    """Scored records as a league stores them: four bots (one named like an attack), two variants, faults."""
    bots = ["greedy", "minimax", HOSTILE, "random"]
    pairs = [(a, b) for i, a in enumerate(bots) for b in bots[i + 1 :]]
    draw = random.Random(12)
    records = []
    for index in range(count):
        first, second = pairs[index % len(pairs)]
        seats = [first, second] if index % 2 else [second, first]
        scores = [draw.randrange(0, 5000), draw.randrange(0, 5000)]
        termination, offenders, reason, detail = "NORMAL", [], "LESS_SCORE_AT_END", "scores after 200 turns each"
        if index % 7 == 3:
            termination, offenders, reason = "CRASH", [0], "PRESENTATION_ERROR_AT_MAIN_OR_ATTACK"
            detail = "seat 0 exited with status 139 before answering turn 12"
        elif index % 11 == 5:
            termination, offenders, reason, detail = "TIMEOUT", [1], "TIME_LIMIT_EXCEEDED", "seat 1 took 1204 ms"
        if index == 10:
            scores[0] = BIG_SCORE
        ranks = [1, 2] if scores[0] > scores[1] else [2, 1] if scores[0] < scores[1] else [1, 1]
        if offenders:
            ranks = [2, 1] if offenders == [0] else [1, 2]
        line = {
            "game_id": f"{index:04d}{draw.getrandbits(48):012x}",
            "spec": {
                "index": index,
                "variant": "long" if index % 3 == 0 else "short",
                "seats": seats,
                "seed": 2**62 + index,
                "round": index // 12,
            },
            "result": {
                "scores": scores,
                "ranks": ranks,
                "termination": termination,
                "offenders": offenders,
                "reason_code": reason,
                "detail": detail,
                "plies": 30 + index % 17,
            },
        }
        records.append(GameRecord.from_json(line))
    draw.shuffle(records)  # stored in the order games finished, not the schedule's
    return records


def replay(record: GameRecord) -> str:
    """A made-up replay command (the real one needs a league's manifest)."""
    seats = " ".join(shlex.quote(name) for name in record.spec.seats)
    return f"league play versus2048 {seats} --seed {record.spec.seed}"
