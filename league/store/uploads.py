"""Unpacking an uploaded bot archive (a .zip, .tar.gz/.tgz or .tar) into a version's folder, safely.

The archive's kind is told by its content, never by its name. Every entry is checked before
anything is written, and an archive that breaks a rule is refused whole with ``UploadRefused``,
whose message is one sentence for the uploader naming the problem and the fix: the archive over
its size cap; an unpacked total over its cap (the sizes the headers declare are summed first, and
the bytes are counted again as they are unpacked, since a zip bomb's headers lie: an entry that
unpacks to more than its header says is refused, and a gzip stream is never unpacked past the
cap); more entries (files and folders together) than the cap; a name with ``..``, an absolute
one, a drive letter or a backslash, an empty one; a name that is not UTF-8 or holds a control
character (a zip name's NUL included; a tar name is cut at a NUL by the format itself); the same
name twice, or a name both a file and a folder; every symbolic or hard link, wherever it points
(a bot ships its files, not links); device files, FIFOs and sockets; any setuid, setgid or sticky
bit (refused, not stripped); an encrypted zip entry or one compressed other than stored or deflate.

Files are written one by one with ``os.open(O_CREAT | O_EXCL | O_NOFOLLOW)`` under ``destination``,
mode 0o755 when the archive marks them executable (any execute bit) and 0o644 otherwise; folders
0o755. Nothing is ever written outside ``destination``; on a refusal (or any failure) it is
removed if this call made it, emptied if it was an empty folder already. When every entry sits
under one top folder (as zipping a folder gives), that folder is unwrapped and named in
``UnpackedBot.unwrapped``.

The content digest is a sha256 over the files sorted by path, each as its path, its mode (755 or
644) and its bytes, so a zip and a tar of one folder get one digest. It is not
``league.plan.bot_version``'s folder digest, which lives a floor above the store.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
import stat
import struct
import tarfile
import unicodedata
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

MB = 1 << 20
_CHUNK = 1 << 16
_TAR_OVERHEAD = 4096
"""Tar bytes allowed per entry beyond its content (its header, padding, a long name's extra header)."""
_DRIVE = re.compile(r"^[A-Za-z]:")
_ZIP_LOCAL = struct.Struct("<4s2B4HL2L2H")
_ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")
_GZIP_MAGIC = b"\x1f\x8b"


class UploadRefused(Exception):
    """An uploaded archive that is refused; the message is one sentence for the uploader: the problem and the fix."""


@dataclass(frozen=True)
class UploadLimits:
    """The caps on an upload (defaults until the league file sets them).

    Attributes:
        archive_bytes: The most bytes the archive itself may hold (16 MB).
        unpacked_bytes: The most bytes its files may hold once unpacked, all together (64 MB).
        files: The most entries, files and folders together, it may hold (2000).
    """

    archive_bytes: int = 16 * MB
    unpacked_bytes: int = 64 * MB
    files: int = 2000


@dataclass(frozen=True)
class UnpackedBot:
    """An archive unpacked into a version's folder.

    Attributes:
        destination: The folder its files are in.
        files: How many files it holds (folders not counted).
        total_bytes: The bytes of its files, all together.
        digest: The sha256 of its content: the files sorted by path, each as path, mode and bytes.
        unwrapped: The top folder every entry sat under, which was unwrapped; None when there was none.
    """

    destination: Path
    files: int
    total_bytes: int
    digest: str
    unwrapped: str | None


@dataclass(frozen=True)
class _Entry:
    parts: tuple[str, ...]
    is_dir: bool
    executable: bool
    size: int
    chunks: Callable[[], Iterator[bytes]]
    shown: str


def unpack_archive(data: bytes, destination: Path, limits: UploadLimits | None = None) -> UnpackedBot:
    """Unpack an uploaded .zip, .tar.gz/.tgz or .tar into ``destination``, refusing an unsafe one whole.

    Args:
        data: The archive's bytes, as uploaded.
        destination: The version's folder: one that does not exist yet (its parent does) or an empty one.
        limits: The caps on the upload; ``UploadLimits()`` when None.

    Returns:
        What was unpacked: the folder, its files' count and bytes, its content digest, the folder unwrapped.

    Raises:
        UploadRefused: The archive breaks a rule; nothing is left in ``destination``.
        FileExistsError: ``destination`` holds something already (a caller's mistake, not the uploader's).
    """
    limits = limits or UploadLimits()
    if len(data) > limits.archive_bytes:
        raise UploadRefused(
            f"The archive holds {_mb(len(data))}, over the {_mb(limits.archive_bytes)} an upload may hold:"
            " leave out large files (data, build outputs, caches) and upload it again."
        )
    entries = _checked(_entries(data, limits), limits)
    made = not destination.exists()
    if not made and (not destination.is_dir() or any(destination.iterdir())):
        raise FileExistsError(f"{destination} holds something already; a version is unpacked into a new folder")
    try:
        with _damage_refused():
            return _extract(entries, destination, limits, made)
    except BaseException:
        _clear(destination, made)
        raise


@contextmanager
def _damage_refused() -> Iterator[None]:
    """Turn the errors of a damaged archive, met while reading it, into UploadRefused."""
    try:
        yield
    except (zipfile.BadZipFile, tarfile.TarError, zlib.error, EOFError, struct.error, ValueError) as error:
        raise UploadRefused(
            f"The archive is damaged ({error}): build it again from the bot's folder and upload the new one."
        ) from None


def _entries(data: bytes, limits: UploadLimits) -> list[_Entry]:
    with _damage_refused():
        if data[:4] in _ZIP_MAGICS:
            return _zip_entries(data, limits)
        if data[:2] == _GZIP_MAGIC:
            data = _gunzip(data, limits.unpacked_bytes + _TAR_OVERHEAD * (limits.files + 1) + MB, limits)
            if not _is_tar(data):
                raise UploadRefused(
                    "The archive is gzip-compressed but holds no tar inside: upload a .zip or a .tar.gz of the bot's"
                    " folder."
                )
        if _is_tar(data):
            return _tar_entries(data, limits)
    raise UploadRefused(
        "The upload is not a .zip, .tar.gz or .tar archive: upload one of those, made of the bot's folder."
    )


def _is_tar(data: bytes) -> bool:
    return len(data) >= 512 and data[257:262] == b"ustar"


def _gunzip(data: bytes, cap: int, limits: UploadLimits) -> bytes:
    """The gzip stream's bytes (members one after the other), never unpacking past ``cap``."""
    out = bytearray()
    rest = data
    while rest:
        inflater = zlib.decompressobj(wbits=31)
        chunk = rest
        while not inflater.eof:
            if not chunk and not inflater.unconsumed_tail:
                raise EOFError("the gzip stream ends early")
            out += inflater.decompress(inflater.unconsumed_tail or chunk, cap + 1 - len(out))
            chunk = b""
            if len(out) > cap:
                raise _too_big(limits)
        rest = inflater.unused_data
        if rest.strip(b"\0") == b"":
            break
    return bytes(out)


def _zip_entries(data: bytes, limits: UploadLimits) -> list[_Entry]:
    archive = zipfile.ZipFile(io.BytesIO(data))
    infos = archive.infolist()
    _count(len(infos), limits)
    entries = []
    for info in infos:
        raw = info.orig_filename
        if info.flag_bits & 0x800 == 0:
            try:
                raw = raw.encode("cp437").decode("utf-8")
            except UnicodeError:
                raise UploadRefused(_not_utf8(ascii(raw))) from None
        mode = info.external_attr >> 16 if info.create_system == 3 else 0
        is_dir = raw.endswith("/") or stat.S_ISDIR(mode)
        parts = _parts(raw, is_dir)
        shown = "/".join(parts)
        _kind(shown, mode, is_link=stat.S_ISLNK(mode), is_dir=is_dir, is_file=stat.S_IFMT(mode) in (0, stat.S_IFREG))
        if info.flag_bits & 0x1:
            raise UploadRefused(f"{shown} is encrypted: upload the archive without a password.")
        if not is_dir and info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise UploadRefused(
                f"{shown} is compressed in a way not accepted here: zip it with deflate (the usual way)."
            )
        entries.append(
            _Entry(parts, is_dir, bool(mode & 0o111), 0 if is_dir else info.file_size, _zip_chunks(data, info), shown)
        )
    return entries


def _zip_chunks(data: bytes, info: zipfile.ZipInfo) -> Callable[[], Iterator[bytes]]:
    def chunks() -> Iterator[bytes]:
        header = _ZIP_LOCAL.unpack_from(data, info.header_offset)
        if header[0] != b"PK\x03\x04":
            raise zipfile.BadZipFile(f"no local header for {info.filename}")
        start = info.header_offset + _ZIP_LOCAL.size + header[10] + header[11]
        body = memoryview(data)[start : start + info.compress_size]
        if len(body) < info.compress_size:
            raise zipfile.BadZipFile(f"{info.filename} is cut short")
        crc = 0
        if info.compress_type == zipfile.ZIP_STORED:
            for at in range(0, len(body), _CHUNK):
                crc = zlib.crc32(body[at : at + _CHUNK], crc)
                yield bytes(body[at : at + _CHUNK])
        else:
            inflater = zlib.decompressobj(-15)
            at = 0
            while not inflater.eof:
                if inflater.unconsumed_tail:
                    piece = inflater.decompress(inflater.unconsumed_tail, _CHUNK)
                elif at < len(body):
                    piece = inflater.decompress(body[at : at + _CHUNK], _CHUNK)
                    at += _CHUNK
                else:
                    raise zipfile.BadZipFile(f"{info.filename} is cut short")
                crc = zlib.crc32(piece, crc)
                yield piece
        if crc != info.CRC:
            raise zipfile.BadZipFile(f"{info.filename} fails its checksum")

    return chunks


def _tar_entries(data: bytes, limits: UploadLimits) -> list[_Entry]:
    archive = tarfile.open(fileobj=io.BytesIO(data), mode="r:", encoding="utf-8", errors="surrogateescape")
    entries = []
    while (member := archive.next()) is not None:
        _count(len(entries) + 1, limits)
        try:
            member.name.encode("utf-8")
        except UnicodeError:
            raise UploadRefused(_not_utf8(ascii(member.name))) from None
        parts = _parts(member.name, member.isdir())
        shown = "/".join(parts)
        is_file = member.isreg() and not member.issparse()
        _kind(shown, member.mode, is_link=member.issym() or member.islnk(), is_dir=member.isdir(), is_file=is_file)
        entries.append(
            _Entry(parts, member.isdir(), bool(member.mode & 0o111), member.size, _tar_chunks(archive, member), shown)
        )
    return entries


def _tar_chunks(archive: tarfile.TarFile, member: tarfile.TarInfo) -> Callable[[], Iterator[bytes]]:
    def chunks() -> Iterator[bytes]:
        handle = archive.extractfile(member)
        assert handle is not None, "a regular tar member has a file"
        while piece := handle.read(_CHUNK):
            yield piece

    return chunks


def _parts(name: str, is_dir: bool) -> tuple[str, ...]:
    """An entry's name as path parts (``.`` and empty parts dropped); UploadRefused for a name unsafe to write."""
    shown = ascii(name)
    if any(unicodedata.category(char) == "Cc" for char in name):
        raise UploadRefused(f"The name {shown} holds a control character: rename it with plain characters.")
    if "\\" in name:
        raise UploadRefused(f"The name {shown} holds a backslash: use / between folders (or rename the file).")
    if name.startswith("/") or _DRIVE.match(name):
        raise UploadRefused(f"The name {shown} is an absolute path: archive the bot's folder with paths inside it.")
    parts = tuple(part for part in name.split("/") if part not in ("", "."))
    if ".." in parts:
        raise UploadRefused(f"The name {shown} climbs out of the folder with '..': archive the bot's folder as it is.")
    if not parts and not is_dir:
        raise UploadRefused(f"The name {shown} names no file: build the archive again from the bot's folder.")
    return parts


def _kind(shown: str, mode: int, *, is_link: bool, is_dir: bool, is_file: bool) -> None:
    """UploadRefused for an entry that is not a plain file or folder, or that has a setuid, setgid or sticky bit."""
    if is_link:
        raise UploadRefused(f"{shown} is a link, and links are refused: put the file itself in the archive.")
    if not (is_dir or is_file):
        raise UploadRefused(
            f"{shown} is a special file (a device, FIFO, socket or sparse file): leave it out of the archive."
        )
    if mode & (stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX):
        raise UploadRefused(
            f"{shown} has a setuid, setgid or sticky bit: clear it (chmod u-s,g-s,-t) and build the archive again."
        )


def _checked(entries: list[_Entry], limits: UploadLimits) -> tuple[list[_Entry], str | None]:
    """The entries (no name twice, declared sizes within the cap) with one top folder unwrapped, and its name."""
    seen: set[tuple[str, ...]] = set()
    for entry in entries:
        if entry.parts in seen:
            raise UploadRefused(f"{entry.shown or '.'} is in the archive twice: keep one and build it again.")
        seen.add(entry.parts)
    folders = {entry.parts[:depth] for entry in entries for depth in range(1, len(entry.parts) + entry.is_dir)}
    for entry in entries:
        if not entry.is_dir and entry.parts in folders:
            raise UploadRefused(f"{entry.shown} is both a file and a folder: rename one and build the archive again.")
    files = [entry for entry in entries if not entry.is_dir]
    if not files:
        raise UploadRefused("The archive holds no files: archive the bot's folder with its files in it.")
    if sum(entry.size for entry in files) > limits.unpacked_bytes:
        raise _too_big(limits)
    tops = {entry.parts[0] for entry in entries if entry.parts}
    if len(tops) == 1 and all(len(entry.parts) > 1 for entry in files):
        top = tops.pop()
        kept = [_with_parts(entry, entry.parts[1:]) for entry in entries if entry.parts[1:]]
        return kept, top
    return [entry for entry in entries if entry.parts], None


def _with_parts(entry: _Entry, parts: tuple[str, ...]) -> _Entry:
    """``entry`` with its path ``parts`` (after a top folder is unwrapped)."""
    return _Entry(parts, entry.is_dir, entry.executable, entry.size, entry.chunks, "/".join(parts))


def _extract(
    found: tuple[list[_Entry], str | None], destination: Path, limits: UploadLimits, made: bool
) -> UnpackedBot:
    entries, unwrapped = found
    if made:
        destination.mkdir(mode=0o755)
    folders = sorted({entry.parts[:depth] for entry in entries for depth in range(1, len(entry.parts) + entry.is_dir)})
    for folder in folders:
        os.mkdir(destination.joinpath(*folder), 0o755)
    digest = hashlib.sha256()
    total = 0
    files = sorted((entry for entry in entries if not entry.is_dir), key=lambda entry: entry.parts)
    for entry in files:
        mode = 0o755 if entry.executable else 0o644
        path = "/".join(entry.parts)
        digest.update(f"{path}\0{mode:o}\0{entry.size}\0".encode())  # its size first: no two contents alike
        fd = os.open(destination.joinpath(*entry.parts), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
        written = 0
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), mode)
            for piece in entry.chunks():
                written += len(piece)
                total += len(piece)
                if written > entry.size:
                    raise UploadRefused(
                        f"{path} unpacks to more bytes than the archive's header says, as a zip bomb does:"
                        " build the archive again with an ordinary zip or tar tool."
                    )
                if total > limits.unpacked_bytes:
                    raise _too_big(limits)
                digest.update(piece)
                handle.write(piece)
        if written != entry.size:
            raise UploadRefused(f"{path} is cut short in the archive: build it again and upload the new one.")
        digest.update(b"\0")
    return UnpackedBot(destination, len(files), total, digest.hexdigest(), unwrapped)


def _clear(destination: Path, made: bool) -> None:
    """Undo an unpacking: remove ``destination`` if this call made it, else empty it."""
    if made:
        shutil.rmtree(destination, ignore_errors=True)
    elif destination.is_dir():
        for child in destination.iterdir():
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child, ignore_errors=True)
            else:
                child.unlink(missing_ok=True)


def _count(count: int, limits: UploadLimits) -> None:
    if count > limits.files:
        raise UploadRefused(
            f"The archive holds more than {limits.files} files and folders, the most a bot may hold:"
            " leave out what the bot does not need and upload it again."
        )


def _too_big(limits: UploadLimits) -> UploadRefused:
    return UploadRefused(
        f"The archive unpacks to more than {_mb(limits.unpacked_bytes)}, the most a bot may hold:"
        " leave out large files (data, build outputs, caches) and upload it again."
    )


def _not_utf8(shown: str) -> str:
    return f"The name {shown} is not valid UTF-8: rename the file with UTF-8 (or plain ASCII) characters."


def _mb(size: int) -> str:
    return f"{size / MB:.1f} MB" if size >= MB else f"{size} bytes"
