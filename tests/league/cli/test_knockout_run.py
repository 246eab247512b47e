"""`league run` of a knockout on the shared Ray cluster: the bracket in the report, a rerun plays nothing.

Five synthetic built-ins of known strengths (far apart: the stronger wins nearly every game), one
pair a series: the report's bracket, the manifest's and the run's closing line must agree, and a
second run finds every series stored.
"""

from __future__ import annotations

import json

from tests.league.plan.test_knockout_format import knockout_file
from tests.league.report.test_format_order import shown_order, standings_order

ELO = {"a": 1500, "b": 3500, "c": 500, "d": 2500, "e": 1000}


def test_a_knockout_runs_reports_its_bracket_and_a_rerun_plays_nothing(ray_local, league_cli, tmp_path):
    bots = [{"name": name, "builtin": "synthetic.model", "params": {"elo": elo}} for name, elo in ELO.items()]
    path = knockout_file(tmp_path, bots=bots, pairs_per_series=1, extra_pairs=3)
    status, out, err = league_cli("run", str(path), "--quiet")
    assert status == 0, err
    folder = tmp_path / "out"
    manifest = json.loads((folder / "league.json").read_text())
    bracket = manifest["knockout"]
    assert manifest["format"] == "knockout"
    assert [series["key"] for series in bracket["series"]] == ["W1.2", "W2.2", "W2.1", "W3.1"]
    winners = {series["key"]: series["winner"] for series in bracket["series"]}
    assert winners == {"W1.2": "d", "W2.2": "b", "W2.1": "d", "W3.1": "b"}  # the stronger of each pair
    assert bracket["champion"] == "b" and bracket["placing"][:2] == ["b", "d"]
    assert manifest["final_order"] == bracket["placing"]  # kept for the standings, which follow it
    assert shown_order(err) == bracket["placing"] == standings_order(folder)  # the closing table, the report's
    games = [game for series in bracket["series"] for game in series["games"]]
    assert manifest["game_ids"] == games and len(games) >= 8  # one pair each, more for a level series
    stored = [json.loads(line)["game_id"] for line in (folder / "games.jsonl").read_text().splitlines()]
    assert sorted(stored) == sorted(games)
    assert "Champion: b, beating d" in err, err
    report = (folder / "report.md").read_text()
    assert "## Knockout" in report and "Champion: b." in report
    assert "- W3.1: d (4) " in report and ", b on (" in report
    for game in games:  # a replay link per game of the bracket, and its page
        assert f"(replays/{game}.html)" in report and (folder / "replays" / f"{game}.html").exists()
    assert (folder / "knockout.png").read_bytes()[:4] == b"\x89PNG"
    assert (folder / "knockout.csv").exists()

    status, out, err = league_cli("run", str(path), "--quiet")
    assert status == 0, err
    assert f"0 played, {len(games)} already stored" in err, err
    assert json.loads((folder / "league.json").read_text())["knockout"] == bracket

    # A run killed before the final: the final's games lost, a rerun plays them alone, the same games.
    final = set(bracket["series"][-1]["games"])
    lines = (folder / "games.jsonl").read_text().splitlines(keepends=True)
    (folder / "games.jsonl").write_text("".join(line for line in lines if json.loads(line)["game_id"] not in final))
    status, out, err = league_cli("run", str(path), "--quiet")
    assert status == 0, err
    assert f"{len(final)} played, {len(games) - len(final)} already stored" in err, err
    assert json.loads((folder / "league.json").read_text())["knockout"] == bracket

    # One worker instead of two: the same bracket, games and ids.
    alone = tmp_path / "alone"
    status, out, err = league_cli("run", str(path), "--quiet", "--concurrency", "1", "--output", str(alone))
    assert status == 0, err
    assert json.loads((alone / "league.json").read_text())["knockout"] == bracket


def test_a_knockout_of_nimmt_tables_sends_each_tables_best_on_and_a_rerun_plays_nothing(
    ray_local, league_cli, tmp_path
):
    bots = [{"name": f"n{k}", "builtin": "nimmt.greedy" if k % 2 else "nimmt.random"} for k in range(5)]
    path = knockout_file(tmp_path, bots=bots, pairs_per_series=1)
    text = path.read_text().replace("game: synthetic", "game: nimmt") + "players_per_table: 3\n"
    path.write_text(text)
    status, out, err = league_cli("run", str(path), "--quiet")
    assert status == 0, err
    folder = tmp_path / "out"
    manifest = json.loads((folder / "league.json").read_text())
    bracket = manifest["knockout"]
    assert bracket["kind"] == "tables"
    first, final = bracket["rounds"]
    assert [table["key"] for table in first] == ["T1.1", "T1.2"] and [t["bots"] for t in first] == [
        ["n0", "n3", "n4"],
        ["n1", "n2"],
    ]
    assert [table["key"] for table in final] == ["F"]
    assert sorted(final[0]["bots"]) == sorted(table["went_on"][0] for table in first)  # each table's best
    assert bracket["champion"] == final[0]["order"][0] == bracket["placing"][0]
    games = [game for tables in bracket["rounds"] for table in tables for game in table["games"]]
    assert manifest["game_ids"] == games and len(games) >= 3 + 2 + 2  # a game a seat rotation
    assert f"Champion: {bracket['champion']}, first at the final table" in err, err
    report = (folder / "report.md").read_text()
    assert "**Final table**" in report and all(f"(replays/{game}.html)" in report for game in games)
    status, out, err = league_cli("run", str(path), "--quiet")
    assert status == 0 and f"0 played, {len(games)} already stored" in err, err
