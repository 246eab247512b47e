"""The store's files line by line: whole lines read, appended durably, a torn last line cut off.

Used by ``league.store.results`` for both of its files: a line is a game's JSON object ending in a
newline; anything else is damage, noted and skipped, never fatal.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from league.store.faults import Damage, StoreWriteError, write_failure

_TAIL_BLOCK = 1 << 16


def complete_lines(path: Path, damage: Damage) -> Iterator[tuple[int, int, bytes, dict[str, Any]]]:
    """(line number, byte offset, raw line, decoded object) of every whole line holding a game record (with a game id).

    The other lines are noted in ``damage``: the numbers of whole lines that hold no record, and a
    torn last line.
    """
    if not path.exists():
        return
    offset = 0
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                damage.torn = True  # a torn last line from a crash: that game is replayed
                return
            try:
                decoded = json.loads(raw)
            except ValueError:  # not JSON, or not UTF-8
                decoded = None
            if isinstance(decoded, dict) and type(decoded.get("game_id")) is str:
                yield number, offset, raw, decoded
            else:
                damage.bad_lines.append(number)
            offset += len(raw)


def read_line(handle: BinaryIO, offset: int, length: int) -> dict[str, Any] | None:
    """The JSON object of the whole line at ``offset``, or None where there is none."""
    handle.seek(offset)
    raw = handle.read(length)
    if len(raw) != length or not raw.endswith(b"\n"):
        return None
    try:
        decoded = json.loads(raw)
    except ValueError:
        return None
    return decoded if isinstance(decoded, dict) else None


def encode_line(data: dict[str, Any]) -> bytes:
    """One compact JSON line."""
    return json.dumps(data, separators=(",", ":")).encode() + b"\n"


def write_durably(handle: BinaryIO, lines: list[bytes]) -> None:
    """Append whole lines to an unbuffered file and fsync it; a write that fails is taken back.

    A Ctrl-C that comes once every line is written (during the fsync) keeps them: they are whole.

    Raises:
        StoreWriteError: The disk refused the write (the file is cut back to where it was).
    """
    start = handle.seek(0, os.SEEK_END)
    data = memoryview(b"".join(lines))
    try:
        while data:
            data = data[handle.write(data) or 0 :]
        os.fsync(handle.fileno())
    except BaseException as error:  # Ctrl-C or a full disk: leave no partial line for the next write to run into
        if not data and not isinstance(error, OSError):
            # Ctrl-C during the fsync: every line is whole and already read by others; keep them, durable.
            with contextlib.suppress(OSError):
                os.fsync(handle.fileno())
            raise
        with contextlib.suppress(OSError):
            handle.truncate(start)
        if isinstance(error, OSError):
            raise StoreWriteError(write_failure(Path(handle.name), error)) from error
        raise


def cut_torn_tail(path: Path) -> int:
    """Cut a file back to its last newline (a torn last line), reading only its end; returns the bytes cut."""
    if not path.exists():
        return 0
    with path.open("rb+") as handle:
        size = handle.seek(0, os.SEEK_END)
        end = size
        while end > 0:
            start = max(0, end - _TAIL_BLOCK)
            handle.seek(start)
            block = handle.read(end - start)
            if end == size and block.endswith(b"\n"):
                return 0
            newline = block.rfind(b"\n")
            if newline >= 0:
                handle.truncate(start + newline + 1)
                return size - (start + newline + 1)
            end = start
        handle.truncate(0)
        return size
