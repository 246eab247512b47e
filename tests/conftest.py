"""Shared test helpers: where the fake bots live, and running the CLI in-process."""

import json
import sys
from pathlib import Path

import pytest

from league.cli import main

BOTS = Path(__file__).resolve().parent / "bots"


def bot_command(script: str) -> str:
    """A BOT argument running one of tests/bots/ with this Python."""
    return f"{sys.executable} {BOTS / script}"


@pytest.fixture
def league_cli(capsys):
    """Run ``league ARGS``; returns (exit status, stdout, stderr)."""

    def run(*args: str):
        status = main(list(args))
        out, err = capsys.readouterr()
        return status, out, err

    return run


@pytest.fixture
def play_json(league_cli):
    """Run ``league play ... --json`` and return the parsed object."""

    def run(*args: str):
        status, out, err = league_cli("play", *args, "--json")
        assert status == 0, err
        return json.loads(out)

    return run


@pytest.fixture
def ray_local():
    """The one local Ray cluster the Ray tests share (started on first use, 2 CPUs)."""
    import ray

    if not ray.is_initialized():
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    return ray


def write_league(folder, **overrides) -> Path:
    """A small versus2048 league file of built-in bots in ``folder``; keys may be overridden."""
    import yaml

    config = {
        "name": "tiny",
        "game": "versus2048",
        "variants": {"short": {"turns_per_player": 15}},
        "bots": [
            {"name": "random", "builtin": "versus2048.random"},
            {"name": "greedy", "builtin": "versus2048.greedy"},
            {"name": "minimax", "builtin": "versus2048.minimax", "params": {"max_nodes": 500}},
        ],
        "games_per_pair": 2,
        "seed": 7,
        "concurrency": 2,
        "output": str(Path(folder) / "out"),
    }
    config.update(overrides)
    path = Path(folder) / "league.yaml"
    path.write_text(yaml.safe_dump(config))
    return path
