"""geister over TCP: clients written for the server's ports play unmodified, inside the strict jail.

The client under test (tests/bots/geister_tcp_client.py) only speaks TCP (host and port on its
command line) and stops if any line it receives lacks its CR, so a finished game proves the
relay carried the referee's CR LF bytes both ways.
"""

import json
import subprocess
import sys

import pytest

from league.cluster.runner import run_league
from league.plan.config import load_league
from sandbox import tcp
from sandbox.jail import jail_problem
from tests.conftest import BOTS, bot_command, write_league

pytestmark = pytest.mark.skipif(jail_problem() is not None, reason=f"needs the strict jail: {jail_problem()}")

CLIENT = f"{bot_command('geister_tcp_client.py')} {{host}} {{port}}"
FAST = ["--set", "connect_timeout_s=2", "--set", "setup_timeout_s=5"]


def play(play_json, *bots, tcp=(0,), extra=()):
    options = [option for seat in tcp for option in ("--tcp", str(seat))]
    return play_json("geister", *bots, "--sandbox", "strict", *options, *FAST, *extra)


def test_a_tcp_only_client_plays_a_whole_game_in_the_strict_jail(play_json):
    result = play(play_json, CLIENT, "random")
    assert result["result"]["termination"] == "NORMAL", result["result"]["detail"]
    assert result["plies"] > 0
    tail = next(t for t in result["stderr"] if t["seat"] == 0)["text"]
    assert tail.splitlines()[0] == result["result"]["extra"]["final"]  # the client got its end message


def test_two_tcp_clients_in_one_game_get_their_own_ports(play_json):
    result = play(play_json, CLIENT, CLIENT, tcp=(0, 1))
    assert result["result"]["termination"] == "NORMAL", result["result"]["detail"]
    texts = {t["seat"]: t["text"] for t in result["stderr"]}
    assert texts[0].startswith(("WON:", "LST:", "DRW:")) and texts[1].startswith(("WON:", "LST:", "DRW:"))


def test_two_games_at_once_listen_on_the_same_port_without_a_clash(tmp_path):
    """Both clients connect late, so both jails listen on 10000 at the same moment."""
    late = f"{CLIENT} late"
    command = [sys.executable, "-m", "league", "play", "geister", late, "random", "--tcp", "0", "--json"]
    games = [subprocess.Popen([*command, "--sandbox", "strict"], stdout=subprocess.PIPE, text=True) for _ in range(2)]
    results = [json.loads(game.communicate(timeout=120)[0]) for game in games]
    for result in results:
        assert result["result"]["termination"] == "NORMAL", result["result"]["detail"]


def test_a_second_connection_is_closed_without_data_and_the_first_plays_on(play_json):
    result = play(play_json, f"{CLIENT} twice", "random")
    assert result["result"]["termination"] == "NORMAL", result["result"]["detail"]


def test_on_the_hosts_network_an_opponent_cannot_take_over_a_relay(play_json):
    """The intruder connects to seat 0's relay on the host's loopback a second before seat 0's client does."""
    intruder = f"{bot_command('geister_relay_intruder.py')} {{host}} {{port}}"
    shared = ["--limit", "network=true", "--set", "connect_timeout_s=10", "--shared-folder"]  # both in tests/bots
    played = play(play_json, f"{CLIENT} late", intruder, tcp=(0, 1), extra=shared)
    texts = {t["seat"]: t["text"] for t in played["stderr"]}
    assert "intruder: connected to 127.0.0.1:" in texts[1], texts[1]  # the attack was made
    assert played["result"]["termination"] == "NORMAL", played["result"]["detail"]
    assert "league relay: refused a connection from a process other than its client" in texts[0]
    assert any(line.startswith(("WON:", "LST:", "DRW:")) for line in texts[0].splitlines()), texts[0]
    assert "closed on us" in texts[1] and "for its client" not in texts[1]


def test_a_client_that_never_connects_has_crashed(play_json):
    result = play(play_json, "random", f"{CLIENT} never", tcp=(1,))["result"]
    assert (result["termination"], result["reason_code"], result["winner"]) == ("CRASH", "crash", 0)
    assert result["detail"] == "seat 1's TCP client did not connect to 127.0.0.1:10001 within 2 s" + (
        " (does it connect to that address?)"
    )


def test_a_client_that_connects_elsewhere_and_exits_has_crashed_with_its_traceback(play_json):
    played = play(play_json, f"{CLIENT} wrong", "random")
    result = played["result"]
    assert (result["termination"], result["reason_code"], result["winner"]) == ("CRASH", "crash", 1)
    assert "exited with status 1 before connecting to 127.0.0.1:10000" in result["detail"]
    assert "ConnectionRefusedError" in played["stderr"][0]["text"]


def test_a_client_that_hangs_up_after_its_setup_has_crashed(play_json):
    result = play(play_json, f"{CLIENT} hangup", "random")["result"]
    assert (result["termination"], result["reason_code"], result["winner"]) == ("CRASH", "crash", 1)
    assert "seat 0 closed its TCP connection before answering its move request for ply 1" in result["detail"]


def test_neither_client_connecting_is_a_double_fault_draw(play_json):
    result = play(play_json, f"{CLIENT} never", f"{CLIENT} never", tcp=(0, 1))["result"]
    assert (result["reason_code"], result["winner"], result["offenders"]) == ("double_fault", None, [0, 1])
    assert result["ranks"] == [1, 1]


def test_tcp_is_refused_for_built_ins_and_for_games_without_it(league_cli):
    status, _, err = league_cli("play", "geister", "random", "random", "--tcp", "0")
    assert status == 2 and "transport tcp is for programs that connect to a port" in err
    status, _, err = league_cli("play", "versus2048", CLIENT, "random", "--tcp", "0")
    assert status == 2 and "versus2048 has no TCP protocol; its bots speak stdin/stdout" in err
    status, _, err = league_cli("play", "geister", CLIENT, "random", "--tcp", "2")
    assert status == 2 and "--tcp '2': give the seat of a TCP client, 0 to 1 (e.g. --tcp 0)" in err


def test_address_placeholders_without_tcp_or_misspelt_are_refused(league_cli):
    status, _, err = league_cli("play", "geister", CLIENT, "random")
    assert status == 2 and "which only a TCP client gets: add --tcp SEAT on league play" in err
    status, _, err = league_cli("play", "geister", CLIENT.replace("{host}", "{hots}"), "random", "--tcp", "0")
    assert status == 2 and "{hots} in its command: only {host} and {port} are replaced" in err


def test_ports_the_jail_cannot_listen_on_or_that_clash_are_refused(league_cli):
    status, _, err = league_cli("play", "geister", CLIENT, "random", "--tcp", "0", "--set", "first_port=80")
    assert status == 2 and "--set first_port=80: Input should be greater than or equal to 1024" in err
    status, _, err = league_cli("play", "geister", "random", "random", "--set", "first_port=10001")
    assert status == 2 and "league: error: --set: first_port and second_port must differ (both are 10001)" in err
    status, _, err = league_cli("play", "geister", "random", "random", "--set", "max_plies=true")
    assert status == 2 and "max_plies must be a number, not true" in err


def test_a_league_with_tcp_bots_runs_its_games_in_parallel(ray_local, tmp_path):
    bots = [
        {"name": "tcp-a", "command": CLIENT, "transport": "tcp", "cwd": str(BOTS)},
        {"name": "tcp-b", "command": f"{CLIENT} late", "transport": "tcp", "cwd": str(BOTS)},
        {"name": "random", "builtin": "geister.random"},
    ]
    league = write_league(tmp_path, game="geister", variants={"default": {}}, bots=bots, sandbox="strict")
    summary = run_league(load_league(league))
    records = [json.loads(line) for line in (tmp_path / "out" / "games.jsonl").read_text().splitlines()]
    assert summary.played == len(records) == 6
    assert {r["result"]["termination"] for r in records} == {"NORMAL"}, [r["result"]["detail"] for r in records]


def test_a_league_refuses_tcp_for_a_built_in(league_cli, tmp_path):
    bots = [{"name": "a", "builtin": "geister.random", "transport": "tcp"}, {"name": "b", "builtin": "geister.random"}]
    league = write_league(tmp_path, game="geister", variants={"default": {}}, bots=bots)
    status, _, err = league_cli("validate", str(league))
    assert status == 2
    assert "bots[0] (a): transport tcp is for programs that connect to a port" in err


def test_tcp_on_the_hosts_network_is_refused_where_proc_cannot_tell_who_connects(league_cli, tmp_path, monkeypatch):
    monkeypatch.setattr(tcp, "_peer_check_problem", lambda: "/proc/self/net/tcp: Permission denied")
    status, out, err = league_cli("play", "geister", CLIENT, "random", "--tcp", "0", "--limit", "network=true")
    assert (status, out) == (2, "")
    assert "this host's /proc cannot tell its client from them (/proc/self/net/tcp: Permission denied)" in err
    bots = [
        {"name": "mine", "command": CLIENT, "transport": "tcp", "cwd": str(BOTS)},
        {"name": "b", "builtin": "geister.random"},
    ]
    league = write_league(tmp_path, game="geister", variants={"default": {}}, bots=bots, limits={"network": True})
    for command in ("validate", "run"):
        status, _, err = league_cli(command, str(league))
        assert status == 2 and not (tmp_path / "out").exists()
        assert "bots[0] (mine): transport tcp with limits.network: true: its relay listens" in err
        assert len(err.strip().splitlines()) == 1 + err.count("WARNING")
