"""The games list of the report without a browser: CSV, Markdown and the page's fragment as text.

The list's filters and pages in a browser are tested in test_browser.py beside it.
"""

import html
import io
import json
import re
import shlex

import pandas as pd
import pytest
from markdown_it import MarkdownIt  # a dependency of rich: renders report.md as a reader's viewer would

from league.report.games import (
    game_rows,
    games_frame,
    games_html,
    games_markdown,
    listed_rows,
    markdown_code,
    winner_text,
)
from tests.league.report.made_up_games import BIG_SCORE, HOSTILE, made_up_records, replay

RECORDS = made_up_records(450)
IN_ORDER = sorted(RECORDS, key=lambda record: record.spec.index)
FAULTED = {r.game_id for r in RECORDS if r.result.termination != "NORMAL"}


def embedded_rows(fragment: str) -> list[list]:
    blob = re.search(r'<script type="application/json" id="games-data">(.*?)</script>', fragment, re.S)
    assert blob is not None
    return json.loads(blob.group(1))["rows"]


def test_games_csv_has_every_game_in_schedule_order_with_exact_numbers():
    frame = games_frame(RECORDS, replay)
    text = frame.to_csv(index=False)
    back = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    assert list(back["game_id"]) == [record.game_id for record in IN_ORDER]
    big = back[back["scores"].str.contains(str(BIG_SCORE))]
    assert len(big) == 1 and str(BIG_SCORE) in big["scores"].iloc[0].split()
    assert list(back["seed"]) == [str(record.spec.seed) for record in IN_ORDER]
    crash = back[back["termination"] == "CRASH"].iloc[0]
    assert crash["offenders"] == "0" and "status 139" in crash["detail"]
    assert crash["reason_code"] == "PRESENTATION_ERROR_AT_MAIN_OR_ATTACK"
    assert set(back["replay"]) == {replay(record) for record in RECORDS}


def test_the_winner_is_named_or_the_game_is_a_draw_or_a_shared_first_place():
    assert winner_text(["a", "b"], [2, 1]) == "b"
    assert winner_text(["a", "b"], [1, 1]) == "draw"
    assert winner_text(["a", "b"], [2, 2]) == "none: every seat faulted"  # a double fault's places
    assert winner_text(["a", "b", "c", "d"], [1, 3, 1, 4]) == "shared: a, c"


def test_the_same_games_give_the_same_list_byte_for_byte_whatever_their_stored_order():
    shuffled = list(reversed(RECORDS))
    assert games_html(RECORDS, replay) == games_html(shuffled, replay)
    assert games_markdown(RECORDS, replay) == games_markdown(shuffled, replay)
    assert games_frame(RECORDS, replay).equals(games_frame(shuffled, replay))


def test_a_capped_list_keeps_every_faulted_game_and_says_where_the_rest_is():
    cap = len(FAULTED) + 50
    rows = game_rows(RECORDS)
    kept = listed_rows(rows, cap)
    assert len(kept) == cap
    assert FAULTED <= {row.game_id for row in kept}
    assert [row.index for row in kept] == sorted(row.index for row in kept)
    fragment = games_html(RECORDS, replay, max_rows=cap)
    assert {row[1] for row in embedded_rows(fragment)} == {row.game_id for row in kept}
    assert f"This page lists {cap} of 450 games: every faulted game" in fragment
    assert "games.csv has every game" in fragment
    markdown = games_markdown(RECORDS, replay, max_rows=cap)
    assert len([line for line in markdown.splitlines() if line.startswith("| ") and "`" in line]) == cap
    assert "games.csv has every game" in markdown


def test_a_cap_below_the_faults_keeps_faulted_games_only_and_says_so():
    kept = listed_rows(game_rows(RECORDS), 10)
    assert len(kept) == 10 and {row.game_id for row in kept} <= FAULTED
    assert f"lists 10 of 450 games: the first 10 of the {len(FAULTED)} faulted games;" in games_markdown(
        RECORDS, max_rows=10
    )


def test_an_uncapped_list_says_nothing_is_left_out():
    assert "games.csv has every game" not in games_html(RECORDS, replay)
    assert len(embedded_rows(games_html(RECORDS, replay))) == 450


def test_a_hostile_bot_name_cannot_end_the_data_or_make_markup():
    fragment = games_html(RECORDS, replay)
    assert "<script>window" not in fragment and "<img" not in fragment
    assert fragment.count("</script>") == 2  # the data's and the script's own ends
    assert any(HOSTILE in row[3] for row in embedded_rows(fragment))


def markdown_table_cells(markdown: str) -> list[list[str]]:
    """The text of every cell of the Markdown's tables as a CommonMark renderer (with tables) reads them."""
    rendered = MarkdownIt("commonmark").enable("table").render(markdown)
    assert "<script" not in rendered and "<img" not in rendered, "user text became markup"
    rows = re.findall(r"<tr>(.*?)</tr>", rendered, re.S)
    return [
        [html.unescape(re.sub("<[^>]+>", "", cell)) for cell in re.findall(r"<t[hd]>(.*?)</t[hd]>", row, re.S)]
        for row in rows
    ]


def test_a_hostile_bot_name_is_plain_text_in_the_markdown_table():
    rows = markdown_table_cells(games_markdown(RECORDS, replay))
    assert len(rows) == 1 + 100 and all(len(row) == len(rows[0]) for row in rows), "a name split a row"
    seats, winner, command = rows[0].index("seats"), rows[0].index("winner"), rows[0].index("replay")
    hostile = [row for row in rows if HOSTILE in row[seats]]
    assert hostile and any(row[winner] == HOSTILE for row in hostile)
    assert all(shlex.split(row[command])[3:5] == row[seats].split(" vs ") for row in hostile)


def test_a_replay_command_with_backticks_and_pipes_stays_one_code_span():
    assert markdown_code("echo `a` | b") == "``echo `a` \\| b``"
    assert markdown_code("`x`") == "`` `x` ``"


def test_without_a_replay_command_the_column_is_left_out():
    assert "replay" not in games_markdown(RECORDS).splitlines()[2]
    fragment = games_html(RECORDS)
    assert "replay (select to copy)" not in fragment
    assert all(row[13] == "" for row in embedded_rows(fragment))
    assert games_frame(RECORDS)["replay"].eq("").all()


@pytest.mark.parametrize("render", [games_html, games_markdown])
def test_no_games_gives_a_short_note(render):
    assert "no games" in render([], replay)
