"""The app over the real ``Contest`` (not started: no Ray, no play loop): its database, tokens and uploads.

What needs the contest playing (games on the board, replays, live boards from the board thread) is
tested over the double (tests/league/serve/double.py) and, end to end, by the contest's own tests.
"""

from __future__ import annotations

import io
import tarfile

import pytest
from starlette.testclient import TestClient

from league.contest.contest import Contest
from league.serve.app import create_app
from league.store.authors import add_author
from sandbox.jail import isolation_problem
from tests.conftest import BOTS
from tests.league.contest.serving import contest_file
from tests.league.serve.conftest import ORIGIN, csrf_of

pytestmark = pytest.mark.skipif(isolation_problem() is not None, reason=f"no jail here: {isolation_problem()}")


def starter_archive() -> bytes:
    """A versus2048 bot's folder as .tar.gz: tests/bots/v2048_fixed_order.py as bot.py, with the toolkits it imports."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as packed:
        packed.add(BOTS / "v2048_fixed_order.py", "bot.py")
        for toolkit in ("botio.py", "v2048lib.py"):
            packed.add(BOTS / toolkit, toolkit)
    return buffer.getvalue()


@pytest.fixture
def real(tmp_path):
    """A contest (not started) with authors alice and bob and organiser olga; a TestClient of its app; the tokens."""
    contest = Contest(contest_file(tmp_path))
    tokens = {name: add_author(contest.folder, name, organiser=name == "olga") for name in ("alice", "bob", "olga")}
    with TestClient(create_app(contest), base_url=ORIGIN) as client:
        yield contest, client, tokens


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_an_upload_through_the_api_is_stored_queued_and_kept_to_its_author(real):
    contest, client, tokens = real
    archive = {"archive": ("bot.tar.gz", starter_archive(), "application/gzip")}
    answer = client.post(
        "/api/submissions", data={"command": "python3 bot.py"}, files=archive, headers=bearer(tokens["alice"])
    )
    assert answer.status_code == 202, answer.text
    made = contest.submission(answer.json()["id"])
    assert made.author == "alice" and made.status == "queued" and answer.json()["digest"] == made.digest
    assert (made.folder / "bot.py").is_file()
    again = client.post(
        "/api/submissions", data={"command": "python3 bot.py"}, files=archive, headers=bearer(tokens["alice"])
    )
    assert again.status_code == 409 and made.version in again.json()["error"]
    assert client.get(f"/api/submissions/{made.id}", headers=bearer(tokens["bob"])).status_code == 404
    assert client.get(f"/api/submissions/{made.id}", headers=bearer(tokens["olga"])).status_code == 200
    assert client.get(f"/api/submissions/{made.id}", headers=bearer("nope")).status_code == 403


def test_a_command_naming_no_file_of_the_archive_is_refused_in_one_sentence(real):
    _, client, tokens = real
    archive = {"archive": ("bot.tar.gz", starter_archive(), "application/gzip")}
    answer = client.post(
        "/api/submissions", data={"command": "python3 main.py"}, files=archive, headers=bearer(tokens["bob"])
    )
    assert answer.status_code == 400 and "main.py" in answer.json()["error"]


def test_the_pages_read_the_real_contest(real, ray_local):
    contest, client, tokens = real
    assert client.get("/").status_code == 200 and client.get("/api/board").json()["serial"] == contest.board().serial
    assert client.get("/bots/greedy").status_code == 200 and client.get("/bots/nobody").status_code == 404
    csrf = csrf_of(client.get("/login").text)
    logged = client.post("/login", data={"csrf": csrf, "token": tokens["bob"]}, headers={"Origin": ORIGIN})
    assert logged.status_code == 200 and "Log out bob" in logged.text
    assert client.get("/organiser").status_code == 403
    csrf = csrf_of(client.get("/login").text)
    client.post("/login", data={"csrf": csrf, "token": tokens["olga"]}, headers={"Origin": ORIGIN})
    organiser = client.get("/organiser")
    assert organiser.status_code == 200 and "game workers" in organiser.text
