"""``league play`` and ``league bot`` from a user's side: output, variants, bad input."""

import json
import subprocess
import sys


def test_play_prints_a_readable_summary_with_boards(league_cli):
    status, out, _ = league_cli("play", "versus2048", "greedy", "random", "--set", "turns_per_player=20")
    assert status == 0
    assert "seat 0: greedy" in out and "seat 1: random" in out
    assert "wins:" in out
    assert "exponents" in out  # the final boards are drawn


def test_play_json_has_the_promised_fields(play_json):
    data = play_json("versus2048", "versus2048.greedy", "random", "--seed", "3", "--set", "board_size=4")
    assert data["game"] == "versus2048"
    assert data["variant"]["board_size"] == 4
    assert data["seed"] == 3
    assert [seat["name"] for seat in data["seats"]] == ["greedy", "random"]
    assert set(data["result"]) >= {"scores", "ranks", "termination", "offenders", "reason_code", "detail"}
    assert len(data["time_used_ms"]) == 2
    assert data["plies"] >= 2


def test_set_value_is_yaml_and_checked(league_cli):
    status, _, err = league_cli("play", "versus2048", "greedy", "greedy", "--set", "board_size=1")
    assert status == 2
    assert err.count("\n") == 1 and "board_size" in err

    status, _, err = league_cli("play", "versus2048", "greedy", "greedy", "--set", "colour=red")
    assert status == 2
    assert "variant has no key 'colour'" in err

    status, _, err = league_cli("play", "versus2048", "greedy", "greedy", "--set", "turn_time_ms=[1, 2]")
    assert status == 2 and "turn_time_ms" in err


def test_wrong_number_of_bots(league_cli):
    status, _, err = league_cli("play", "versus2048", "greedy")
    assert status == 2
    assert "played by 2 bots, 1 given" in err


def test_unknown_game_and_bot(league_cli):
    status, _, err = league_cli("play", "chess", "a", "b")
    assert status == 2 and "unknown game 'chess'" in err
    status, _, err = league_cli("play", "versus2048", "versus2048.nosuch", "greedy")
    assert status == 2 and "'nosuch' is not a versus2048 built-in; its built-ins: greedy, minimax, random" in err


def test_command_that_cannot_start_is_a_usage_error(league_cli, tmp_path):
    status, _, err = league_cli("play", "versus2048", "./no/such/bot", "greedy")
    assert status == 2 and "'./no/such/bot' does not exist" in err
    status, _, err = league_cli("play", "versus2048", "no-such-program-xyz", "greedy")
    assert status == 2 and "nor a program on PATH" in err
    status, _, err = league_cli("play", "versus2048", f"{sys.executable} {tmp_path}/missing.py", "greedy")
    assert status == 2 and "missing.py" in err
    script = tmp_path / "bot.sh"
    script.write_text("#!/bin/sh\n")
    status, _, err = league_cli("play", "versus2048", str(script), "greedy")
    assert status == 2 and "not executable" in err


def test_league_bot_speaks_the_protocol_byte_exact():
    """The bot side run as a real program answers the rules' 9.6 bytes with well-formed lines."""
    request = b"0\n" + b"1 100000 0 0\n" + b"0 0 0 0 0\n" * 4 + b"1 0 0 0 0\n" + b"0 0 0 0 0\n" * 2 + b"0 0 0 1 0\n"
    request += b"0 0 0 0 0\n" * 2
    completed = subprocess.run(
        [sys.executable, "-m", "league", "bot", "versus2048.greedy", "--seed", "4"],
        input=request,
        capture_output=True,
        timeout=30,
    )
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.split(b"\n")
    assert lines[-1] == b"" and len(lines) == 3
    row, col = (int(x) for x in lines[0].split(b" "))
    assert 1 <= row <= 5 and 1 <= col <= 5
    # The only tile of this bot's board is at (5,1): every slide but D and L moves it; attack one 2.
    direction, m, v, r, c = lines[1].split(b" ")
    assert direction in (b"U", b"R") and (m, v) == (b"1", b"1")
    assert (int(r), int(c)) != (2, 4)


def test_python_dash_m_league_works():
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "league",
            "play",
            "versus2048",
            "random",
            "random",
            "--json",
            "--set",
            "turns_per_player=5",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["game"] == "versus2048"


def test_league_games_lists_every_game(league_cli):
    from engine import GAMES

    status, out, _ = league_cli("games")
    assert status == 0
    for name, game in GAMES.items():
        assert f"{name}  " in out and game.title in out


def test_league_games_describes_a_game_from_its_code(league_cli):
    from engine import GAMES

    status, out, _ = league_cli("games", "attack2048")
    assert status == 0
    assert "roles: attack, defend" in out
    for key in GAMES["attack2048"].model_fields:
        assert f"\n  {key} = " in out
    assert "tiles = [2, 4]" in out and "opening = empty" in out
    assert "pessimism = 0.5 (a number): Weight of the worst placement against the mean." in out
    assert "engine/attack2048/README.md" in out
    status, _, err = league_cli("games", "chess")
    known = "attack2048, codevs21, fish, geister, nimmt, pk2048, synthetic, versus2048"
    assert status == 2 and f"unknown game 'chess'; known games: {known}" in err
