"""A bot sees only its own files: a cheating bot reads neither the league file, nor the store, nor a neighbour's book.

The cheater (tests/bots/v2048_secret_reader.py) plays legal moves while it looks for secrets upward
from where it runs and from its own folder, beside them, and where it is told to guess; it says on
stderr what it could read, and the store keeps that with each game. It runs as an organiser would
write it: without a ``cwd`` of its own, so in the league file's folder, beside the league file, the
report folder and another bot's folder. Every secret is readable by all users on the host, so only
the jail can keep it out of sight.
"""

import json
import shlex
import shutil
from pathlib import Path

import pytest
import yaml

from league.store.results import ResultStore
from sandbox.jail import isolation_problem
from tests.conftest import BOTS

needs_bwrap = pytest.mark.skipif(isolation_problem() is not None, reason=f"no jail here: {isolation_problem()}")

SLOW_MACHINE_TIMES = {"pregame_time_ms": 60000, "turn_time_ms": 30000, "total_time_ms": 300000}
"""The cheater looks around before its first reply: room for that on a loaded machine."""
BOOK = "the rival's opening book: e4 e5 Nf3"


def readable(*paths: Path) -> None:
    """Make files and folders readable by every user (as a careless organiser leaves them)."""
    for path in paths:
        for entry in [path, *path.rglob("*")] if path.is_dir() else [path]:
            entry.chmod(0o755 if entry.is_dir() else 0o644)


def contest(root: Path) -> dict[str, Path]:
    """An organiser's folder: ``bots/reader`` (the cheater's files), ``bots/rival`` (a program and its book)."""
    reader, rival = root / "bots" / "reader", root / "bots" / "rival"
    for folder, files in ((reader, ["v2048_secret_reader.py"]), (rival, ["v2048_judge_style.py"])):
        folder.mkdir(parents=True)
        for name in [*files, "v2048lib.py", "botio.py"]:
            shutil.copy(BOTS / name, folder / name)
    (rival / "book.txt").write_text(BOOK)
    readable(root)
    return {"reader": reader, "rival": rival, "book": rival / "book.txt"}


def guesses(*paths: Path) -> list[str]:
    """The cheater's ``--guess=`` options: what a contestant who knows the organiser's layout would try."""
    return [f"--guess={path}" for path in paths]


def reader_tails(output: Path) -> list[str]:
    """The stderr of the cheater in every stored game (one tail a game)."""
    store = ResultStore(output / "games.jsonl")
    records = store.records()
    details = store.details(record["game_id"] for record in records)
    tails = []
    for record in records:
        seat = record["spec"]["seats"].index("reader")
        tails += [tail["text"] for tail in details[record["game_id"]]["stderr"] if tail["seat"] == seat]
    return tails


def assert_nothing_read(tails: list[str], secrets: Path) -> None:
    """Each tail says the cheater looked and read nothing under ``secrets``."""
    assert tails, "the cheater left no stderr"
    for text in tails:
        leaked = [line for line in text.splitlines() if line.startswith("READ ") and str(secrets) in line]
        assert leaked == [], f"a bot read what it must not see: {leaked}"
        assert "secrets read: 0 of" in text, text
        assert BOOK not in text


@needs_bwrap
def test_a_bot_in_a_real_league_reads_no_league_file_no_store_and_no_neighbours_book(ray_local, league_cli, tmp_path):
    root = tmp_path / "contest"
    files = contest(root)
    league_file, output = root / "league.yaml", root / "reports" / "secrets"
    config = {
        "name": "secrets",
        "game": "versus2048",
        "variants": {"short": {"turns_per_player": 4, **SLOW_MACHINE_TIMES}},
        "bots": [
            {
                "name": "reader",
                "command": ["python3", "bots/reader/v2048_secret_reader.py"]
                + guesses(league_file, output, output / "games.jsonl", output / "moves.jsonl", files["book"]),
            },
            {"name": "rival", "command": ["python3", "v2048_judge_style.py"], "cwd": "bots/rival"},
        ],
        "games_per_pair": 2,
        "seed": 2024,
        "concurrency": 2,
    }
    for games_per_pair in (2, 4):  # the second run plays new games with the first one's store beside it
        league_file.write_text(yaml.safe_dump({**config, "games_per_pair": games_per_pair}))
        readable(league_file)
        status, _, err = league_cli("run", str(league_file))
        assert status == 0, err
        assert (output / "games.jsonl").exists() and (output / "moves.jsonl").exists()
        readable(output)  # the store too: only the jail stands between it and the bot
    tails = reader_tails(output)
    assert len(tails) == 4, "all four games kept the cheater's stderr"
    assert_nothing_read(tails, root)


@needs_bwrap
def test_a_bot_of_league_play_reads_nothing_of_the_folder_it_runs_in(play_json, tmp_path, monkeypatch):
    root = tmp_path / "contest"
    files = contest(root)
    league_file, store = root / "league.yaml", root / "reports" / "old" / "games.jsonl"
    store.parent.mkdir(parents=True)
    league_file.write_text("seed: 12345  # the league's secret\n")
    store.write_text(json.dumps({"game_id": "g", "seed": 12345}) + "\n")
    readable(root)
    monkeypatch.chdir(root)
    reader = shlex.join(["python3", "bots/reader/v2048_secret_reader.py", *guesses(league_file, store, files["book"])])
    sets = [word for key, value in SLOW_MACHINE_TIMES.items() for word in ("--set", f"{key}={value}")]
    data = play_json("versus2048", reader, "greedy", "--set", "turns_per_player=3", *sets, "--stderr")
    assert data["result"]["termination"] == "NORMAL", data["result"]["detail"]
    assert_nothing_read([tail["text"] for tail in data["stderr"] if tail["seat"] == 0], root)
    assert "secrets read: 0 of" in data["stderr"][0]["text"], "it tried, and read nothing"
