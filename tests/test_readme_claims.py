"""What the READMEs say of the command line and its defaults holds: the quick start's ``league``, ``league run``'s
and ``league standings``' usage lines, and the default clock.
"""

import argparse
import re
from pathlib import Path

from league.cli.main import build_parser
from league.match.record import ClockSettings

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
READMES = [ROOT / "README.md", *sorted((ROOT / "engine").glob("*/README.md"))]


def test_the_quick_start_says_how_the_bare_league_of_the_commands_below_is_found():
    quick_start = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert ". .venv/bin/activate" in quick_start and ".venv/bin/league" in quick_start
    first_bare = re.search(r"^league ", README, re.MULTILINE)
    assert first_bare is not None and README.index(". .venv/bin/activate") < first_bare.start()


def options(command: str) -> set[str]:
    """The long options of ``league COMMAND`` (``--help`` left out)."""
    parser = build_parser(command)
    [commands] = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    flags = {flag for action in commands.choices[command]._actions for flag in action.option_strings}
    return {flag for flag in flags if flag.startswith("--")} - {"--help"}


def test_the_usage_lines_of_run_and_standings_name_every_option():
    for command in ("run", "standings"):
        [usage] = [line for line in README.splitlines() if line.startswith(f"league {command} ")]
        missing = [flag for flag in sorted(options(command)) if flag not in usage]
        assert not missing, f"README's `league {command}` line lacks {missing}"
    assert "league standings FOLDER|FILE" in README


def test_no_readme_says_the_default_clock_is_wall_time():
    assert ClockSettings().kind == "own"
    wrong = re.compile(r"default (clock )?is (the )?(plain )?wall", re.IGNORECASE)
    for path in READMES:
        text = " ".join(path.read_text().split())  # a claim broken over lines is read whole
        found = wrong.search(text)
        assert found is None, f"{path.relative_to(ROOT)}: {text[found.start() - 80 : found.end() + 40]}"
