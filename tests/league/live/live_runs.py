"""Leagues played on the shared local Ray with live games followed: a league file whose games last, and a run of it."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

from league.live.games import LiveGames
from league.replay.files import LeagueReplays
from tests.conftest import write_league

PROGRAM = [sys.executable, "-m", "league", "bot"]


def lasting_league(folder: Path, **overrides: Any) -> Path:
    """A versus2048 league whose games last a moment each (a real program plays every game, 40 turns a side)."""
    config: dict[str, Any] = {
        "name": "watched",
        "variants": {"long": {"turns_per_player": 40, "turn_time_ms": 3000}},
        "bots": [
            {"name": "program", "command": [*PROGRAM, "versus2048.random"]},
            {"name": "greedy", "builtin": "versus2048.greedy"},
        ],
        "games_per_pair": 4,
    }
    config.update(overrides)
    return write_league(folder, **config)


class Followed:
    """A league run on a thread with its games fed to ``games`` while ``follow`` says someone watches."""

    def __init__(self, path: Path, follow: bool = True) -> None:
        from league.plan.config import load_league

        self.league = load_league(path)
        self.games = LiveGames()
        self.summary: Any = None
        self.error: BaseException | None = None
        self._follow = follow
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        from league.cluster.runner import run_league

        try:
            if self._follow:
                with self.games.following():
                    self.summary = run_league(self.league, live=self.games)
            else:
                self.summary = run_league(self.league, live=self.games)
        except BaseException as error:  # noqa: BLE001 - told by ``join``
            self.error = error

    def start(self) -> Followed:
        self._thread.start()
        return self

    def join(self, timeout: float = 300) -> Any:
        self._thread.join(timeout)
        assert not self._thread.is_alive(), "the league ended"
        if self.error is not None:
            raise self.error
        return self.summary


def stored_public_frames(folder: Path, game_id: str) -> list[dict[str, Any]]:
    """The stored game's replay frames as a live page gets them (``league.live.games.encode_frame``), decoded."""
    from league.live.games import encode_frame
    from league.replay.rebuild import view_module

    replays = LeagueReplays(folder)
    record = next(r for r in replays.records if r.game_id == game_id)
    replay = replays.replay(record)
    view = view_module(replays.game)
    return [json.loads(encode_frame(view, frame)) for frame in replay.frames]
