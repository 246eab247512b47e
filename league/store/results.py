"""The results store: what every report reads (``games.jsonl``) apart from what only replays read (``moves.jsonl``).

Two append-only JSON-lines files side by side in a league's folder:

- ``games.jsonl``, the results: one short line a game with its ``game_id``, ``spec``, ``result``,
  ``time_used_ms``, ``worker`` and ``node`` (where it was played; ``node`` on Ray only), its
  ``fingerprint`` (the game's identity, a hash of the seats, the opening, each seat's replies and,
  where the game draws from it, the seed: ``fingerprint``, computed once, when the game is stored)
  and ``log``, the ``[offset, length]`` in bytes of its line in the move log. Reports read this file alone,
  each line as a ``league.stats.game_record.GameRecord``.
- ``moves.jsonl``, the move log: one line a game with its ``game_id`` and the rest of its record
  (``moves``, ``stderr``), fetched by pointer (a seek, no scan) for replays and fault details.

Each game's move-log line is written, flushed and fsynced before its results line (flushed and
fsynced too). A crash between the two leaves a log line that no result points to: the game is not
stored, the next run plays it again and appends a new log line. A crash in the middle of a write
leaves a torn last line, in either file: it is ignored on reading and cut off before the next
append. A line that does not decode is skipped, never fatal. Both are told (``problems``), so a run
can say that it plays those games again. A write the disk refuses (full, read-only) is taken back,
so neither file ever holds half a line, and raises ``StoreWriteError``. A game id is never stored
twice: the driver skips what is stored, and reading keeps the first record of an id, except that a
replayed INFRA_ERROR gives way to the real record. One lock (on ``games.jsonl``) covers both files.

A store written before the split (whole records, moves included, in ``games.jsonl`` alone) is
still read: fingerprints are computed on reading and details come from each record's own line.
"""

from __future__ import annotations

import fcntl
import functools
import gc
import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from engine import get_game
from engine.core import Termination
from league.stats.game_record import GameRecord
from league.store.faults import Damage, StoreWriteError, torn_tail_cut, write_failure
from league.store.folder import MOVE_LOG, STORE
from league.store.lines import complete_lines, cut_torn_tail, encode_line, read_line, write_durably

INFRA_ERROR = Termination.INFRA_ERROR.value
RESULT_FIELDS = ("game_id", "spec", "result", "time_used_ms", "worker", "node")
"""What a results line keeps of a record (besides ``fingerprint`` and ``log``); the rest goes to the move log."""
WRITE_CHUNK = 1000
"""Records written between two fsyncs by ``extend``."""


class StoreBusy(Exception):
    """Another process holds the store."""


FINGERPRINT_DIGITS = 24
"""Hex digits of a fingerprint; one of 20 was stored before fingerprints held the seed of a seeded game."""


def fingerprint(
    seats: Sequence[str],
    moves: Iterable[Sequence[Any]],
    opening: Sequence[str] | None = None,
    seed: int | None = None,
) -> str:
    """A game's identity: 24 hex digits of a hash of its seats, opening, seed and each seat's replies.

    Two games with the same bots in the same seats, from the same opening (and, in a game whose
    rules draw from the seed, on the same seed) in which each seat made the same replies have the
    same fingerprint, whatever their timings; the statistics count distinct games with it
    (``league.stats.distinct``). Each seat's replies are taken in their own order: the referee's
    game follows from them alone, so two games whose simultaneous replies (geister's setups)
    arrived in another order are one game.

    Args:
        seats: Bot names, seat 0 first.
        moves: The stored moves, ``[seat, role, reply, elapsed_ms, fault]`` each (and an event, see worker.stored_move).
        opening: The plies the referee played first (``league.plan.openings``), None for none.
        seed: The match seed where the game's rules draw from it (``Game.draws_from_seed``), else None.
    """
    replies: list[list[list[Any]]] = [[] for _ in seats]
    for move in moves:
        seat = move[0]
        if type(seat) is int and 0 <= seat < len(replies):
            replies[seat].append(list(move[1:3]))
    identity = json.dumps([list(seats), replies, opening, seed], separators=(",", ":"))
    return hashlib.blake2b(identity.encode(), digest_size=FINGERPRINT_DIGITS // 2).hexdigest()


def record_fingerprint(record: dict[str, Any]) -> str:
    """``fingerprint`` of a whole record (spec, rules and moves): the seed counts where its game draws from it."""
    spec = record.get("spec")
    spec = spec if isinstance(spec, dict) else {}
    seed = spec.get("seed") if _draws_from_seed(spec.get("game"), record.get("rules")) else None
    return fingerprint(spec.get("seats", []), record.get("moves") or [], record.get("opening"), seed)


@functools.lru_cache(maxsize=64)
def _draws_from_seed_cached(game: str, rules: str) -> bool:
    try:
        return get_game(game)(**json.loads(rules)).draws_from_seed()
    except Exception:  # noqa: BLE001 - an unknown game or rules: the seed counts, so no two games merge
        return True


def _draws_from_seed(game: Any, rules: Any) -> bool:
    """Whether a record's game draws from its seed (True where the record cannot tell)."""
    if not isinstance(game, str) or not isinstance(rules, dict | None):
        return True
    return _draws_from_seed_cached(game, json.dumps(rules or {}, sort_keys=True))


def split_record(record: dict[str, Any] | GameRecord) -> tuple[GameRecord, dict[str, Any] | None]:
    """A full game record as its results line (fingerprint added, no log pointer yet) and its move-log entry.

    The one place where what a worker returned becomes a ``GameRecord``.

    Args:
        record: What the worker returned (``game_id``, ``spec``, ``result``, ``moves``, ...), or a
            results line stored again (its fingerprint kept, its move-log pointer dropped).

    Returns:
        The results line, and ``game_id`` with every other field (None when there is none).

    Raises:
        ValueError: ``record`` is not a game record (``GameRecord.from_json``).
    """
    if isinstance(record, GameRecord):
        record = record.to_json()
    compact = {key: record[key] for key in RESULT_FIELDS if key in record}
    given = record.get("fingerprint") if "moves" not in record else None  # a results line stored again
    compact["fingerprint"] = given or record_fingerprint(record)
    rest = {key: value for key, value in record.items() if key not in (*RESULT_FIELDS, "fingerprint", "log")}
    return GameRecord.from_json(compact), ({"game_id": record["game_id"], **rest} if rest else None)


_Place = tuple[bool, int, int]
"""Where a game's details are: (in the move log, else on its own line of an old results file; offset; length)."""


def _log_place(pointer: Any) -> _Place | None:
    """Where a results line's ``log`` pointer says its details are (None when it has none or it is garbled)."""
    if type(pointer) is list and len(pointer) == 2 and type(pointer[0]) is int and type(pointer[1]) is int:
        return (True, pointer[0], pointer[1]) if pointer[0] >= 0 and pointer[1] > 0 else None
    return None


class ResultStore:
    """The append-only results file of a league and its move log beside it.

    Args:
        path: The ``games.jsonl`` file (its folder is made on the first append); the move log is
            ``moves.jsonl`` in the same folder.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.log_path = path.with_name(MOVE_LOG)
        self._results: BinaryIO | None = None
        self._log: BinaryIO | None = None
        self._where: dict[str, _Place] | None = None
        self._cut: list[str] = []
        self._damage: Damage | None = None

    def records(self) -> list[GameRecord]:
        """Every game's results line, one per game id, in file order (no moves: see ``details``).

        Each has ``game_id``, ``spec``, ``result``, ``time_used_ms``, ``worker`` (and ``node`` on
        Ray: where the game was played) and ``fingerprint``; games with details also have ``log``.
        A line that is not a game record (``GameRecord.from_json`` refuses it) is damage, told by ``problems``.
        """
        kept, self._where = self._scan(with_fingerprints=True)
        return list(kept.values())

    def done_ids(self) -> set[str]:
        """Ids of games that need no replay (INFRA_ERROR records are replayed)."""
        kept, self._where = self._scan(with_fingerprints=False)
        return {game_id for game_id, record in kept.items() if not _infra(record)}

    def details(self, game_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The details (``moves``, ``stderr``, ...) of the given stored games, read by pointer.

        Uses the pointers of the last ``records`` call (reading the results once if there was
        none). Ids not stored, and games whose details are lost (a damaged or missing move log),
        are left out.

        Args:
            game_ids: The games wanted.

        Returns:
            Per game id, its fields other than the results line's.
        """
        if self._where is None:
            _, self._where = self._scan(with_fingerprints=False)
        places = {game_id: self._where[game_id] for game_id in set(game_ids) if game_id in self._where}
        found: dict[str, dict[str, Any]] = {}
        for in_log, path in ((False, self.path), (True, self.log_path)):
            wanted = sorted(
                (offset, length, game_id) for game_id, (log, offset, length) in places.items() if log == in_log
            )
            if not wanted or not path.exists():
                continue  # a move log removed by hand: those details are lost
            with path.open("rb") as handle:
                for offset, length, game_id in wanted:
                    entry = read_line(handle, offset, length)
                    if entry is not None and entry.get("game_id") == game_id:
                        found[game_id] = {
                            k: v for k, v in entry.items() if k not in RESULT_FIELDS and k != "fingerprint"
                        }
        return {game_id: found[game_id] for game_id in sorted(found)}

    def problems(self) -> list[str]:
        """What was wrong with the files, one sentence each, for people.

        Torn last lines that ``lock`` cut off, then the damage the last read met (a torn last line
        left in place, lines that are not game records); the results file is read once if it was
        not read yet.
        """
        if self._damage is None:
            self._where = self._scan(with_fingerprints=False)[1]
        assert self._damage is not None
        return [*self._cut, *self._damage.notes(self.path.name)]

    def _scan(self, with_fingerprints: bool) -> tuple[dict[str, GameRecord], dict[str, _Place]]:
        """Kept record and details' whereabouts per game id, from the results file."""
        collecting = gc.isenabled()
        gc.disable()  # decoded JSON holds no cycles: collecting while 100,000s of dicts are made only costs time
        try:
            kept: dict[str, GameRecord] = {}
            where: dict[str, _Place] = {}
            self._damage = Damage()
            for number, offset, raw, line in complete_lines(self.path, self._damage):
                whole = "fingerprint" not in line  # a whole record, as stored before the split
                try:
                    record = GameRecord.from_json(_from_whole_record(line, with_fingerprints) if whole else line)
                except ValueError:
                    self._damage.bad_lines.append(number)  # a spec or result that is not an object
                    continue
                game_id = record.game_id
                place: _Place | None = (False, offset, len(raw)) if whole else _log_place(record.log)
                held = kept.get(game_id)
                if held is None or (_infra(held) and not _infra(record)):
                    kept[game_id] = record
                    if place is not None:
                        where[game_id] = place
                    else:
                        where.pop(game_id, None)
        finally:
            if collecting:
                gc.enable()
        return kept, where

    def lock(self) -> None:
        """Hold the store for this process alone until ``close``; cut off torn last lines.

        Raises:
            StoreBusy: Another run is writing it.
            StoreWriteError: The folder cannot be written (read-only, no permission, a full disk).
        """
        if self._results is not None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            results = self.path.open("ab", buffering=0)  # unbuffered: what a failed write leaves is known
        except OSError as error:
            raise StoreWriteError(write_failure(self.path, error)) from error
        try:
            fcntl.flock(results.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            results.close()
            raise StoreBusy(f"{self.path}: another league run is writing it; wait for it or stop it") from None
        try:
            for path in (self.path, self.log_path):
                if cut_torn_tail(path):
                    self._cut.append(torn_tail_cut(path.name))
            self._log = self.log_path.open("ab", buffering=0)
        except OSError as error:
            results.close()
            failed = Path(error.filename) if error.filename else self.log_path
            raise StoreWriteError(write_failure(failed, error)) from error
        self._results = results

    def append(self, record: dict[str, Any] | GameRecord) -> GameRecord:
        """Store one game (its move-log line, then its results line) durably before returning.

        Args:
            record: The game's full record, as the worker returned it.

        Returns:
            Its results line, as ``records`` will read it.

        Raises:
            StoreWriteError: The disk refused the write (full, read-only); nothing of it is left behind.
        """
        return self.extend([record])[0]

    def extend(self, records: Iterable[dict[str, Any] | GameRecord]) -> list[GameRecord]:
        """Store many games, with one pair of fsyncs per ``WRITE_CHUNK`` games instead of per game.

        Each chunk's move-log lines are made durable before its results lines are written, so a
        crash leaves only games that are wholly stored, orphan log lines and torn last lines.

        Args:
            records: Full game records.

        Returns:
            Their results lines, in order, as ``records`` will read them (what the planners take).
        """
        self.lock()
        stored: list[GameRecord] = []
        chunk: list[dict[str, Any] | GameRecord] = []
        for record in records:
            chunk.append(record)
            if len(chunk) == WRITE_CHUNK:
                stored += self._write_chunk(chunk)
                chunk = []
        if chunk:
            stored += self._write_chunk(chunk)
        return stored

    def _write_chunk(self, records: list[dict[str, Any] | GameRecord]) -> list[GameRecord]:
        assert self._results is not None and self._log is not None
        log_lines: list[bytes] = []
        result_lines: list[bytes] = []
        stored: list[GameRecord] = []
        end = self._log.seek(0, os.SEEK_END)
        for record in records:
            compact, rest = split_record(record)
            if rest is not None:
                line = encode_line(rest)
                compact = compact.with_log([end, len(line)])
                end += len(line)
                log_lines.append(line)
            result_lines.append(encode_line(compact.to_json()))
            stored.append(compact)
        if log_lines:
            write_durably(self._log, log_lines)
        write_durably(self._results, result_lines)
        self._where = None  # the pointers of the last scan may be stale now
        return stored

    def reset(self) -> None:
        """Forget every stored game, results and move log (``--fresh``); locks the store first."""
        self.lock()
        assert self._results is not None and self._log is not None
        self._log.truncate(0)
        self._results.truncate(0)
        self._where = None
        self._cut = []  # what was torn is gone with the rest

    def close(self) -> None:
        """Close both files (and let the lock go)."""
        for handle in (self._log, self._results):
            if handle is not None:
                handle.close()
        self._results = self._log = None


def _infra(record: GameRecord) -> bool:
    return record.infra


def _from_whole_record(record: dict[str, Any], with_fingerprint: bool) -> dict[str, Any]:
    """The results line of a record stored whole (moves inside): its results fields and fingerprint."""
    compact = {key: record[key] for key in RESULT_FIELDS if key in record}
    if with_fingerprint:
        compact["fingerprint"] = record_fingerprint(record)
    return compact


def league_store(folder: Path) -> ResultStore:
    """The store of the league folder ``folder`` (its ``STORE`` and the move log beside it)."""
    return ResultStore(folder / STORE)
