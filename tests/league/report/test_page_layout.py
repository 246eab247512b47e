"""The report fits a window 1,400 px wide (headless chromium): nothing runs off the page, tables keep to their box.

The report is a real league's, played here without Ray: two variants, a built-in with a name long
enough to widen the games list, and a program (in a folder whose path makes its replay command
long) that dies at its 20th turn, so that every game it plays under the long variant is cut short
by a crash. The page must not scroll sideways; a table wider than its box scrolls inside it; the
termination column keeps room to be read; each game's replay command is one element, wholly in
sight, that a click selects whole and a button copies; the variants section fits its box and says
how many pairs were left out.
"""

from __future__ import annotations

import json
import shutil
import sys
import warnings
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd
import pytest

from tests.browser import page_log
from tests.conftest import BOTS, play_in_process, write_league

if TYPE_CHECKING:
    from playwright.sync_api import Page

WIDTH = 1400
HEIGHT = 900
LONG_NAME = "greedy-with-a-name-long-enough-to-widen-the-seats-column"
DOOMED_AT = 20
"""The turn the program dies at: past the short variant's 10 turns, within the long variant's 30."""

OVERFLOWING = """(() => {
  // Elements outside any box that scrolls sideways whose right edge passes the page's main column.
  const main = document.querySelector("main");
  const right = main.getBoundingClientRect().right - parseFloat(getComputedStyle(main).paddingRight);
  const scrolls = (element) => ["auto", "scroll"].includes(getComputedStyle(element).overflowX);
  return [...main.querySelectorAll("*")]
    .filter((element) => !element.parentElement.closest(".scroll") && !scrolls(element.parentElement))
    .map((element) => [element.tagName, element.className, element.getBoundingClientRect().right])
    .filter(([, , edge]) => edge > right + 0.5);
})()"""


@pytest.fixture(scope="module")
def wide_report(tmp_path_factory) -> Path:
    """The report of a two-variant league with a long bot name and a program that crashes at turn 20."""
    from league.report.build import write_report

    folder = tmp_path_factory.mktemp("wide-league")
    programs = folder / "a-folder-with-a-rather-long-name" / "and-another-below-it" / "late-crasher"
    programs.mkdir(parents=True)
    for name in ("v2048_late_crasher.py", "botio.py", "v2048lib.py"):
        shutil.copy(BOTS / name, programs / name)
    for path in (programs, *programs.parents):  # readable by the jailed bot's own uid
        if path == folder.parent:
            break
        path.chmod(0o755)
    bots = [
        {"name": "random", "builtin": "versus2048.random"},
        {"name": LONG_NAME, "builtin": "versus2048.greedy"},
        {"name": "late-crasher", "command": [sys.executable, str(programs / "v2048_late_crasher.py"), str(DOOMED_AT)]},
    ]
    variants = {"short": {"turns_per_player": 10}, "long": {"turns_per_player": 30}}  # long is the baseline (sorted)
    league, specs = play_in_process(write_league(folder, bots=bots, variants=variants))
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # matplotlib's "tight layout not applied": a name cut off
        write_report(
            league.output, league.config.name, list(league.bots), list(league.games), [s.game_id for s in specs]
        )
    games = pd.read_csv(league.output / "games.csv", dtype=str, keep_default_na=False)
    crashed = games[games["termination"] == "CRASH"]
    assert set(crashed["variant"]) == {"long"} and len(crashed) == 4, games[["variant", "seats", "termination"]]
    assert games["replay"].str.len().max() > 250
    return league.output


@pytest.fixture
def report_page(page: Page, wide_report: Path) -> Page:
    """The report, loaded and laid out in a window 1,400 px wide."""
    page.goto((wide_report / "index.html").resolve().as_uri())
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    return page


def test_nothing_runs_off_the_page_and_wide_tables_scroll_inside_their_box(report_page):
    page = report_page
    assert page.evaluate("window.innerWidth") == WIDTH
    page_width, window_width = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert page_width <= window_width, "the page scrolls sideways"
    assert page.evaluate(OVERFLOWING) == []
    boxes = page.evaluate(
        "[...document.querySelectorAll('main table')].map(t => [t.id || t.closest('[data-table]')?.dataset.table || '',"
        " getComputedStyle(t.parentElement).overflowX, t.parentElement.scrollWidth > t.parentElement.clientWidth])"
    )
    assert boxes and all(overflow == "auto" for _, overflow, _ in boxes), boxes
    wider = {name for name, _, scrolls in boxes if scrolls}
    assert "games-table" in wider, "the long name was meant to make the games list wider than its box"
    assert "variants" not in wider and "differences" not in wider, boxes
    terminations = page.evaluate(
        "[...document.querySelectorAll('#games-rows td.games-termination')].map(td =>"
        " [td.getBoundingClientRect().width / parseFloat(getComputedStyle(td).fontSize),"
        " td.scrollWidth <= td.clientWidth, [...td.children].map(span => span.getClientRects().length)])"
    )
    assert len(terminations) == 12
    for width, fits, lines in terminations:  # room to read; the termination and its reason code a line each
        assert width >= 15 and fits and lines[:2] == [1, 1], terminations
    assert page_log(page).errors() == [] and page_log(page).foreign_requests() == []


def test_each_replay_command_is_one_element_in_sight_selected_and_copied_whole(report_page, wide_report):
    page = report_page
    games = pd.read_csv(wide_report / "games.csv", dtype=str, keep_default_na=False)
    commands = dict(zip(games["game_id"], games["replay"], strict=True))
    shown = page.evaluate(
        """[...document.querySelectorAll('#games-rows tr.games-replay-row')].map(row => {
          const codes = row.querySelectorAll('code.games-replay'), code = codes[0];
          const box = row.closest('.scroll').getBoundingClientRect(), own = code.getBoundingClientRect();
          return [row.dataset.gameId, codes.length, code.textContent, getComputedStyle(code).userSelect,
                  own.left >= box.left && own.right <= box.right];
        })"""
    )
    assert len(shown) == len(commands) == 12
    for game_id, count, text, select, in_sight in shown:
        assert count == 1 and text == commands[game_id] and select == "all" and in_sight, (game_id, text)
    copied = page.evaluate(
        """(() => {
          const row = document.querySelector('#games-rows tr.games-replay-row');
          const button = row.querySelector('button.games-copy');
          button.click();
          return [row.dataset.gameId, window.getSelection().toString(), button.textContent];
        })()"""
    )
    assert copied[1] == commands[copied[0]]
    assert copied[2] in ("copied", "selected: press Ctrl+C")
    assert page_log(page).errors() == []


def test_the_variants_section_says_how_many_pairs_were_left_out(report_page, wide_report):
    page = report_page
    differences = pd.read_csv(wide_report / "variant_differences.csv")
    assert set(differences["faulted_pairs"]) == {4} and set(differences["pairs"]) == {2}
    bullets = page.evaluate("[...document.querySelectorAll('#variants-compared li')].map(li => li.textContent)")
    assert any(
        text.startswith("short vs long (2 paired games; 4 pairs left out, where either game ended by a fault)")
        for text in bullets
    ), json.dumps(bullets, indent=1)
    figures = page.evaluate(
        "[...document.querySelectorAll('[data-table=variants] tbody tr')].map(tr => tr.cells[0].textContent)"
    )
    assert figures[:4] == ["games", "distinct_games", "faults", "mean_score"]


def test_the_termination_column_is_not_squeezed_by_a_wide_list(page, tmp_path):
    """Long seat names (kept on one line) and long commands: the termination still gets 16em, not one word a line."""
    from league.report.games import games_html
    from tests.league.report.made_up_games import made_up_records, replay

    detail = "seat 1 was killed by signal SIGSEGV before answering turn 20 of its game"
    records = [  # no long reason code to hold the column open: only the detail's words
        replace(record, result=replace(record.result, reason_code="", detail=detail)) for record in made_up_records(30)
    ]
    document = tmp_path / "games.html"
    document.write_text(
        "<!doctype html><html><head><meta charset='utf-8'><title>games</title></head>"
        f"<body><main style='padding:0 2em'>{games_html(records, replay)}</main>"
    )
    page.goto(document.resolve().as_uri())
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    widths = page.evaluate(
        "[...document.querySelectorAll('#games-rows td.games-termination')].map(td =>"
        " td.getBoundingClientRect().width / parseFloat(getComputedStyle(td).fontSize))"
    )
    assert widths and min(widths) >= 15, widths
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
