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
