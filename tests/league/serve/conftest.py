"""The web's fixtures: a real league folder (the text attacker among its bots), the contest over it, the app."""

from __future__ import annotations

import re
import sys

import pytest
from starlette.testclient import TestClient

from league.contest.model import Status
from league.serve.app import create_app
from tests.conftest import BOTS, play_in_process, write_league
from tests.league.serve.double import ContestDouble

TOKENS = {"alice-token-0123456789": "alice", "bob-token-0123456789": "bob", "olga-token-0123456789": "olga"}
TOKEN = {name: token for token, name in TOKENS.items()}
HOSTILE = '</pre><script>alert("stderr")</script><img src=x onerror=alert(1)>'
ORIGIN = "http://testserver"


@pytest.fixture(scope="session")
def played_league(tmp_path_factory):
    """A small versus2048 league played in this process: greedy, random and alice (the text attacker)."""
    folder = tmp_path_factory.mktemp("web-league")
    bots = [
        {"name": "greedy", "builtin": "versus2048.greedy"},
        {"name": "random", "builtin": "versus2048.random"},
        {"name": "alice", "command": [sys.executable, "v2048_text_attack.py"], "cwd": str(BOTS)},
    ]
    league, _ = play_in_process(write_league(folder, bots=bots, variants={"short": {"turns_per_player": 10}}))
    return league


@pytest.fixture
def contest(played_league):
    """The contest over the played league: alice and bob are authors, olga an organiser; three submissions."""
    double = ContestDouble(played_league, dict(TOKENS), {"olga"})
    double.add_submission("alice", Status.VALID)
    double.add_submission("alice", Status.REFUSED, "its reply 'x' is not a move", HOSTILE)
    double.add_submission("bob", Status.REFUSED, "it crashed", "bob's secret stderr")
    return double


@pytest.fixture
def client(contest):
    """A TestClient of the app over the contest."""
    with TestClient(create_app(contest), base_url=ORIGIN) as test_client:
        yield test_client


def csrf_of(html: str) -> str:
    """The CSRF token of a page's form."""
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "the page has no CSRF field"
    return found.group(1)


def log_in(client: TestClient, name: str) -> str:
    """Log ``name`` in through the form; the session's CSRF token."""
    token = csrf_of(client.get("/login").text)
    answer = client.post(
        "/login", data={"csrf": token, "token": TOKEN[name]}, headers={"Origin": ORIGIN}, follow_redirects=False
    )
    assert answer.status_code == 303, answer.text
    return csrf_of(client.get("/").text)
