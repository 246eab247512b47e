"""The results store: ``games.jsonl``, one finished game a line, appended and fsynced as it comes.

A crash can at worst leave a torn last line; it is ignored on reading (and cut off before the
next append), so a rerun replays that game. A game id is never stored twice: the driver skips
what is stored, and reading keeps the first record of an id.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import Any

INFRA_ERROR = "INFRA_ERROR"


class StoreBusy(Exception):
    """Another process holds the store."""


class ResultStore:
    """Append-only JSON-lines file of game records.

    Args:
        path: The ``games.jsonl`` file (its folder is made on the first append).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: Any = None

    def records(self) -> list[dict[str, Any]]:
        """Every complete record, one per game id (a replayed INFRA_ERROR gives way), in file order."""
        if not self.path.exists():
            return []
        by_id: dict[str, dict[str, Any]] = {}
        with self.path.open("rb") as handle:
            for raw in handle:
                if not raw.endswith(b"\n"):
                    break  # a torn last line from a crash: that game is replayed
                try:
                    record = json.loads(raw)
                except json.JSONDecodeError:
                    continue
                kept = by_id.get(record.get("game_id"))
                if kept is None or (_infra(kept) and not _infra(record)):
                    by_id[record["game_id"]] = record
        return list(by_id.values())

    def done_ids(self) -> set[str]:
        """Ids of games that need no replay (INFRA_ERROR records are replayed)."""
        return {record["game_id"] for record in self.records() if not _infra(record)}

    def _repair_tail(self) -> None:
        if not self.path.exists():
            return
        with self.path.open("rb+") as handle:
            data = handle.read()
            if data and not data.endswith(b"\n"):
                handle.truncate(data.rfind(b"\n") + 1)

    def lock(self) -> None:
        """Hold the store for this process alone until ``close``.

        Raises:
            StoreBusy: Another run is writing it.
        """
        if self._handle is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("ab")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise StoreBusy(f"{self.path}: another league run is writing it; wait for it or stop it") from None
        self._repair_tail()
        self._handle = handle

    def append(self, record: dict[str, Any]) -> None:
        """Write one record and make it durable (flush and fsync) before returning."""
        self.lock()
        self._handle.write(json.dumps(record, separators=(",", ":")).encode() + b"\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def reset(self) -> None:
        """Forget every stored game (``--fresh``); the store must be locked first."""
        self.lock()
        self._handle.truncate(0)

    def close(self) -> None:
        """Close the file."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def _infra(record: dict[str, Any]) -> bool:
    return record.get("result", {}).get("termination") == INFRA_ERROR
