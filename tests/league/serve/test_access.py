"""Who may read and do what: login and its limit, CSRF refusals, 401 and 403 and 404, stderr kept to its author."""

from __future__ import annotations

from league.serve.auth import FAILED_LOGINS_PER_MINUTE, FailedLogins
from tests.league.serve.conftest import HOSTILE, ORIGIN, TOKEN, csrf_of, log_in

ARCHIVE = {"archive": ("bot.tar.gz", b"\x1f\x8b not really", "application/gzip")}


def test_logging_in_sets_an_httponly_strict_cookie_under_a_new_session(client):
    before = client.get("/login")
    anonymous = before.cookies["league_session"]
    answer = client.post(
        "/login",
        data={"csrf": csrf_of(before.text), "token": TOKEN["alice"]},
        headers={"Origin": ORIGIN},
        follow_redirects=False,
    )
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    assert client.cookies["league_session"] != anonymous, "a login never promotes the session id it came with"
    assert "Log out alice" in client.get("/").text


def test_a_wrong_token_is_403_and_logs_nobody_in(client):
    page = client.get("/login")
    answer = client.post("/login", data={"csrf": csrf_of(page.text), "token": "guess"}, headers={"Origin": ORIGIN})
    assert answer.status_code == 403 and "that token is no author&#x27;s" in answer.text
    assert client.get("/submit").status_code == 401


def test_failed_logins_are_limited_per_address_even_for_the_right_token_then(client):
    csrf = csrf_of(client.get("/login").text)
    for _ in range(FAILED_LOGINS_PER_MINUTE):
        assert (
            client.post("/login", data={"csrf": csrf, "token": "guess"}, headers={"Origin": ORIGIN}).status_code == 403
        )
    right = client.post("/login", data={"csrf": csrf, "token": TOKEN["alice"]}, headers={"Origin": ORIGIN})
    assert right.status_code == 429 and "wait a minute" in right.text
    api = client.get("/api/submissions/1", headers={"Authorization": f"Bearer {TOKEN['alice']}"})
    assert api.status_code == 429, "the API's tokens count against the same limit"


def test_the_limit_forgets_failures_older_than_a_minute():
    now = [0.0]
    limit = FailedLogins(per_minute=2, clock=lambda: now[0])
    limit.failed("a")
    limit.failed("a")
    assert limit.blocked("a") and not limit.blocked("b")
    now[0] = 60.5
    assert not limit.blocked("a")


def test_a_form_without_the_csrf_token_with_a_wrong_one_or_from_another_site_is_refused(client, contest):
    csrf = log_in(client, "alice")
    fields = {"command": "python3 bot.py"}
    missing = client.post("/submit", data=fields, files=ARCHIVE, headers={"Origin": ORIGIN})
    wrong = client.post("/submit", data={**fields, "csrf": "0" * 64}, files=ARCHIVE, headers={"Origin": ORIGIN})
    foreign = client.post(
        "/submit", data={**fields, "csrf": csrf}, files=ARCHIVE, headers={"Origin": "http://attacker.invalid"}
    )
    opaque = client.post("/submit", data={**fields, "csrf": csrf}, files=ARCHIVE, headers={"Origin": "null"})
    neither = client.post("/submit", data={**fields, "csrf": csrf}, files=ARCHIVE)
    for answer in (missing, wrong, foreign, opaque, neither):
        assert answer.status_code == 403
    assert "security token" in missing.text and "another site" in foreign.text
    assert contest.submitted == [], "no refused form reached the contest"
    referred = client.post("/submit", data={**fields, "csrf": csrf}, files=ARCHIVE, headers={"Referer": ORIGIN + "/"})
    assert referred.status_code == 202 and contest.submitted[0][0] == "alice"


def test_logging_out_needs_the_csrf_token_and_ends_the_session(client):
    csrf = log_in(client, "alice")
    assert client.post("/logout", headers={"Origin": ORIGIN}).status_code == 403
    assert client.get("/submit").status_code == 200
    out = client.post("/logout", data={"csrf": csrf}, headers={"Origin": ORIGIN}, follow_redirects=False)
    assert out.status_code == 303
    assert client.get("/submit").status_code == 401


def test_the_submit_form_queues_a_version_and_shows_a_refusal_in_one_sentence(client, contest):
    assert client.get("/submit").status_code == 401
    csrf = log_in(client, "alice")
    form = client.get("/submit")
    assert form.status_code == 200 and 'enctype="multipart/form-data"' in form.text
    queued = client.post(
        "/submit", data={"csrf": csrf, "command": "python3 'my bot.py'"}, files=ARCHIVE, headers={"Origin": ORIGIN}
    )
    assert queued.status_code == 202
    made = contest.made[-1]
    assert f'<a href="/submissions/{made.id}">' in queued.text and made.version in queued.text
    assert contest.submitted[-1] == ("alice", b"\x1f\x8b not really", ["python3", "my bot.py"])
    status = client.get(f"/submissions/{made.id}")
    assert status.status_code == 200 and "Status: queued" in status.text and 'http-equiv="refresh"' in status.text
    from league.contest.submit import SubmissionRefused as Refusal

    contest.refuse_next = Refusal("you sent 20 versions today, the daily cap; submit again tomorrow (UTC)", 429)
    refused = client.post("/submit", data={"csrf": csrf, "command": "x"}, files=ARCHIVE, headers={"Origin": ORIGIN})
    assert refused.status_code == 429 and "the daily cap; submit again tomorrow (UTC)" in refused.text
    no_file = client.post("/submit", data={"csrf": csrf, "command": "x"}, headers={"Origin": ORIGIN})
    assert no_file.status_code == 400 and "no archive file" in no_file.text


def test_an_author_never_reads_another_authors_submission_or_stderr(client, contest):
    bobs = next(one for one in contest.made if one.author == "bob")
    alices = next(one for one in contest.made if one.stderr == HOSTILE)
    assert client.get(f"/submissions/{bobs.id}").status_code == 401
    log_in(client, "alice")
    other = client.get(f"/submissions/{bobs.id}")
    assert other.status_code == 404 and "secret" not in other.text
    assert client.get("/submissions/999").status_code == 404
    assert "secret" not in client.get("/bots/bob").text and "it crashed" not in client.get("/bots/bob").text
    record = contest.games_of("alice")[0]
    log_in(client, "bob")
    assert "alert" not in client.get("/bots/alice").text, "bob does not read alice's stderr"
    assert f"/games/{record.game_id}/stderr" not in client.get("/bots/alice").text
    assert client.get(f"/games/{record.game_id}/stderr").status_code == 403
    assert client.get(f"/submissions/{alices.id}").status_code == 404
    log_in(client, "olga")
    assert client.get(f"/submissions/{bobs.id}").status_code == 200
    assert "secret" in client.get("/bots/bob").text


def test_a_visitor_reads_no_stderr_and_the_organisers_page_is_closed_to_visitors_and_authors(client, contest):
    record = contest.games_of("alice")[0]
    assert client.get(f"/games/{record.game_id}/stderr").status_code == 401
    assert client.get("/organiser").status_code == 401
    log_in(client, "alice")
    assert client.get("/organiser").status_code == 403
    log_in(client, "olga")
    assert client.get("/organiser").status_code == 200


def test_an_author_removed_is_logged_out_at_once(client, contest):
    log_in(client, "alice")
    assert client.get("/submit").status_code == 200
    del contest.tokens[TOKEN["alice"]]
    assert client.get("/submit").status_code == 401
