"""format: sprt: the league file's test, its one-line refusals, and a verdict independent of finishing order.

The tracker's tests feed made-up results to a real SPRT schedule; the league's test plays real
versus2048 built-ins (greedy against random) on the shared Ray cluster and runs it again.
"""

import random
from dataclasses import replace

import pytest
import yaml

from league.cluster.runner import run_league, schedule
from league.plan.config import ConfigError, load_league
from league.plan.sequential import SprtTracker
from league.report.build import write_report
from league.stats.game_record import GameRecord
from league.stats.sprt import H1
from tests.conftest import write_league
from tests.league.plan.test_config import refusal_at

TWO_BOTS = [
    {"name": "greedy", "builtin": "versus2048.greedy"},
    {"name": "random", "builtin": "versus2048.random"},
]
SPRT = {"format": "sprt", "sprt": {"elo0": 0, "elo1": 10}, "max_games": 400, "bots": TWO_BOTS}


def sprt_file(tmp_path, **overrides):
    """``write_league``'s file made an SPRT of greedy against random (no games_per_pair unless given)."""
    path = write_league(tmp_path, **{**SPRT, **overrides})
    config = yaml.safe_load(path.read_text())
    if "games_per_pair" not in overrides:
        del config["games_per_pair"]
    path.write_text(yaml.safe_dump(config))
    return path


def refusal_of(tmp_path, **overrides):
    return refusal_at(sprt_file(tmp_path, **overrides))


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"sprt": {"elo0": 5, "elo1": 5}}, "elo1 (5) must be above elo0 (5)"),
        ({"sprt": {"elo0": 0, "elo1": 5, "alpha": 0.5}}, "sprt.alpha: 0.5 is not an error rate between 0 and 0.5"),
        ({"sprt": {"elo0": 0, "elo1": 5, "beta": 0}}, "sprt.beta: 0.0 is not an error rate"),
        ({"bots": [*TWO_BOTS, {"name": "minimax", "builtin": "versus2048.minimax"}]}, "give exactly two bots"),
        ({"variants": {"a": {}, "b": {"turns_per_player": 20}}}, "give one variant"),
        ({"games_per_pair": 4}, "cap them with max_games: N"),
        ({"sprt": None}, "format sprt needs its test"),
        ({"max_games": 1}, "max_games"),
    ],
)
def test_a_bad_sprt_league_is_one_line(tmp_path, overrides, expected):
    assert expected in refusal_of(tmp_path, **overrides)


def test_sprt_keys_belong_to_format_sprt(tmp_path):
    path = write_league(tmp_path, sprt={"elo0": 0, "elo1": 5})
    with pytest.raises(ConfigError, match="sprt: only format: sprt runs a sequential test"):
        load_league(path)


def feed_shuffled(records, add, seed: int, most: int) -> None:
    """Give ``add`` the records shuffled by ``seed``, in chunks of 1 to ``most``, as workers might return them."""
    arrival = records[:]
    random.Random(seed).shuffle(arrival)
    position = 0
    while position < len(arrival):
        size = random.Random(seed + position).randint(1, most)
        add(arrival[position : position + size])
        position += size


def the_one_verdict(league, specs, records) -> tuple[str, int, float]:
    """The verdict, pairs taken and LLR the records give, checked to be the same in six arrival orders."""
    outcomes = set()
    for shuffle_seed in range(6):
        tracker = SprtTracker.of_league(league, specs)
        feed_shuffled(records, tracker.add, shuffle_seed, most=9)
        assert tracker.decided
        outcomes.add((tracker.state.verdict, tracker.pairs_taken, round(tracker.state.llr, 9)))
    assert len(outcomes) == 1
    return outcomes.pop()


def made_up(spec, rng: random.Random) -> GameRecord:
    """A result for ``spec``: greedy wins three games in four, else random does; some draws."""
    roll = rng.random()
    greedy_seat = spec.seats.index("greedy")
    ranks = [1, 1] if roll < 0.1 else [1, 2] if (roll < 0.75) == (greedy_seat == 0) else [2, 1]
    result = {"ranks": ranks, "termination": "NORMAL", "offenders": []}
    return GameRecord.from_json({"game_id": spec.game_id, "spec": {"seats": list(spec.seats)}, "result": result})


def test_the_verdict_is_the_same_whatever_order_and_batches_the_games_come_in(tmp_path):
    league = load_league(sprt_file(tmp_path))
    specs = schedule(league)
    rng = random.Random(5)
    records = [made_up(spec, rng) for spec in specs]
    verdict, pairs, _ = the_one_verdict(league, specs, records)
    assert verdict == H1 and pairs < len(specs) // 2


def test_a_pair_waits_for_every_pair_before_it_and_a_failed_game_for_its_replay(tmp_path):
    league = load_league(sprt_file(tmp_path))
    specs = schedule(league)
    rng = random.Random(1)
    records = [made_up(spec, rng) for spec in specs[:6]]
    tracker = SprtTracker.of_league(league, specs)
    tracker.add(records[2:6])  # pairs 1 and 2 without pair 0
    assert tracker.pairs_taken == 0
    failed = replace(records[0], result=replace(records[0].result, termination="INFRA_ERROR"))
    tracker.add([failed, records[1]])
    assert tracker.pairs_taken == 0
    tracker.add([records[0]])  # its replay
    assert tracker.pairs_taken == 3


def test_a_league_stops_at_its_verdict_and_a_rerun_plays_nothing_more(ray_local, tmp_path):
    league = load_league(sprt_file(tmp_path, variants={"short": {"turns_per_player": 10}}))
    seen = []
    first = run_league(league, on_run=lambda run: seen.append((run.tracker.state.pairs, run.tracker.state.llr)))
    assert first.run.tracker is not None and first.run.tracker.state.verdict == H1
    assert seen[-1] == (
        first.run.tracker.pairs_taken,
        first.run.tracker.state.llr,
    )  # shown as it went, ending at the verdict
    assert [pairs for pairs, _ in seen] == sorted({pairs for pairs, _ in seen})
    pairs = first.run.tracker.pairs_taken
    assert 2 * pairs <= first.played < len(first.run.games)  # stopped early; games in flight were stored
    assert first.total == 2 * pairs  # what it counts: the pairs its test took
    again = run_league(load_league(sprt_file(tmp_path, variants={"short": {"turns_per_player": 10}})))
    assert again.played == 0
    assert again.run.tracker.pairs_taken == pairs and again.run.tracker.state.verdict == H1
    assert again.run.tracker.state.counts == first.run.tracker.state.counts
    ids = [spec.game_id for spec in schedule(league)]
    write_report(league.output, league.config.name, list(league.bots), list(league.games), ids)
    text = (league.output / "report.md").read_text()
    section = text[text.index("## SPRT") : text.index("## Verdict")]
    assert "SPRT: H1 accepted: greedy is better than random" in section
    assert f"It stopped at pair {pairs:,}, where the LLR crossed a bound." in section
    assert f"{2 * pairs:,}" in section and f"{first.run.tracker.state.llr:.3f}" in section
