"""How strong are the built-in bots? Win rates over many distinct seeded games, seats swapped.

Usage: ``python benchmarks/bot_strength.py GAME BOT_A BOT_B [--games N] [--set key=value ...]``

Each seed is played twice with the seats swapped. Prints BOT_A's wins, draws and losses, its win
rate with a 95% Wilson interval, the mean scores, and how many distinct games were played (a
game is identified by its full move list), using every core.

For attack2048 (a match is two halves, each bot attacking once and defending once) it also prints,
per bot and role, the mean defender score and the mean half length in plies. Built-in bots learn
the variant's 4-tile rules from the launcher (``Game.bot_rules``), as in leagues.

Measured on 2026-11-23 (2-core VM, 200 games = 100 seeds x 2 seat orders; score rate counts a
draw as half a win; figures change when the bots do, so run it again rather than trust these):

    geister search vs greedy                174 W  18 D   8 L   score rate 0.915 (0.868 to 0.946)
    geister search vs greedy, escape=move_off  174 W  18 D   8 L   score rate 0.915 (0.868 to 0.946)
    geister greedy vs random                193 W   0 D   7 L   score rate 0.965 (0.930 to 0.983)
    geister search vs random                196 W   0 D   4 L   score rate 0.980 (0.950 to 0.992)
"""

import argparse
import hashlib
import json
import math
import multiprocessing
import statistics

from league.cli_args import build_game
from league.players import make_launcher, parse_bot_argument
from league.referee import play_match


def play_one(job):
    game_name, assignments, bots, seed, swap = job
    game = build_game(game_name, assignments)
    order = list(reversed(bots)) if swap else list(bots)
    specs = [parse_bot_argument(type(game), text) for text in order]
    launchers = [make_launcher(game, spec, seat, seed) for seat, spec in enumerate(specs)]
    record = play_match(game, launchers, seed)
    a_seat = 1 if swap else 0
    moves = json.dumps([(m.seat, m.reply) for m in record.moves])
    return {
        "winner_is_a": None if record.result.winner is None else record.result.winner == a_seat,
        "a_score": record.result.scores[a_seat],
        "b_score": record.result.scores[1 - a_seat],
        "plies": record.result.plies,
        "fault": record.result.offenders,
        "digest": hashlib.sha256(moves.encode()).hexdigest(),
        "halves": [
            {**half, "attacker_is_a": half["attacker"] == a_seat} for half in record.result.extra.get("halves", [])
        ],
    }


def print_halves(rows, names):
    """Per bot and role: mean defender score and mean half length (games whose halves are recorded)."""
    halves = [half for row in rows for half in row["halves"]]
    if not halves:
        return
    print("halves: per bot and role, mean defender score and mean half length")
    for is_a, name in ((True, names[0]), (False, names[1])):
        for role, mine in (("defends", lambda h, a=is_a: h["attacker_is_a"] != a), ("attacks", None)):
            if mine is None:
                picked = [h for h in halves if h["attacker_is_a"] == is_a]
            else:
                picked = [h for h in halves if mine(h)]
            if picked:
                ends = {end: sum(1 for h in picked if h["end"] == end) for end in sorted({h["end"] for h in picked})}
                print(
                    f"  {name:>12} {role}: {len(picked)} halves, mean defender score"
                    f" {statistics.mean(h['score'] for h in picked):.1f}, mean plies"
                    f" {statistics.mean(h['plies'] for h in picked):.1f}, ends {ends}"
                )


def wilson(successes, n, z=1.96):
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("bot_a")
    parser.add_argument("bot_b")
    parser.add_argument("--games", type=int, default=200, help="games in all (two per seed)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    jobs = [
        (args.game, args.set, (args.bot_a, args.bot_b), seed, swap)
        for seed in range(args.games // 2)
        for swap in (0, 1)
    ]
    with multiprocessing.Pool() as pool:
        rows = pool.map(play_one, jobs)
    wins = sum(1 for r in rows if r["winner_is_a"] is True)
    losses = sum(1 for r in rows if r["winner_is_a"] is False)
    draws = len(rows) - wins - losses
    low, high = wilson(wins + draws / 2, len(rows))
    print(f"{args.game} {args.bot_a} vs {args.bot_b}, variant {args.set or 'defaults'}")
    print(
        f"games {len(rows)}  distinct {len({r['digest'] for r in rows})}  faults {sum(bool(r['fault']) for r in rows)}"
    )
    print(f"{args.bot_a}: {wins} wins, {draws} draws, {losses} losses")
    print(f"score rate {(wins + draws / 2) / len(rows):.3f}  (95% interval {low:.3f} to {high:.3f})")
    print(
        f"mean score {args.bot_a} {statistics.mean(r['a_score'] for r in rows):.1f}"
        f"  {args.bot_b} {statistics.mean(r['b_score'] for r in rows):.1f}"
        f"  mean plies {statistics.mean(r['plies'] for r in rows):.1f}"
    )
    print_halves(rows, (args.bot_a, args.bot_b))


if __name__ == "__main__":
    main()
