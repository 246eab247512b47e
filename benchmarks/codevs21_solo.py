"""codevs21 solo: how the built-ins score per case, and what a whole game costs the referee.

Usage: ``python benchmarks/codevs21_solo.py [--seeds N] [--cases small,medium,large] [--bots random,greedy,chains]``

1. **Strength**: every bot plays the same N seeds of each case (as a solo league would), each
   through the real referee in process (the bot side reads the real initial input); prints the
   mean score, mean max chain, mean turns and the bot's mean seconds a game.
2. **Referee cost**: the official Large move list (tests/engine/data/codevs21, rules V7) played
   by a program that prints it: the referee's wall time for the whole 1000-turn game beside
   the engine alone replaying the same moves (the baseline, measured in the same run).

Measured on 2026-11-24 (2-core VM, seeds 0-3, default parameters of each bot):

    small   random  score         15,740  max chain  4.0  turns    746     0.1 s
    small   greedy  score          3,220  max chain  2.5  turns   1000     1.0 s
    small   chains  score      1,079,470  max chain  4.2  turns   1000     4.8 s
    medium  random  score         15,387  max chain  6.5  turns    146     0.1 s
    medium  greedy  score          5,621  max chain  2.5  turns   1000     2.2 s
    medium  chains  score         73,996  max chain  4.5  turns   1000    10.1 s
    large   random  score          7,351  max chain  5.8  turns     53     0.1 s
    large   greedy  score         21,538  max chain  3.2  turns   1000     5.5 s
    large   chains  score        626,938  max chain  7.5  turns   1000    30.0 s
    official Large game (1000 turns): 0.36 s through the referee with a program, 0.30 s for the
    engine alone (1.2 x)
"""

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

from engine.codevs21 import Codevs21
from engine.codevs21.packs import CASES, read_pack_file
from engine.codevs21.solo import SoloGame
from league.match.bot_spec import parse_bot_argument
from league.match.players import make_launcher
from league.match.referee import play_match

DATA = Path(__file__).resolve().parents[1] / "tests" / "engine" / "data" / "codevs21"


def play_one(job):
    case, bot, seed = job
    game = Codevs21(case=case, time_total_s=600)
    launcher = make_launcher(game, parse_bot_argument(Codevs21, bot), 0, seed)
    started = time.perf_counter()
    record = play_match(game, [launcher], seed)
    [result] = record.result.extra["records"]
    return case, bot, result, time.perf_counter() - started


def referee_cost() -> tuple[float, float]:
    """Seconds for the official Large game: through the referee with a real program, and the engine alone."""
    problem, moves = DATA / "input" / "1371660068.txt", DATA / "output" / "1371660068.txt"
    game = Codevs21(case="large", packs_file=str(problem))
    launcher = make_launcher(game, parse_bot_argument(Codevs21, f"cat {moves}"), 0, 1)
    started = time.perf_counter()
    play_match(game, [launcher], 1)
    refereed = time.perf_counter() - started
    engine = SoloGame(CASES["large"], read_pack_file(problem.read_text(), CASES["large"]))
    started = time.perf_counter()
    for line in moves.read_bytes().split(b"\n")[:1000]:
        engine.play(line)
    return refereed, time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--cases", default="small,medium,large")
    parser.add_argument("--bots", default="random,greedy,chains")
    args = parser.parse_args()
    cases, bots = args.cases.split(","), args.bots.split(",")
    jobs = [(case, bot, seed) for case in cases for bot in bots for seed in range(args.seeds)]
    with multiprocessing.Pool() as pool:
        rows = pool.map(play_one, jobs)
    for case in cases:
        for bot in bots:
            mine = [(record, seconds) for c, b, record, seconds in rows if (c, b) == (case, bot)]
            score = statistics.mean(record["score"] for record, _ in mine)
            chain = statistics.mean(record["max_chain"] for record, _ in mine)
            turns = statistics.mean(record["turns"] for record, _ in mine)
            seconds = statistics.mean(s for _, s in mine)
            figures = f"score {score:14,.0f}  max chain {chain:4.1f}  turns {turns:6.0f}  {seconds:6.1f} s"
            print(f"{case:7} {bot:7} {figures}")
    refereed, engine = referee_cost()
    print(
        f"official Large game (1000 turns): {refereed:.2f} s through the referee with a program,"
        f" {engine:.2f} s for the engine alone ({refereed / engine:.1f} x)"
    )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
