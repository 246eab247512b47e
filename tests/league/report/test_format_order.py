"""The standings follow a format's own result (league.stats.ranking, rule 0) where Bradley-Terry disagrees.

Two folders are written by hand, each with stored games and a manifest as the runner writes it: a
knockout whose champion went on by the higher-seed decider while the runner-up won more games (so
Bradley-Terry puts the runner-up first), and a Swiss whose bye points put a bot above one that
Bradley-Terry rates higher. The report's standings (CSV and page), its note, ``league standings``
and the knockout's or Swiss's own section must name one order: the format's. A league without an
order of its format keeps Bradley-Terry and its note (``tests/league/report/test_one_order.py``; the
byte-identical reports of the six old formats are ``tests/league/plan/test_format_move.py``'s).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pandas as pd

from league.cluster.runner import _kept
from league.report.build import write_report
from league.report.standings_rule import KNOCKOUT_RULE, STRENGTH_COLUMN, SWISS_RULE, standings_rule
from league.stats.ranking import RULE
from league.store.results import ResultStore
from tests.league.plan.test_knockout_format import FORMAT, inputs, play, record
from tests.league.report.test_swiss_report import game

CUP = ["a", "b", "c", "d"]


def cup_ranks(spec):
    """b beats c every game; every other game is drawn, so a (seed 1) goes on by the higher seed each time."""
    if set(spec.seats) == {"b", "c"}:
        return [1, 2] if spec.seats[0] == "b" else [2, 1]
    return [1, 1]


def write_folder(folder, name, bots, records, extra):
    store = ResultStore(folder / "games.jsonl")
    for stored in records:
        store.append(replace(stored, result=replace(stored.result, plies=10, reason_code="", detail="")))
    store.close()
    manifest = {
        "name": name,
        "game": "synthetic",
        "bots": bots,
        "variants": ["default"],
        "game_ids": [record.game_id for record in records],
        **extra,
    }
    (folder / "league.json").write_text(json.dumps(manifest))
    write_report(folder, name, bots, ["default"])
    return manifest


def report_text(folder):
    return " ".join((folder / "report.md").read_text().split())


def shown_order(out):
    """The bots of ``league standings``' table, top first (its rows start with a place)."""
    rows = [line.split("│") for line in out.splitlines() if "│" in line]
    return [cells[2].strip() for cells in rows if cells[1].strip().isdigit()]


def standings_order(folder):
    """The bots of the report's standings.csv, top first."""
    return pd.read_csv(folder / "standings.csv")["bot"].tolist()


def knockout_folder(tmp_path):
    run = FORMAT.start(inputs(CUP, elimination="single"))
    stored = play(run, cup_ranks, random.Random(3))
    manifest = write_folder(tmp_path, "cup", CUP, stored, {"format": "knockout", **_kept(run)})
    return run, manifest


def test_a_knockouts_standings_are_its_placing_though_bradley_terry_puts_the_runner_up_first(tmp_path, league_cli):
    run, manifest = knockout_folder(tmp_path)
    placing = run.final_order()
    assert run.champion() == "a" and placing == ["a", "b", "c", "d"]
    assert manifest["final_order"] == placing == manifest["knockout"]["placing"]  # what the runner keeps
    standings, strength = (pd.read_csv(tmp_path / name) for name in ("standings.csv", "strength.csv"))
    assert strength["bot"].tolist()[0] == "b"  # the premise: Bradley-Terry disagrees (b won 4, drew the rest)
    assert standings["bot"].tolist() == placing and standings["place"].tolist() == [1, 2, 3, 4]
    by_bot = standings.set_index("bot")
    assert by_bot.loc["b", "elo"] > by_bot.loc["a", "elo"]  # the strengths stay, as columns
    report = report_text(tmp_path)
    assert "Placing: 1 a, 2 b, 3 c, 4 d." in report  # the knockout's section says the same
    assert f"`place`: {KNOCKOUT_RULE}; {STRENGTH_COLUMN}" in report
    assert "the standings follow it" in report and "not the standings' here" in report  # Method, strength table
    assert "the order by Bradley-Terry strength (elo), fitted to every game at once" in report  # the strength table's

    status, out, err = league_cli("standings", str(tmp_path))
    assert status == 0, err
    assert shown_order(out) == placing
    assert "place: the knockout's placing" in " ".join(out.split())


def test_a_knockout_still_played_says_so_and_puts_the_bots_still_in_first(tmp_path):
    run = FORMAT.start(inputs(CUP, elimination="single"))
    extra = run.add([record(spec, cup_ranks(spec)) for spec in run.games])  # the first round's first games
    assert {spec.seats for spec in extra} == {("a", "d"), ("d", "a")}  # a v d level: an extra pair; b beat c
    manifest = {"format": "knockout", **_kept(run)}
    assert manifest["final_order"] == ["a", "b", "d", "c"]  # c out; a v d and the final to play: by seed
    in_progress = "in progress: bots still in come first, by seed"
    assert standings_rule(manifest) == f"{KNOCKOUT_RULE}; {in_progress}; {STRENGTH_COLUMN}"


SWISS = {  # 5 bots, 2 rounds, one game a pairing: e and a get a point from their byes
    "rounds": 2,
    "games_per_round": 1,
    "seeding": "file",
    "draw_order": ["a", "b", "c", "d", "e"],
    "rounds_paired": [
        {"round": 1, "pairings": [["a", "b"], ["c", "d"]], "game_ids": [["g1"], ["g2"]], "bye": "e", "repeats": []},
        {"round": 2, "pairings": [["c", "b"], ["e", "d"]], "game_ids": [["g3"], ["g4"]], "bye": "a", "repeats": []},
    ],
    "rounds_played": 2,
}
SWISS_GAMES = [  # b beats a, c beats d, c beats b, e beats d
    game("g1", ["a", "b"], [2, 1], 0),
    game("g2", ["c", "d"], [1, 2], 1),
    game("g3", ["c", "b"], [1, 2], 2),
    game("g4", ["e", "d"], [1, 2], 3),
]
# Scores c 2, e 2 (a bye), b 1, a 1 (a bye), d 0; c above e on Buchholz (b+d = 1 to d's 0), b above a (3 to 1).
SWISS_ORDER = ["c", "e", "b", "a", "d"]


def test_a_swiss_standings_are_its_own_where_bradley_terry_puts_the_bye_bot_last(tmp_path, league_cli):
    bots = list("abcde")
    write_folder(tmp_path, "swiss5", bots, SWISS_GAMES, {"format": "swiss", "swiss": SWISS, "final_order": SWISS_ORDER})
    standings, strength = (pd.read_csv(tmp_path / name) for name in ("standings.csv", "strength.csv"))
    assert strength["bot"].tolist() == ["c", "e", "b", "d", "a"]  # the premise: a, with no win, is last by strength
    assert standings["bot"].tolist() == SWISS_ORDER
    report = (tmp_path / "report.md").read_text()
    swiss_part = report[report.index("## Swiss") :]
    rows = [line.split("|")[2].strip() for line in swiss_part.splitlines() if line.startswith("| ") and "|" in line[2:]]
    assert rows[1 : 1 + len(bots)] == SWISS_ORDER  # the Swiss section's table, below its header row
    assert f"`place`: {SWISS_RULE}; {STRENGTH_COLUMN}" in report_text(tmp_path)

    status, out, err = league_cli("standings", str(tmp_path))
    assert status == 0, err
    assert shown_order(out) == SWISS_ORDER
    assert "place: the Swiss standings" in " ".join(out.split())


def test_the_rule_in_words_follows_the_manifest():
    assert standings_rule({"format": "round_robin"}) == RULE
    assert standings_rule({"format": "swiss", "swiss": {"rounds": 5, "rounds_played": 2}}) == RULE  # no order kept
    partial = {"format": "swiss", "swiss": {"rounds": 5, "rounds_played": 2}, "final_order": ["a"]}
    assert standings_rule(partial) == f"{SWISS_RULE}; after round 2 of 5; {STRENGTH_COLUMN}"
    finals = {
        "format": "round_robin",
        "finals": {"format": "knockout", "best": 2, "finalists": ["a", "b"]},
        "knockout": {"champion": "b"},
        "final_order": ["b", "a", "c"],
    }
    assert standings_rule(finals) == (
        f"the finals' placing ({KNOCKOUT_RULE}), then the bots they left out in the qualifier's order"
        f" (by Bradley-Terry strength over the qualifier's games); {STRENGTH_COLUMN}"
    )
    swiss_finals = {**finals, "format": "swiss", "swiss": {"rounds": 3, "rounds_played": 3}}
    assert f"in the qualifier's order ({SWISS_RULE}); " in standings_rule(swiss_finals)
    before_finals = {**swiss_finals, "finals": {"format": "knockout", "best": 2, "finalists": []}}
    assert standings_rule(before_finals) == f"{SWISS_RULE}; {STRENGTH_COLUMN}"
