"""``league submit``: a real upload to a small real contest server (Starlette + uvicorn, the two API routes).

The server here is the HTTP API of the contest spec built on ``accept_upload``, the real database and a
real ``ValidationQueue``: what ``league submit`` sends is unpacked, checked and validated in the jail,
and the command prints the verdict with the exit status of its contract (0 valid, 1 refused, 2 usage).
"""

import shlex
import shutil
import socket
import threading
import time

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse
from starlette.routing import Route

from league.contest.submit import SubmissionRefused, accept_upload
from league.contest.validation import ValidationQueue
from league.plan.config import load_league
from league.store.authors import add_author, author_of_token
from league.store.submissions import Status, submission, submissions
from sandbox.jail import isolation_problem
from tests.conftest import BOTS, refusal

needs_bwrap = pytest.mark.skipif(isolation_problem() is not None, reason=f"no jail here: {isolation_problem()}")

LEAGUE = """name: c
game: versus2048
output: out
variants:
  short: {turns_per_player: 6, pregame_time_ms: 60000, turn_time_ms: 30000, total_time_ms: 300000}
bots:
  - {name: random, builtin: versus2048.random}
  - {name: greedy, builtin: versus2048.greedy}
contest: {per_minute: 100}
"""


def contest_app(league, queue: ValidationQueue) -> Starlette:
    """The two API routes of the contest spec, on the real database."""
    folder = league.output

    def author_or_error(request):
        header = request.headers.get("authorization", "")
        if not header.startswith("Bearer "):
            return None, JSONResponse({"error": "give your token as Authorization: Bearer TOKEN"}, 401)
        author = author_of_token(folder, header.removeprefix("Bearer "))
        if author is None:
            return None, JSONResponse({"error": "this token is no author's"}, 403)
        return author, None

    def shown(entry, *keys):
        data = {"id": entry.id, "author": entry.author, "version": entry.version, "digest": entry.digest}
        return {**data, "status": entry.status.value, **{key: getattr(entry, key) for key in keys}}

    async def post(request):
        author, refused = author_or_error(request)
        if refused:
            return refused
        form = await request.form()
        data = await form["archive"].read()
        try:
            entry = await run_in_threadpool(accept_upload, league, author, data, shlex.split(form["command"]))
        except SubmissionRefused as error:
            return JSONResponse({"error": error.message}, error.http_status)
        queue.notify()
        return JSONResponse({**shown(entry), "url": f"/api/submissions/{entry.id}"}, 202)

    async def get(request):
        author, refused = author_or_error(request)
        if refused:
            return refused
        entry = submission(folder, int(request.path_params["number"]))
        if entry is None or entry.author != author:
            return JSONResponse({"error": "no such submission of yours"}, 404)
        return JSONResponse(shown(entry, "fault", "stderr"))

    return Starlette(
        routes=[
            Route("/api/submissions", post, methods=["POST"]),
            Route("/api/submissions/{number:int}", get, methods=["GET"]),
        ]
    )


@pytest.fixture
def server(tmp_path):
    """A contest server on a free port: (its URL, its league, alice's token, bob's token)."""
    path = tmp_path / "contest.yaml"
    path.write_text(LEAGUE)
    league = load_league(path)
    tokens = [add_author(league.output, name) for name in ("alice", "bob")]
    queue = ValidationQueue(league, lambda entry: None)
    queue.start()
    app = uvicorn.Server(uvicorn.Config(contest_app(league, queue), host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=app.run, daemon=True)
    thread.start()
    while not app.started and thread.is_alive():
        time.sleep(0.05)
    port = app.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}/", league, *tokens
    app.should_exit = True
    thread.join()
    queue.stop()


def bot_folder(tmp_path, script, name="mybot"):
    folder = tmp_path / name
    folder.mkdir()
    for file in (script, "v2048lib.py", "botio.py"):
        shutil.copy(BOTS / file, folder / file)
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "junk.pyc").write_bytes(b"\0" * 10)
    return folder


@needs_bwrap
def test_a_good_version_is_sent_validated_and_valid(server, tmp_path, league_cli, monkeypatch):
    url, league, token, _ = server
    folder = bot_folder(tmp_path, "v2048_steady.py")
    monkeypatch.setenv("LEAGUE_TOKEN", token)
    status, out, err = league_cli("submit", url, str(folder), "--command", "python3 v2048_steady.py")
    assert status == 0, err
    [entry] = submissions(league.output)
    assert entry.status == Status.VALID and entry.author == "alice"
    assert out == f"submission 1: version {entry.version} is valid and enters the contest\n"
    assert "queued for its validation game" in err and "submission 1: valid" in err
    assert sorted(p.name for p in entry.folder.iterdir()) == ["botio.py", "v2048_steady.py", "v2048lib.py"]
    status, out, err = league_cli("submit", url, str(folder), "--command", "python3 v2048_steady.py")
    assert status == 1 and out == ""  # the same content again: the server's sentence
    assert f"league: refused (HTTP 409): This is the content of your version {entry.version}" in err


@needs_bwrap
def test_a_version_refused_by_its_validation_game_prints_the_fault_and_its_stderr(server, tmp_path, league_cli):
    url, league, token, _ = server
    folder = bot_folder(tmp_path, "v2048_traceback.py")
    status, out, err = league_cli(
        "submit", url, str(folder), "--command", "python3 v2048_traceback.py", "--token", token
    )
    assert status == 1, err
    [entry] = submissions(league.output)
    assert entry.status == Status.REFUSED
    assert f"submission 1: version {entry.version} is refused: {entry.fault}" in out
    assert "its stderr in the validation game:" in out
    assert "  | RuntimeError: the bot's own bug, reported on stderr" in out


def test_a_refused_upload_prints_the_server_s_sentence_and_exits_1(server, tmp_path, league_cli):
    url, league, token, _ = server
    folder = bot_folder(tmp_path, "v2048_steady.py")
    status, out, err = league_cli("submit", url, str(folder), "--command", "python3 main.py", "--token", token)
    assert (status, out) == (1, "")
    assert "league: refused (HTTP 400): The command 'python3 main.py' names no file of the archive" in err
    assert submissions(league.output) == []


def test_no_wait_returns_once_queued(server, tmp_path, league_cli):
    url, league, token, _ = server
    folder = bot_folder(tmp_path, "v2048_steady.py")
    status, out, err = league_cli(
        "submit", url.rstrip("/"), str(folder), "--command", "python3 v2048_steady.py", "--token", token, "--no-wait"
    )
    assert status == 0, err
    assert out.startswith("submission 1: version ") and f"{url}api/submissions/1" in out


def test_a_wrong_token_is_one_line_exit_2(server, tmp_path, league_cli):
    url, league, _, _ = server
    folder = bot_folder(tmp_path, "v2048_steady.py")
    line = refusal(league_cli, "submit", url, str(folder), "--command", "python3 v2048_steady.py", "--token", "nope")
    assert "refused the token (HTTP 403: this token is no author's)" in line and "LEAGUE_TOKEN" in line
    assert submissions(league.output) == []


def test_usage_errors_are_one_line_naming_the_fix(server, tmp_path, league_cli, monkeypatch):
    url, league, token, _ = server
    monkeypatch.delenv("LEAGUE_TOKEN", raising=False)
    folder = bot_folder(tmp_path, "v2048_steady.py")
    command = ["--command", "python3 v2048_steady.py"]
    assert "give your author token with LEAGUE_TOKEN" in refusal(league_cli, "submit", url, str(folder), *command)
    with_token = [*command, "--token", token]
    missing = refusal(league_cli, "submit", url, str(tmp_path / "none"), *with_token)
    assert "does not exist; give the folder of the bot's files" in missing
    big = refusal(league_cli, "submit", url, str(folder), *with_token, "--max-mb", "0.001")
    assert "bytes, over the 1048 bytes a contest takes" in big and "--max-mb" in big
    assert "is not a contest's address" in refusal(league_cli, "submit", "localhost:8000", str(folder), *with_token)
    assert "quote it" in refusal(league_cli, "submit", url, str(folder), "--command", "python3 'bot.py", "--token", "t")
    line = refusal(league_cli, "submit", url + "elsewhere/", str(folder), *with_token)  # no API there: a 404 page
    assert "answered HTTP 404 with no contest data; give the address `league serve` printed" in line
    with socket.socket() as probe:  # a port where nothing listens
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    line = refusal(league_cli, "submit", f"http://127.0.0.1:{closed}/", str(folder), *with_token)
    assert line.startswith(f"league: error: cannot reach the contest server at http://127.0.0.1:{closed}/")
    assert "check the address `league serve` printed" in line
    assert submissions(league.output) == []


def test_a_missing_token_answered_401_is_a_usage_error_naming_the_token():
    from league.cli.args import UsageError
    from league.cli.submit import _refused_at_once

    with pytest.raises(UsageError, match=r"refused the token \(HTTP 401: give your token\); give the token"):
        _refused_at_once("http://h/", 401, {"error": "give your token"})
    assert _refused_at_once("http://h/", 429, {"error": "Wait a minute."}) == 1
    with pytest.raises(UsageError, match="answered HTTP 500; check that it is a contest server"):
        _refused_at_once("http://h/", 500, {})
