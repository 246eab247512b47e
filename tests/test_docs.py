"""Each game's rules and protocol live in the repository, and the minimal bot of each README plays.

The README of ``engine/<game>/`` is what bot authors read: it must name every variant key of the
game, and its one ``python`` code block must be a bot that plays a whole match without a fault.
"""

import json
import re
from pathlib import Path

import pytest

from engine import GAMES
from league.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
HOW_TO_PLAY = {
    "versus2048": (["python3 bot.py", "greedy"], ["--set", "turns_per_player=60"]),
    "pk2048": (["python3 bot.py", "greedy"], []),
    "attack2048": (["python3 bot.py attack::python3 bot.py defend", "greedy"], ["--set", "max_plies_per_half=300"]),
    "geister": (["python3 bot.py", "greedy"], []),
    "nimmt": (["python3 bot.py", "random"], []),
    "fish": (["python3 bot.py", "random"], []),
    "codevs21": (["python3 bot.py"], []),  # solo: one bot
    "synthetic": (["python3 bot.py", "model"], []),
}


def readme(game: str) -> str:
    return (ROOT / "engine" / game / "README.md").read_text()


def test_every_registered_game_has_its_readme_linked_from_the_main_one():
    main_readme = (ROOT / "README.md").read_text()
    assert set(HOW_TO_PLAY) == set(GAMES), "a new game needs its README's minimal bot played here"
    for game in GAMES:
        assert (ROOT / "engine" / game / "README.md").exists()
        assert f"engine/{game}/README.md" in main_readme


def test_no_document_sends_readers_outside_the_repository():
    for path in [ROOT / "README.md", *(ROOT / "engine").glob("*/README.md")]:
        assert "../shared" not in path.read_text(), path


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_readme_names_every_variant_key_with_its_default(game):
    text = readme(game)
    for key, field in GAMES[game].model_fields.items():
        assert f"`{key}`" in text, f"{game} README does not name {key}"
        default = field.default if isinstance(field.default, str) else json.dumps(field.default)
        default = default.replace("(", "[").replace(")", "]").replace(",]", "]")  # tuples as YAML lists
        row = next((line for line in text.splitlines() if line.startswith(f"| `{key}`")), "")
        assert default.replace(" ", "") in row.replace(" ", "").replace("`", ""), f"{key}: default {default} in {row!r}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_readmes_minimal_bot_plays_a_whole_match_in_both_seats(game, tmp_path, capsys):
    blocks = re.findall(r"```python\n(.*?)```", readme(game), re.S)
    assert len(blocks) == 1, "exactly one python block: the minimal bot"
    tmp_path.chmod(0o755)
    (tmp_path / "bot.py").write_text(blocks[0])
    bots, options = HOW_TO_PLAY[game]
    for seat, seated in enumerate([bots, bots[::-1]][: len(bots)]):  # a solo game has one seat
        status = main(["play", game, *seated, "--cwd", f"{seat}:{tmp_path}", *options, "--json", "--seed", "5"])
        out, err = capsys.readouterr()
        assert status == 0, err
        data = json.loads(out)
        assert seat not in data["result"]["offenders"], (data["result"]["detail"], data["stderr"])
        assert data["result"]["termination"] in ("NORMAL", "MAX_PLIES"), data["result"]["detail"]
