"""A mistyped key gets the nearest valid name, at every level of a league file and in ``--set``."""

import pytest

from league.match.did_you_mean import did_you_mean
from tests.conftest import write_league

ATTACK = {
    "game": "attack2048",
    "variants": {"default": {}},
    "bots": [{"name": name, "builtin": "attack2048.greedy"} for name in ("one", "two")],
}
CODEVS = {
    "game": "codevs21",
    "variants": {"small": {"mode": "versus", "case": "small", "w": 8}},
    "bots": [{"name": name, "builtin": f"codevs21.{name}"} for name in ("greedy", "chains")],
}


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ({"tabels": 3}, "tabels: unknown key (did you mean 'tables'?); keys here: name, game"),
        (
            {
                "bots": [
                    {"name": "a", "builtin": "versus2048.greedy"},
                    {"name": "b", "builtin": "versus2048.random", "parms": {}},
                ]
            },
            "bots[1].parms: unknown key (did you mean 'params'?); keys here: name, builtin",
        ),
        ({"limits": {"memry_mb": 512}}, "limits.memry_mb: unknown key (did you mean 'memory_mb'?)"),
        ({"sandbox": {"mod": "none"}}, "sandbox.mod: unknown key (did you mean 'mode'?); keys here: mode, read_only"),
        ({"cluster": {"shared": True}}, "cluster.shared: unknown key (did you mean 'shared_path'?)"),
        (
            {"variants": {"short": {"turns_per_plyer": 15}}},
            "variants.short.turns_per_plyer: versus2048 has no such key (did you mean 'turns_per_player'?); keys:",
        ),
        (CODEVS, "variants.small.w: codevs21 has no such key (did you mean 'W'?)"),
        (
            {**ATTACK, "bots": [ATTACK["bots"][0], {"name": "b", "roles": {"atack": "x", "defend": "y"}}]},
            "bots[1] (b): roles.atack: attack2048 has no role 'atack' (did you mean 'attack'?); give exactly the roles",
        ),
    ],
)
def test_a_mistyped_key_in_the_file_gets_the_nearest_name(tmp_path, league_cli, overrides, words):
    status, out, err = league_cli("validate", str(write_league(tmp_path, **overrides)), "--no-estimate")
    assert status == 2 and out == "", err
    assert err.startswith("league: error: ") and err.count("\n") == 1 and words in err, err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["validate", "play"])
def test_a_mistyped_variant_key_in_set_gets_the_nearest_name(tmp_path, league_cli, command):
    args = [str(write_league(tmp_path, **ATTACK)), "--no-estimate"] if command == "validate" else ["attack2048"]
    if command == "play":
        args += ["greedy", "greedy"]
    status, out, err = league_cli(command, *args, "--set", "maxplies=3")
    assert status == 2 and out == "", err
    assert err.count("\n") == 1, err
    assert "--set maxplies: the attack2048 variant has no key 'maxplies' (did you mean 'max_plies_per_half'?)" in err


@pytest.mark.parametrize(
    ("word", "choices", "hint"),
    [
        ("tabels", ["tables", "bots"], " (did you mean 'tables'?)"),
        ("Tables", ["tables"], " (did you mean 'tables'?)"),
        ("w", ["mode", "W", "H"], " (did you mean 'W'?)"),
        ("turns", ["board_size", "turns_per_player"], " (did you mean 'turns_per_player'?)"),
        ("depht", ["depth", "max_nodes"], " (did you mean 'depth'?)"),
        ("colour", ["cluster", "clock", "concurrency"], ""),
        ("xyz", [], ""),
    ],
)
def test_the_nearest_name_is_one_a_person_would_mean(word, choices, hint):
    assert did_you_mean(word, choices) == hint
