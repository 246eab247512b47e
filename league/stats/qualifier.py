"""Solo leagues ranked as the CODE VS 2.1 qualifier was (rules/codevs21.md 7.1), and their report.

Every bot played every case (variant) the same number of runs on the same seeds. Per case, each
bot's runs are added up (score, max chain, turns) and the bots ranked by (score, max chain, turns),
highest first, equal sums sharing a rank ("1,2,2,4"). Overall, bots are ordered by the sum of
their case ranks (lowest first), then total score, total max chain and total turns (highest
first); bots equal in all of them share a place. No bot played another, so there are no ratings:
the report says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from engine.core import ranks_from_keys
from league.stats.game_record import GameRecord


def run_figures(record: GameRecord) -> tuple[int, int, int]:
    """(score, max chain, turns) of one solo game (a game without chains or turns counts 0 for them)."""
    extra = (record.result.extra or {}).get("records") or [{}]
    return int(record.result.scores[0]), int(extra[0].get("max_chain", 0)), int(extra[0].get("turns", 0))


def run_end(record: GameRecord) -> str:
    """How one solo game ended (``clear``, ``overflow``, ``fault:<code>``; "" when the game does not say)."""
    extra = (record.result.extra or {}).get("records") or [{}]
    return str(extra[0].get("end", ""))


def qualifier_frame(records: Sequence[GameRecord], bots: Sequence[str], variants: Sequence[str]) -> pd.DataFrame:
    """One row per bot, best first: its place, every case's rank and sums, the totals, faults and overflows.

    Sums are exact integers written as text (scores pass 2**53).
    """
    sums = {(bot, case): [0, 0, 0, 0] for bot in bots for case in variants}  # score, chain, turns, runs
    for record in records:
        key = (record.spec.seats[0], record.spec.variant)
        if key in sums:
            for index, value in enumerate((*run_figures(record), 1)):
                sums[key][index] += value
    case_ranks = {}
    for case in variants:
        ranks = ranks_from_keys([tuple(sums[bot, case][:3]) for bot in bots])
        case_ranks.update({(bot, case): rank for bot, rank in zip(bots, ranks, strict=True)})
    totals = {bot: [sum(sums[bot, case][k] for case in variants) for k in range(3)] for bot in bots}
    ends = {bot: {"faults": 0, "overflows": 0} for bot in bots}
    for record in records:
        bot, end = record.spec.seats[0], run_end(record)
        if bot in ends and (end.startswith("fault") or record.result.offenders):
            ends[bot]["faults"] += 1
        elif bot in ends and end == "overflow":
            ends[bot]["overflows"] += 1
    keys = [(-sum(case_ranks[bot, case] for case in variants), *totals[bot]) for bot in bots]
    places = dict(zip(bots, ranks_from_keys(keys), strict=True))
    rows = []
    for bot in sorted(bots, key=lambda name: (places[name], name)):
        row: dict[str, Any] = {"place": places[bot], "bot": bot}
        row["rank_sum"] = sum(case_ranks[bot, case] for case in variants)
        for case in variants:
            score, chain, turns, runs = sums[bot, case]
            row |= {f"{case}_rank": case_ranks[bot, case], f"{case}_runs": runs, f"{case}_score": str(score)}
            row |= {f"{case}_max_chain": chain, f"{case}_turns": turns}
        row |= {"score": str(totals[bot][0]), "max_chain": totals[bot][1], "turns": totals[bot][2]}
        row |= ends[bot]
        rows.append(row)
    return pd.DataFrame(rows)


METHOD = (
    "Ranked as the CODE VS 2.1 qualifier was: per case (variant) each bot's runs are added up and the"
    " bots ranked by score, then max chain, then turns (equal sums share a rank); overall by the sum"
    " of case ranks, then total score, total max chain and total turns; bots equal in all share a"
    " place. faults counts the games a bot's fault ended (its score until then kept), overflows the"
    " games that ended with its well full. Every bot played the same seeds. No bot played another,"
    " so there are no ratings or head-to-head strengths: the ranking rests on these sums alone."
)
