"""What the record's type costs the store: ``GameRecord.from_json`` and ``to_json`` on 100,000 results lines.

The store reads every results line of ``games.jsonl`` as a ``GameRecord`` (``league.stats.game_record``)
each time a report or a run reads it; a league of 100,000 games reads 100,000 of them. Each figure
sits beside ``json.loads`` of the same lines (what reading costs without the type), measured in the
same run, with the garbage collector off as the store has it while it reads. The lines are those of a
real league's store (two versus2048 bots, an opening, versions, a node), repeated.

Run ``.venv/bin/python benchmarks/record_speed.py [--lines N] [--repeats N]`` from the repository root.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from league.stats.game_record import GameRecord  # noqa: E402

LINE = (
    b'{"game_id":"7d1407ec83b66f22d9c4","spec":{"game_id":"7d1407ec83b66f22d9c4","index":0,"league":"tiny",'
    b'"variant":"long","seats":["mybot","fixed"],"seed":748424292528583736,"round":0,"opening":{"plies":8},'
    b'"game":"versus2048","versions":{"mybot":"6b68e9bb7bbe685373dc7a083ea21e3f","fixed":'
    b'"8073458528e50b6f544eaf800f1abec3"}},"result":{"scores":[296,300],"ranks":[2,1],"termination":"NORMAL",'
    b'"offenders":[],"reason_code":"LESS_SCORE_AT_END","detail":"scores 296 to 300 after 40 turns each",'
    b'"plies":82,"extra":{"winner":1,"reason":"LESS_SCORE_AT_END","turn":40},"faults":[],"winner":1},'
    b'"time_used_ms":[0,0],"worker":"vm:23927","node":"bd357e5c5199","fingerprint":"99ca6e5cd1445f8efb0705b9",'
    b'"log":[0,2992]}'
)
"""A results line as the store writes it today."""


def timed(work) -> float:
    gc.disable()
    try:
        started = time.perf_counter()
        work()
        return time.perf_counter() - started
    finally:
        gc.enable()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    lines = [LINE] * args.lines
    decoded = [json.loads(line) for line in lines]
    records = [GameRecord.from_json(data) for data in decoded]
    assert all(json.dumps(r.to_json(), separators=(",", ":")).encode() == LINE for r in records[:100])
    loads = [timed(lambda: [json.loads(line) for line in lines]) for _ in range(args.repeats)]
    typed = [timed(lambda: [GameRecord.from_json(data) for data in decoded]) for _ in range(args.repeats)]
    back = [timed(lambda: [r.to_json() for r in records]) for _ in range(args.repeats)]
    base = statistics.median(loads)
    for name, values in (("json.loads", loads), ("GameRecord.from_json", typed), ("GameRecord.to_json", back)):
        middle = statistics.median(values)
        print(f"{name:22} {args.lines} lines: {middle:.3f} s, median of {args.repeats} ({middle / base:.2f}x loads)")


if __name__ == "__main__":
    main()
