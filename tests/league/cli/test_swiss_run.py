"""``league run`` of a Swiss league end to end on the shared Ray cluster: the synthetic game, 5 bots (a bye a round)."""

import json

import yaml

from league.report.swiss import swiss_section
from league.store.results import league_store
from tests.league.report.test_format_order import shown_order, standings_order


def swiss_league(folder, **keys):
    config = {
        "name": "swiss5",
        "game": "synthetic",
        "variants": {"default": {"draw_rate": 0.2}},
        "bots": [
            {"name": name, "builtin": "synthetic.model", "params": {"elo": elo}}
            for name, elo in [("ace", 2000), ("bolt", 1800), ("cog", 1600), ("dart", 1400), ("echo", 1200)]
        ],
        "format": "swiss",
        "swiss": {"rounds": 3},
        "seed": 5,
        "concurrency": 2,
        "output": str(folder / "out"),
        **keys,
    }
    path = folder / "league.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def test_a_swiss_runs_its_rounds_reports_its_tie_breaks_a_rerun_plays_nothing_and_one_worker_plays_the_same(
    ray_local, league_cli, tmp_path
):
    path = swiss_league(tmp_path)
    status, out, err = league_cli("run", str(path))
    assert status == 0, err
    out_folder = tmp_path / "out"
    manifest = json.loads((out_folder / "league.json").read_text())
    swiss = manifest["swiss"]
    assert swiss["rounds_played"] == 3 and len(swiss["rounds_paired"]) == 3
    byes = [round_["bye"] for round_ in swiss["rounds_paired"]]
    assert len(set(byes)) == 3  # 5 bots: one sits out each round, never the same twice
    met = [frozenset(pair) for round_ in swiss["rounds_paired"] for pair in round_["pairings"]]
    assert len(met) == len(set(met)) == 6
    lines = (out_folder / "games.jsonl").read_text().splitlines()
    assert len(lines) == 3 * 2 * 2  # 3 rounds of 2 pairings, a seat-swapped pair each
    top = swiss["standings"][0]
    placed = [standing["bot"] for standing in swiss["standings"]]
    assert manifest["final_order"] == placed == shown_order(err) == standings_order(out_folder)  # one order
    assert f"swiss: {top['bot']} wins after 3 rounds with {top['score']:g} of 6 points (Buchholz" in err
    report = (out_folder / "report.md").read_text()
    assert "## Swiss" in report and "Sonneborn-Berger" in report
    swiss_part = report[report.index("## Swiss") : report.index("## ", report.index("## Swiss") + 1)]
    rows = [
        [cell.strip() for cell in line.split("|")[1:-1]] for line in swiss_part.splitlines() if line.startswith("|")
    ]
    assert rows[0] == ["place", "bot", "score", "Buchholz", "Sonneborn-Berger", "byes"]
    shown = [row for row in rows[2:] if len(row) == 6]
    assert [row[1] for row in shown] == [standing["bot"] for standing in swiss["standings"]]
    assert shown[0][2:5] == [f"{top['score']:g}", f"{top['buchholz']:g}", f"{top['sonneborn_berger']:g}"]
    assert sorted(int(row[5]) for row in shown) == [0, 0, 1, 1, 1]
    section = swiss_section(manifest, league_store(out_folder).records())
    assert section is not None and list(section.blocks[1].frame["bot"]) == [row["bot"] for row in swiss["standings"]]

    status, _, err = league_cli("run", str(path))
    assert status == 0, err
    assert "0 played, 12 already stored, 12 in all" in err
    assert (out_folder / "games.jsonl").read_text().splitlines() == lines  # nothing played again
    assert json.loads((out_folder / "league.json").read_text())["swiss"] == swiss

    alone = tmp_path / "alone"
    alone.mkdir()
    status, _, err = league_cli("run", str(swiss_league(alone, concurrency=1)))
    assert status == 0, err
    assert json.loads((alone / "out" / "league.json").read_text())["swiss"] == swiss  # one worker: the same rounds
    ids = {json.loads(line)["game_id"] for line in lines}
    assert {json.loads(line)["game_id"] for line in (alone / "out" / "games.jsonl").read_text().splitlines()} == ids


def test_validate_describes_a_swiss_and_refuses_rounds_the_field_cannot_pair(league_cli, tmp_path):
    path = swiss_league(tmp_path)
    status, out, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 0, err
    assert "swiss, 12 games (3 rounds, 2 games per pairing, a seat-swapped pair), seed 5" in out
    assert "5 bots: one sits out each round (a bye scores 2 points, a win of each game)" in out
    path = swiss_league(tmp_path, swiss={"rounds": 6})
    status, out, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert err == (
        f"league: error: {path}: swiss.rounds: 6 rounds need 6 opponents or byes for each bot, a bye at most once;"
        " this field of 5 bots allows at most 5 (N, as the field is odd: each bot sits out once): give rounds: 5 or"
        " fewer, or add bots\n"
    )
    assert not (tmp_path / "out").exists()
