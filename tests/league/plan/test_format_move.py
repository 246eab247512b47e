"""The six formats of issue 33 moved behind ``league.plan.formats`` play what they played before, byte for byte.

Written and its digests recorded against the code before the move (as issue 23 showed its move): for
a fixed league of each format (built-ins, fixed seeds; openings for the round robin, a second variant
for the tables), ``league validate --no-estimate`` says the same plan, and ``league run`` on the shared
Ray cluster stores the same games (``league.json``'s ids and the rest of the manifest but its runs'
times) and writes the same ``report.md`` and ``standings.csv`` (dates, timings and the folder masked).
A format's games depending on their results (SPRT, adaptive) are played for real, so their ids show
that the verdict and the batches still fall where they fell.
"""

import hashlib
import json
import re

import pytest
import yaml

from tests.conftest import write_league

SYNTHETIC = {"game": "synthetic", "variants": {"default": {"draw_rate": 0.2, "first_seat_elo": 30}}}
MODELS = [
    {"name": "top", "builtin": "synthetic.model", "params": {"elo": 700}},
    {"name": "mid", "builtin": "synthetic.model", "params": {"elo": 300}},
    {"name": "twin", "builtin": "synthetic.model", "params": {"elo": 290}},
]
LEAGUES = {
    "round_robin": {"games_per_pair": 4, "openings": {"plies": 4}},
    "gauntlet": {"format": "gauntlet", "candidates": ["minimax"]},
    "tables": {
        "game": "nimmt",
        "variants": {"gpcc": {}, "classic": {"bullheads": "classic"}},
        "bots": [{"name": f"r{k}", "builtin": "nimmt.random"} for k in range(5)],
        "format": "tables",
        "players_per_table": [3, 4],
        "tables": 2,
        "seed": 11,
    },
    "solo": {
        "game": "codevs21",
        "variants": {"small": {"mode": "solo", "case": "small", "N": 30, "A": 10, "B_obs": 20}},
        "bots": [{"name": name, "builtin": f"codevs21.{name}"} for name in ("random", "greedy", "chains")],
        "format": "solo",
        "runs_per_case": 2,
    },
    "sprt": {**SYNTHETIC, "format": "sprt", "sprt": {"elo0": 0, "elo1": 100}, "max_games": 200, "bots": MODELS[:2]},
    "adaptive": {
        **SYNTHETIC,
        "format": "adaptive",
        "adaptive": {"confidence": 0.9, "tie_elo": 200},
        "max_games": 300,
        "bots": MODELS,
    },
}
NO_GAMES_PER_PAIR = ("tables", "solo", "sprt", "adaptive")

AFTER_THE_MOVE = ("sprt",)
"""Formats whose ids and manifest were recorded after the move: an SPRT counts only the pairs its test took
since (issue 33), where its report counted the games in flight at the verdict too (how many: the workers'
timing). Its ids are the first of the schedule it played before (``test_an_sprt_counts_...``)."""

EXPECTED = {
    "round_robin": {
        "plan": "981cd93c5eb95989",
        "ids": "a9098eb91113ef07",
        "manifest": "0383cdf3a67673ab",
        "closing": "e3b0c44298fc1c14",
        "report": "13bdd4b9b83ae992",
        "standings": "a361b0f3c4343f6d",
    },
    "gauntlet": {
        "plan": "b3a9263f80bf7e3d",
        "ids": "8d53fba0b80bc631",
        "manifest": "d71b8c1d953ee986",
        "closing": "e3b0c44298fc1c14",
        "report": "1709e4f1cba81c4b",
        "standings": "64c1e00f0a5d8d6d",
    },
    "tables": {
        "plan": "f6809eef80bd5894",
        "ids": "652f0c2e160c9a07",
        "manifest": "5235ba386498165e",
        "closing": "e3b0c44298fc1c14",
        "report": "f8ba5af1170b2538",
        "standings": "50e2bc0515c72933",
    },
    "solo": {
        "plan": "2d1a58d4ba3770bd",
        "ids": "e7e13ea72cce41e4",
        "manifest": "8d21d39f369c1df0",
        "closing": "e3b0c44298fc1c14",
        "report": "067ad7c1937c9fbb",
        "standings": "73d701df911bc8a4",
    },
    "sprt": {  # ids, manifest, report and standings recorded after the move (AFTER_THE_MOVE)
        "plan": "e9cadbc1eb587db6",
        "ids": "1668dc6a5e6d9d1e",
        "manifest": "bbc472f2f422b198",
        "closing": "97c4f05eeb420b14",
        "report": "d4f36ed801b9c4be",
        "standings": "03ea9dd4124ebb81",
    },
    "adaptive": {
        "plan": "0b8a966293a82b6f",
        "ids": "ef1e72d1c66d1910",
        "manifest": "eeb354aa84d71134",
        "closing": "1484d51b869ec226",
        "report": "b997bc7fedd35167",
        "standings": "58bfb7829d3d1bca",
    },
}
"""Digests of what each league played and reported, recorded on the code before the move (commit of this test).

The ids, manifests and reports were recorded again when every game's ``engine/<game>/view.py`` gained its
spectators' views (issue 35): a built-in's version digests every module of its game's package
(``league.plan.bot_version``), so each built-in became a new version; the plans, closing lines and standings
are those of before, and with the engine of before these digests are the earlier ones (checked)."""


def league_path(folder, name):
    """The fixed league file of format ``name`` in ``folder``."""
    path = write_league(folder, name=f"move-{name}", **LEAGUES[name])
    if name in NO_GAMES_PER_PAIR:
        config = yaml.safe_load(path.read_text())
        del config["games_per_pair"]
        path.write_text(yaml.safe_dump(config))
    return path


def masked(text: str, folder) -> str:
    """``text`` with the folder, dates and timings masked (what differs from run to run)."""
    text = text.replace(str(folder), "FOLDER")
    text = re.sub(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?( UTC)?", "DATE", text)
    return re.sub(r"\d+(\.\d+)? (s|ms|seconds|games/s)\b", "TIME", text)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def what_it_played(league_cli, folder, name) -> dict[str, str]:
    """Digests of the plan ``validate`` tells, the ids ``run`` stores, its manifest and its report."""
    path = league_path(folder, name)
    status, plan, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 0, err
    status, _, err = league_cli("run", str(path), "--quiet")
    assert status == 0, err
    out = folder / "out"
    manifest = json.loads((out / "league.json").read_text())
    manifest.pop("runs")
    closing = [line for line in err.splitlines() if line.startswith(("SPRT:", "adaptive:"))]
    found = {
        "plan": digest(masked(plan, folder)),
        "ids": digest("\n".join(manifest["game_ids"])),
        "manifest": digest(masked(json.dumps(manifest, sort_keys=True), folder)),
        "closing": digest("\n".join(closing)),
    }
    found["report"] = digest(masked((out / "report.md").read_text(), folder))
    found["standings"] = digest(masked((out / "standings.csv").read_text(), folder))
    return found


@pytest.mark.parametrize("name", list(LEAGUES))
def test_each_format_plays_and_reports_what_it_did_before_the_move(ray_local, league_cli, tmp_path, name):
    found = what_it_played(league_cli, tmp_path, name)
    assert found == EXPECTED[name]


def test_an_sprt_counts_the_first_pairs_of_its_schedule_and_reports_the_same_whatever_the_workers(
    ray_local, league_cli, tmp_path
):
    from league.plan.config import load_league
    from league.plan.league_schedule import league_plan

    path = league_path(tmp_path, "sprt")
    schedule = [spec.game_id for spec in league_plan(load_league(path)).planned()]
    reports = []
    for workers in ("1", "2"):
        out = tmp_path / f"out-{workers}"
        status, _, err = league_cli("run", str(path), "--quiet", "--concurrency", workers, "--output", str(out))
        assert status == 0, err
        ids = json.loads((out / "league.json").read_text())["game_ids"]
        assert ids == schedule[: len(ids)] and len(ids) % 2 == 0 and len(ids) < len(schedule)  # its verdict's pairs
        text = masked((out / "report.md").read_text(), out).replace(f"out-{workers}", "out")
        reports.append((text, (out / "standings.csv").read_text()))
    assert reports[0] == reports[1]
