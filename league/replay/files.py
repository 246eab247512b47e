"""A league folder's replays: find a stored game, replay it, write its page; pick the league's highlights.

``league replay`` (league/cli/replay.py) and the report (which links its games list to the pages
it writes) both come here. Pages go to ``<league folder>/replays/<game id>.html``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from league.replay.page import Reel, page
from league.replay.rebuild import Replay, game_for_record, replay_game
from league.replay.recorded import GameUnknown, named_game, recorded_league
from league.stats.game_record import GameRecord
from league.store.faults import OUTPUT_ERRNOS, StoreWriteError, write_failure
from league.store.folder import MANIFEST
from league.store.results import ResultStore, league_store

HIGHLIGHT_WINDOW = 20
"""Frames in a highlight: the stretch of a game with the highest mean tension."""
HIGHLIGHT_CANDIDATES = 400
"""At most this many games are replayed to find highlights; bigger leagues are first cut by the store alone."""


class ReplayNotFound(ValueError):
    """Nothing to replay: no such folder, no game known, no games or no such game; the message says what to give."""


@dataclass(frozen=True)
class Stretch:
    """The tensest stretch of one game (its frames are the game's replay's).

    Attributes:
        start: Its first frame.
        end: Its last frame.
        mean: The stretch's mean tension.
        frames: The game's frames in all.
    """

    start: int
    end: int
    mean: float
    frames: int


class LeagueReplays:
    """The replays of one league folder.

    The game comes from the folder's ``league.json``, or without one from the stored games
    (``league.replay.recorded``); each game is replayed under the rules its own record keeps (the
    manifest's, for a game stored before records kept them).

    Args:
        folder: The league's output folder (``games.jsonl``, ``league.json``).
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        if not folder.is_dir():
            raise ReplayNotFound(f"{folder}: no such folder; give the league's output folder (where games.jsonl is)")
        manifest_path = folder / MANIFEST
        self.store = league_store(folder)
        self.records = _scored(self.store.records())
        if manifest_path.is_file():
            self.manifest: dict[str, Any] = json.loads(manifest_path.read_text())
        elif self.records:  # a store copied alone: its games name their game and keep their rules
            try:
                named_game(folder, self.records)
            except GameUnknown as error:
                raise ReplayNotFound(str(error)) from None
            self.manifest = recorded_league(self.store, self.records)
        if not self.records:
            raise ReplayNotFound(f"{folder}: no games stored yet; run the league first")

    @classmethod
    def loaded(
        cls, folder: Path, manifest: dict[str, Any], store: ResultStore, records: list[GameRecord]
    ) -> LeagueReplays:
        """The replays of a league whose manifest, store and records the caller has read already (the report)."""
        replays = cls.__new__(cls)
        replays.folder, replays.manifest, replays.store, replays.records = folder, manifest, store, _scored(records)
        return replays

    @property
    def game(self) -> str:
        """The league's game."""
        return str(self.manifest["game"])

    def find(self, game_id: str) -> dict[str, Any]:
        """The stored record of a game, by its id or a unique start of it."""
        matches = [r for r in self.records if r.game_id.startswith(game_id)]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise ReplayNotFound(
                f"{self.folder}: no game {game_id!r}; {self.folder / 'games.csv'} and the report's games list hold"
                " every game's id"
            )
        raise ReplayNotFound(f"{game_id!r} starts {len(matches)} game ids; give more of it")

    def replay(self, record: GameRecord) -> Replay:
        """Replay a stored game (its moves read from the store's move log)."""
        details = self.store.details([record.game_id]).get(record.game_id, {})
        variant = record.spec.variant
        params = details.get("rules", (self.manifest.get("settings") or {}).get(variant, {}))
        return replay_game(game_for_record(self.game, params), record, details)

    def title(self, record: GameRecord) -> str:
        """A game's heading: its bots, variant and id."""
        spec = record.spec
        variants = self.manifest.get("variants") or []
        variant = f" ({spec['variant']})" if len(variants) > 1 else ""
        return f"{' vs '.join(spec['seats'])}{variant}, game {record['game_id']}"

    def write(self, game_id: str, output: Path | None = None) -> Path:
        """Write a game's replay page; returns its path."""
        path, _ = self.write_record(self.find(game_id), output)
        return path

    def write_record(self, record: GameRecord, output: Path | None = None) -> tuple[Path, Stretch]:
        """Replay a stored game and write its page; returns the page's path and the game's tensest stretch."""
        replay = self.replay(record)
        path = output or self.folder / "replays" / f"{record['game_id']}.html"
        heading = f"{self.manifest.get('name', self.folder.name)}: {self.game} replay"
        _write(path, page(self.game, [Reel(self.title(record), replay)], heading))
        return path, tensest(replay, HIGHLIGHT_WINDOW)

    def highlights(
        self, count: int, output: Path | None = None, known: Mapping[str, Stretch] | None = None
    ) -> tuple[Path, int]:
        """Write a page of the league's ``count`` tensest stretches, one per game at most.

        Args:
            count: How many stretches.
            output: The page (default ``replays/highlights.html``).
            known: Games' stretches found already, by game id (those games are not replayed to find them).

        Returns:
            The page's path and how many games were looked at to choose them.
        """
        known = known or {}
        candidates = _candidates(self.records, HIGHLIGHT_CANDIDATES)
        found = [
            (known.get(record.game_id) or tensest(self.replay(record), HIGHLIGHT_WINDOW), record)
            for record in candidates
        ]
        # A game shorter than a stretch (a fault at the start) comes after every full one.
        found.sort(key=lambda pair: (pair[0].frames < HIGHLIGHT_WINDOW, -pair[0].mean, pair[1]["game_id"]))
        reels = []
        for place, (stretch, record) in enumerate(found[:count], start=1):
            title = f"{place}. {self.title(record)}, frames {stretch.start + 1}-{stretch.end + 1}"
            reels.append(Reel(title, self.replay(record), stretch.start, stretch.end))
        path = output or self.folder / "replays" / "highlights.html"
        heading = f"{self.manifest.get('name', self.folder.name)}: the {len(reels)} most tense stretches"
        _write(path, page(self.game, reels, heading))
        return path, len(candidates)


def tensest(replay: Replay, window: int) -> Stretch:
    """The stretch of ``window`` frames (or the whole game, if shorter) with the highest mean tension."""
    tensions = [frame.tension for frame in replay.frames]
    width = max(1, min(window, len(tensions)))
    best_start, best_sum = 0, sum(tensions[:width])
    running = best_sum
    for start in range(1, len(tensions) - width + 1):
        running += tensions[start + width - 1] - tensions[start - 1]
        if running >= best_sum - 1e-12:  # ties go to the later stretch, nearer the end that decided it
            best_start, best_sum = start, running
    return Stretch(best_start, best_start + width - 1, best_sum / width, len(tensions))


def _candidates(records: Iterable[GameRecord], limit: int) -> list[GameRecord]:
    """The games worth replaying for highlights: all of them, or the ``limit`` longest and closest.

    Without replaying, the store says how long each game was and how close its top two scores
    were; long, close games are the likeliest to hold tense stretches.
    """
    games = list(records)
    if len(games) <= limit:
        return games

    def promise(record: GameRecord) -> float:
        result = record.result
        scores = sorted((int(s) for s in result.scores), reverse=True)
        gap = abs(scores[0] - scores[1]) / max(abs(scores[0]) + abs(scores[1]), 1) if len(scores) > 1 else 1.0
        return (1 - gap) * min(1.0, result.plies / 200) + (0.5 if result.offenders else 0.0)

    return sorted(games, key=lambda record: (-promise(record), record.game_id))[:limit]


def _scored(records: Iterable[GameRecord]) -> list[GameRecord]:
    """The games that were played (an INFRA_ERROR record is a game still to play), in schedule order."""
    played = [r for r in records if r.result.termination != "INFRA_ERROR"]
    return sorted(played, key=lambda record: record.spec.index)


def _write(path: Path, text: str) -> None:
    """Write a page; a disk or a path that refuses it is ``StoreWriteError`` (one line, exit 3)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        if error.errno in OUTPUT_ERRNOS:  # a full or read-only disk: said as for every file of the league
            raise StoreWriteError(write_failure(path, error)) from None
        why = error.strerror or type(error).__name__
        raise StoreWriteError(
            f"{path}: cannot write this replay page ({why}); make room, fix the permissions, or move away what is"
            f" in the way ({path.parent} must be a folder)"
        ) from None
