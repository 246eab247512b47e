"""The games of a real run on Ray, followed live: their frames are the stored games' public frames, in order.

And while nobody follows, the run asks its workers nothing: no game reaches the live games at all.
"""

from __future__ import annotations

import json
import time

from league.live.games import LiveGames
from tests.league.live.live_runs import Followed, lasting_league, stored_public_frames


def test_a_followed_run_shows_each_game_as_its_stored_replay_shows_it(tmp_path, ray_local):
    run = Followed(lasting_league(tmp_path)).start()
    seen_playing = 0
    while run.summary is None and run.error is None:
        seen_playing = max(seen_playing, sum(1 for game in run.games.games() if not game.over and game.frames))
        time.sleep(0.05)
    run.join()
    assert seen_playing >= 1, "games were seen while they were being played"
    games = run.games.games()
    assert games, "the run's games reached the live games"
    for game in games:
        deadline = time.monotonic() + 30
        while not game.finished and time.monotonic() < deadline:
            time.sleep(0.05)
        assert game.finished and game.over and not game.dropped
        assert game.result is not None and game.result["termination"] == "NORMAL"
        frames = [json.loads(frame) for frame in game.frames]
        assert frames == stored_public_frames(run.league.output, game.game_id), f"game {game.number}"
        assert game.tensions == [frame["tension"] for frame in frames]


def test_while_nobody_follows_the_run_asks_its_workers_nothing(tmp_path, ray_local):
    run = Followed(lasting_league(tmp_path, games_per_pair=2), follow=False).start()
    run.join()
    assert run.summary.played == run.summary.total == 2
    assert run.games.games() == [], "no game was asked for"


def test_games_that_ended_are_kept_a_while_and_the_oldest_go():
    from league.live import games as live_games

    games = LiveGames()
    played = {
        "spec": {"game": "synthetic", "game_id": "", "seats": ["a", "b"], "variant": "v", "seed": 3},
        "rules": {},
    }
    for number in range(live_games.ENDED_KEPT + 3):
        key = f"k{number}"
        update = {"key": key, "start": 0, "moves": [], "over": False}
        games.update([{**update, "played": {**played, "spec": {**played["spec"], "game_id": f"g{number}"}}}])
        games.update([{**update, "over": True, "result": None}])
    kept = games.games()
    assert len(kept) == live_games.ENDED_KEPT
    assert [game.game_id for game in kept][0] == f"g{live_games.ENDED_KEPT + 2}", "newest first"
    assert all(game.dropped for game in kept), "a game that ended without a result was dropped"
    assert games.game(1) is None and games.game(live_games.ENDED_KEPT + 3) is not None
