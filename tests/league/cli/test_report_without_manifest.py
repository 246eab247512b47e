"""``league report`` of a store copied without ``league.json``: the records name their game, so the report is whole.

Three real small leagues (pk2048 with two variants, versus2048, nimmt at tables) are played by the
league's own worker, reported with their manifest, then copied without it (``games.jsonl`` and
``moves.jsonl`` alone) and reported again: every table, chart and replay page is the same, and so
is ``report.md`` but for the header's facts that only the manifest holds. A store whose games name
no game (an older version's) or two games is one line, exit status 2, and nothing written.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
import yaml

from engine import GAMES
from league.report.build import CHARTS, TABLES
from tests.conftest import play_in_process, refusal

LEAGUES = {
    "pk2048": {
        "variants": {
            "to64": {"target_tile": 64, "games_per_match": 1},
            "to128": {"target_tile": 128, "games_per_match": 1},
        },
        "bots": [{"name": "random", "builtin": "pk2048.random"}]
        + [{"name": name, "builtin": "pk2048.greedy"} for name in ("greedy", "greedy-2")],
        "games_per_pair": 2,
    },
    "versus2048": {
        "variants": {"short": {"turns_per_player": 10}},
        "bots": [
            {"name": "random", "builtin": "versus2048.random"},
            {"name": "minimax", "builtin": "versus2048.minimax", "params": {"max_nodes": 200}},
        ],
        "games_per_pair": 2,
    },
    "nimmt": {
        "variants": {"one_deal": {"deals": 1}},
        "bots": [{"name": f"random-{n}", "builtin": "nimmt.random"} for n in range(3)]
        + [{"name": "greedy", "builtin": "nimmt.greedy"}],
        "format": "tables",
        "players_per_table": [3],
        "tables": 2,
    },
}
MANIFEST_FACTS = ("- format:", "- seed:", "- games scored:", "- league file:", "- played:", "- wall time:")
"""The header's facts that come from ``league.json`` (and the games scheduled, counted from it)."""
NO_MANIFEST_LINE = "- no league.json here:"


def played_league(folder: Path, game: str) -> Path:
    """A league of ``game`` played in this process by the league's worker; its output folder."""
    config = {"name": f"tiny-{game}", "game": game, "seed": 7, "concurrency": 1, **LEAGUES[game]}
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "league.yaml"
    path.write_text(yaml.safe_dump({**config, "output": str(folder / "out")}))
    play_in_process(path)
    return folder / "out"


def copied_store(output: Path, copy: Path) -> Path:
    """The league's store alone in a folder of its own (no ``league.json``)."""
    copy.mkdir()
    for name in ("games.jsonl", "moves.jsonl"):
        shutil.copy(output / name, copy / name)
    return copy


def files_below(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


def without_header_facts(report: str) -> list[str]:
    return [line for line in report.splitlines() if not line.startswith((*MANIFEST_FACTS, NO_MANIFEST_LINE))]


@pytest.mark.parametrize("game", sorted(LEAGUES))
def test_a_store_copied_without_its_manifest_gives_the_manifests_report(league_cli, tmp_path, game):
    output = played_league(tmp_path, game)
    copy = copied_store(output, tmp_path / "copy")
    for folder in (output, copy):
        status, out, err = league_cli("report", str(folder))
        assert (status, out, err) == (0, f"report: {folder / 'index.html'}\n", "")

    with_manifest, without = files_below(output), files_below(copy)
    assert sorted(with_manifest) == sorted([*without, "league.json"])
    compared = [name for name in without if name in (*TABLES, *CHARTS) or name.startswith("replays/")]
    assert {"games.csv", "standings.csv", "replays/highlights.html"} <= set(compared)
    assert [name for name in compared if with_manifest[name] != without[name]] == []

    report, copied_report = (folder.joinpath("report.md").read_text() for folder in (output, copy))
    assert without_header_facts(report) == without_header_facts(copied_report)
    (said,) = [line for line in copied_report.splitlines() if line.startswith(NO_MANIFEST_LINE)]
    assert "the format, the league seed, the games scheduled" in said and "runs' dates" in said
    assert f"- game: {game}\n" in copied_report
    label = GAMES[game].score_label
    assert (f"the game's own score, here {label}" in copied_report) == (label != "score")
    with (copy / "games.csv").open() as handle:
        commands = [row["replay"] for row in csv.DictReader(handle)]
    assert commands and all(command.startswith(f"league play {game} ") for command in commands)


def test_the_copy_lists_the_bots_in_the_league_files_order_not_the_order_they_first_sat(league_cli, tmp_path):
    output = played_league(tmp_path, "nimmt")
    records = [json.loads(line) for line in (output / "games.jsonl").read_text().splitlines()]
    first_seated = list(
        dict.fromkeys(name for r in sorted(records, key=lambda r: r["spec"]["index"]) for name in r["spec"]["seats"])
    )
    in_the_file = [bot["name"] for bot in LEAGUES["nimmt"]["bots"]]
    assert first_seated != in_the_file, "the first tables seat the bots in another order"
    copy = copied_store(output, tmp_path / "copy")
    assert league_cli("report", str(copy))[0] == 0
    header = (copy / "report.md").read_text().split("## ")[2]
    listed = [
        line.split("|")[1].strip() for line in header.splitlines() if line.startswith("| ") and "built-in" in line
    ]
    assert listed == in_the_file


def old_style(store: Path, games: Path) -> None:
    """``games``'s results lines as a version before records named their game wrote them, into ``store``."""
    lines = []
    for line in games.read_text().splitlines():
        record = json.loads(line)
        del record["spec"]["game"]
        lines.append(json.dumps(record, separators=(",", ":")) + "\n")
    store.write_text("".join(lines))


def test_a_store_whose_games_name_no_game_and_no_manifest_is_one_line_and_nothing_written(league_cli, tmp_path):
    output = played_league(tmp_path, "versus2048")
    old = copied_store(output, tmp_path / "old")
    old_style(old / "games.jsonl", output / "games.jsonl")
    before = files_below(old)
    line = refusal(league_cli, "report", str(old))
    assert line == (
        f"league: error: {old}: no league.json, and its games do not name their game (stored by an older version);"
        " put the league's league.json back in the folder, or `league run` the league's file with this folder as"
        " its output to write it (the stored games are kept)"
    )
    game_id = json.loads((old / "games.jsonl").read_text().splitlines()[0])["game_id"]
    assert refusal(league_cli, "replay", str(old), game_id) == line
    assert files_below(old) == before, "nothing written"


def test_a_store_whose_games_name_two_games_is_one_line_and_nothing_written(league_cli, tmp_path):
    pk = played_league(tmp_path / "pk", "pk2048")
    versus = played_league(tmp_path / "versus", "versus2048")
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "games.jsonl").write_text((pk / "games.jsonl").read_text() + (versus / "games.jsonl").read_text())
    line = refusal(league_cli, "report", str(mixed))
    assert line.startswith(f"league: error: {mixed}: its games name 2 games (pk2048, versus2048)"), line
    assert "a folder of their own" in line
    assert sorted(path.name for path in mixed.iterdir()) == ["games.jsonl"], "nothing written"
