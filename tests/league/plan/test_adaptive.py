"""format: adaptive: its one-line refusals, a real league that settles, batches whatever the finishing order.

The league plays the synthetic game's built-ins (strengths stated, outcomes drawn from the model) on
the shared Ray cluster, runs again, and grows by one bot.
"""

import json

import pytest
import yaml

from league.cluster.runner import run_league, start_run
from league.plan.adaptive import outcome_sentence
from league.plan.adaptive_batches import STOP_SETTLED
from league.plan.config import load_league
from league.plan.league_schedule import league_inputs
from league.report.build import write_report
from league.store.results import league_store
from tests.conftest import write_league
from tests.league.plan.test_config import refusal_at
from tests.league.plan.test_sequential import feed_shuffled

BOTS = [
    {"name": "top", "builtin": "synthetic.model", "params": {"elo": 700}},
    {"name": "mid", "builtin": "synthetic.model", "params": {"elo": 300}},
    {"name": "twin", "builtin": "synthetic.model", "params": {"elo": 290}},
]
ADAPTIVE = {
    "game": "synthetic",
    "variants": {"default": {"draw_rate": 0.2, "first_seat_elo": 30}},
    "format": "adaptive",
    "adaptive": {"confidence": 0.9, "tie_elo": 200},
    "max_games": 3000,
    "bots": BOTS,
}


def adaptive_file(tmp_path, **overrides):
    """``write_league``'s file made an adaptive league of synthetic bots (no games_per_pair unless given)."""
    path = write_league(tmp_path, **{**ADAPTIVE, **overrides})
    config = yaml.safe_load(path.read_text())
    if "games_per_pair" not in overrides:
        del config["games_per_pair"]
    path.write_text(yaml.safe_dump(config))
    return path


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"adaptive": {"confidence": 1}}, "adaptive.confidence: 1.0 is not a confidence between 0.5 and 1"),
        ({"adaptive": {"confidence": 0.5}}, "adaptive.confidence: 0.5 is not a confidence between 0.5 and 1"),
        ({"adaptive": {"warmup_games": 3}}, "adaptive.warmup_games: 3 is odd"),
        ({"adaptive": {"tie_elo": -5}}, "adaptive.tie_elo"),
        (
            {"max_games": 5},
            "max_games: 5 is below the warm-up's 6 games (2 for each pair of 3 bots); give max_games: 6",
        ),
        ({"games_per_pair": 4}, "cap all with max_games: N"),
        ({"variants": {"a": {}, "b": {"draw_rate": 0.5}}}, "give one variant"),
        (
            {
                "game": "nimmt",
                "variants": {"default": {}},
                "bots": [{"name": n, "builtin": "nimmt.random"} for n in "abc"],
                "players_per_table": 3,
            },
            "players_per_table: an adaptive league of tables is not supported yet; use format: tables, or leave"
            " players_per_table out to play nimmt two a game",
        ),
    ],
)
def test_a_bad_adaptive_league_is_one_line(tmp_path, overrides, expected):
    assert expected in refusal_at(adaptive_file(tmp_path, **overrides))


def test_adaptive_keys_belong_to_format_adaptive(tmp_path):
    assert "adaptive: only format: adaptive plays in batches" in refusal_at(write_league(tmp_path, adaptive={}))
    assert "max_games: only formats sprt and adaptive" in refusal_at(write_league(tmp_path, max_games=100))


def test_a_league_settles_stops_and_a_rerun_plays_nothing_more(ray_local, tmp_path):
    league = load_league(adaptive_file(tmp_path))
    seen = []
    first = run_league(league, on_run=lambda run: seen.append(run.tracker.batches.taken))
    tracker = first.run.tracker
    assert tracker is not None and tracker.batches.stop == STOP_SETTLED
    assert seen == sorted(set(seen)) and seen[-1] == tracker.batches.taken  # shown batch by batch
    counted = [spec.game_id for spec in tracker.counted_games]
    assert len(counted) <= first.played and len(counted) < 3000
    line = outcome_sentence(tracker)
    assert line.startswith(f"adaptive: settled after {len(counted):,} games in {tracker.batches.taken} batches: ")
    assert "top > " in line  # 400 Elo above the others: proven
    manifest = json.loads((league.output / "league.json").read_text())
    assert manifest["game_ids"] == counted and sum(manifest["adaptive"]["batches"]) == len(counted)

    again = run_league(load_league(adaptive_file(tmp_path)))
    assert again.played == 0 and [spec.game_id for spec in again.run.tracker.counted_games] == counted
    assert outcome_sentence(again.run.tracker) == line

    # The same decisions whatever order the games came back in, and in whatever chunks.
    records = league_store(league.output).records()
    for seed in range(3):
        replayed = start_run(league_inputs(load_league(adaptive_file(tmp_path)))).tracker
        feed_shuffled(records, replayed.add, seed, most=40)
        assert [spec.game_id for spec in replayed.counted_games] == counted
        assert outcome_sentence(replayed) == line

    write_report(league.output, league.config.name, list(league.bots), list(league.games), counted)
    assert (league.output / "report.md").exists()


def test_a_newcomer_gets_its_warm_up_and_stored_games_keep_their_ids(ray_local, tmp_path):
    first = run_league(load_league(adaptive_file(tmp_path, max_games=12)))  # the warm-up and one batch
    stored = {record["game_id"] for record in league_store(first.run.tracker and tmp_path / "out").records()}
    grown = load_league(
        adaptive_file(tmp_path, max_games=12, bots=[*BOTS, {"name": "new", "builtin": "synthetic.model"}])
    )
    tracker = start_run(league_inputs(grown)).tracker
    warmup = {spec.game_id for spec in tracker.batch_games[0]}
    assert len(warmup) == 12  # six pairs, two games each
    assert len(warmup & stored) == 6  # the three old pairs' warm-up: the games they played first
    second = run_league(grown)
    assert second.played == 6  # only the newcomer's warm-up: max_games is reached
    assert all(spec.game_id in stored or "new" in spec.seats for spec in second.run.tracker.counted_games)


def test_a_grown_league_plays_none_of_its_stored_games_again(ray_local, tmp_path):
    """A batch of the grown league may hold games the smaller one stored: they are taken, never played again."""
    run_league(load_league(adaptive_file(tmp_path, max_games=60)))
    grown = adaptive_file(tmp_path, max_games=200, bots=[*BOTS, {"name": "new", "builtin": "synthetic.model"}])
    second = run_league(load_league(grown))
    lines = [json.loads(line) for line in (tmp_path / "out" / "games.jsonl").read_text().splitlines() if line]
    ids = [line["game_id"] for line in lines]
    assert len(ids) == len(set(ids)), "a stored game was played again"
    assert second.played > 0
