"""`league run` of a round-robin qualifier then a knockout of its best: one run plays both, and resumes.

Five synthetic built-ins far apart in strength (the stronger wins nearly every game), so the
qualifier's best 4 and the champion are known: the report shows both stages with the bracket and a
replay link for every final game; a rerun plays nothing; a store that lost some qualifier games and
the final replays exactly those, to the same bracket.
"""

from __future__ import annotations

import json

import yaml

from tests.league.report.test_format_order import shown_order, standings_order

ELO = {"a": 1500, "b": 3500, "c": 500, "d": 2500, "e": 1000}


def test_a_qualifier_then_finals_plays_both_reports_both_and_resumes(ray_local, league_cli, tmp_path):
    data = {
        "name": "cup",
        "game": "synthetic",
        "seed": 3,
        "concurrency": 2,
        "output": "out",
        "finals": {"format": "knockout", "best": 4},
        "knockout": {"pairs_per_series": 1, "extra_pairs": 3},
        "bots": [{"name": name, "builtin": "synthetic.model", "params": {"elo": elo}} for name, elo in ELO.items()],
    }
    path = tmp_path / "league.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    status, out, err = league_cli("run", str(path), "--quiet")
    assert status == 0, err
    folder = tmp_path / "out"
    manifest = json.loads((folder / "league.json").read_text())
    assert manifest["format"] == "round_robin"
    assert manifest["finals"] == {"format": "knockout", "best": 4, "finalists": ["b", "d", "a", "e"]}
    bracket = manifest["knockout"]
    assert bracket["champion"] == "b" and bracket["seeds"] == ["b", "d", "a", "e"]
    placed = [*bracket["placing"], "c"]  # the finals' placing, then the bot they left out
    assert manifest["final_order"] == placed == shown_order(err) == standings_order(folder)
    finals = [game for series in bracket["series"] for game in series["games"]]
    assert manifest["game_ids"][:20] != finals and manifest["game_ids"][20:] == finals  # 10 pairs, then the finals
    assert "finals: b, d, a, e went on" in err and "Champion: b, beating d" in err, err
    report = (folder / "report.md").read_text()
    assert "## Finals: a knockout of the best 4 of the round robin" in report and "## Standings" in report
    for game in finals:
        assert f"(replays/{game}.html)" in report and (folder / "replays" / f"{game}.html").exists()
    assert (folder / "knockout.png").read_bytes()[:4] == b"\x89PNG"

    status, out, err = league_cli("run", str(path), "--quiet")
    assert status == 0 and f"0 played, {len(manifest['game_ids'])} already stored" in err, err

    lost = set(manifest["game_ids"][:3]) | set(bracket["series"][-1]["games"])
    lines = (folder / "games.jsonl").read_text().splitlines(keepends=True)
    (folder / "games.jsonl").write_text("".join(line for line in lines if json.loads(line)["game_id"] not in lost))
    status, out, err = league_cli("run", str(path), "--quiet")
    assert status == 0, err
    assert f"{len(lost)} played, {len(manifest['game_ids']) - len(lost)} already stored" in err, err
    again = json.loads((folder / "league.json").read_text())
    assert again["knockout"] == bracket and again["finals"] == manifest["finals"]
