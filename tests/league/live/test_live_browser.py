"""A live game's page in chromium (playwright): it follows a game being played to its end, every frame in order."""

from __future__ import annotations

import json

from tests.browser import page_log
from tests.league.live.live_runs import stored_public_frames
from tests.league.live.test_pages import first_game, served  # noqa: F401 - the fixture

DRAWN_WAIT_MS = 180_000


def test_a_page_follows_a_live_game_to_its_end_with_every_frame_drawn_in_order(served, page):  # noqa: F811
    url, run = served
    run.start()
    number = first_game(url, run)
    page.goto(f"{url}live/games/{number}")
    page.wait_for_function("() => window.livePlayer && window.livePlayer.shown.length > 0", timeout=DRAWN_WAIT_MS)
    was_over = page.evaluate("window.livePlayer.ended")
    page.wait_for_function("() => window.livePlayer.done === true", timeout=DRAWN_WAIT_MS)
    shown = page.evaluate("window.livePlayer.shown")
    frames = page.evaluate("window.livePlayer.frames")
    assert shown == list(range(len(frames))), "every frame drawn once, in order"
    assert not was_over or len(frames) > 1
    assert page.inner_text("#board").strip(), "the viewer drew the board"
    assert "over: NORMAL" in page.inner_text("#status")
    assert page_log(page).errors() == []
    assert page_log(page).foreign_requests() == []
    run.join()
    game = run.games.game(number)
    assert frames == stored_public_frames(run.league.output, game.game_id)
    assert json.loads(json.dumps(frames))  # what the page holds is plain data
