"""Shared checks for replays: play a real league in this process, replay every stored game, load viewers.

Each game's replay tests (tests/league/replay/test_<game>.py) play a small league of real bots,
faulty programs among them, and check with these that every stored game replays to the very same
result and moves, and that the game's viewer works in headless chromium.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from league.replay.files import LeagueReplays
from tests.browser import page_log
from tests.conftest import play_in_process

if TYPE_CHECKING:
    from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[3]
SCREENSHOTS = ROOT / "reports" / "screenshots"


def play_league(folder: Path, config: dict[str, Any]) -> Path:
    """Play every game of a league in this process (no Ray); returns its output folder."""
    config = {"seed": 7, "concurrency": 1, "output": str(folder / "out"), **config}
    path = folder / "league.yaml"
    path.write_text(yaml.safe_dump(config))
    league, _ = play_in_process(path)
    return league.output


def stored_moves(replays: LeagueReplays, record: dict[str, Any]) -> list[tuple[Any, ...]]:
    """A stored game's moves as (seat, role, reply, ms, fault, event), sorted."""
    moves = replays.store.details([record["game_id"]])[record["game_id"]]["moves"]
    return sorted(((m[0], m[1], m[2], m[3], m[4], m[5] if len(m) > 5 else "line") for m in moves), key=repr)


def assert_replays_exactly(folder: Path) -> Counter[str]:
    """Every stored game of a league folder replays to its stored result and moves; returns terminations seen."""
    replays = LeagueReplays(folder)
    seen: Counter[str] = Counter()
    for record in replays.records:
        replay = replays.replay(record)
        assert replay.diverged == "", f"{record['game_id']}: {replay.diverged}"
        replayed = sorted(
            (
                (m["seat"], m["role"], m["reply"], m["ms"], m.get("fault"), m.get("event", "line"))
                for frame in replay.frames
                for m in frame.moves
            ),
            key=repr,
        )
        assert replayed == stored_moves(replays, record), f"{record['game_id']}: moves differ"
        assert len(replay.frames) >= 2, f"{record['game_id']}: a game shows its start and its end"
        assert replay.frames[-1].view["over"], f"{record['game_id']}: the last frame is the end"
        for frame in replay.frames:
            assert 0.0 <= frame.tension <= 1.0
            json.dumps(frame.view)  # JSON-ready
        seen[record["result"]["termination"]] += 1
    return seen


def check_viewer(page: Page, folder: Path, game_id: str, screenshot: str, step_to: int = 3) -> dict[str, Any]:
    """Load a game's replay page in chromium (in ``page``) and check it plays; returns what the page reported.

    Checks: no console error and no request outside the file; stepping changes the board; the
    frame counter and the scrubber follow; auto pacing schedules each frame for longer the more
    tense it is (the delays the player used, against the curve); clicking the curve jumps. The
    screenshot (after ``step_to`` steps) goes to ``reports/screenshots/<screenshot>``.
    """
    path = LeagueReplays(folder).write(game_id)
    page.goto(path.resolve().as_uri())
    assert page_log(page).errors() == []
    assert page_log(page).foreign_requests() == []
    frames = page.evaluate("replayPlayer.reels[0].frames.length")
    assert frames >= 2
    boards = [page.evaluate("document.getElementById('board').innerHTML")]
    for _ in range(min(frames - 1, 6)):
        page.evaluate("replayPlayer.step(1)")
        boards.append(page.evaluate("document.getElementById('board').innerHTML"))
    assert len(set(boards)) > 1, "stepping through the game changes the board"
    assert page.evaluate("replayPlayer.index") == min(frames - 1, 6)
    assert page.evaluate("document.getElementById('scrub').value") == str(min(frames - 1, 6))

    # Auto pacing: the player's own schedule, and its rule over the whole curve.
    tensions = page.evaluate("replayPlayer.reels[0].frames.map(f => f.tension)")
    delays = page.evaluate("replayPlayer.reels[0].frames.map(f => replayPlayer.delayFor(f.tension))")
    pairs = sorted(zip(tensions, delays, strict=True))
    assert all(a[1] <= b[1] for a, b in zip(pairs, pairs[1:], strict=False)), "more tension, never faster"
    if max(tensions) > min(tensions):
        assert delays[tensions.index(max(tensions))] > delays[tensions.index(min(tensions))]
    page.evaluate("replayPlayer.show(0); replayPlayer.play()")
    page.evaluate("new Promise(done => setTimeout(done, 1500))")
    page.evaluate("replayPlayer.pause()")
    paced = page.evaluate("replayPlayer.paced")
    assert paced, "auto play scheduled frames"
    for index, tension, delay in paced:
        assert tension == tensions[index]
        assert abs(delay - delays[index]) < 1e-6

    # Clicking the curve's far right jumps to the last frame.
    page.evaluate(
        "(() => { const s = document.getElementById('tension'); const b = s.getBoundingClientRect();"
        " s.dispatchEvent(new MouseEvent('click', {clientX: b.right - 1, clientY: b.top + 5})); })()"
    )
    assert page.evaluate("replayPlayer.index") == frames - 1
    page.evaluate(f"replayPlayer.show({min(step_to, frames - 1)})")
    assert page_log(page).errors() == []
    page.screenshot(path=SCREENSHOTS / screenshot, full_page=True)
    return {"frames": frames, "tensions": tensions, "paced": paced}
