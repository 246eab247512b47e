"""Solo leagues (format: solo): the same seeds for every bot, the qualifier's ranking, the checks."""

import json
from collections import Counter

import pytest
import yaml

from league.cluster.runner import run_league, schedule
from league.plan.config import ConfigError, load_league
from league.report.build import write_report
from league.stats.game_record import GameRecord
from league.stats.qualifier import qualifier_frame

SMALL = {"mode": "solo", "case": "small", "N": 30, "A": 10, "B_obs": 20}


def solo_league(folder, **overrides):
    config = {
        "name": "qualifier",
        "game": "codevs21",
        "variants": {"small": SMALL, "medium": {**SMALL, "case": "medium", "A": 6}},
        "bots": [{"name": name, "builtin": f"codevs21.{name}"} for name in ("random", "greedy", "chains")],
        "format": "solo",
        "runs_per_case": 2,
        "seed": 7,
        "concurrency": 2,
        "output": str(folder / "out"),
    }
    path = folder / "league.yaml"
    merged = {key: value for key, value in {**config, **overrides}.items() if value is not None}
    path.write_text(yaml.safe_dump(merged, sort_keys=False))
    return path


def record(bot, variant, score, chain, turns, run=0, end=None):
    result = {"scores": [score], "ranks": [1], "termination": "NORMAL", "offenders": []}
    result["extra"] = {
        "records": [{"score": score, "max_chain": chain, "turns": turns, **({"end": end} if end else {})}]
    }
    spec = {"seats": [bot], "variant": variant, "round": run, "index": 0}
    return GameRecord.from_json({"game_id": f"{bot}-{variant}-{run}", "spec": spec, "result": result})


def test_the_qualifier_ranks_each_case_by_its_sums_then_the_sum_of_case_ranks():
    big = 2**60 + 1
    records = [
        record("a", "small", 10, 3, 1000),
        record("a", "small", 5, 1, 1000, run=1),  # a: small 15, chains 4
        record("b", "small", 15, 5, 900),  # b: small 15, more chain: above a
        record("c", "small", big, 1, 10),
        record("a", "large", 100, 1, 1),
        record("b", "large", 100, 1, 1),  # a and b share large rank 2 ... after c
        record("c", "large", 101, 0, 0),
    ]
    frame = qualifier_frame(records, ["a", "b", "c"], ["small", "large"]).set_index("bot")
    assert frame.loc["c", "small_score"] == str(big) and frame.loc["c", "small_rank"] == 1
    assert (frame.loc["b", "small_rank"], frame.loc["a", "small_rank"]) == (2, 3)
    assert (frame.loc["a", "large_rank"], frame.loc["b", "large_rank"], frame.loc["c", "large_rank"]) == (2, 2, 1)
    assert frame.loc["c", "place"] == 1 and frame.loc["b", "place"] == 2 and frame.loc["a", "place"] == 3
    assert frame.loc["a", "small_runs"] == 2 and frame.loc["a", "rank_sum"] == 5
    assert (frame.loc["a", "faults"], frame.loc["a", "overflows"]) == (0, 0)


def test_faults_and_overflows_are_counted_per_bot():
    faulted = record("a", "small", 3, 1, 9, end="fault:illegal_move")
    overflowed = record("a", "small", 4, 1, 9, run=1, end="overflow")
    frame = qualifier_frame([faulted, overflowed, record("b", "small", 1, 0, 3)], ["a", "b"], ["small"])
    assert frame.set_index("bot").loc["a", ["faults", "overflows"]].tolist() == [1, 1]


def test_bots_equal_in_everything_share_a_place():
    records = [record(bot, "small", 7, 2, 30) for bot in "ab"] + [record("c", "small", 1, 0, 3)]
    frame = qualifier_frame(records, ["a", "b", "c"], ["small"]).set_index("bot")
    assert list(frame["place"]) == [1, 1, 3]


def test_every_bot_plays_every_case_on_the_same_seeds(tmp_path):
    specs = schedule(load_league(solo_league(tmp_path)))
    assert len(specs) == 3 * 2 * 2
    seeds = {(spec.variant, spec.round): set() for spec in specs}
    for spec in specs:
        assert len(spec.seats) == 1
        seeds[spec.variant, spec.round].add(spec.seed)
    assert all(len(found) == 1 for found in seeds.values()), "one seed per run, whatever the bot"
    assert len({spec.seed for spec in specs}) == 2


def test_a_solo_league_plays_resumes_and_reports_the_qualifier_ranking(ray_local, tmp_path):
    league = load_league(solo_league(tmp_path))
    summary = run_league(league)
    assert (summary.played, summary.infra_errors) == (12, 0)
    assert run_league(league).skipped == 12
    records = [json.loads(line) for line in (league.output / "games.jsonl").read_text().splitlines()]
    assert Counter(r["spec"]["seats"][0] for r in records) == {"random": 4, "greedy": 4, "chains": 4}
    write_report(league.output, "qualifier", list(league.bots), list(league.games), None, "score")
    standings = (league.output / "standings.csv").read_text().splitlines()
    assert standings[0].startswith("place,bot,rank_sum,small_rank,small_runs,small_score,small_max_chain")
    report = (league.output / "report.md").read_text()
    assert "Ranked as the CODE VS 2.1 qualifier was" in report and "no ratings" in report
    assert not (league.output / "ratings.csv").exists()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"variants": {"v": {"mode": "versus"}}}, "variants.v: a game of codevs21 here seats 2 bots, and format: solo"),
        ({"format": "round_robin", "runs_per_case": 2}, "runs_per_case: only format: solo plays runs"),
        (
            {"format": "round_robin", "runs_per_case": None},
            "variants.small: a game of codevs21 here seats 1 bot, and format: round_robin plays 2 a game;"
            " it fits format: solo",
        ),
        ({"games_per_pair": 2}, "games_per_pair: a solo league has no pairs"),
        ({"runs_per_case": 0}, "runs_per_case: Input should be greater than or equal to 1"),
    ],
)
def test_leagues_that_cannot_seat_their_games_are_refused(tmp_path, league_cli, overrides, message):
    path = solo_league(tmp_path, **overrides)
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        load_league(path)
    status, out, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 2 and out == "" and message in err and "Traceback" not in err
