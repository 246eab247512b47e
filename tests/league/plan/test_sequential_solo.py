"""format: sprt of a game played alone: both bots on the same seeds, a seed won by outscoring the baseline.

The tracker's tests feed made-up runs to a real solo SPRT schedule (codevs21's solo mode); the
league's test plays real codevs21 built-ins (chains against greedy) through ``league run`` on the
shared Ray cluster, runs it again and reads the report.
"""

import random
from dataclasses import replace

import pytest

from league.cluster.runner import run_league, schedule
from league.plan.config import load_league
from league.plan.sequential import SprtTracker
from league.report.build import write_report
from league.stats.game_record import GameRecord
from league.stats.sprt import H1
from tests.league.plan.test_config import refusal_at
from tests.league.plan.test_sequential import sprt_file, the_one_verdict

SOLO_VARIANT = {"small": {"mode": "solo", "case": "small", "N": 30, "A": 10, "B_obs": 20}}
SOLO_BOTS = [{"name": "chains", "builtin": "codevs21.chains"}, {"name": "greedy", "builtin": "codevs21.greedy"}]
SOLO = {"game": "codevs21", "variants": SOLO_VARIANT, "bots": SOLO_BOTS, "sprt": {"elo0": 0, "elo1": 50}}


def solo_sprt_file(tmp_path, **overrides):
    """An SPRT of codevs21's chains against greedy, each alone on the same seeds (``sprt_file``'s keys otherwise)."""
    return sprt_file(tmp_path, **{**SOLO, **overrides})


def test_the_schedule_is_both_bots_on_each_seed_in_turn_in_whole_pairs_of_seeds(tmp_path):
    specs = schedule(load_league(solo_sprt_file(tmp_path, max_games=47)))
    assert len(specs) == 44  # max_games counts runs, in whole pairs of seeds (four runs each)
    assert [spec.seats for spec in specs[:4]] == [("chains",), ("greedy",)] * 2
    seeds = [spec.seed for spec in specs]
    assert seeds[::2] == seeds[1::2]  # the candidate, then the baseline, on one seed
    assert len(set(seeds)) == 22


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"bots": [*SOLO_BOTS, {"name": "random", "builtin": "codevs21.random"}]}, "give exactly two bots"),
        ({"variants": {**SOLO_VARIANT, "medium": {"mode": "solo", "case": "medium"}}}, "give one variant"),
        ({"games_per_pair": 4}, "cap them with max_games: N"),
    ],
)
def test_a_solo_sprt_is_refused_as_a_two_seat_one_is(tmp_path, overrides, expected):
    assert expected in refusal_at(solo_sprt_file(tmp_path, **overrides))


def made_up_run(spec, rng: random.Random) -> GameRecord:
    """A run for ``spec``: chains scores 40 to 140, greedy 30 to 100; runs level now and then."""
    roll = rng.random()
    score = 60 if roll < 0.1 else rng.randint(40, 140) if spec.seats == ("chains",) else rng.randint(30, 100)
    result = {"scores": [score], "ranks": [1], "termination": "NORMAL", "offenders": []}
    result["extra"] = {"records": [{"score": score, "max_chain": 2, "turns": 30, "end": "clear"}]}
    return GameRecord.from_json({"game_id": spec.game_id, "spec": {"seats": list(spec.seats)}, "result": result})


def test_the_verdict_is_the_same_whatever_order_and_batches_the_runs_come_in(tmp_path):
    league = load_league(solo_sprt_file(tmp_path))
    specs = schedule(league)
    rng = random.Random(5)
    records = [made_up_run(spec, rng) for spec in specs]
    verdict, pairs, _ = the_one_verdict(league, specs, records)
    assert verdict == H1 and pairs < len(specs) // 4
    in_order = SprtTracker.of_league(league, specs)
    decided = [in_order.add(records[4 * number : 4 * number + 4]) for number in range(pairs)]  # in schedule order
    assert decided == [False] * (pairs - 1) + [True]
    assert (in_order.state.verdict, in_order.pairs_taken) == (verdict, pairs) and in_order.state.solo


def test_a_pair_of_seeds_waits_for_its_four_runs_and_a_failed_run_for_its_replay(tmp_path):
    league = load_league(solo_sprt_file(tmp_path))
    specs = schedule(league)
    rng = random.Random(1)
    records = [made_up_run(spec, rng) for spec in specs[:12]]
    tracker = SprtTracker.of_league(league, specs)
    tracker.add(records[4:12])  # pairs of seeds 1 and 2 without pair 0
    tracker.add(records[:3])
    assert tracker.pairs_taken == 0
    failed = replace(records[3], result=replace(records[3].result, termination="INFRA_ERROR"))
    tracker.add([failed])
    assert tracker.pairs_taken == 0
    tracker.add([records[3]])  # its replay
    assert tracker.pairs_taken == 3


def test_a_solo_league_stops_at_its_verdict_and_a_rerun_plays_nothing_more(ray_local, tmp_path, league_cli):
    path = solo_sprt_file(tmp_path, sprt={"elo0": 0, "elo1": 200}, max_games=60)
    status, out, err = league_cli("run", str(path))
    assert status == 0, err
    verdict = next(line for line in err.splitlines() if line.startswith("SPRT:"))
    assert verdict.startswith("SPRT: H1 accepted: chains is better than greedy")
    assert "pairs of seeds" in verdict and "(on each seed chains wins by outscoring greedy" in verdict
    league = load_league(path)
    again = run_league(league)
    assert again.played == 0 and again.run.tracker is not None and again.run.tracker.state.verdict == H1
    pairs = again.run.tracker.pairs_taken
    assert f"; {pairs} pairs of seeds, {4 * pairs} solo games" in verdict  # the rerun finds the run's verdict
    stored = again.skipped
    assert 4 * pairs <= stored < len(again.run.games)  # stopped early; runs in flight were stored
    assert again.total == 4 * pairs  # what it counts: the pairs of seeds its test took
    ids = [spec.game_id for spec in schedule(league)]
    write_report(league.output, league.config.name, list(league.bots), list(league.games), ids)
    text = (league.output / "report.md").read_text()
    section = text[text.index("## SPRT") : text.index("## Standings")]
    assert "SPRT: H1 accepted: chains is better than greedy" in section
    assert f"It stopped at pair {pairs:,} (seeds {2 * pairs - 1:,} and {2 * pairs:,}), where the LLR crossed" in section
    assert "Both bots play alone on the same seeds: on each seed chains wins (1) when its run outscores" in section
    assert f"{again.run.tracker.state.llr:.3f}" in section and f"{4 * pairs:,}" in section
