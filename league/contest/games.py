"""The contest's stored games as its pages read them: a bot's games, one game, the faults, stderr, replays.

``StoredGames`` reads the league folder's store again only when its file has changed (its size or time),
and keeps the ``REPLAYS_KEPT`` replay pages asked for last: a stored game never changes, so a page anyone
may open again and again is replayed once. Safe to call from several threads at once.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Collection
from pathlib import Path

from league.replay.files import LeagueReplays, ReplayNotFound
from league.replay.page import Reel, page
from league.stats.game_record import GameRecord
from league.store.results import league_store

REPLAYS_KEPT = 32
"""Replay pages kept made (``StoredGames.replay_page``)."""
FAULTS_SHOWN = 200
"""The most faulted games the organiser's page lists (newest first)."""


class StoredGames:
    """The stored games of a league folder.

    Args:
        folder: The league folder.
        name: The league's name (the replay pages' heading).
    """

    def __init__(self, folder: Path, name: str) -> None:
        self.folder = Path(folder)
        self.name = name
        self._records_lock = threading.Lock()
        self._records_key: tuple[int, int] | None = None
        self._records: list[GameRecord] = []
        self._replays_lock = threading.Lock()
        self._replays: OrderedDict[tuple[str, frozenset[int]], str] = OrderedDict()

    def records(self) -> list[GameRecord]:
        """Every stored game in the order stored, read again only when the store's file has changed."""
        path = league_store(self.folder).path
        try:
            stat = path.stat()
            key = (stat.st_size, stat.st_mtime_ns)
        except FileNotFoundError:
            return []
        with self._records_lock:
            if self._records_key != key:
                self._records, self._records_key = league_store(self.folder).records(), key
            return self._records

    def games_of(self, bot: str) -> list[GameRecord]:
        """Every stored game the bot played (all its versions'), newest first."""
        return [record for record in reversed(self.records()) if bot in record.spec.seats]

    def record(self, game_id: str) -> GameRecord | None:
        """A stored game by its id."""
        return next((record for record in self.records() if record.game_id == game_id), None)

    def faults(self) -> list[GameRecord]:
        """Stored games in which a bot faulted, newest first (the ``FAULTS_SHOWN`` newest)."""
        return [record for record in reversed(self.records()) if record.result.offenders][:FAULTS_SHOWN]

    def stderr_of(self, game_id: str) -> dict[int, str]:
        """Per seat, what its bot wrote on stderr in the game (its kept tails joined)."""
        store = league_store(self.folder)
        store.records()
        tails = store.details([game_id]).get(game_id, {}).get("stderr", [])
        seats: dict[int, list[str]] = {}
        for tail in tails:
            seats.setdefault(int(tail["seat"]), []).append(str(tail["text"]))
        return {seat: "\n".join(parts).strip() for seat, parts in seats.items()}

    def replay_page(self, game_id: str, stderr_seats: Collection[int] = ()) -> str | None:
        """The replay viewer's self-contained page of a stored game; None for a game not stored (or not replayable).

        Args:
            game_id: The game.
            stderr_seats: The seats whose stderr the page may show (their bot's author or an organiser reads
                it); every other seat's is left out of the page.
        """
        key = (game_id, frozenset(stderr_seats))
        with self._replays_lock:
            if key in self._replays:
                self._replays.move_to_end(key)
                return self._replays[key]
        made = self._made_replay_page(game_id, key[1])
        if made is not None:
            with self._replays_lock:
                self._replays[key] = made
                while len(self._replays) > REPLAYS_KEPT:
                    self._replays.popitem(last=False)
        return made

    def _made_replay_page(self, game_id: str, stderr_seats: frozenset[int]) -> str | None:
        with contextlib.suppress(ReplayNotFound):
            replays = LeagueReplays(self.folder)
            record = next((r for r in replays.records if r.game_id == game_id), None)
            if record is None:
                return None
            replay = replays.replay(record)
            shown = [tail for tail in replay.stderr if int(tail.get("seat", -1)) in stderr_seats]
            reel = Reel(replays.title(record), dataclasses.replace(replay, stderr=shown))
            return page(replays.game, [reel], f"{self.name}: {replays.game} replay")
        return None
