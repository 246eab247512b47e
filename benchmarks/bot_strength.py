"""How strong are the built-in bots? Win rates over many distinct seeded games, seats swapped.

Usage: ``python benchmarks/bot_strength.py GAME BOT_A BOT_B [--games N] [--players N] [--set key=value ...]``

Each seed is played twice with the seats swapped. Prints BOT_A's wins, draws and losses, its win
rate with a 95% Wilson interval, the mean scores, and how many distinct games were played (a
game is identified by its full move list), using every core.

With ``--players N`` (N >= 3, multi-player games such as nimmt and fish) every game seats BOT_A
once and BOT_B N-1 times (each copy with its own seed, as in leagues); each seed is played N
times, BOT_A taking each seat in turn. Only the results' ranks and scores are read, so any game
fits. It prints BOT_A's mean rank and the BOT_B seats' (1 is best; ties share the better rank),
the share of games BOT_A ranks first (ties for first included), its pairwise score rate against
the BOT_B copies (each copy beaten, by a better rank, counts 1, a tie 1/2) with a 95% Wilson
interval over all pairs (pairs of one game are not independent: read the interval as a little
too narrow), the mean scores, the mean milliseconds per reply of each side (whole ms per reply
as the referee clocks them) and the distinct games.

For a solo game (codevs21, ``--set mode=solo``, the default) both bots play every case alone
on the same ``--games / 2`` seeds, through ``benchmarks/codevs21_solo.py``: mean score, max chain
and turns per case (figures in that script's docstring).

For attack2048 (a match is two halves, each bot attacking once and defending once) it also prints,
per bot and role, the mean defender score and the mean half length in plies. Built-in bots learn
the variant's 4-tile rules from the launcher (``Game.bot_rules``), as in leagues.

Measured on 2026-11-23 (2-core VM, 200 games = 100 seeds x 2 seat orders; score rate counts a
draw as half a win; figures change when the bots do, so run it again rather than trust these):

    geister search vs greedy                174 W  18 D   8 L   score rate 0.915 (0.868 to 0.946)
    geister search vs greedy, escape=move_off  174 W  18 D   8 L   score rate 0.915 (0.868 to 0.946)
    geister greedy vs random                193 W   0 D   7 L   score rate 0.965 (0.930 to 0.983)
    geister search vs random                196 W   0 D   4 L   score rate 0.980 (0.950 to 0.992)

Multi-player tables, measured on 2026-11-24 (same VM, shared with other jobs; ``--players 4``, 200
games = 50 seeds x 4 seats of BOT_A, default variant; mean rank of BOT_A / of the BOT_B seats,
share of games BOT_A ranks first (ties included), pairwise score rate with its 95% interval, mean
bullheads of BOT_A / of the BOT_B seats, BOT_A's wall ms per reply):

    nimmt montecarlo vs 3 greedy   rank 2.045 / 2.602  first 0.355  pairwise 0.637 (0.597 to 0.674)  8.3 / 13.2  32 ms
    nimmt greedy vs 3 random       rank 1.630 / 2.723  first 0.555  pairwise 0.772 (0.736 to 0.803)  5.9 / 14.6   0 ms
    nimmt montecarlo vs 3 random   rank 1.585 / 2.760  first 0.570  pairwise 0.795 (0.761 to 0.825)  5.7 / 14.3  39 ms

The same for fish (mean fish collected instead of bullheads; the last line at 3-player tables):

    fish search vs 3 greedy        rank 1.480 / 2.800  first 0.710  pairwise 0.834 (0.802 to 0.862)  27.5 / 21.6  19 ms
    fish greedy vs 3 random        rank 1.345 / 2.860  first 0.725  pairwise 0.884 (0.856 to 0.907)  29.0 / 19.8   0 ms
    fish search vs 3 random        rank 1.095 / 2.945  first 0.925  pairwise 0.968 (0.950 to 0.979)  36.1 / 18.5  19 ms
    fish search vs 2 greedy        rank 1.120 / 2.397  first 0.905  pairwise 0.936 (0.908 to 0.956)  37.1 / 28.0  18 ms
"""

import argparse
import hashlib
import json
import math
import multiprocessing
import statistics
import sys

from league.cli.args import build_game
from league.match.bot_spec import parse_bot_argument
from league.match.players import make_launcher
from league.match.referee import play_match


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


def play_table(job):
    """One game of ``--players N``: BOT_A at ``a_seat``, BOT_B everywhere else; ranks and scores only."""
    game_name, assignments, (bot_a, bot_b), players, seed, a_seat = job
    game = build_game(game_name, assignments)
    texts = [bot_a if seat == a_seat else bot_b for seat in range(players)]
    specs = [parse_bot_argument(type(game), text) for text in texts]
    launchers = [make_launcher(game, spec, seat, seed) for seat, spec in enumerate(specs)]
    record = play_match(game, launchers, seed)
    result = record.result
    others = [seat for seat in range(players) if seat != a_seat]
    replies = [sum(1 for m in record.moves if m.seat == seat) for seat in range(players)]
    mine = result.ranks[a_seat]
    return {
        "a_rank": mine,
        "b_ranks": [result.ranks[seat] for seat in others],
        "pairs": sum(1.0 if mine < result.ranks[s] else 0.5 if mine == result.ranks[s] else 0.0 for s in others),
        "a_score": result.scores[a_seat],
        "b_scores": [result.scores[seat] for seat in others],
        "a_ms": (record.time_used_ms[a_seat], replies[a_seat]),
        "b_ms": (sum(record.time_used_ms[s] for s in others), sum(replies[s] for s in others)),
        "plies": result.plies,
        "fault": result.offenders,
        "digest": hashlib.sha256(json.dumps([(m.seat, m.reply) for m in record.moves]).encode()).hexdigest(),
    }


def report_tables(args, rows):
    """Print the ``--players N`` figures (see the module docstring)."""
    n = args.players
    b_ranks = [rank for r in rows for rank in r["b_ranks"]]
    pairs = len(rows) * (n - 1)
    won = sum(r["pairs"] for r in rows)
    low, high = wilson(won, pairs)
    firsts = sum(1 for r in rows if r["a_rank"] == 1)

    def per_reply(key):
        total, count = (sum(r[key][i] for r in rows) for i in (0, 1))
        return total / max(count, 1)

    print(f"{args.game} {args.bot_a} vs {n - 1} x {args.bot_b}, {n} players, variant {args.set or 'defaults'}")
    print(
        f"games {len(rows)}  distinct {len({r['digest'] for r in rows})}  faults {sum(bool(r['fault']) for r in rows)}"
    )
    print(
        f"mean rank {args.bot_a} {statistics.mean(r['a_rank'] for r in rows):.3f}"
        f"  {args.bot_b} seats {statistics.mean(b_ranks):.3f}  (1 is best; an even field gives {(n + 1) / 2:.1f})"
    )
    print(f"{args.bot_a} ranks first (ties for first included) in {firsts} games: {firsts / len(rows):.3f}")
    print(
        f"pairwise score rate {won / pairs:.3f} over {pairs} pairs  (95% interval {low:.3f} to {high:.3f};"
        " a better rank than a copy counts 1, a tie 1/2)"
    )
    print(
        f"mean score {args.bot_a} {statistics.mean(r['a_score'] for r in rows):.2f}"
        f"  {args.bot_b} seats {statistics.mean(s for r in rows for s in r['b_scores']):.2f}"
        f"  mean plies {statistics.mean(r['plies'] for r in rows):.1f}"
    )
    print(f"ms per reply {args.bot_a} {per_reply('a_ms'):.1f}  {args.bot_b} {per_reply('b_ms'):.1f}")


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
    parser.add_argument(
        "--games", type=int, default=200, help="games in all (two per seed; N per seed with --players N)"
    )
    parser.add_argument(
        "--players", type=int, default=2, help="seats a game (3 or more: BOT_A once, BOT_B in every other seat)"
    )
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    game = build_game(args.game, args.set)
    if game.seat_counts() == range(1, 2):  # a solo game (codevs21): both bots alone on the same seeds
        from codevs21_solo import main as solo_main

        sys.argv = [sys.argv[0], "--seeds", str(max(1, args.games // 2)), "--bots", f"{args.bot_a},{args.bot_b}"]
        solo_main()
        return
    if not game.min_seats <= args.players <= game.max_seats:
        parser.error(f"{args.game} seats {game.min_seats} to {game.max_seats} players, not {args.players}")
    if args.players >= 3:
        if args.games % args.players:
            parser.error(f"--games must be a multiple of --players ({args.players}), so BOT_A takes each seat equally")
        table_jobs = [
            (args.game, args.set, (args.bot_a, args.bot_b), args.players, i // args.players, i % args.players)
            for i in range(args.games)
        ]
        with multiprocessing.Pool() as pool:
            report_tables(args, pool.map(play_table, table_jobs))
        return
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
