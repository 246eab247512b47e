"""League files: every bad case gets one message naming the file, the key and the problem."""

import pytest
import yaml

from league.plan.config import ConfigError, load_league
from tests.conftest import write_league


def refusal_at(path) -> str:
    """The one line ``load_league`` refuses the file ``path`` with (it names the file)."""
    with pytest.raises(ConfigError) as caught:
        load_league(path)
    message = str(caught.value)
    assert message.startswith(str(path)) and "\n" not in message
    return message


def error_of(tmp_path, **overrides):
    return refusal_at(write_league(tmp_path, **overrides))


def test_a_good_file_loads(tmp_path):
    league = load_league(write_league(tmp_path))
    assert league.config.name == "tiny"
    assert list(league.bots) == ["random", "greedy", "minimax"]
    assert league.games["short"].turns_per_player == 15
    assert league.bots["minimax"].params == {"max_nodes": 500}


def test_malformed_yaml(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("name: x\nbots: [unclosed\n")
    with pytest.raises(ConfigError, match=r"bad.yaml: not valid YAML at line \d+"):
        load_league(path)


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="cannot read it"):
        load_league(tmp_path / "nope.yaml")


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"game": "chess"}, "game: Value error, unknown game 'chess'"),
        ({"variants": {"v": {"colour": 1}}}, "variants.v.colour: versus2048 has no such key"),
        ({"variants": {"v": {"board_size": 1}}}, "variants.v.board_size: Input should be greater than or equal to 2"),
        ({"games_per_pair": 0}, "games_per_pair: Input should be greater than or equal to 1"),
        ({"surprise": 1}, "surprise: unknown key"),
        (
            {"format": "ladder"},
            "format: Input should be 'round_robin', 'gauntlet', 'tables', 'solo', 'sprt', 'adaptive', 'knockout' or"
            " 'swiss'",
        ),
        ({"seed": -1}, "seed: Input should be greater than or equal to 0"),
        ({"limits": {"memory_mb": "lots"}}, "limits.memory_mb:"),
        ({"sandbox": "paranoid"}, "sandbox.mode:"),
        ({"format": "gauntlet"}, "candidates: a gauntlet needs at least one candidate"),
        ({"format": "gauntlet", "candidates": ["nobody"]}, "candidates: 'nobody' is not a bot"),
    ],
)
def test_bad_values_name_their_key(tmp_path, overrides, expected):
    assert expected.removeprefix("game: Value error, ") in error_of(tmp_path, **overrides)


def test_duplicate_bot_name(tmp_path):
    bots = [{"name": "x", "builtin": "versus2048.random"}, {"name": "x", "builtin": "versus2048.greedy"}]
    assert "duplicate bot name 'x'" in error_of(tmp_path, bots=bots)


def test_bot_with_two_kinds_or_none(tmp_path):
    both = [
        {"name": "x", "builtin": "versus2048.random", "command": "a"},
        {"name": "y", "builtin": "versus2048.random"},
    ]
    assert "bots[0]: give exactly one of builtin, command or roles" in error_of(tmp_path, bots=both)


def test_missing_bot_file_and_program(tmp_path):
    bots = [{"name": "mine", "command": "python3 bots/mine.py"}, {"name": "g", "builtin": "versus2048.greedy"}]
    message = error_of(tmp_path, bots=bots)
    assert "bots[0] (mine)" in message and "bots/mine.py" in message and "does not exist" in message
    bots[0]["command"] = ["no-such-program-xyz"]
    assert "not on PATH" in error_of(tmp_path, bots=bots)


def test_unknown_builtin_and_other_games_builtin(tmp_path):
    bots = [{"name": "x", "builtin": "versus2048.nosuch"}, {"name": "g", "builtin": "versus2048.greedy"}]
    assert "builtin: 'nosuch' is not a versus2048 built-in; its built-ins: greedy" in error_of(tmp_path, bots=bots)


def test_bot_cwd_is_relative_to_the_file(tmp_path):
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "mine.py").write_text("print('1 1')\n")
    bots = [
        {"name": "mine", "command": "python3 mine.py", "cwd": "bots"},
        {"name": "g", "builtin": "versus2048.greedy"},
    ]
    league = load_league(write_league(tmp_path, bots=bots))
    assert league.bots["mine"].cwd == str((tmp_path / "bots").resolve())


def test_validate_and_run_refuse_a_bad_file_with_status_2_and_write_nothing(tmp_path, league_cli):
    path = write_league(tmp_path, games_per_pair="two")
    for command in ("validate", "run"):
        status, out, err = league_cli(command, str(path))
        assert status == 2
        assert err.startswith("league: error:") and "games_per_pair" in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_validate_prints_the_plan(tmp_path, league_cli):
    status, out, _ = league_cli("validate", str(write_league(tmp_path)), "--no-estimate")
    assert status == 0
    assert "6 games" in out and "greedy: built-in versus2048.greedy" in out and out.strip().endswith("ok")


def test_sandbox_accepts_a_mode_or_a_mapping(tmp_path):
    assert load_league(write_league(tmp_path, sandbox="none")).config.sandbox.mode.value == "none"
    league = load_league(write_league(tmp_path, sandbox={"mode": "strict", "read_only": ["data"]}))
    assert league.sandbox_read_only == [str((tmp_path / "data").resolve())]


def test_example_configs_are_valid():
    from pathlib import Path

    for path in sorted((Path(__file__).resolve().parents[3] / "configs").glob("*.yaml")):
        assert load_league(path).config.name == yaml.safe_load(path.read_text())["name"]


def test_duplicate_candidates(tmp_path):
    assert "a candidate is named twice" in error_of(tmp_path, format="gauntlet", candidates=["random", "random"])


def test_strict_sandbox_is_refused_before_anything_runs(tmp_path, league_cli, monkeypatch):
    monkeypatch.setenv("LEAGUE_BWRAP", "")
    path = write_league(tmp_path, sandbox="strict")
    for command in ("validate", "run"):
        status, _, err = league_cli(command, str(path), *(["--no-estimate"] if command == "validate" else []))
        assert status == 2 and "bubblewrap is not installed" in err
    assert not (tmp_path / "out" / "games.jsonl").exists()


def test_changing_what_a_name_stands_for_changes_the_game_ids(tmp_path):
    from league.cluster.runner import schedule

    base = {spec.game_id for spec in schedule(load_league(write_league(tmp_path)))}
    for change in (
        {"seed": 8},
        {"variants": {"short": {"turns_per_player": 16}}},
        {"limits": {"memory_mb": 512}},
        {
            "bots": [
                {"name": "random", "builtin": "versus2048.random"},
                {"name": "greedy", "builtin": "versus2048.random"},
            ]
        },
    ):
        changed = {spec.game_id for spec in schedule(load_league(write_league(tmp_path, **change)))}
        assert not base & changed, change
    kept = {spec.game_id for spec in schedule(load_league(write_league(tmp_path, concurrency=1)))}
    assert kept == base, "concurrency does not change the games"
