"""A bot edited between two runs plays its games again; its earlier version's games are kept apart."""

import json
import shutil
import sys

import yaml

from tests.league.cluster.test_shipping import bot_folder


def edited_league(tmp_path):
    folder = bot_folder(tmp_path / "bots" / "mine")
    config = {
        "name": "edited",
        "game": "versus2048",
        "variants": {"short": {"turns_per_player": 15}},
        "bots": [
            {"name": "mine", "command": [sys.executable, "v2048_slow.py", "0"], "cwd": "../bots/mine"},
            {"name": "greedy", "builtin": "versus2048.greedy"},
        ],
        "games_per_pair": 2,
        "seed": 11,
        "concurrency": 2,
    }
    (tmp_path / "league").mkdir()
    path = tmp_path / "league" / "league.yaml"
    path.write_text(yaml.safe_dump(config))
    return folder, path


def stored(path):
    lines = (path.parent / "reports" / "edited" / "games.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def standings_games(folder):
    rows = (folder / "standings.csv").read_text().splitlines()
    header = rows[0].split(",")
    return {row.split(",")[header.index("bot")]: row.split(",")[header.index("games")] for row in rows[1:]}


def test_an_edited_bot_plays_its_games_again_and_its_earlier_games_are_kept_apart(
    ray_local, league_cli, tmp_path, monkeypatch
):
    monkeypatch.setenv("LEAGUE_DIGEST_CACHE", str(tmp_path / "digests.json"))
    folder, path = edited_league(tmp_path)
    status, _, err = league_cli("run", str(path), "--quiet")
    assert status == 0, err
    assert "2 played, 0 already stored" in err and "changed since" not in err
    first = stored(path)
    old = {record["spec"]["versions"]["mine"] for record in first}
    assert len(first) == 2 and len(old) == 1
    status, _, err = league_cli("run", str(path), "--quiet")
    assert status == 0 and "0 played, 2 already stored" in err, "unchanged: nothing played again"

    (folder / "v2048lib.py").write_text((folder / "v2048lib.py").read_text() + "\n# tuned\n")
    [was] = old
    status, out, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 0, err
    [line] = [line.strip() for line in out.splitlines() if "changed since" in line]
    assert line.startswith(f"mine changed since its 2 stored games (version {was[:8]} -> ")
    assert line.endswith("they are kept apart and its games are played again")
    assert "greedy changed" not in out

    status, _, err = league_cli("run", str(path), "--quiet")
    assert status == 0, err
    assert line in err and "2 played, 0 already stored" in err
    every = stored(path)
    assert every[:2] == first, "the earlier version's games stay in the store"
    new = {record["spec"]["versions"]["mine"] for record in every[2:]}
    assert len(new) == 1 and new != old
    assert {record["spec"]["versions"]["greedy"] for record in every} == {first[0]["spec"]["versions"]["greedy"]}

    report = (path.parent / "reports" / "edited" / "report.md").read_text()
    assert "## Earlier versions" in report
    assert f"mine, earlier version {was[:8]}: 2 games, not rated" in report
    assert standings_games(path.parent / "reports" / "edited") == {"mine": "2", "greedy": "2"}, "the version now"
    copied = tmp_path / "copied"  # the store alone: the last stored version of each bot is rated
    copied.mkdir()
    for name in ("games.jsonl", "moves.jsonl"):
        shutil.copy(path.parent / "reports" / "edited" / name, copied / name)
    status, _, err = league_cli("report", str(copied))
    assert status == 0, err
    assert f"mine, earlier version {was[:8]}: 2 games, not rated" in (copied / "report.md").read_text()
    assert standings_games(copied) == {"mine": "2", "greedy": "2"}

    status, _, err = league_cli("run", str(path), "--quiet")
    assert status == 0 and "changed since" not in err, "its games of the version now are stored: no change to tell"
