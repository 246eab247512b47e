"""Accepting an author's upload as a new version: the caps, the archive, the command, then one durable submission.

``accept_upload`` takes what the web page or ``league submit`` sent (the archive's bytes and the
command's words) and either stores a whole queued submission or raises ``SubmissionRefused``: one
sentence for the uploader naming the problem and the fix, with the HTTP status the server answers.
In order: the author (403 if they are no longer in the contest); the daily cap (``contest:
{daily_submissions}``, per author per UTC day) and the per-minute rate (``contest: {per_minute}``,
counting uploads refused for their content too, so that a stream of bad archives is slowed as
well), both 429; the command's words (400); the archive's size (``contest: {upload_mb}``, 413);
its content (``league.store.uploads``: links, ``..``, bombs and the rest, 400); the same content as
one of the author's versions already (409, naming it); the command's program (400: its first word
is a file of the archive, or a program of the system, such as ``python3``, and a later word names a
file of the archive, or a Java class whose ``.class`` file it holds).

Durable, and nothing written outside the version's folder: the archive is unpacked into a new
folder ``versions/.incoming-*`` of the league folder, its files synced to disk, then renamed whole to
``versions/<author>/<digest>/`` and only then stored as a submission. A process killed (SIGKILL) at
any point leaves either no submission or a whole one; what it leaves behind (an incoming folder, or
a version's folder with no submission) is removed by ``sweep_leftovers`` when the server starts.
"""

from __future__ import annotations

import math
import os
import posixpath
import re
import shlex
import shutil
import tempfile
import threading
import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from league.match.commands import CommandError, check_command_line
from league.plan.config import League
from league.store.authors import list_authors
from league.store.submissions import (
    Submission,
    add_submission,
    now_iso,
    submissions,
    submitted_since,
    version_folders,
)
from league.store.uploads import MB, UploadLimits, UploadRefused, unpack_archive
from sandbox.folders import is_system

VERSIONS = "versions"
"""The folder of the league folder that holds every version's files: ``versions/<author>/<digest>/``."""
INCOMING = ".incoming-"
"""How an upload's folder is named while it is unpacked and checked (no author's name starts with a dot)."""
MAX_COMMAND_WORDS = 64
MAX_COMMAND_CHARS = 4096
UNPACKED_MB = 64
"""What an archive may unpack to: this, or four times the upload cap where that is more."""

_lock = threading.Lock()
"""One upload accepted at a time in this process: the caps are counted and the submission stored as one step."""
_refused: dict[tuple[str, str], list[datetime]] = {}
"""Per league folder and author, when uploads were refused for their content (counted by the per-minute rate)."""


class SubmissionRefused(Exception):
    """An upload that is not accepted: ``message`` is one sentence for the uploader, ``http_status`` the answer's."""

    def __init__(self, message: str, http_status: int) -> None:
        super().__init__(message)
        self.message = message
        self.http_status = http_status


def upload_limits(league: League) -> UploadLimits:
    """The caps on an upload to this league's contest (``contest: {upload_mb}``)."""
    archive = int(league.config.contest.upload_mb * MB)
    return UploadLimits(archive_bytes=archive, unpacked_bytes=max(UNPACKED_MB * MB, 4 * archive))


def accept_upload(
    league: League, author: str, data: bytes, command: Sequence[str], now: datetime | None = None
) -> Submission:
    """Store an upload as a new version of ``author``'s bot, queued for its validation game.

    Args:
        league: The contest's league (its folder, its ``contest:`` rules).
        author: Who uploads (the name their token gave).
        data: The archive's bytes (.zip, .tar.gz or .tar of the bot's folder).
        command: The words of the command that starts the bot, run from inside its folder.
        now: The moment of the upload (UTC; now when None), for the caps.

    Returns:
        The queued submission.

    Raises:
        SubmissionRefused: The upload is refused (see the module's list); nothing of it is kept.
        league.store.authors.AuthorError: The contest's database cannot be used.
    """
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    folder = league.output
    with _lock:
        name = _author(folder, author)
        _check_caps(folder, name, league, moment)
        try:
            words = _command_words(command)
            return _accept(folder, name, data, words, upload_limits(league), moment)
        except SubmissionRefused:
            _refused.setdefault((str(folder), name.lower()), []).append(moment)
            raise


def sweep_leftovers(folder: Path) -> int:
    """Remove what killed uploads left in ``versions/``: incoming folders, version folders with no submission.

    Called when the server starts, before any upload. Returns how many were removed.
    """
    versions = folder / VERSIONS
    if not versions.is_dir():
        return 0
    with _lock:
        kept = {path.resolve() for path in version_folders(folder)}
        removed = 0
        for child in sorted(versions.iterdir()):
            if child.name.startswith(INCOMING):
                removed += _remove(child)
            elif child.is_dir() and not child.is_symlink():
                for version in sorted(child.iterdir()):
                    if version.resolve() not in kept:
                        removed += _remove(version)
        return removed


def _author(folder: Path, author: str) -> str:
    """The author's name as the contest has it; 403 if they are not (or no longer) in it."""
    for known in list_authors(folder):
        if known.name.lower() == author.lower():
            return known.name
    raise SubmissionRefused(
        f"{author!r} is not an author of this contest (any more): ask the organiser to add you again.", 403
    )


def _check_caps(folder: Path, name: str, league: League, moment: datetime) -> None:
    """429 when the author has used their submissions of the day or of the last minute."""
    rules = league.config.contest
    day = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    if submitted_since(folder, name, now_iso(day)) >= rules.daily_submissions:
        left = day + timedelta(days=1) - moment
        hours, minutes = divmod(math.ceil(left.total_seconds() / 60), 60)
        raise SubmissionRefused(
            f"You have made {rules.daily_submissions} submissions today, the most this contest allows a day:"
            f" submit again after midnight UTC (in {hours} h {minutes} min).",
            429,
        )
    minute_ago = moment - timedelta(seconds=60)
    key = (str(folder), name.lower())
    _refused[key] = [when for when in _refused.get(key, []) if when > minute_ago]
    recent = submitted_since(folder, name, now_iso(minute_ago + timedelta(seconds=1))) + len(_refused[key])
    if recent >= rules.per_minute:
        raise SubmissionRefused(
            f"You have uploaded {recent} times in the last minute, the most this contest allows ({rules.per_minute}):"
            " wait a minute and submit again.",
            429,
        )


def _command_words(command: Sequence[str]) -> list[str]:
    """The command's words, checked to be a command at all (400 otherwise)."""
    words = [str(word) for word in command]
    if not words or not words[0].strip():
        raise SubmissionRefused(
            "The command is empty: give the command that starts the bot from its folder, e.g. python3 bot.py.", 400
        )
    if len(words) > MAX_COMMAND_WORDS or sum(len(word) for word in words) > MAX_COMMAND_CHARS:
        raise SubmissionRefused(
            f"The command is too long (at most {MAX_COMMAND_WORDS} words and {MAX_COMMAND_CHARS} characters):"
            " put the options in a file of the archive.",
            400,
        )
    if any(unicodedata.category(char) == "Cc" for word in words for char in word):
        raise SubmissionRefused(
            "The command holds a control character (a newline, a tab): give it as plain words.", 400
        )
    return words


def _accept(
    folder: Path, name: str, data: bytes, words: list[str], limits: UploadLimits, moment: datetime
) -> Submission:
    """Unpack, check and store the upload; nothing of it is left when it is refused or fails."""
    if len(data) > limits.archive_bytes:
        raise SubmissionRefused(
            f"The archive holds {len(data) / MB:.1f} MB, over the {limits.archive_bytes / MB:.1f} MB an upload may"
            " hold: leave out large files (data, build outputs, caches) and upload it again.",
            413,
        )
    versions = folder / VERSIONS
    versions.mkdir(parents=True, exist_ok=True)
    incoming = Path(tempfile.mkdtemp(prefix=INCOMING, dir=versions))
    final: Path | None = None
    try:
        os.chmod(incoming, 0o755)  # a jail of another uid reads the version's files
        try:
            digest = unpack_archive(data, incoming, limits).digest
        except UploadRefused as refused:
            raise SubmissionRefused(str(refused), 400) from None
        same = next((known for known in submissions(folder, name) if known.digest == digest), None)
        if same is not None:
            raise SubmissionRefused(
                f"This is the content of your version {same.version} (submission {same.id}, {same.status}):"
                " change the bot before submitting it again.",
                409,
            )
        _check_program(words, incoming)
        _durable(incoming)
        final = versions / name / digest
        final.parent.mkdir(exist_ok=True)
        if final.exists():  # a version's folder a killed upload left without its submission
            shutil.rmtree(final)
        os.rename(incoming, final)
        _sync_folder(final.parent)
        return add_submission(folder, name, digest, words, final, submitted=now_iso(moment))
    except BaseException:
        shutil.rmtree(incoming, ignore_errors=True)
        if final is not None and final.exists() and not _stored(folder, final):
            shutil.rmtree(final, ignore_errors=True)
        raise


def _stored(folder: Path, version: Path) -> bool:
    """Whether a submission keeps ``version``'s folder (kept, too, when the database cannot say: a sweep decides)."""
    try:
        return version.resolve() in {path.resolve() for path in version_folders(folder)}
    except Exception:  # noqa: BLE001 - the database's own error is the one raised
        return True


def _check_program(words: list[str], folder: Path) -> None:
    """400 unless the command runs a file of the archive (itself, or through a program of the system), naming no other.

    A path a command names is shown to the bot in its jail (``sandbox.folders``): a word that leaves the
    version's folder (absolute, or climbing with ``..``, in any ``:`` or ``=`` part) would show it another
    author's versions or the league's folder, so every word after the program must stay inside it, and
    the program is a file of the archive or one of the system's (``python3``, ``/usr/bin/java``).
    """
    files = {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}
    program, shown = words[0], shlex.join(words)
    outside = outside_word(words)
    if outside is not None:
        raise SubmissionRefused(
            f"The command {shown!r} names a path outside the bot's folder ({outside!r}): a bot sees only its own"
            " folder; name its files relative to the archive's top folder (e.g. python3 bot.py data/x).",
            400,
        )
    if not _names_file(program, files):
        on_system = shutil.which(program) is not None and (os.path.isabs(program) or "/" not in program)
        if not on_system or not any(_names_file(word, files) or _names_class(word, words, files) for word in words[1:]):
            raise SubmissionRefused(
                f"The command {shown!r} names no file of the archive: start the bot with a file it holds"
                f" (its files: {_some(files)}), e.g. python3 bot.py or ./bot, as run from the archive's top folder.",
                400,
            )
    try:
        check_command_line(words, folder)
    except CommandError as error:
        text = str(error).replace(f" (in {folder.resolve()})", " in the archive").replace(str(folder), "the archive")
        raise SubmissionRefused(f"The command {shown!r} cannot start: {text}; fix it and submit again.", 400) from None


def outside_word(words: Sequence[str]) -> str | None:
    """The first word of a command that names a path outside the bot's folder, or None.

    The program may be one of the system's (``python3``, ``/usr/bin/java``); every later word, in any
    ``:``, ``=`` or ``,`` part, must be relative and never climb with ``..``.
    """
    program = words[0]
    if (os.path.isabs(program) and not is_system(Path(os.path.normpath(program)))) or _climbs(program):
        return program
    return next((word for word in words[1:] if _leaves_folder(word)), None)


def _climbs(text: str) -> bool:
    """Whether a path climbs out of where it starts (a ``..`` part)."""
    return ".." in text.replace("\\", "/").split("/")


def _leaves_folder(word: str) -> bool:
    """Whether a word of a command names, in any of its ``:``/``=``/``,`` parts, a path outside the bot's folder."""
    parts = re.split(r"[:=,]", word)
    return any(part.startswith(("/", "~")) or _climbs(part) for part in parts)


def _names_file(word: str, files: set[str]) -> bool:
    """Whether ``word`` is the relative path of a file of the archive."""
    if not word or word.startswith("/") or word.startswith("-"):
        return False
    path = posixpath.normpath(word)
    return not path.startswith("..") and path in files


def _names_class(word: str, words: list[str], files: set[str]) -> bool:
    """Whether ``word`` is a Java class (``GreedyAI``, ``net.example.Main``) whose ``.class`` file the archive holds."""
    if word.startswith("-") or "/" in word:
        return False
    paths = ["."]
    for flag, value in zip(words, words[1:], strict=False):
        if flag in ("-cp", "-classpath", "--class-path"):
            paths += value.split(":")
    return any(_names_file(posixpath.join(path, word.replace(".", "/") + ".class"), files) for path in paths)


def _some(files: set[str]) -> str:
    shown = sorted(files, key=lambda path: (path.count("/"), path))[:4]
    return ", ".join(shown) + (f" and {len(files) - len(shown)} more" if len(files) > len(shown) else "")


def _durable(folder: Path) -> None:
    """Every file and folder under ``folder`` synced to disk (a stored submission never points at lost bytes)."""
    for path in sorted(folder.rglob("*"), reverse=True):
        if path.is_file():
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        elif path.is_dir():
            _sync_folder(path)
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(path: Path) -> int:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
    return 1
