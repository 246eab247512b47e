"""The contest in a real browser (playwright, Debian's chromium) against a real ``league serve``.

An author logs in and submits a version through the Submit page; the leaderboard, open the whole
time and never reloaded, shows it arrive (unrated, last) and climb as its games come, each change a
live update; the author reads one of its games' replays. Without JavaScript the board still reads.
"""

import tarfile

import pytest

from sandbox.jail import isolation_problem
from tests.browser import assert_stayed_local, local_context, page_log
from tests.league.contest.serving import STARTER, Server, add_author, contest_file

pytestmark = pytest.mark.skipif(isolation_problem() is not None, reason="a contest needs the jail")

WATCH_ALICE = """() => {
  window.seen = [];
  window.stillThisPage = true;
  const look = () => {
    const rows = [...document.querySelectorAll('#board table.board tbody tr')];
    const alice = rows.find(r => r.cells[1].textContent.trim() === 'alice');
    const random = rows.find(r => r.cells[1].textContent.trim() === 'random');
    if (alice) window.seen.push({place: +alice.cells[0].textContent, games: +alice.cells[4].textContent,
                                 rows: rows.length, random: random ? +random.cells[0].textContent : null,
                                 serial: +document.getElementById('board').dataset.serial});
  };
  new MutationObserver(look).observe(document.getElementById('board'), {childList: true, subtree: true});
}"""


@pytest.fixture
def server(tmp_path):
    path = contest_file(tmp_path, max_games=80)
    token = add_author(path, "alice")
    running = Server(path)
    try:
        yield running, token, tmp_path
    finally:
        running.stop()


def starter_archive(folder) -> str:
    archive = folder / "starter.tar.gz"
    with tarfile.open(archive, "w:gz") as packed:
        packed.add(STARTER / "bot.py", "bot.py")
    return str(archive)


def test_an_author_submits_and_the_board_follows_live_to_a_replay(server, page, context):
    running, token, folder = server
    running.wait_for(lambda b: "Waiting" in b["state"], what="the house league settling")
    board = page
    board.goto(running.url)
    first_serial = int(board.get_attribute("#board", "data-serial"))
    assert board.locator("#board table.board").is_visible()
    board.evaluate(WATCH_ALICE)

    author = context.new_page()
    author.goto(running.url + "login")
    author.fill("input[name=token]", token)
    author.click("form[action='/login'] button[type=submit]")
    author.goto(running.url + "submit")
    author.set_input_files("input[name=archive]", starter_archive(folder))
    author.fill("input[name=command]", "python3 bot.py")
    author.click("form[action='/submit'] button[type=submit]")
    author.wait_for_load_state()
    said = author.locator("body").inner_text()
    assert "queued for its validation game" in said, said

    board.wait_for_function(
        "() => window.seen.length && window.seen[window.seen.length - 1].games >= 6"
        " && document.querySelector('#board .state').textContent.includes('Waiting')",
        timeout=300_000,
    )
    seen = board.evaluate("window.seen")
    assert board.evaluate("window.stillThisPage") is True, "the page was reloaded"
    assert int(board.get_attribute("#board", "data-serial")) > first_serial
    assert seen[0]["games"] < seen[-1]["games"], "its games arrived one update after another"
    assert seen[0]["place"] == seen[0]["rows"], f"it entered unrated, last: {seen}"
    assert seen[-1]["place"] < seen[0]["place"], f"it climbed: {seen}"
    assert page_log(board).errors() == [], page_log(board).errors()

    reader = context.new_page()  # the author's (the context holds the login), on a page of its own
    reader.goto(running.url + "bots/alice")
    href = reader.locator("a[href^='/games/']").first.get_attribute("href")
    reader.goto(running.url + href.lstrip("/"))
    reader.wait_for_function("() => document.body.innerText.includes('alice')")
    assert page_log(reader).errors() == [], page_log(reader).errors()


def test_the_board_reads_without_javascript(server, browser):
    running, _, _ = server
    running.wait_for(lambda b: len(b["rows"]) == 2, what="the house bots on the board")
    context = local_context(browser, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(running.url)
        names = page.locator("#board table.board tbody tr td:nth-child(2)").all_inner_texts()
        assert sorted(name.strip() for name in names) == ["greedy", "random"]
    finally:
        context.close()
    assert_stayed_local(context)
