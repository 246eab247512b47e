"""A league's plan without its games built: counted, indexed and sampled schedules, and validate's estimate.

``league validate`` counts the schedule (``league.cluster.estimate.planned_schedule``) and plays a
sample spread over its pairings and variants; the games it tells are the ones ``league run`` builds.
"""

import hashlib
import json
import sys
from collections import Counter

import pytest
import yaml

from league.cluster.estimate import duration, estimate, size
from league.plan.config import load_league
from league.plan.league_schedule import planned_schedule
from league.plan.schedule import balance, gauntlet, round_robin, round_robin_schedule, solo, tables
from tests.conftest import BOTS, play_in_process, write_league

SHORT = {"short": {"turns_per_player": 15}, "shorter": {"turns_per_player": 10}}
LEAGUES = {
    "round_robin": {"variants": SHORT, "games_per_pair": 4},
    "gauntlet": {
        "variants": SHORT,
        "format": "gauntlet",
        "candidates": ["greedy"],
        "bots": [{"name": name, "builtin": f"versus2048.{name}"} for name in ("random", "greedy", "minimax")]
        + [{"name": "random2", "builtin": "versus2048.random"}],
    },
    "tables": {
        "game": "nimmt",
        "variants": {"gpcc": {}, "classic": {"bullheads": "classic"}},
        "format": "tables",
        "players_per_table": [3, 4],
        "tables": 5,
        "games_per_pair": None,
        "bots": [{"name": f"bot{k}", "builtin": "nimmt.random"} for k in range(6)],
    },
    "solo": {
        "game": "codevs21",
        "variants": {"small": {"case": "small"}, "medium": {"case": "medium"}},
        "format": "solo",
        "runs_per_case": 3,
        "games_per_pair": None,
        "bots": [{"name": name, "builtin": f"codevs21.{name}"} for name in ("random", "greedy", "chains")],
    },
}
"""Small leagues of every format (keys over ``write_league``'s; None leaves a key out)."""


def league_of(folder, format_):
    """The league file of ``LEAGUES[format_]``."""
    path = write_league(folder, **LEAGUES[format_])
    config = {key: value for key, value in yaml.safe_load(path.read_text()).items() if value is not None}
    path.write_text(yaml.safe_dump(config))
    return path


@pytest.mark.parametrize("format_", list(LEAGUES))
def test_the_counted_schedule_is_the_built_one_game_for_game(tmp_path, format_):
    from league.cluster.runner import schedule

    league = load_league(league_of(tmp_path, format_))
    counted = planned_schedule(league)
    built = schedule(league)
    assert len(counted) == len(built) and len(built) > 0
    assert list(counted) == built
    assert [counted[index] for index in range(len(built))] == built
    assert counted[-1] == built[-1] and counted[2:7] == built[2:7]
    with pytest.raises(IndexError):
        counted[len(built)]
    for count in (1, 3, 1000):
        sample = counted.sample(count)
        assert sum(weight for _, weight in sample) == pytest.approx(len(built))
        assert all(spec == built[spec.index] for spec, _ in sample)
        assert len({spec.game_id for spec, _ in sample}) == len(sample)
    bots = list(league.bots)
    assert balance(counted, bots) == balance(built, bots)


def test_the_builders_still_make_the_same_games():
    """The schedules as they were before they could be counted: same seats, seeds, rounds and ids."""
    prints = {"a": "fa", "c": "fc", "v2": "fv2"}
    built = {
        "round_robin": round_robin("L", ["a", "b", "c", "d"], ["v1", "v2"], 3, 7, prints),
        "gauntlet": gauntlet("L", ["a", "b"], ["c", "d", "e"], ["v1", "v2"], 3, 7, prints),
        "solo": solo("L", ["a", "b", "c"], ["v1", "v2"], 3, 7, prints),
        "tables": tables("L", list("abcdefg"), ["v1", "v2"], [3, 4], 5, 7, prints),
    }
    digests = {
        name: hashlib.sha256(json.dumps([spec.to_json() for spec in specs], sort_keys=True).encode()).hexdigest()[:16]
        for name, specs in built.items()
    }
    assert digests == {
        "round_robin": "66c86240b67211cb",
        "gauntlet": "4b6ca03390fdd96e",
        "solo": "9f82982b7743ba57",
        "tables": "50dd801397dfadec",
    }


def test_a_sample_takes_every_pairing_and_variant_from_rounds_spread_over_the_schedule():
    schedule = round_robin_schedule("L", ["a", "b", "c"], ["v1", "v2"], 1_000_000, seed=1)
    assert len(schedule) == 6_000_000
    sample = schedule.sample(12)
    assert Counter((frozenset(spec.seats), spec.variant) for spec, _ in sample) == {
        (frozenset(pair), variant): 1 for pair in ("ab", "ac", "bc") for variant in ("v1", "v2")
    }
    rounds = sorted(spec.round for spec, _ in sample)
    assert len(set(rounds)) == len(rounds) and rounds[0] < 250_000 and rounds[-1] > 250_000
    assert {weight for _, weight in sample} == {1_000_000}


def test_a_sample_of_many_pairings_takes_distinct_ones_and_both_variants_equally():
    bots = [f"bot{k}" for k in range(20)]
    sample = round_robin_schedule("L", bots, ["v1", "v2"], 4, seed=1).sample(12)
    assert len(sample) == 12 and len({frozenset(spec.seats) for spec, _ in sample}) == 12
    assert Counter(spec.variant for spec, _ in sample) == {"v1": 6, "v2": 6}


def test_a_huge_schedule_is_counted_and_indexed_without_being_built():
    schedule = round_robin_schedule("L", ["a", "b", "c"], ["v"], 10**12, seed=1)
    assert len(schedule) == 3 * 10**12
    last = schedule[-1]
    assert last.index == 3 * 10**12 - 1 and last.round == (10**12 - 1) // 2
    assert last.seats == ("b", "c")  # the second game of an odd round: swapped twice, in order again


def test_validate_tells_a_huge_league_in_human_units_and_warns_without_building_it(tmp_path, league_cli, monkeypatch):
    import league.cluster.runner

    def refuse(_league):
        raise AssertionError("validate built the whole schedule")

    monkeypatch.setattr(league.cluster.runner, "schedule", refuse)
    path = write_league(tmp_path, games_per_pair=10**12, variants={"short": {"turns_per_player": 5}})
    status, out, err = league_cli("validate", str(path))
    assert status == 0, err
    assert "3,000,000,000,000 games (1,000,000,000,000 per pair and variant)" in out
    assert "estimated time: about " in out and "with 2 workers, from 3 sample games spread over the schedule" in out
    assert "estimated store: about " in out and " TB (games.jsonl " in out and "moves.jsonl " in out
    warnings = [line for line in err.splitlines() if "WARNING" in line]
    assert any(
        "this league would take about" in line and "games_per_pair: 1,000,000,000,000" in line for line in warnings
    )
    assert any("its store and replay pages would take about" in line for line in warnings)
    assert not (tmp_path / "out").exists()


def test_the_estimate_samples_the_pairing_whose_games_are_long(tmp_path):
    """A crasher's games are one ply; greedy against greedy plays them all: a game a bot would miss that pairing.

    The store's size is deterministic, so the estimate is checked against the store the whole league leaves.
    """
    crasher = {"name": "crasher", "command": [sys.executable, "v2048_crasher.py"], "cwd": str(BOTS)}
    bots = [
        crasher,
        {"name": "greedy", "builtin": "versus2048.greedy"},
        {"name": "two", "builtin": "versus2048.greedy"},
    ]
    path = write_league(tmp_path, bots=bots, variants={"short": {"turns_per_player": 30}})
    sized = estimate(league := load_league(path), planned_schedule(league))
    assert (sized.played, sized.planned, sized.games) == (3, 3, 6)
    played, _ = play_in_process(path)
    for name, guess in (("games.jsonl", sized.games_bytes), ("moves.jsonl", sized.moves_bytes)):
        stored = (played.output / name).stat().st_size
        assert 0.8 * stored < guess < 1.25 * stored, f"{name}: estimated {guess:.0f} bytes, stored {stored}"


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (0.2, "1 s"),
        (45, "45 s"),
        (12 * 60, "12 minutes"),
        (3.4 * 3600, "3.4 hours"),
        (8_854_969, "102 days"),
        (24 * 365.25 * 86400, "24 years"),
    ],
)
def test_times_are_told_in_units_people_read(seconds, words):
    assert duration(seconds) == words


@pytest.mark.parametrize(
    ("count", "words"), [(512, "512 bytes"), (4_100, "4.1 kB"), (38e6, "38 MB"), (1.2e12, "1.2 TB")]
)
def test_sizes_are_told_in_units_people_read(count, words):
    assert size(count) == words


def test_sampling_stops_once_its_time_is_spent_and_says_so(tmp_path):
    league = load_league(write_league(tmp_path))
    sized = estimate(league, planned_schedule(league), budget_s=0)
    assert (sized.played, sized.planned) == (1, 3)
    assert "from 1 of 3 sample games (no more were started after 1 s" in sized.lines()[0]
