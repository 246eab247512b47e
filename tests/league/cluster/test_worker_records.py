"""A worker's record says what it played: game, variant's rules, bots, rules of play, as the driver has them.

No Ray here: a node is played as tests/league/cluster/test_shipping.py plays one, from shipped bytes
into a cache of its own, the driver's folder gone.
"""

import sys

from league.cluster import bot_cache
from league.cluster.runner import league_setup, schedule
from league.cluster.worker import play_game
from league.match.bot_spec import spec_from_data, spec_to_data
from league.plan.bot_version import league_versions
from league.plan.config import load_league
from league.plan.manifest import write_manifest
from league.plan.seed import league_seed
from league.store.results import ResultStore
from tests.league.cluster.test_shipping import bot_folder, bot_league, shipped_as_bytes


def test_a_game_played_from_a_nodes_copy_records_the_drivers_folder_and_the_leagues_rules(tmp_path, monkeypatch):
    folder = bot_folder(tmp_path / "bots" / "slow")
    bot = {"name": "slow", "command": [sys.executable, "v2048_slow.py", "1"], "cwd": "../bots/slow"}
    league = load_league(bot_league(tmp_path / "league", bot, limits={"memory_mb": 512}, clock="wall"))
    setup = league_setup(league, {str(folder): shipped_as_bytes(folder)})
    folder.rename(tmp_path / "elsewhere")  # this "node" has no such folder: only the shipped bytes
    monkeypatch.setenv(bot_cache.CACHE_VARIABLE, str(tmp_path / "node-cache"))
    monkeypatch.setattr(bot_cache, "_unpacked_here", {})
    spec = schedule(league)[0]
    record = play_game(spec.to_json(), setup)
    assert record["result"]["termination"] == "NORMAL", record["result"]["detail"]
    versions = {name: league_versions(league)[name] for name in spec.seats}
    assert record["spec"] == {**spec.to_json(), "game": "versus2048", "versions": versions}
    assert record["rules"] == league.games["short"].variant()
    assert {name: spec_from_data(data) for name, data in record["bots"].items()} == league.bots
    assert record["bots"]["slow"]["cwd"] == str(folder), "the driver's folder, not the node's copy"
    assert record["bot_numbers"] == {"slow": 0, "greedy": 1}
    assert record["play"] == {"clock": "wall", "time_margin_ms": 0, "sandbox": "auto", "limits": {"memory_mb": 512}}


def test_a_bots_spec_is_kept_without_its_defaults_and_the_results_line_names_only_the_game(tmp_path):
    bot = {"name": "slow", "command": [sys.executable, "v2048_slow.py", "1"], "cwd": "../bots/slow"}
    bot_folder(tmp_path / "bots" / "slow")
    league = load_league(bot_league(tmp_path / "league", bot))
    spec = schedule(league)[0]
    record = play_game(spec.to_json(), league_setup(league))
    assert record["bots"]["greedy"] == {"name": "greedy", "builtin": "versus2048.greedy"}
    assert spec_to_data(spec_from_data(record["bots"]["slow"])) == spec_to_data(league.bots["slow"])
    league.output.mkdir(parents=True)
    write_manifest(league, league_seed(league), [spec])
    store = ResultStore(league.output / "games.jsonl")
    store.append(record)
    store.close()
    (line,) = (league.output / "games.jsonl").read_text().splitlines()
    assert '"game":"versus2048"' in line and '"rules"' not in line and '"bots"' not in line, "kept in the move log"
    details = ResultStore(league.output / "games.jsonl").details([spec.game_id])[spec.game_id]
    assert {"rules", "bots", "bot_numbers", "play", "moves"} <= set(details)


def test_a_game_that_fails_for_reasons_of_ours_still_names_its_game_and_rules(tmp_path):
    bot = {"name": "gone", "command": [sys.executable, "v2048_slow.py", "1"], "cwd": "../bots/slow"}
    bot_folder(tmp_path / "bots" / "slow")
    league = load_league(bot_league(tmp_path / "league", bot))
    setup = league_setup(league)
    (tmp_path / "bots" / "slow").rename(tmp_path / "moved")  # the bot's folder vanishes after the league was checked
    record = play_game(schedule(league)[0].to_json(), setup)
    assert record["result"]["termination"] == "INFRA_ERROR"
    assert record["spec"]["game"] == "versus2048" and record["rules"] == league.games["short"].variant()
