"""The knockout's report section (league.report.knockout): the bracket drawn, scores from the store, replay links."""

from __future__ import annotations

import random

from league.report.knockout import knockout_report
from league.report.page import render_html, render_markdown
from tests.league.plan.test_knockout_format import FORMAT, STRENGTH, by_strength, inputs, play, record


def knockout(elimination: str = "double", finish: bool = True):
    run = FORMAT.start(inputs(list(STRENGTH), elimination=elimination))
    stored = play(run, by_strength(STRENGTH), random.Random(5)) if finish else []
    return run, stored


def test_the_section_draws_the_bracket_with_every_series_score_and_a_replay_link_per_game(tmp_path):
    run, stored = knockout()
    parts = knockout_report(run.manifest(), stored)
    assert parts is not None
    for name, draw in parts.charts.items():
        draw(tmp_path / name)
    assert (tmp_path / "knockout.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = render_html("League cup", "", parts.sections, tmp_path)
    text = render_markdown("League cup", parts.sections)
    for game in stored:  # every game of every series links to its replay page, in both renderings
        assert f'href="replays/{game.game_id}.html"' in page
        assert f"(replays/{game.game_id}.html)" in text
    for key in ("W1.2", "W2.1", "L2.1", "GF"):
        assert f"<caption>{key}</caption>" in page
    assert "Winners' bracket" in page and "Losers' bracket" in page and "Grand final" in page
    final_games = " ".join(f"[{n}](replays/{spec.game_id}.html)" for n, spec in enumerate(run.games[-4:], 1))
    assert f"**Grand final**\n\n- GF: b (2) 4-0 d (4), b on (points); games {final_games}\n" in text
    assert "- L2.1: e (5) 4-0 c (3), e on (points)" in text  # the losers of W1.2 and W2.2
    assert "Champion: b." in text and "Placing: 1 b, 2 d, 3 a, 4 e, 5 c." in text
    frame = parts.tables["knockout.csv"]
    assert list(frame["series"]) == [series.key for series in run.bracket.series]
    assert frame["games"].sum() == len(stored)
    final = frame.set_index("series").loc["GF"]
    assert (final["upper"], final["lower"], final["upper_points"], final["lower_points"]) == ("b", "d", 4.0, 0.0)


def test_scores_are_counted_from_the_stored_games_and_an_open_bracket_says_what_is_to_play(tmp_path):
    run, _ = knockout("single", finish=False)
    first = run.games[:4]  # W1.2: d v e, seats swapped over two pairs
    assert [spec.seats for spec in first] == [("d", "e"), ("e", "d"), ("e", "d"), ("d", "e")]
    stored = [record(spec, [1, 2]) for spec in first]  # the first seat wins each: 2-2 over the four
    run.add(stored)
    parts = knockout_report(run.manifest(), stored[:3])  # the report counts what the store holds: d won one of three
    text = render_markdown("League cup", parts.sections)
    assert "- W1.2: d (4) 1-2 e (5), to play" in text
    assert "It is not over" in text and "Placing so far" in text
    assert "- W2.1: a (1) v winner of W1.2, to play" in text
    parts.charts["knockout.png"](tmp_path / "knockout.png")
    assert (tmp_path / "knockout.png").stat().st_size > 0


def test_only_games_with_a_replay_page_are_linked_and_leagues_without_a_knockout_have_no_section():
    run, stored = knockout("single")
    watch = {stored[0].game_id}
    text = render_markdown("League cup", knockout_report(run.manifest(), stored, watch).sections)
    assert text.count("(replays/") == 1
    assert knockout_report({"format": "round_robin"}, stored) is None


def test_the_same_games_give_the_same_chart_bytes(tmp_path):
    run, stored = knockout()
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        knockout_report(run.manifest(), list(reversed(stored)) if folder == "two" else stored).charts["knockout.png"](
            tmp_path / folder / "knockout.png"
        )
    assert (tmp_path / "one" / "knockout.png").read_bytes() == (tmp_path / "two" / "knockout.png").read_bytes()
