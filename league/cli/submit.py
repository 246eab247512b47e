"""``league submit URL FOLDER --command CMD``: send a version of one's bot to a contest server and await its verdict.

The folder's regular files (``.git`` and ``__pycache__`` left out; links and special files too, which a
contest refuses) are packed as a .tar.gz in memory, each with its execute bit, refused here before
anything is sent when it is over ``--max-mb`` (the contest's default cap). It is sent to
``URL/api/submissions`` as a multipart form (``archive``, and ``command`` as shell words) with the
author's token as ``Authorization: Bearer``; then ``URL/api/submissions/ID`` is asked until the
version is valid or refused, a line on stderr each time its status changes. What the server sends
back (its sentences, the bot's stderr) is printed inert: control characters escaped.

Exit status: 0 the version is valid (or, with ``--no-wait``, queued); 1 it is refused, by the server
at once (its one sentence printed) or by its validation game (the fault and the bot's stderr printed);
2 a usage error, one line naming the fix: no token, no such folder, a folder over the cap, a wrong
token, a server that cannot be reached or is not a contest server.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import secrets
import shlex
import sys
import tarfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from league.cli.args import UsageError
from league.match.inert import inert_block, inert_line

TOKEN_VARIABLE = "LEAGUE_TOKEN"
SKIPPED = (".git", "__pycache__")
"""Folders never packed: a repository's history and Python's caches are no part of a bot."""
DEFAULT_MAX_MB = 16.0
"""The contest's default cap on an archive (``contest: {upload_mb}``)."""
TIMEOUT_S = 60.0
"""How long one request may take."""
FINISHED = ("valid", "refused")


def pack_folder(folder: Path, max_bytes: int) -> tuple[bytes, int]:
    """The folder's regular files as a .tar.gz (sorted, owner and time zeroed), and how many files it holds.

    Raises:
        UsageError: No files to send, a file that cannot be read, or an archive over ``max_bytes``.
    """
    buffer = io.BytesIO()
    count = 0
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT) as archive:
        for path in sorted(folder.rglob("*")):
            relative = path.relative_to(folder)
            if any(part in SKIPPED for part in relative.parts) or path.is_symlink() or not path.is_file():
                continue
            info = tarfile.TarInfo(relative.as_posix())
            info.mode = 0o755 if os.access(path, os.X_OK) else 0o644
            try:
                data = path.read_bytes()
            except OSError as error:
                raise UsageError(
                    f"{path}: cannot read it ({error.strerror}); make it readable or move it away"
                ) from None
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
            count += 1
    if not count:
        raise UsageError(f"{folder} holds no files to send; give the folder of the bot's files")
    packed = buffer.getvalue()
    if len(packed) > max_bytes:
        raise UsageError(
            f"{folder} packs to {_size(len(packed))}, over the {_size(max_bytes)} a contest"
            " takes: leave out large files (data, build outputs) or give --max-mb if the contest takes more"
        )
    return packed, count


def _size(count: int) -> str:
    return f"{count / (1 << 20):.1f} MB" if count >= 100_000 else f"{count} bytes"


def cmd_submit(args: argparse.Namespace) -> int:
    """Send the folder as a new version and wait for its validation (unless ``--no-wait``)."""
    token = args.token or os.environ.get(TOKEN_VARIABLE, "")
    if not token:
        raise UsageError(
            f"give your author token with {TOKEN_VARIABLE}=TOKEN (or --token TOKEN): the one `league authors add`"
            " printed for you"
        )
    base = _base_url(args.url)
    try:
        words = shlex.split(args.command)
    except ValueError as error:
        raise UsageError(f"--command {args.command!r}: {error}; quote it as a shell would") from None
    if not words:
        raise UsageError(
            "--command is empty: give the command that starts the bot in its folder, e.g. 'python3 bot.py'"
        )
    folder = Path(args.folder)
    if not folder.is_dir():
        problem = "is a file, not a folder" if folder.exists() else "does not exist"
        raise UsageError(f"{args.folder} {problem}; give the folder of the bot's files")
    if not args.max_mb > 0:
        raise UsageError(f"--max-mb {args.max_mb:g}: give a size in MB above 0")
    data, _ = pack_folder(folder, int(args.max_mb * (1 << 20)))
    body, content_type = _multipart({"command": args.command}, ("archive", "bot.tar.gz", data))
    status, answer = _request(base, "api/submissions", token, body, content_type)
    if status != 202:
        return _refused_at_once(base, status, answer)
    number = answer.get("id")
    if not isinstance(number, int):
        raise UsageError(f"{base} answered without a submission number; is it a contest server (league serve)?")
    version = inert_line(str(answer.get("version", "")))
    print(f"league: submission {number} (version {version}) is queued for its validation game", file=sys.stderr)
    if args.no_wait:
        print(f"submission {number}: version {version} queued; its status is at {base}api/submissions/{number}")
        return 0
    return _await(base, number, token, args.poll_s)


def _await(base: str, number: int, token: str, poll_s: float) -> int:
    """Ask for the submission's status until it is valid or refused; print the verdict."""
    shown = "queued"
    while True:
        status, answer = _request(base, f"api/submissions/{number}", token)
        if status != 200:
            return _refused_at_once(base, status, answer)
        state = str(answer.get("status", ""))
        if state != shown:
            print(f"league: submission {number}: {inert_line(state)}", file=sys.stderr)
            shown = state
        if state in FINISHED:
            break
        time.sleep(poll_s)
    version = inert_line(str(answer.get("version", "")))
    if state == "valid":
        print(f"submission {number}: version {version} is valid and enters the contest")
        return 0
    print(f"submission {number}: version {version} is refused: {inert_line(str(answer.get('fault', '')))}")
    stderr = str(answer.get("stderr") or "")
    print(f"its stderr in the validation game{':' if stderr else ': nothing'}")
    for line in inert_block(stderr).rstrip("\n").split("\n") if stderr else []:
        print(f"  | {line}")
    return 1


def _refused_at_once(base: str, status: int, answer: dict[str, Any]) -> int:
    """What an answer other than the expected one means: a refusal (1) or a usage error (raised)."""
    error = inert_line(str(answer.get("error", "")))
    if status in (401, 403):
        raise UsageError(
            f"{base} refused the token (HTTP {status}{': ' + error if error else ''}); give the token"
            f" `league authors add` printed for you, with {TOKEN_VARIABLE}=TOKEN or --token"
        )
    if status in (400, 404, 409, 413, 429) and error:
        print(f"league: refused (HTTP {status}): {error}", file=sys.stderr)
        return 1
    raise UsageError(
        f"{base} answered HTTP {status}{': ' + error if error else ''}; check that it is a contest server"
        " (the address `league serve` printed) and tell its organiser"
    )


def _base_url(url: str) -> str:
    if not url.startswith(("http://", "https://")) or len(url.split("/")) < 3 or not url.split("/")[2]:
        raise UsageError(f"{url!r} is not a contest's address; give the one `league serve` printed, http://HOST:PORT/")
    return url if url.endswith("/") else url + "/"


def _multipart(fields: dict[str, str], upload: tuple[str, str, bytes]) -> tuple[bytes, str]:
    """A multipart/form-data body of text fields and one file, and its content type."""
    boundary = f"league-{secrets.token_hex(16)}"
    parts = []
    for name, value in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode())
        parts.append(value.encode("utf-8") + b"\r\n")
    name, filename, data = upload
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
        "Content-Type: application/gzip\r\n\r\n".encode()
    )
    parts += [data, f"\r\n--{boundary}--\r\n".encode()]
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def _request(
    base: str, path: str, token: str, body: bytes | None = None, content_type: str = ""
) -> tuple[int, dict[str, Any]]:
    """One request to the contest server: its status and its JSON answer.

    Raises:
        UsageError: The server cannot be reached, or its answer is not a contest server's JSON.
    """
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
    if content_type:
        headers["Content-Type"] = content_type
    request = urllib.request.Request(base + path, data=body, headers=headers, method="POST" if body else "GET")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            status, text = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read()
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise UsageError(
            f"cannot reach the contest server at {base} ({inert_line(str(reason))}); check the address `league serve`"
            " printed and that it runs"
        ) from None
    try:
        answer = json.loads(text)
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        raise UsageError(f"{base} answered HTTP {status} with no contest data; give the address `league serve` printed")
    return status, answer


def add_commands(commands: Any) -> None:
    """Register ``submit`` on the ``league`` parser."""
    submit = commands.add_parser("submit", help="send a version of your bot to a contest server and await its verdict")
    submit.add_argument("url", metavar="URL", help="the contest's address, as `league serve` printed it")
    submit.add_argument("folder", metavar="FOLDER", help="the bot's folder: its regular files are sent")
    submit.add_argument(
        "--command", required=True, help="how to start the bot from inside its folder, quoted: 'python3 bot.py'"
    )
    submit.add_argument(
        "--token", help=f"your author token (better: the {TOKEN_VARIABLE} environment variable, kept out of ps)"
    )
    submit.add_argument("--no-wait", action="store_true", help="return once it is queued, before its validation")
    submit.add_argument(
        "--max-mb", type=float, default=DEFAULT_MAX_MB, help=f"the archive's cap (default {DEFAULT_MAX_MB:g} MB)"
    )
    submit.add_argument("--poll-s", type=float, default=1.0, help=argparse.SUPPRESS)
    submit.set_defaults(handler=cmd_submit)
