"""What a store's games say of their league, without ``league.json``: as the manifest says it, or less, never wrong."""

from pathlib import Path

import pytest
import yaml

from league.plan.manifest import read_manifest
from league.replay.recorded import FROM_RECORDS, GameUnknown, named_game, recorded_league
from league.store.results import ResultStore
from tests.conftest import play_in_process, write_league


@pytest.fixture(scope="module")
def output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("recorded")
    path = write_league(folder, concurrency=1, clock="wall", limits={"memory_mb": 512})
    path.write_text(yaml.safe_dump({**yaml.safe_load(path.read_text()), "variants": {"a": {}, "b": {"board_size": 4}}}))
    play_in_process(path)
    return folder / "out"


def test_the_stored_games_give_the_manifests_game_rules_bots_and_rules_of_play(output):
    manifest = read_manifest(output)
    store = ResultStore(output / "games.jsonl")
    told = recorded_league(store, store.records())
    assert told[FROM_RECORDS] is True
    for key in ("name", "game", "bots", "variants", "settings", "bot_specs", "play"):
        assert told[key] == manifest[key], key


def test_games_of_an_older_version_before_newer_ones_leave_the_newer_ones_to_tell(output, tmp_path):
    played = ResultStore(output / "games.jsonl")
    stored = played.records()
    details = played.details(record.game_id for record in stored)
    records = [{**record.to_json(), **details[record.game_id]} for record in stored]
    mixed = ResultStore(tmp_path / "games.jsonl")
    for number, record in enumerate(records):
        if number < 4:  # as a version before records named their game stored it
            record = {
                key: value for key, value in record.items() if key not in ("rules", "bots", "bot_numbers", "play")
            }
            record["spec"] = {key: value for key, value in record["spec"].items() if key != "game"}
        mixed.append(record)
    mixed.close()
    stored = ResultStore(tmp_path / "games.jsonl").records()
    assert named_game(tmp_path, stored) == "versus2048"
    with pytest.raises(GameUnknown, match="do not name their game"):
        named_game(tmp_path, stored[:4])
    told, manifest = recorded_league(ResultStore(tmp_path / "games.jsonl"), stored), read_manifest(output)
    for key in ("bots", "settings", "bot_specs", "play"):
        assert told[key] == manifest[key], key


def test_a_lost_move_log_leaves_the_rules_and_bots_unknown_and_gives_no_replay_commands(output, tmp_path):
    (tmp_path / "games.jsonl").write_bytes((output / "games.jsonl").read_bytes())  # no moves.jsonl beside it
    store = ResultStore(tmp_path / "games.jsonl")
    told = recorded_league(store, store.records())
    assert told["game"] == "versus2048" and told["settings"] == {}
    assert "bot_specs" not in told and "play" not in told, "a replay command without them would replay another game"
