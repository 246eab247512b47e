"""Unpacking uploaded bot archives: hostile archives built here are refused whole, nothing written outside."""

from __future__ import annotations

import io
import stat
import tarfile
import warnings
import zipfile
import zlib
from pathlib import Path

import pytest

from league.store.uploads import UploadLimits, UploadRefused, unpack_archive

MB = 1 << 20


def snapshot(root: Path) -> list[str]:
    return sorted(str(path.relative_to(root)) for path in root.rglob("*"))


def refused(tmp_path: Path, data: bytes, limits: UploadLimits | None = None, *, pre_made: bool = False) -> str:
    """Unpack ``data`` into tmp_path/box/dest, expecting a refusal; check nothing is left anywhere; the message."""
    box = tmp_path / "box"
    box.mkdir(parents=True)
    destination = box / "dest"
    if pre_made:
        destination.mkdir()
    before = snapshot(tmp_path)
    with pytest.raises(UploadRefused) as caught:
        unpack_archive(data, destination, limits)
    assert snapshot(tmp_path) == before
    if pre_made:
        assert list(destination.iterdir()) == []
    else:
        assert not destination.exists()
    return str(caught.value)


def zip_of(*members: tuple[str, bytes, int]) -> bytes:
    """A zip of (name, content, unix mode with file type) members."""
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of a duplicate name
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, content, mode in members:
                info = zipfile.ZipInfo(name)
                info.create_system = 3
                info.external_attr = mode << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, content)
    return buffer.getvalue()


def tar_of(*members: tarfile.TarInfo | tuple[str, bytes, int], gzip: bool = True) -> bytes:
    """A tar (gzipped by default) of members: TarInfo as is, or (name, content, mode) regular files."""
    buffer = io.BytesIO()
    with tarfile.open(
        fileobj=buffer, mode="w:gz" if gzip else "w", format=tarfile.GNU_FORMAT, errors="surrogateescape"
    ) as archive:
        for member in members:
            if isinstance(member, tarfile.TarInfo):
                archive.addfile(member)
            else:
                name, content, mode = member
                info = tarfile.TarInfo(name)
                info.size, info.mode = len(content), mode
                archive.addfile(info, io.BytesIO(content))
    return buffer.getvalue()


def tar_member(name: str, kind: bytes, mode: int = 0o644, linkname: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.mode, info.linkname = kind, mode, linkname
    return info


FILE = stat.S_IFREG | 0o644
OK = ("bot.py", b"print('hi')\n", FILE)


def test_an_archive_over_its_size_cap_is_refused(tmp_path: Path) -> None:
    data = zip_of(OK, ("noise.bin", bytes(range(256)) * 40, FILE))
    message = refused(tmp_path, data, UploadLimits(archive_bytes=len(data) - 1))
    assert message.startswith(f"The archive holds {len(data)} bytes, over the {len(data) - 1} bytes an upload may hold")


def test_declared_sizes_over_the_unpacked_cap_are_refused_before_writing(tmp_path: Path) -> None:
    message = refused(tmp_path, zip_of(OK, ("big.txt", b"x" * 5000, FILE)), UploadLimits(unpacked_bytes=4000))
    assert message.startswith("The archive unpacks to more than 4000 bytes, the most a bot may hold")


def test_a_zip_bomb_whose_headers_lie_is_caught_by_counting_the_bytes(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        info = zipfile.ZipInfo("zeros.bin")
        info.compress_type = zipfile.ZIP_DEFLATED
        with archive.open(info, "w") as handle:
            for _ in range(100):
                handle.write(bytes(MB))
    data = bytearray(buffer.getvalue())
    assert len(data) < 200_000  # 100 MB of zeros deflated to about 100 KB
    local, central = data.find(b"PK\x03\x04"), data.find(b"PK\x01\x02")
    assert int.from_bytes(data[central + 24 : central + 28], "little") == 100 * MB
    data[local + 22 : local + 26] = data[central + 24 : central + 28] = (1000).to_bytes(4, "little")
    assert zipfile.ZipFile(io.BytesIO(bytes(data))).getinfo("zeros.bin").file_size == 1000  # the forged header
    message = refused(tmp_path, bytes(data))
    assert message.startswith("zeros.bin unpacks to more bytes than the archive's header says, as a zip bomb does")


def test_a_gzip_bomb_is_never_unpacked_past_the_cap(tmp_path: Path) -> None:
    # a small, valid tar whose headers declare a few bytes, followed by 100 MB of zeros (which a tar
    # reader takes as its end): only the cap on the gzip stream's unpacked bytes can catch it
    tar = tar_of(OK[:2] + (0o644,), gzip=False)
    assert unpack_archive(tar, tmp_path / "plain").files == 1
    squeezer = zlib.compressobj(9, zlib.DEFLATED, 31)
    data = squeezer.compress(tar) + b"".join(squeezer.compress(bytes(MB)) for _ in range(100)) + squeezer.flush()
    assert len(data) < 1 * MB
    message = refused(tmp_path, data)
    assert message.startswith("The archive unpacks to more than 64.0 MB, the most a bot may hold")


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_too_many_files_are_refused(tmp_path: Path, kind: str) -> None:
    members = [(f"f{index}.txt", b"x", FILE if kind == "zip" else 0o644) for index in range(6)]
    data = zip_of(*members) if kind == "zip" else tar_of(*members)
    message = refused(tmp_path, data, UploadLimits(files=5))
    assert message.startswith("The archive holds more than 5 files and folders, the most a bot may hold")


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("../escape.py", "climbs out of the folder with '..'"),
        ("bot/../../escape.py", "climbs out of the folder with '..'"),
        ("/tmp/escape.py", "is an absolute path"),
        ("C:/escape.py", "is an absolute path"),
        ("bot\\escape.py", "holds a backslash"),
        ("bad\x01name.py", "holds a control character"),
        ("bad\x7fname.py", "holds a control character"),
    ],
)
@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_unsafe_names_are_refused(tmp_path: Path, kind: str, name: str, problem: str) -> None:
    data = zip_of(OK, (name, b"x", FILE)) if kind == "zip" else tar_of(OK[:2] + (0o644,), (name, b"x", 0o644))
    message = refused(tmp_path, data)
    assert message.startswith(f"The name {ascii(name)} {problem}")


def test_a_zip_name_with_a_nul_is_refused(tmp_path: Path) -> None:
    data = bytearray(zip_of(OK, ("badXname.py", b"x", FILE)))
    assert data.count(b"badXname.py") == 2  # its local header and its central directory entry
    data[:] = data.replace(b"badXname.py", b"bad\0name.py")
    assert refused(tmp_path, bytes(data)).startswith("The name 'bad\\x00name.py' holds a control character")


def test_names_not_utf8_are_refused(tmp_path: Path) -> None:
    data = bytearray(zip_of(OK, ("badXname.py", b"x", FILE)))
    data[:] = data.replace(b"badXname.py", b"bad\xffname.py")
    assert "is not valid UTF-8: rename the file" in refused(tmp_path / "zip", bytes(data))
    data = tar_of(("bad\udcffname.py", b"x", 0o644))
    assert "is not valid UTF-8: rename the file" in refused(tmp_path / "tar", data)


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_duplicate_entries_are_refused(tmp_path: Path, kind: str) -> None:
    data = zip_of(OK, OK) if kind == "zip" else tar_of(OK[:2] + (0o644,), OK[:2] + (0o644,))
    assert refused(tmp_path, data).startswith("bot.py is in the archive twice")


def test_a_name_both_file_and_folder_is_refused(tmp_path: Path) -> None:
    data = zip_of(OK, ("lib", b"x", FILE), ("lib/a.py", b"x", FILE))
    assert refused(tmp_path, data).startswith("lib is both a file and a folder")


@pytest.mark.parametrize(
    "member",
    [
        tar_member("link.py", tarfile.SYMTYPE, linkname="bot.py"),
        tar_member("out.py", tarfile.SYMTYPE, linkname="/etc/passwd"),
        tar_member("hard.py", tarfile.LNKTYPE, linkname="bot.py"),
        tar_member("hard_out.py", tarfile.LNKTYPE, linkname="../../etc/passwd"),
    ],
)
def test_tar_links_are_refused_wherever_they_point(tmp_path: Path, member: tarfile.TarInfo) -> None:
    message = refused(tmp_path, tar_of(OK[:2] + (0o644,), member))
    assert message == f"{member.name} is a link, and links are refused: put the file itself in the archive."


def test_a_zip_symlink_is_refused(tmp_path: Path) -> None:
    data = zip_of(OK, ("link.py", b"/etc/passwd", stat.S_IFLNK | 0o777))
    assert refused(tmp_path, data).startswith("link.py is a link, and links are refused")


@pytest.mark.parametrize("kind", [tarfile.CHRTYPE, tarfile.BLKTYPE, tarfile.FIFOTYPE])
def test_tar_device_files_and_fifos_are_refused(tmp_path: Path, kind: bytes) -> None:
    message = refused(tmp_path, tar_of(OK[:2] + (0o644,), tar_member("special", kind)))
    assert message.startswith("special is a special file (a device, FIFO, socket or sparse file)")


@pytest.mark.parametrize("file_type", [stat.S_IFSOCK, stat.S_IFIFO, stat.S_IFCHR, stat.S_IFBLK])
def test_zip_special_files_are_refused(tmp_path: Path, file_type: int) -> None:
    message = refused(tmp_path, zip_of(OK, ("special", b"", file_type | 0o644)))
    assert message.startswith("special is a special file")


@pytest.mark.parametrize("bit", [stat.S_ISUID, stat.S_ISGID, stat.S_ISVTX])
@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_setuid_setgid_and_sticky_bits_are_refused(tmp_path: Path, kind: str, bit: int) -> None:
    if kind == "zip":
        data = zip_of(OK, ("run.sh", b"#!/bin/sh\n", FILE | 0o111 | bit))
    else:
        data = tar_of(OK[:2] + (0o644,), ("run.sh", b"#!/bin/sh\n", 0o755 | bit))
    assert refused(tmp_path, data).startswith("run.sh has a setuid, setgid or sticky bit: clear it")


def test_not_an_archive_and_a_damaged_one_are_refused(tmp_path: Path) -> None:
    message = refused(tmp_path / "text", b"print('not an archive')\n")
    assert message.startswith("The upload is not a .zip, .tar.gz or .tar archive")
    data = zip_of(OK, ("more.py", b"y" * 1000, FILE))
    assert refused(tmp_path / "cut", data[: len(data) // 2] + data[-22:]).startswith("The archive is damaged")


def test_a_refusal_leaves_a_pre_made_destination_empty(tmp_path: Path) -> None:
    data = zip_of(OK, ("lib/a.py", b"x" * 100, FILE), ("z.bin", b"z" * 100, FILE))
    data = bytearray(data)
    central = data.rfind(b"z.bin") - 46  # z.bin's central directory entry, the last name in the zip
    assert data[central : central + 4] == b"PK\x01\x02"
    # forge z.bin's declared size: the first files are written before its bytes overrun
    data[central + 24 : central + 28] = (10).to_bytes(4, "little")
    message = refused(tmp_path, bytes(data), pre_made=True)
    assert message.startswith("z.bin unpacks to more bytes than the archive's header says")


def make_bot(folder: Path) -> Path:
    (folder / "lib").mkdir(parents=True)
    (folder / "bot.py").write_text("#!/usr/bin/env python3\nprint('move')\n")
    (folder / "bot.py").chmod(0o755)
    (folder / "lib" / "helper.py").write_text("X = 1\n")
    (folder / "notes.txt").write_text("a small bot\n")
    return folder


def zip_folder(folder: Path, top: str | None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            relative = path.relative_to(folder)
            archive.write(path, f"{top}/{relative}" if top else str(relative))
    return buffer.getvalue()


def tar_folder(folder: Path, arcname: str) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        archive.add(folder, arcname=arcname)
    return buffer.getvalue()


def test_a_zip_and_a_tar_gz_of_one_folder_unpack_alike_with_modes_kept(tmp_path: Path) -> None:
    source = make_bot(tmp_path / "mybot")
    results = {
        "zip": unpack_archive(zip_folder(source, None), tmp_path / "zip"),
        "zip_top": unpack_archive(zip_folder(source, "mybot"), tmp_path / "zip_top"),
        "tgz_dot": unpack_archive(tar_folder(source, "."), tmp_path / "tgz_dot"),
        "tgz_top": unpack_archive(tar_folder(source, "mybot"), tmp_path / "tgz_top"),
    }
    assert {name: result.unwrapped for name, result in results.items()} == {
        "zip": None,
        "zip_top": "mybot",
        "tgz_dot": None,
        "tgz_top": "mybot",
    }
    assert len({result.digest for result in results.values()}) == 1
    for name, result in results.items():
        assert result.destination == tmp_path / name
        assert (result.files, result.total_bytes) == (3, sum(p.stat().st_size for p in source.rglob("*.*")))
        assert snapshot(result.destination) == snapshot(source)
        for path in source.rglob("*"):
            unpacked = result.destination / path.relative_to(source)
            if path.is_file():
                assert unpacked.read_bytes() == path.read_bytes()
        modes = {Path(path).name: stat.S_IMODE((result.destination / path).stat().st_mode) for path in snapshot(source)}
        assert modes == {"bot.py": 0o755, "lib": 0o755, "helper.py": 0o644, "notes.txt": 0o644}


def test_the_digest_follows_content_and_exec_bit(tmp_path: Path) -> None:
    source = make_bot(tmp_path / "mybot")
    first = unpack_archive(zip_folder(source, None), tmp_path / "a").digest
    (source / "bot.py").chmod(0o644)
    second = unpack_archive(zip_folder(source, None), tmp_path / "b").digest
    (source / "notes.txt").write_text("a changed bot\n")
    third = unpack_archive(zip_folder(source, None), tmp_path / "c").digest
    assert len({first, second, third}) == 3


def test_two_contents_whose_bytes_run_alike_have_two_digests(tmp_path: Path) -> None:
    """A file whose bytes spell another file's header (one file a: ``X\\0b\\0644\\0Y``; files a: X and b: Y)."""
    one = unpack_archive(zip_of(("a", b"X\0b\0644\0Y", 0o644)), tmp_path / "one").digest
    two = unpack_archive(zip_of(("a", b"X", 0o644), ("b", b"Y", 0o644)), tmp_path / "two").digest
    assert one != two
