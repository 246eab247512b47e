"""The league seed is a secret until the games are played: drawn at the first run, stored, reused, then published.

A league file without ``seed`` draws one from the OS at its first run and stores it in its folder
before any game is played (readable by its owner alone); no other file holds it, ``league.json``
included, until every game is stored; every later run reuses it, the report states it, a damaged
stored seed or a file's seed that differs from it stops the league in one line with nothing written,
and a bot that knows the public seed derivation cannot predict a built-in's hidden geister setup.
"""

import json
import os
import sys
from pathlib import Path

import pytest
import yaml

from engine.core import derive_seed
from league.cluster.runner import run_league, schedule, start_run
from league.plan.config import load_league
from league.plan.league_schedule import league_plan
from league.plan.manifest import read_manifest
from league.plan.seed import SEED_FILE, keep_seed
from league.replay.command import replay_command
from league.store.results import ResultStore
from tests.conftest import BOTS, write_league

SMALL = {
    "variants": {"short": {"turns_per_player": 5}},
    "bots": [
        {"name": "random", "builtin": "versus2048.random"},
        {"name": "greedy", "builtin": "versus2048.greedy"},
    ],
    "concurrency": 1,
}


def league_without_seed(folder: Path, **overrides) -> Path:
    """A two-game versus2048 league file of built-ins with no ``seed`` key."""
    path = write_league(folder, **{**SMALL, **overrides})
    config = yaml.safe_load(path.read_text())
    config.pop("seed", None)
    path.write_text(yaml.safe_dump(config))
    return path


def stored_seed(folder: Path) -> int:
    return json.loads((folder / SEED_FILE).read_text())["seed"]


def folder_bytes(folder: Path) -> dict[str, bytes | None]:
    """Every path under ``folder`` with its bytes (None for a folder): what a refusal must leave as it was."""
    return {str(path.relative_to(folder)): None if path.is_dir() else path.read_bytes() for path in folder.rglob("*")}


def played_folder(folder: Path, seed_text: str) -> Path:
    """An output folder as a run leaves it (a store, a manifest), with ``seed_text`` as its stored seed."""
    out = folder / "out"
    out.mkdir()
    (out / "games.jsonl").write_text('{"game_id": "abc"}\n')
    (out / "league.json").write_text('{"seed": 123}\n')
    (out / SEED_FILE).write_text(seed_text)
    return out


def one_line_error(status, err, *words):
    assert status == 2, err
    assert err.startswith("league: error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, err


def test_a_league_without_seed_stores_a_drawn_seed_before_any_game_and_every_run_reuses_it(
    ray_local, league_cli, tmp_path
):
    path = league_without_seed(tmp_path)
    league = load_league(path)
    seen = []  # (games stored, whether the seed is) at each progress call: the first comes before any game
    summary = run_league(league, on_progress=lambda done, _: seen.append((done, (league.output / SEED_FILE).exists())))
    assert summary.played == summary.total == 2
    assert seen[0] == (0, True), "the seed is stored before the first game is"
    seed = stored_seed(league.output)
    manifest = read_manifest(league.output)
    assert manifest["seed"] == seed and manifest["seed_drawn"]
    records = ResultStore(league.output / "games.jsonl").records()
    assert {record.spec.seed for record in records} == {derive_seed(seed, "match", "greedy,random", 0)}
    for record in records:  # each replay command gives its game's own seed
        assert f"--seed {record['spec']['seed']} " in replay_command(manifest, record) + " "
    stored = folder_bytes(league.output)

    status, out, err = league_cli("run", str(path), "--quiet")
    assert status == 0, err
    assert "0 played, 2 already stored" in err
    assert f"seed {seed} (drawn at the first run" in err
    assert (league.output / SEED_FILE).read_bytes() == stored[SEED_FILE]
    assert (league.output / "games.jsonl").read_bytes() == stored["games.jsonl"], "nothing played twice"
    report = (league.output / "report.md").read_text()
    assert f"- seed: {seed} (drawn from the OS at the first run" in report
    assert "kept secret in the league's folder until the games were played" in report
    assert f"seed: {seed} (drawn from the OS" in (league.output / "index.html").read_text()
    status, _, err = league_cli("report", str(league.output))
    assert status == 0, err
    assert f"- seed: {seed} (drawn" in (league.output / "report.md").read_text()

    again = run_league(load_league(path), fresh=True)
    assert again.played == 2
    assert stored_seed(league.output) != seed, "--fresh starts over on a new seed"


def test_two_fresh_leagues_draw_different_seeds(tmp_path):
    seeds = []
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        league = load_league(league_without_seed(tmp_path / name))
        league.output.mkdir()
        assert keep_seed(league).stored
        seeds.append(stored_seed(league.output))
    assert seeds[0] != seeds[1]


def test_a_run_that_finds_a_seed_stored_since_it_drew_its_own_plays_on_the_stored_one(tmp_path):
    path = league_without_seed(tmp_path)
    late, early = load_league(path), load_league(path)
    drawn = league_plan(late)  # drawn on a seed of its own, not stored yet
    late_ids = [spec.game_id for spec in start_run(drawn.inputs).games]
    early.output.mkdir()
    stored = keep_seed(early)  # another run took the folder first and stored its seed
    assert keep_seed(late, drawn.seed) == stored and stored_seed(late.output) == stored.value
    on_stored = start_run(drawn.on_seed(stored).inputs).games
    assert [spec.game_id for spec in on_stored] == [spec.game_id for spec in schedule(early)] != late_ids


def test_a_seed_written_in_the_file_is_used_and_stores_nothing(tmp_path):
    league = load_league(write_league(tmp_path, **SMALL, seed=42))
    league.output.mkdir()
    assert keep_seed(league).value == 42
    assert not (league.output / SEED_FILE).exists()


def test_a_folder_an_earlier_version_played_goes_on_with_the_seed_it_used(tmp_path):
    path = league_without_seed(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "league.json").write_text('{"seed": 0, "game": "versus2048"}\n')  # before seeds were drawn
    league = load_league(path)
    assert keep_seed(league).value == 0, "its stored games are resumed, not played again on a new seed"
    assert not (out / SEED_FILE).exists()


def test_validate_writes_nothing_and_says_the_seed_is_drawn_at_the_first_run(league_cli, tmp_path):
    path = league_without_seed(tmp_path)
    before = folder_bytes(tmp_path)
    status, out, err = league_cli("validate", str(path))
    assert status == 0, err
    assert "seed drawn from the OS at the first run" in out
    assert folder_bytes(tmp_path) == before, "nothing is written"

    played_folder(tmp_path, '{"seed": 123, "drawn": "2024-05-01 12:00 UTC"}\n')
    before = folder_bytes(tmp_path)
    status, out, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 0, err
    assert "seed 123 (drawn at the first run, 2024-05-01 12:00 UTC; stored in" in out
    assert folder_bytes(tmp_path) == before


@pytest.mark.parametrize(
    ("seed_text", "words"),
    [
        ('{"seed": 12', "damaged (not JSON)"),
        ('{"drawn": "2024-05-01 12:00 UTC"}\n', "damaged (no seed in it)"),
        ('{"seed": -4, "drawn": "2024-05-01 12:00 UTC"}\n', "damaged (seed -4 is not a whole number"),
        ('{"seed": "12", "drawn": "2024-05-01 12:00 UTC"}\n', 'damaged (seed "12" is not a whole number'),
        ('{"seed": 12}\n', "damaged (no date of its draw in it)"),
        (b"\xff\xfe", "damaged (not text)"),
        (None, "cannot read the league's stored seed"),
    ],
    ids=["torn", "no-seed", "negative", "string", "no-date", "binary", "unreadable"],
)
def test_a_damaged_or_unreadable_stored_seed_is_one_line_and_nothing_is_written(league_cli, tmp_path, seed_text, words):
    path = league_without_seed(tmp_path, output="out")
    out = played_folder(tmp_path, "")
    seed_file = out / SEED_FILE
    if seed_text is None:  # a folder where the file should be: it cannot be read
        seed_file.unlink()
        seed_file.mkdir()
    elif isinstance(seed_text, bytes):
        seed_file.write_bytes(seed_text)
    else:
        seed_file.write_text(seed_text)
    before = folder_bytes(tmp_path)
    for command in ("run", "validate"):
        status, _, err = league_cli(command, str(path), "--no-estimate" if command == "validate" else "--quiet")
        one_line_error(status, err, str(seed_file), words, "put it back", f"league run {path} --fresh")
        assert folder_bytes(tmp_path) == before, f"{command} wrote nothing"


def test_a_seed_in_the_file_other_than_the_stored_one_is_one_line_naming_both(league_cli, tmp_path):
    path = write_league(tmp_path, **SMALL, seed=7, output="out")
    played_folder(tmp_path, '{"seed": 123, "drawn": "2024-05-01 12:00 UTC"}\n')
    before = folder_bytes(tmp_path)
    for command in ("run", "validate"):
        status, _, err = league_cli(command, str(path), "--no-estimate" if command == "validate" else "--quiet")
        one_line_error(status, err, "the file says 7", "holds 123", "leave seed out of the file", "--fresh")
        assert folder_bytes(tmp_path) == before, f"{command} wrote nothing"
    path = write_league(tmp_path, **SMALL, seed=123, output="out")
    status, out, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 0 and "seed 123" in out, err


def cheat_league(folder: Path, **overrides) -> Path:
    """A geister league of the seed cheater against a random built-in: two games, unjailed (it imports the project)."""
    cheat = [sys.executable, str(BOTS / "geister_seed_cheat.py"), "cheat", "random", "geister.random", str(folder)]
    config = {
        "name": "cheat",
        "game": "geister",
        "variants": {"short": {"max_plies": 30}},
        "bots": [{"name": "cheat", "command": cheat}, {"name": "random", "builtin": "geister.random"}],
        "games_per_pair": 2,
        "concurrency": 1,
        "sandbox": "none",
        "output": str(folder / "out"),
        **overrides,
    }
    path = folder / "league.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def cheat_verdicts(folder: Path) -> list[str]:
    """What the cheater said of each game: ``hit`` or ``miss``."""
    store = ResultStore(folder / "out" / "games.jsonl")
    records = store.records()
    details = store.details(record.game_id for record in records)
    verdicts = []
    for record in records:
        said = " ".join(tail["text"] for tail in details[record.game_id].get("stderr", []))
        verdicts += [word for word in said.split() if word in ("hit", "miss")]
    assert len(verdicts) == len(records) == 2, [details[r.game_id] for r in records]
    return verdicts


def test_a_bot_that_knows_the_seed_derivation_predicts_a_builtins_hidden_setup_only_from_a_seed_it_can_read(
    ray_local, tmp_path
):
    known, secret = tmp_path / "known", tmp_path / "secret"
    known.mkdir()
    secret.mkdir()
    run_league(load_league(cheat_league(known, seed=5)))
    assert cheat_verdicts(known) == ["hit", "hit"], "the cheat works where the league file gives the seed"
    run_league(load_league(cheat_league(secret)))
    assert cheat_verdicts(secret).count("hit") < 2, "a drawn seed leaves the cheater guessing"


class Interrupt:
    """An ``on_progress`` that reads ``league.json`` at each call and stops the run (Ctrl-C) after ``after`` games."""

    def __init__(self, output: Path, after: int | None) -> None:
        self.output, self.after, self.manifests = output, after, []

    def __call__(self, done: int, total: int) -> None:
        self.manifests.append((done, (self.output / "league.json").read_text()))
        if self.after is not None and done >= self.after:
            raise KeyboardInterrupt


def test_the_seed_is_in_no_file_a_bot_could_read_until_every_game_is_stored(ray_local, league_cli, tmp_path):
    path = league_without_seed(tmp_path, games_per_pair=2)
    league = load_league(path)
    stop = Interrupt(league.output, after=1)
    summary = run_league(league, on_progress=stop)
    assert summary.interrupted and summary.played < summary.total == 2
    seed = stored_seed(league.output)
    for done, text in stop.manifests:
        assert str(seed) not in text and '"seed_secret": true' in text, f"league.json after {done} games: {text}"
    assert str(seed) not in (league.output / "league.json").read_text(), "a run stopped early does not publish it"
    assert read_manifest(league.output)["seed_drawn"], "league.json still says when it was drawn"
    mode = (league.output / SEED_FILE).stat()
    assert mode.st_mode & 0o077 == 0 and mode.st_uid == os.geteuid(), "seed.json: its owner's alone"
    for name in os.listdir(league.output):  # nothing else the folder holds tells it
        if name != SEED_FILE and (league.output / name).is_file():
            assert f'"seed": {seed}' not in (league.output / name).read_text(errors="replace"), name
    status, _, err = league_cli("report", str(league.output))
    assert status == 0, err
    report = (league.output / "report.md").read_text()
    assert "- seed: kept secret until every game of the league is played" in report and str(seed) not in report

    again = Interrupt(league.output, after=None)
    summary = run_league(load_league(path), on_progress=again)
    assert summary.played + summary.skipped == summary.total == 2, "the rerun found the stored seed and went on"
    assert stored_seed(league.output) == seed
    assert all(str(seed) not in text for _, text in again.manifests), "hidden while the run played"
    manifest = read_manifest(league.output)
    assert manifest["seed"] == seed and "seed_secret" not in manifest, "published once every game is stored"
    status, _, err = league_cli("report", str(league.output))
    assert status == 0, err
    assert f"- seed: {seed} (drawn from the OS at the first run" in (league.output / "report.md").read_text()


def test_a_seed_the_league_file_gives_is_kept_out_of_league_json_until_the_games_are_played(ray_local, tmp_path):
    league = load_league(write_league(tmp_path, **SMALL, seed=4242))
    stop = Interrupt(league.output, after=None)
    run_league(league, on_progress=stop)
    assert all("4242" not in text for _, text in stop.manifests), "hidden while the run played"
    assert read_manifest(league.output)["seed"] == 4242
