"""The formats behind ``league.plan.formats``: the registry, a key only other formats mean, a format's run.

No Ray: a format's run is fed made-up records directly (its play with real games is in
``test_format_move.py``, ``test_sequential.py`` and ``test_adaptive.py``).
"""

import pytest

from league.cluster.runner import start_run
from league.plan.config import load_league
from league.plan.formats import FORMATS
from league.plan.formats.base import ScheduledRun
from league.plan.league_schedule import league_plan
from tests.conftest import typed, write_league
from tests.league.plan.test_config import refusal_at
from tests.league.plan.test_format_move import league_path


def test_the_registry_holds_each_format_once_by_its_name():
    assert list(FORMATS) == ["round_robin", "gauntlet", "tables", "solo", "sprt", "adaptive", "knockout", "swiss"]
    assert all(name == format_.name for name, format_ in FORMATS.items())


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        (
            {"format": "gauntlt"},
            "format: unknown format 'gauntlt' (did you mean 'gauntlet'?); known formats: round_robin",
        ),
        ({"candidates": ["random"]}, "candidates: only format: gauntlet has candidates (this league is round_robin)"),
        ({"max_games": 10}, "max_games: only formats sprt and adaptive stop on their own (this league is round_robin)"),
        ({"tables": 3}, "tables: only format: tables seats bots at tables (this league is round_robin)"),
    ],
)
def test_a_key_of_another_format_or_an_unknown_format_is_one_line(tmp_path, overrides, expected):
    assert f": {expected}" in refusal_at(write_league(tmp_path, **overrides))


@pytest.mark.parametrize("name", ["round_robin", "gauntlet", "tables", "solo"])
def test_a_fixed_schedule_is_played_whole_and_counted_whole(tmp_path, name):
    plan = league_plan(load_league(league_path(tmp_path, name)))
    run = start_run(plan.inputs)
    assert isinstance(run, ScheduledRun) and not run.takes_results
    assert [spec.game_id for spec in run.games] == [spec.game_id for spec in plan.planned()]
    assert [spec.index for spec in run.games] == list(range(len(run.games)))
    assert run.add([]) == [] and run.counted == run.games and not run.over and run.closing_lines() == []


def test_an_sprt_run_is_over_at_its_verdict_and_says_it(tmp_path):
    plan = league_plan(load_league(league_path(tmp_path, "sprt")))
    run = start_run(plan.inputs)
    assert run.takes_results and run.progress().startswith("LLR 0.00 (")
    wins = []
    for first, second in zip(run.games[::2], run.games[1::2], strict=True):  # "top" wins every game
        for spec in (first, second):
            top = spec.seats.index("top")
            result = {"scores": [0, 0], "ranks": [2, 2], "termination": "NORMAL", "offenders": []}
            result["scores"][top], result["ranks"][top] = 1, 1
            wins.append({"game_id": spec.game_id, "spec": spec.to_json(), "result": result})
        if run.add(typed(wins[-2:])) or run.over:
            break
    assert run.over and len(wins) < len(run.games)
    assert run.closing_lines()[0].startswith("SPRT: H1 accepted: top is better than mid")
    assert run.manifest() == {"sprt": {"elo0": 0.0, "elo1": 100.0, "alpha": 0.05, "beta": 0.05}}
    assert run.counted == run.games[: len(wins)]  # the pairs the test took: its verdict's games, no more
