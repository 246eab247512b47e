"""The JSON API ``league submit`` uses: Bearer tokens (401, 403), own submissions only (404), the size cap (413)."""

from __future__ import annotations

import asyncio

from league.contest.submit import SubmissionRefused as Refusal
from league.serve.app import create_app
from league.serve.state import FORM_OVERHEAD
from tests.league.serve.conftest import TOKEN

ARCHIVE = {"archive": ("bot.zip", b"PK\x03\x04 a zip", "application/zip")}
CAP = 16 * 1024 * 1024 + FORM_OVERHEAD


def bearer(name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKEN[name]}"}


def test_a_submission_without_a_token_is_401_and_with_a_wrong_one_403(client, contest):
    none = client.post("/api/submissions", data={"command": "python3 bot.py"}, files=ARCHIVE)
    assert none.status_code == 401 and "Authorization: Bearer" in none.json()["error"]
    assert none.headers["www-authenticate"] == "Bearer"
    basic = client.post("/api/submissions", files=ARCHIVE, headers={"Authorization": "Basic YTpi"})
    assert basic.status_code == 401
    wrong = client.post("/api/submissions", files=ARCHIVE, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403 and "no author's" in wrong.json()["error"]
    assert contest.submitted == []


def test_a_submission_is_queued_and_its_author_follows_it(client, contest):
    answer = client.post("/api/submissions", data={"command": "python3 bot.py"}, files=ARCHIVE, headers=bearer("bob"))
    assert answer.status_code == 202
    made = contest.made[-1]
    assert answer.json() == {
        "id": made.id,
        "author": "bob",
        "version": made.digest[:12],
        "digest": made.digest,
        "status": "queued",
        "fault": "",
        "stderr": "",
        "url": f"/api/submissions/{made.id}",
    }
    assert contest.submitted == [("bob", b"PK\x03\x04 a zip", ["python3", "bot.py"])]
    followed = client.get(answer.json()["url"], headers=bearer("bob"))
    assert followed.status_code == 200 and followed.json()["status"] == "queued"


def test_an_author_gets_404_for_another_authors_submission_and_an_organiser_reads_it(client, contest):
    bobs = next(one for one in contest.made if one.author == "bob")
    other = client.get(f"/api/submissions/{bobs.id}", headers=bearer("alice"))
    missing = client.get("/api/submissions/999", headers=bearer("alice"))
    assert other.status_code == missing.status_code == 404
    assert other.json()["error"] == f"you have no submission {bobs.id}", "the same answer as for no submission"
    own = client.get(f"/api/submissions/{bobs.id}", headers=bearer("bob")).json()
    assert own["fault"] == "it crashed" and own["stderr"] == "bob's secret stderr"
    assert client.get(f"/api/submissions/{bobs.id}", headers=bearer("olga")).status_code == 200
    assert client.get(f"/api/submissions/{bobs.id}").status_code == 401


def test_the_contests_refusal_comes_back_with_its_status_and_sentence(client, contest):
    sentence = "this archive is your version 0123456789ab already; change something and submit again"
    contest.refuse_next = Refusal(sentence, 409)
    answer = client.post("/api/submissions", data={"command": "python3 bot.py"}, files=ARCHIVE, headers=bearer("bob"))
    assert answer.status_code == 409 and answer.json() == {"error": sentence}
    no_command = client.post("/api/submissions", files=ARCHIVE, headers=bearer("bob"))
    assert no_command.status_code == 400 and "no command" in no_command.json()["error"]
    quotes = client.post("/api/submissions", data={"command": "python3 'bot"}, files=ARCHIVE, headers=bearer("bob"))
    assert quotes.status_code == 400 and "not shell words" in quotes.json()["error"]


def test_the_board_as_json(client, contest):
    board = client.get("/api/board").json()
    assert board["serial"] == contest.board().serial and board["state"] == "playing"
    assert [row["bot"] for row in board["rows"]] == [row.bot for row in contest.board().rows]


def call(app, headers: list[tuple[bytes, bytes]], chunks: list[bytes]) -> tuple[int, int]:
    """POST /api/submissions straight to the ASGI app: its status and how many body chunks it read."""
    read = 0
    answer: dict = {}

    async def receive():
        nonlocal read
        if read < len(chunks):
            read += 1
            return {"type": "http.request", "body": chunks[read - 1], "more_body": read < len(chunks)}
        return {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/submissions",
        "raw_path": b"/api/submissions",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"authorization", f"Bearer {TOKEN['bob']}".encode()), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    asyncio.run(app(scope, receive, send))
    return answer["status"], read


def test_an_upload_declaring_more_than_the_cap_is_413_before_a_byte_is_read(contest):
    status, read = call(create_app(contest), [(b"content-length", str(CAP + 1).encode())], [b"x" * 1024] * 4)
    assert status == 413 and read == 0
    assert contest.submitted == []


def test_an_upload_streaming_past_the_cap_is_413_as_soon_as_it_passes(contest):
    chunk = b"x" * (1024 * 1024)
    chunks = [chunk] * (CAP // len(chunk) + 40)
    status, read = call(create_app(contest), [(b"content-type", b"multipart/form-data; boundary=b")], chunks)
    assert status == 413 and read == CAP // len(chunk) + 1, "reading stops at the chunk that passes the cap"
    assert contest.submitted == []
