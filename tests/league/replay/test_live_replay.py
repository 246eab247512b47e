"""A game replayed while it is played shows the very frames its stored replay shows, for every game.

Each game is played by the worker's own ``play_game`` on a thread, its moves watched through the worker's
``WatchedGames`` (as a worker's ``live`` call reads them) and fed to a ``LiveReplay`` in the pieces a
poll finds, while the game goes on; the stored record's replay (``replay_game``) is the reference.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any

import pytest

from league.cluster.live_tap import WatchedGames
from league.cluster.runner import league_setup, schedule
from league.cluster.worker import play_game
from league.plan.config import load_league
from league.plan.openings import opening_of
from league.replay.live_replay import LiveReplay
from league.replay.rebuild import game_for_record, replay_game
from league.stats.game_record import GameRecord

PROGRAM = [sys.executable, "-m", "league", "bot"]
"""A built-in as a real program (``league bot GAME.NAME``): its replies come through a pipe."""

LEAGUES: dict[str, dict[str, Any]] = {
    "versus2048": {
        "variants": {"default": {"turns_per_player": 30, "turn_time_ms": 2000}},
        "bots": [
            {"name": "greedy", "builtin": "versus2048.greedy"},
            {"name": "program", "command": [*PROGRAM, "versus2048.random"]},
        ],
    },
    "pk2048": {
        "variants": {"default": {"target_tile": 128, "decision_time_ms": 2000}},
        "bots": [{"name": "greedy", "builtin": "pk2048.greedy"}, {"name": "random", "builtin": "pk2048.random"}],
    },
    "attack2048": {
        "variants": {"default": {"decision_ms": 2000, "startup_ms": 5000, "max_plies_per_half": 60}},
        "bots": [
            {"name": "greedy", "builtin": "attack2048.greedy"},
            {"name": "random", "builtin": "attack2048.random"},
        ],
    },
    "geister": {
        "variants": {"default": {"setup_timeout_s": 5, "move_timeout_s": 2, "budget_s": 0, "max_plies": 80}},
        "bots": [
            {"name": "random", "builtin": "geister.random"},
            {"name": "program", "command": [*PROGRAM, "geister.greedy"]},
        ],
    },
    "nimmt": {
        "variants": {"default": {"deals": 1, "timeout_ms": 2000}},
        "format": "tables",
        "players_per_table": 3,
        "tables": 1,
        "bots": [
            {"name": "random", "builtin": "nimmt.random"},
            {"name": "greedy", "builtin": "nimmt.greedy"},
            {"name": "greedy-2", "builtin": "nimmt.greedy"},
        ],
    },
    "fish": {
        "variants": {"default": {"timeout_ms": 3000, "first_timeout_ms": 10000}},
        "bots": [{"name": "random", "builtin": "fish.random"}, {"name": "greedy", "builtin": "fish.greedy"}],
    },
    "codevs21": {
        "variants": {
            "short": {"mode": "versus", "case": "small", "H": 10, "N": 20, "A": 30, "B_obs": 30, "time_total_s": 5}
        },
        "bots": [{"name": "random", "builtin": "codevs21.random"}, {"name": "greedy", "builtin": "codevs21.greedy"}],
    },
    "synthetic": {
        "variants": {"default": {}},
        "bots": [
            {"name": "strong", "builtin": "synthetic.model", "params": {"elo": 1600}},
            {"name": "weak", "builtin": "synthetic.random"},
        ],
    },
}


def first_game(tmp_path, game: str) -> tuple[dict[str, Any], Any]:
    """The first scheduled game of a small league of ``game`` and the worker's setup for it."""
    import yaml

    config = {"name": f"live-{game}", "game": game, "seed": 11, "output": str(tmp_path / "out")}
    config.update(LEAGUES[game])
    if config.get("format") != "tables":
        config.setdefault("games_per_pair", 2)
    path = tmp_path / "league.yaml"
    path.write_text(yaml.safe_dump(config))
    league = load_league(path)
    return schedule(league)[0].to_json(), league_setup(league)


def watched_live(spec: dict[str, Any], setup: Any) -> tuple[dict[str, Any], LiveReplay, list[int]]:
    """Play the game on a thread while its moves are polled into a live replay; the record, the replay, poll sizes."""
    games = WatchedGames()
    key = games.next_key()
    record: dict[str, Any] = {}

    def play() -> None:
        try:
            record.update(play_game(spec, setup, watch=lambda played, moves: games.add(key, played, moves)))
        finally:
            games.end(key, record.get("result"))

    player = threading.Thread(target=play)
    player.start()
    replay: LiveReplay | None = None
    cursors: dict[str, int] = {}
    pieces: list[int] = []
    ended = threading.Event()
    while True:
        updates = games.since(cursors)
        for update in updates:
            if replay is None:
                played = update["played"]
                game = game_for_record(played["spec"]["game"], played["rules"])
                opening = opening_of(played["spec"].get("opening"), played["spec"]["seed"])
                replay = LiveReplay(
                    game,
                    len(played["spec"]["seats"]),
                    played["spec"]["seed"],
                    opening,
                    lambda _f, _t: None,
                    lambda _r: ended.set(),
                )
                replay.start()
            replay.add(update["moves"])
            pieces.append(len(update["moves"]))
            cursors[key] = update["start"] + len(update["moves"])
            if update["over"]:
                replay.close(complete=True)
        if updates and updates[0]["over"]:
            break
        time.sleep(0.003)
    player.join(60)
    assert replay is not None and ended.wait(60), "the live replay ends once its game has"
    return record, replay, pieces


@pytest.mark.parametrize("game", sorted(LEAGUES))
def test_a_game_replayed_live_shows_the_stored_replays_frames(tmp_path, game):
    spec, setup = first_game(tmp_path, game)
    record, live, pieces = watched_live(spec, setup)
    assert record["result"]["termination"] != "INFRA_ERROR", record["result"]["detail"]
    stored = replay_game(game_for_record(game, record["rules"]), GameRecord.from_json(record), record)
    assert stored.diverged == ""
    assert live.complete and live.failure == ""
    assert [f.view for f in live.frames] == [f.view for f in stored.frames]
    assert [f.tension for f in live.frames] == [f.tension for f in stored.frames]
    assert [f.moves for f in live.frames] == [f.moves for f in stored.frames]
    assert len(live.frames) >= 3 and live.frames[-1].view["over"]
    assert sum(pieces) == len(record["moves"])
    if any("command" in bot for bot in LEAGUES[game]["bots"]):  # a program's game lasts: polls find it in pieces
        assert len([piece for piece in pieces if piece]) > 2, pieces


def test_the_frames_come_while_the_game_is_played_not_only_at_its_end(tmp_path):
    spec, setup = first_game(tmp_path, "geister")
    seen_while_playing: list[int] = []
    games = WatchedGames()
    key = games.next_key()
    done = threading.Event()

    def play() -> None:
        try:
            play_game(spec, setup, watch=lambda played, moves: games.add(key, played, moves))
        finally:
            games.end(key, None)
            done.set()

    threading.Thread(target=play).start()
    frames: list[Any] = []
    replay = None
    cursor = 0
    while not done.is_set() or cursor == 0:
        for update in games.since({key: cursor} if cursor else {}):
            if replay is None:
                played = update["played"]
                game = game_for_record("geister", played["rules"])
                seed = played["spec"]["seed"]
                replay = LiveReplay(game, 2, seed, None, lambda frame, _t: frames.append(frame), lambda _r: None)
                replay.start()
            replay.add(update["moves"])
            cursor = update["start"] + len(update["moves"])
        if not done.is_set():
            time.sleep(0.05)
            seen_while_playing.append(len(frames))
    assert replay is not None
    replay.close(complete=True)
    replay.join(30)
    assert max(seen_while_playing, default=0) > 2, "frames were told while the game was still being played"
    assert frames[-1].view["over"]


def test_a_feed_closed_before_its_game_ended_lets_the_replay_end_and_says_so(tmp_path):
    spec, setup = first_game(tmp_path, "versus2048")
    record = play_game(spec, setup)
    game = game_for_record("versus2048", record["rules"])
    ended: list[dict[str, Any]] = []
    replay = LiveReplay(game, 2, spec["seed"], None, lambda _f, _t: None, ended.append)
    replay.start()
    replay.add(record["moves"][:10])
    replay.close(complete=False)
    replay.join(30)
    assert ended and not replay.complete
    assert replay.failure == ""


def live_tensions(game: Any, moves: list[list[Any]]) -> list[float]:
    """The tension a spectator is shown of each frame of a game replayed live from ``moves`` (fed at once)."""
    tensions: list[float] = []
    replay = LiveReplay(game, 2, 0, None, lambda _frame, tension: tensions.append(tension), lambda _r: None)
    replay.start()
    replay.add(moves)
    replay.close(complete=True)
    replay.join(30)
    return tensions


def test_geister_shows_a_tension_that_tells_no_colour():
    from engine.geister import Geister
    from tests.league.replay.test_public_views import play, replay_moves, revealing, stored, with_other_reds

    told_apart = 0
    for seed in (3, 5, 8):
        first = play("geister", ("greedy", "random"), {}, seed)
        moves, other = stored(first), with_other_reds(stored(first))
        second = replay_moves(Geister(), 2, other)
        a, b = first.frames, second.frames
        reveal = next(i for i in range(min(len(a), len(b))) if revealing(a[i].view) or revealing(b[i].view))
        shown_a, shown_b = live_tensions(Geister(), moves), live_tensions(Geister(), other)
        assert shown_a[:reveal] == shown_b[:reveal], f"seed {seed}: the tension shown tells the reds apart"
        told_apart += [f.tension for f in a[:reveal]] != [f.tension for f in b[:reveal]]
    assert told_apart, "the full tension follows the reds (which is why it is not shown)"
