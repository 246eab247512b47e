"""The report in a real browser (headless chromium): the games list filters and pages, the page is clean.

Two pages: the games list alone, built from records made up to hold what a league can hold (a
hostile bot name, faults, scores past 2**53, several pages of games); and the whole report of a
tiny real league, which must load with no error, fetch nothing, show every chart and fill every
table. Its full-page screenshot is kept at ``reports/screenshots/report.png``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from league.report.games import games_html
from tests.browser import page_log
from tests.conftest import BOTS, play_in_process, write_league
from tests.league.report.made_up_games import BIG_SCORE, HOSTILE, made_up_records, replay

if TYPE_CHECKING:
    from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[3]
SCREENSHOT = ROOT / "reports" / "screenshots" / "report.png"
GAMES = 450  # three pages of 200


RECORDS = made_up_records(GAMES)
IN_ORDER = sorted(RECORDS, key=lambda record: record.spec.index)


@pytest.fixture
def games_page(page: Page, tmp_path: Path) -> Page:
    """The games list alone in a minimal page, loaded."""
    document = tmp_path / "games.html"
    fragment = games_html(RECORDS, replay)
    document.write_text(f"<!doctype html><html><head><meta charset='utf-8'><title>games</title></head><body>{fragment}")
    page.goto(document.resolve().as_uri())
    return page


def text_of(page: Page, element_id: str) -> str:
    return page.evaluate(f"document.getElementById({json.dumps(element_id)}).textContent")


def choose(page: Page, select_id: str, value: str) -> None:
    """Pick ``value`` in a filter as a user would (the option must exist)."""
    chosen = page.evaluate(
        f"(() => {{ const select = document.getElementById({json.dumps(select_id)});"
        f" select.value = {json.dumps(value)}; select.dispatchEvent(new Event('change')); return select.value; }})()"
    )
    assert chosen == value, f"{select_id} has no option {value!r}"


def every_shown_id(page: Page) -> list[str]:
    """The ids of the games the filters keep, walking from the first page to the last with the buttons."""
    return page.evaluate(
        """(() => {
          const previous = document.getElementById("games-previous"), next = document.getElementById("games-next");
          for (let clicks = 0; !previous.disabled && clicks < 1000; clicks++) previous.click();
          const ids = [];
          for (let clicks = 0; clicks < 1000; clicks++) {  // bounded: a broken list must fail, not hang
            document.querySelectorAll("#games-rows tr.games-row").forEach((row) => ids.push(row.dataset.gameId));
            if (next.disabled) return ids;
            next.click();
          }
          return ids;
        })()"""
    )


def rows_on_page(page: Page) -> int:
    return page.evaluate("document.querySelectorAll('#games-rows tr.games-row').length")


def test_the_list_opens_on_its_first_page_of_every_game(games_page):
    assert text_of(games_page, "games-count") == f"showing {GAMES} of {GAMES} games"
    assert text_of(games_page, "games-page") == "page 1 of 3"
    assert rows_on_page(games_page) == 200
    assert games_page.evaluate("document.getElementById('games-previous').disabled") is True
    assert games_page.evaluate("document.getElementById('games-next').disabled") is False
    first = games_page.evaluate("document.querySelector('#games-rows tr').dataset.gameId")
    assert first == IN_ORDER[0]["game_id"]
    assert page_log(games_page).errors() == []


def test_paging_shows_every_game_once_in_schedule_order(games_page):
    assert every_shown_id(games_page) == [record.game_id for record in IN_ORDER]
    assert text_of(games_page, "games-page") == "page 3 of 3"
    assert rows_on_page(games_page) == GAMES - 400
    games_page.evaluate("document.getElementById('games-previous').click()")
    assert text_of(games_page, "games-page") == "page 2 of 3"
    assert rows_on_page(games_page) == 200


FILTERS = {
    "a bot": ({"games-bot": "minimax"}, lambda r: "minimax" in r.spec.seats),
    "the hostile bot": ({"games-bot": HOSTILE}, lambda r: HOSTILE in r.spec.seats),
    "a variant": ({"games-variant": "long"}, lambda r: r.spec.variant == "long"),
    "a termination": ({"games-termination": "CRASH"}, lambda r: r.result.termination == "CRASH"),
    "all three": (
        {"games-bot": "random", "games-variant": "short", "games-termination": "TIMEOUT"},
        lambda r: "random" in r.spec.seats and r.spec.variant == "short" and r.result.termination == "TIMEOUT",
    ),
}


@pytest.mark.parametrize("name", FILTERS)
def test_filters_keep_the_right_games_and_say_how_many(games_page, name):
    choices, keeps = FILTERS[name]
    games_page.evaluate("document.getElementById('games-next').click()")  # a filter starts again at page 1
    for select_id, value in choices.items():
        choose(games_page, select_id, value)
    expected = [record.game_id for record in IN_ORDER if keeps(record)]
    assert 0 < len(expected) < GAMES
    assert text_of(games_page, "games-page") == f"page 1 of {-(-len(expected) // 200)}"
    assert text_of(games_page, "games-count") == f"showing {len(expected)} of {GAMES} games"
    assert every_shown_id(games_page) == expected
    for select_id in choices:
        choose(games_page, select_id, "")
    assert text_of(games_page, "games-count") == f"showing {GAMES} of {GAMES} games"


def test_a_hostile_bot_name_is_shown_as_text_and_never_runs(games_page):
    assert games_page.evaluate("window.pwned === undefined")
    assert games_page.evaluate("document.images.length") == 0
    assert games_page.evaluate("document.scripts.length") == 2  # the rows as JSON, and the list's own script
    choose(games_page, "games-bot", HOSTILE)
    seats = games_page.evaluate(
        "[...document.querySelectorAll('#games-rows td.games-seats span')].map(s => s.textContent)"
    )
    assert HOSTILE in seats or f"{HOSTILE} (faulted)" in seats
    options = games_page.evaluate("[...document.querySelectorAll('#games-bot option')].map(o => o.textContent)")
    assert HOSTILE in options
    assert page_log(games_page).errors() == []
    assert page_log(games_page).foreign_requests() == []
    assert len(page_log(games_page).requests()) == 1  # the page itself


def test_scores_seeds_and_replays_are_shown_exactly(games_page):
    big = next(record for record in IN_ORDER if BIG_SCORE in record.result.scores)
    row = f"#games-rows tr[data-game-id='{big['game_id']}']"
    cells = games_page.evaluate(f'[...document.querySelectorAll("{row} td")].map(cell => cell.innerText)')
    assert str(BIG_SCORE) in cells[4].split()
    assert str(big["spec"]["seed"]) == cells[9]
    code = games_page.evaluate(f'document.querySelector("{row} code.games-replay").textContent')
    assert code == replay(big)


@pytest.fixture(scope="module")
def real_report(tmp_path_factory) -> Path:
    """The report of a tiny real league (two built-ins and a crasher), played here without Ray."""
    from league.report.build import write_report  # here, so the games list alone is tested whatever the report's state

    folder = tmp_path_factory.mktemp("real-league")
    bots = [
        {"name": "random", "builtin": "versus2048.random"},
        {"name": "greedy", "builtin": "versus2048.greedy"},
        {"name": "crasher", "command": [sys.executable, str(BOTS / "v2048_crasher.py")]},
    ]
    league, specs = play_in_process(write_league(folder, bots=bots))
    write_report(league.output, league.config.name, list(league.bots), list(league.games), [s.game_id for s in specs])
    return league.output / "index.html"


@pytest.fixture
def report_page(page: Page, real_report: Path) -> Page:
    """The real report, loaded."""
    page.goto(real_report.resolve().as_uri())
    return page


def test_the_real_report_loads_clean_and_complete(report_page, record_property):
    page = report_page
    assert page_log(page).errors() == []
    assert page_log(page).foreign_requests() == []
    images = page.evaluate("[...document.images].map(i => [i.alt, i.complete && i.naturalWidth > 0])")
    assert images and all(loaded for _, loaded in images), images
    tables = page.evaluate(
        "[...document.querySelectorAll('table')].map(t =>"
        " [t.id || t.parentElement.dataset.table || t.outerHTML.slice(0, 80), t.querySelectorAll('tbody tr').length])"
    )
    assert tables and all(rows > 0 for _, rows in tables), tables
    page.screenshot(path=SCREENSHOT, full_page=True)
    assert SCREENSHOT.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    record_property("screenshot", str(SCREENSHOT))
    print(f"screenshot of the report: {SCREENSHOT}")


def test_the_real_reports_games_list_filters(report_page):
    page = report_page
    assert text_of(page, "games-count") == "showing 6 of 6 games"
    choose(page, "games-bot", "crasher")
    assert text_of(page, "games-count") == "showing 4 of 6 games"
    seats = page.evaluate("[...document.querySelectorAll('#games-rows td.games-seats')].map(cell => cell.innerText)")
    assert len(seats) == 4 and all("crasher (faulted)" in cell for cell in seats), seats
    choose(page, "games-bot", "")
    choose(page, "games-termination", "NORMAL")
    assert text_of(page, "games-count") == "showing 2 of 6 games"
    assert page_log(page).errors() == []
