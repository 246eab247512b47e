"""Every page renders from a real league's games, reads without JavaScript and keeps every bot text inert."""

from __future__ import annotations

import re

from league.contest.model import BoardRow
from tests.league.serve.conftest import HOSTILE, log_in

RAW_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
HOSTILE_NAME = '<script>alert("name")</script>"onmouseover="x'


def test_the_leaderboard_shows_every_entry_with_its_games_rating_and_state(client, contest):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    board = contest.board()
    html = page.text
    assert f'data-serial="{board.serial}"' in html and "playing" in html and "greedy &gt; random" in html
    for row in board.rows:
        assert f'<a href="/bots/{row.bot}">{row.bot}</a>' in html
    greedy = next(row for row in board.rows if row.bot == "greedy")
    assert greedy.games == 4 and f'<td class="number">{greedy.games}</td>' in html
    assert "1550 (1500 to 1700)" in html and "warming up" in html and "not yet" in html
    assert "0123456789ab" in html, "alice's version is shown"
    assert '<script src="/static/live.js" defer></script>' in html


def test_the_live_script_and_style_sheet_are_served(client):
    script = client.get("/static/live.js")
    assert script.status_code == 200 and "EventSource" in script.text and "/live/board" in script.text
    assert client.get("/static/style.css").status_code == 200


def test_a_hostile_bot_name_is_text_on_the_board_and_in_the_api(client, contest):
    contest.publish(contest.board_of_games(2, (BoardRow(5, HOSTILE_NAME, HOSTILE_NAME, "v", 1, 1.0, 0.0, 2.0, True),)))
    html = client.get("/").text
    assert "<script>alert" not in html and '"onmouseover="' not in html
    assert "&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;&quot;onmouseover=&quot;x" in html
    rows = client.get("/api/board").json()["rows"]
    assert rows[-1]["bot"] == HOSTILE_NAME, "the API gives the name as it is: JSON is not HTML"
    newcomer = next(row for row in rows if row["bot"] == "newcomer")
    assert newcomer["rating"] is None and newcomer["warming_up"] is True


def test_a_bots_page_lists_its_versions_games_and_faults_with_replay_links(client, contest):
    page = client.get("/bots/alice")
    assert page.status_code == 200
    games = contest.games_of("alice")
    assert len(games) == 4 and all(record.result.offenders for record in games)
    html = page.text
    assert "4 games stored" in html and "4 games in which it faulted" in html
    for record in games:
        assert f'<a href="/games/{record.game_id}">' in html
    assert html.index(games[0].game_id) < html.index(games[1].game_id), "newest first"
    assert "valid" in html and "refused" in html and "python3 bot.py" in html


def test_a_house_bot_has_a_page_and_an_unknown_bot_is_404(client):
    assert client.get("/bots/greedy").status_code == 200
    missing = client.get("/bots/nobody")
    assert missing.status_code == 404 and "no bot of this contest is named nobody" in missing.text


def test_the_authors_stderr_is_escaped_on_every_page_that_shows_it(client, contest):
    log_in(client, "alice")
    html = client.get("/bots/alice").text
    assert HOSTILE not in html and "<script>alert" not in html
    assert "&lt;/pre&gt;&lt;script&gt;alert(&quot;stderr&quot;)&lt;/script&gt;" in html
    refused = next(one for one in contest.made if one.stderr == HOSTILE)
    own = client.get(f"/submissions/{refused.id}").text
    assert "<script>alert" not in own and "&lt;img src=x onerror=alert(1)&gt;" in own


def test_a_games_stderr_is_shown_to_its_author_with_the_bots_escapes_as_text(client, contest):
    log_in(client, "alice")
    record = contest.games_of("alice")[0]
    page = client.get(f"/games/{record.game_id}/stderr")
    assert page.status_code == 200
    assert RAW_CONTROLS.search(page.text) is None, "a raw control character reached the page"
    assert "\\x1b[2J" in page.text and "# Injected heading" in page.text
    seat = record.spec.seats.index("alice")
    assert f"seat {seat}: alice" in page.text and f"seat {1 - seat}:" not in page.text


def test_the_replay_is_the_viewers_page_sandboxed(client, contest):
    record = contest.games_of("alice")[0]
    page = client.get(f"/games/{record.game_id}")
    assert page.status_code == 200 and "<script" in page.text, "the viewer's inline scripts are served"
    policy = page.headers["content-security-policy"]
    assert policy.startswith("sandbox allow-scripts;") and "frame-ancestors 'none'" in policy
    assert "allow-same-origin" not in policy and "connect-src" not in policy and "default-src 'none'" in policy
    assert client.get("/games/no-such-game").status_code == 404


def test_the_replay_holds_the_stderr_of_the_viewers_own_seats_only(client, contest):
    record = contest.games_of("alice")[0]
    seat = record.spec.seats.index("alice")
    client.get(f"/games/{record.game_id}")
    assert contest.replay_seats[-1] == frozenset(), "a visitor reads no bot's stderr"
    assert "pwned" not in client.get(f"/games/{record.game_id}").text
    log_in(client, "bob")
    client.get(f"/games/{record.game_id}")
    assert contest.replay_seats[-1] == frozenset()
    log_in(client, "alice")
    assert "pwned" in client.get(f"/games/{record.game_id}").text
    assert contest.replay_seats[-1] == {seat}
    log_in(client, "olga")
    client.get(f"/games/{record.game_id}")
    assert contest.replay_seats[-1] == {0, 1}, "an organiser reads every seat's"


def test_the_organisers_page_lists_authors_submissions_queue_workers_and_faults(client, contest):
    contest.add_submission("bob", "queued")
    log_in(client, "olga")
    page = client.get("/organiser")
    assert page.status_code == 200
    html = page.text
    assert '<a href="/bots/alice">alice</a>' in html and '<a href="/bots/bob">bob</a>' in html
    assert "1 waiting or in their validation game" in html
    assert "<td>olga</td>" not in html and '<a href="/bots/olga">olga</a>' in html  # an author without submissions
    assert "<td>organiser</td>" in html
    assert "2 game workers on this machine" in html and "bob&#x27;s secret stderr" in html
    assert "<script>alert" not in html
    for record in contest.faults():
        assert f'<a href="/games/{record.game_id}">' in html


def test_every_page_says_what_it_may_load_and_that_it_is_never_framed(client):
    log_in(client, "olga")
    for path in ("/", "/bots/alice", "/organiser", "/login", "/submit", "/submissions/1", "/api/board", "/nowhere"):
        headers = client.get(path).headers
        policy = headers["content-security-policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
        assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "same-origin", path
    for path in ("/", "/bots/alice", "/organiser", "/submit", "/login"):
        html = client.get(path).text
        assert "<script>" not in html and " style=" not in html and "onclick" not in html, f"{path}: inline code"
