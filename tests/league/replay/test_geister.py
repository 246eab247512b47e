"""geister replays: every stored game of leagues with faulty programs replays exactly, and its viewer plays.

Two small leagues: one under the strict rules, where programs time out, crash, print garbage or
a line over the cap, name a piece twice or leave the board, each losing at once; one where a
rejected command is answered ``NG`` and the bot may try again in its time (``ng_terminate:
false``, the escape by moving off), which full games play through. A TCP client's game replays
too where the strict jail is available.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine.geister import Geister
from league.cli.main import main
from league.replay.files import LeagueReplays
from league.replay.rebuild import replay_game
from league.stats.game_record import GameRecord
from sandbox.jail import jail_problem
from tests.browser import page_log
from tests.conftest import BOTS
from tests.league.replay.replay_checks import assert_replays_exactly, check_viewer, play_league

FAST = {"setup_timeout_s": 1, "move_timeout_s": 0.3, "budget_s": 0, "max_plies": 120}


def hostile(mode: str) -> dict:
    return {"name": mode, "command": f"{sys.executable} geister_hostile.py {mode}", "cwd": str(BOTS)}


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Path:
    modes = ["crash", "sleep_move", "letter", "off_board", "duplicate", "overlong"]
    return play_league(
        tmp_path_factory.mktemp("geister-strict"),
        {
            "name": "strict",
            "game": "geister",
            "variants": {"default": FAST},
            "bots": [{"name": "random", "builtin": "geister.random"}, *(hostile(mode) for mode in modes)],
            "format": "gauntlet",
            "candidates": modes,
            "games_per_pair": 2,
        },
    )


@pytest.fixture(scope="module")
def retries(tmp_path_factory: pytest.TempPathFactory) -> Path:
    modes = ["plain", "retry", "slow_retry", "overlong"]
    return play_league(
        tmp_path_factory.mktemp("geister-ng"),
        {
            "name": "retries",
            "game": "geister",
            "variants": {"ng": {**FAST, "move_timeout_s": 1, "ng_terminate": False, "escape": "move_off"}},
            "bots": [
                {"name": "random", "builtin": "geister.random"},
                {"name": "greedy", "builtin": "geister.greedy"},
                *(hostile(mode) for mode in modes),
            ],
            "format": "gauntlet",
            "candidates": ["greedy", *modes],
            "games_per_pair": 2,
        },
    )


def test_every_stored_game_replays_to_its_stored_result_and_moves(strict: Path, retries: Path):
    seen = assert_replays_exactly(strict) + assert_replays_exactly(retries)
    assert {"NORMAL", "TIMEOUT", "CRASH", "BAD_OUTPUT", "ILLEGAL_MOVE"} <= set(seen)
    replays = LeagueReplays(retries)
    rejected = [
        move
        for record in replays.records
        for frame in replays.replay(record).frames
        for move in frame.moves
        if move.get("fault") and record.result.termination == "NORMAL"
    ]
    assert any(move.get("event") == "overlong" for move in rejected), "an NG'd overlong line, and the game went on"
    assert any(move.get("event") is None for move in rejected), "an NG'd command, and the game went on"


def test_setup_faults_and_the_reveal_are_in_the_frames(strict: Path):
    replays = LeagueReplays(strict)
    record = next(r for r in replays.records if None in r.result.extra["sets"])  # SET:AABC refused
    frames = replays.replay(record).frames
    first, last = frames[0], frames[-1]
    assert first.view["phase"] == "setup" and first.view["to_move"] == [0, 1] and first.tension == 0.0
    assert last.view["over"] and last.view["end"]["winner"] is not None
    assert sum(last.view["set"]) == 1, "the duplicate SET was refused, the other seat's kept"


def test_a_whole_game_shows_every_ply_and_tension_rises_near_the_end(retries: Path):
    replays = LeagueReplays(retries)
    record = max(replays.records, key=lambda r: r.result.plies)
    frames = replays.replay(record).frames
    assert [f.view["plies"] for f in frames[1:]] == list(range(record.result.plies + 1))
    tensions = [f.tension for f in frames]
    assert tensions[0] == 0.0 and max(tensions) > 0.3 and len(set(tensions)) > 5
    over = frames[-1].view
    assert over["over"] and over["end"]["reason"] == record.result.reason_code
    on_board = [p for seat in over["pieces"] for p in seat if isinstance(p["at"], list)]
    assert all(0 <= p["at"][0] < 6 and 0 <= p["at"][1] < 6 for p in on_board)


def test_a_reply_read_after_its_deadline_replays_as_that_late_reply():
    """A busy referee woke 39 ms after seat 1's setup deadline and found its SET there: a timeout of 539 ms."""
    record = GameRecord.from_json({"game_id": "g", "spec": {"seats": ["a", "b"], "seed": 0}, "result": {}})
    moves = [[0, "play", "SET:ABCD", 0, None, "line"], [1, "play", "SET:ABCD", 539, "timeout", "line"]]
    replay = replay_game(Geister(setup_timeout_s=0.5), record, {"moves": moves})
    assert replay.result["termination"] == "TIMEOUT" and replay.result["offenders"] == [1]
    assert "took 539 ms for its setup (SET), over the 500 ms" in replay.result["detail"]
    late = {"seat": 1, "role": "play", "reply": "SET:ABCD", "ms": 539, "fault": "timeout"}
    assert late in [move for frame in replay.frames for move in frame.moves]


def test_league_replay_print_shows_the_board_and_moves(retries: Path, capsys: pytest.CaptureFixture[str]):
    replays = LeagueReplays(retries)
    record = next(r for r in replays.records if r.result.termination == "NORMAL")
    assert main(["replay", str(retries), record.game_id, "--print"]) == 0
    out = capsys.readouterr().out
    replay = replays.replay(record)
    assert out.count("\n-- ") == len(replay.frames)
    assert repr(replay.frames[2].moves[0]["reply"]) in out
    assert "seat 0 (upper case) off the board" in out and "captures" in out and "over:" in out


@pytest.mark.skipif(jail_problem() is not None, reason=f"TCP clients need the strict jail: {jail_problem()}")
def test_a_tcp_clients_game_replays(tmp_path: Path):
    client = f"{sys.executable} geister_tcp_client.py {{host}} {{port}}"
    folder = play_league(
        tmp_path,
        {
            "name": "tcp",
            "game": "geister",
            "sandbox": "strict",
            "variants": {"default": {"connect_timeout_s": 5, "setup_timeout_s": 5}},
            "bots": [
                {"name": "random", "builtin": "geister.random"},
                {"name": "client", "command": client, "cwd": str(BOTS), "transport": "tcp"},
            ],
            "games_per_pair": 2,
        },
    )
    assert assert_replays_exactly(folder) == {"NORMAL": 2}


def test_the_viewer_plays_a_stored_game_in_chromium(retries: Path, page):
    replays = LeagueReplays(retries)
    record = max(replays.records, key=lambda r: (r.result.reason_code == "escape", r.result.plies))
    plies = record.result.plies
    # The screenshot: the position before the last ply (a blue on its exit, where the game has an escape).
    seen = check_viewer(page, retries, record.game_id, "replay-geister.png", step_to=plies)
    assert seen["frames"] == plies + 2  # the setup, after it, then one frame per ply


def test_the_view_option_hides_the_other_seats_colours(retries: Path, page):
    replays = LeagueReplays(retries)
    record = max(replays.records, key=lambda r: r.result.plies)
    page.goto(replays.write(record.game_id).resolve().as_uri())
    page.evaluate("replayPlayer.show(4)")
    shown = {}
    for view in ("all", "seat 0", "seat 1"):
        page.evaluate(
            f"(() => {{ const s = document.getElementById('option-view'); s.value = {view!r};"
            " s.dispatchEvent(new Event('change')); })()"
        )
        shown[view] = page.evaluate(
            "[...document.querySelectorAll('#board [data-piece]')].map(g => g.dataset.piece + ':'"
            " + g.querySelector('path').getAttribute('fill'))"
        )
    hidden = "#9aa0a6"
    assert not any(hidden in piece for piece in shown["all"])
    assert all((hidden in piece) == piece.startswith("1") for piece in shown["seat 0"])
    assert all((hidden in piece) == piece.startswith("0") for piece in shown["seat 1"])
    assert page_log(page).errors() == []


def test_a_seats_view_hides_the_other_seats_setup_line_and_stderr(retries: Path, page):
    replays = LeagueReplays(retries)
    record = max(replays.records, key=lambda r: r.result.plies)
    replay = replays.replay(record)
    setup = next(i for i, frame in enumerate(replay.frames) if any(m["reply"].startswith("SET:") for m in frame.moves))
    page.goto(replays.write(record.game_id).resolve().as_uri())
    page.evaluate(f"replayPlayer.show({setup})")
    lines = {}
    for view in ("all", "seat 0", "seat 1"):
        page.evaluate(
            f"(() => {{ const s = document.getElementById('option-view'); s.value = {view!r};"
            " s.dispatchEvent(new Event('change')); })()"
        )
        lines[view] = page.evaluate("[...document.querySelectorAll('#moves td.reply')].map(td => td.textContent)")
    sets = [m for m in replay.frames[setup].moves if m["reply"].startswith("SET:")]
    assert all(move["reply"] in lines["all"] for move in sets)
    for seat in (0, 1):
        own = [m["reply"] for m in sets if m["seat"] == seat]
        other = [m["reply"] for m in sets if m["seat"] != seat]
        assert all(reply in lines[f"seat {seat}"] for reply in own)
        assert not any(reply in lines[f"seat {seat}"] for reply in other), "the other seat's reds stay hidden"
    assert page.evaluate("document.activeElement.id") != "option-view", "the arrow keys step again"
    assert page_log(page).errors() == []
