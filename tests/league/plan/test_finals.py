"""A qualifier then finals (``finals: {format, best}``): one run plays both, in schedule order, and resumes.

The qualifier's games are decided by a fixed strength per bot, so the test knows who qualifies and
who wins the finals; the runs are fed made-up stored games (no Ray) in random finish orders.
"""

from __future__ import annotations

import random

import pytest

from engine import GAMES
from league.plan.config import ConfigError, load_league
from league.plan.config_schema import LeagueConfig
from league.plan.formats import league_format
from league.plan.formats.base import FormatInputs
from league.plan.formats.finals import QualifiedRun
from tests.league.plan.test_knockout_format import by_strength, play, record

STRENGTH = {"a": 3, "b": 6, "c": 1, "d": 5, "e": 2, "f": 4}


def finals_inputs(bots=tuple(STRENGTH), qualifier="round_robin", best=4, seed=5, **keys) -> FormatInputs:
    data = {
        "name": "cup",
        "game": "synthetic",
        "format": qualifier,
        "bots": [{"name": bot, "builtin": "synthetic.model"} for bot in bots],
        "finals": {"format": "knockout", "best": best},
        "knockout": {"pairs_per_series": 1},
        **keys,
    }
    config = LeagueConfig.model_validate(data)
    return FormatInputs(config, {"default": GAMES["synthetic"]()}, seed, {bot: f"print-{bot}" for bot in bots})


def started(inputs: FormatInputs) -> QualifiedRun:
    run = league_format(inputs.config).start(inputs)
    assert isinstance(run, QualifiedRun)
    return run


def test_the_qualifiers_best_by_the_ranking_rule_play_the_finals_seeded_by_their_order():
    run = started(finals_inputs())
    qualifier = len(run.games)
    assert qualifier == 30 and run.finals is None  # a round robin of 6 bots, 2 games a pair
    stored = play(run, by_strength(STRENGTH), random.Random(1))
    assert run.finalists == ["b", "d", "f", "a"]  # the four strongest, strongest first
    assert run.final_order()[:2] == ["b", "d"] and run.final_order()[4:] == ["e", "c"]
    finals = run.games[qualifier:]
    assert finals and all(set(spec.seats) <= set(run.finalists) for spec in finals)
    assert [spec.index for spec in run.games] == list(range(len(run.games)))  # numbered on, in schedule order
    assert len(stored) == len(run.games) == len(run.counted)
    manifest = run.manifest()
    assert manifest["finals"] == {"format": "knockout", "best": 4, "finalists": ["b", "d", "f", "a"]}
    assert manifest["knockout"]["champion"] == "b"
    assert "finals: b, d, f, a went on" in run.closing_lines()


def test_no_final_is_planned_before_the_qualifiers_last_game_is_stored():
    run = started(finals_inputs())
    qualifier = list(run.games)
    ranks = by_strength(STRENGTH)
    assert run.add([record(spec, ranks(spec)) for spec in qualifier[:-1]]) == []
    assert run.finals is None and "finals: not started" in run.closing_lines()[-1]
    planned = run.add([record(qualifier[-1], ranks(qualifier[-1]))])
    assert planned and all(spec.game_id not in {q.game_id for q in qualifier} for spec in planned)


def test_two_finish_orders_and_a_resumed_run_give_the_same_games_and_finalists():
    first, second = started(finals_inputs()), started(finals_inputs())
    stored = play(first, by_strength(STRENGTH), random.Random(2))
    play(second, by_strength(STRENGTH), random.Random(3))
    assert [spec.game_id for spec in first.games] == [spec.game_id for spec in second.games]
    assert first.manifest() == second.manifest()
    resumed = started(finals_inputs())
    planned = resumed.add(random.Random(4).sample(stored, len(stored)))
    assert [spec.game_id for spec in resumed.games] == [spec.game_id for spec in first.games]
    assert {spec.game_id for spec in planned} <= {record.game_id for record in stored}  # nothing new to play
    assert resumed.manifest() == first.manifest()


def test_a_swiss_qualifier_sends_the_top_of_its_own_standings():
    run = started(finals_inputs(qualifier="swiss", swiss={"rounds": 3}))
    play(run, by_strength(STRENGTH), random.Random(5))
    swiss_order = run.qualifier.final_order()
    assert run.finalists == swiss_order[:4]
    assert "swiss" in run.manifest() and "knockout" in run.manifest()


def test_a_bot_added_to_a_round_robin_qualifier_plays_only_its_own_games_there():
    before = started(finals_inputs())
    after = started(finals_inputs(bots=(*STRENGTH, "g")))
    old = {spec.game_id for spec in before.games}
    new = [spec for spec in after.games if spec.game_id not in old]
    assert len(new) == 12 and all("g" in spec.seats for spec in new)  # its 6 pairs, 2 games each


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ({"finals": {"format": "knockot", "best": 4}}, "finals.format: unknown format 'knockot' (did you mean"),
        ({"finals": {"format": "round_robin", "best": 4}}, "finals.format: round_robin does not take a seeded"),
        ({"finals": {"format": "knockout", "best": 9}}, "finals.best: 9 is more than the 6 bots of this league"),
        ({"finals": {"format": "knockout", "best": 1}}, "finals.best: finals of 1 bot play nothing; give best: 2"),
        ({"format": "gauntlet", "candidates": ["a"]}, "finals: format gauntlet does not rank a field for finals"),
        ({"knockout": {"seeding": "random"}}, "knockout.seeding: finals are seeded by the qualifier's order"),
    ],
)
def test_bad_finals_are_one_line_naming_the_key_and_the_fix(tmp_path, keys, message):
    import yaml

    data = {
        "name": "cup",
        "game": "synthetic",
        "bots": [{"name": bot, "builtin": "synthetic.model"} for bot in STRENGTH],
        "finals": {"format": "knockout", "best": 4},
        **keys,
    }
    path = tmp_path / "league.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(ConfigError) as refused:
        load_league(path)
    assert message in str(refused.value) and "\n" not in str(refused.value)


def test_knockout_keys_are_a_finals_leagues_own_and_the_plan_line_names_both_stages(tmp_path):
    import yaml

    data = {
        "name": "cup",
        "game": "synthetic",
        "bots": [{"name": bot, "builtin": "synthetic.model"} for bot in STRENGTH],
        "finals": {"format": "knockout", "best": 4},
        "knockout": {"elimination": "double"},
    }
    path = tmp_path / "league.yaml"
    path.write_text(yaml.safe_dump(data))
    league = load_league(path)
    words = league_format(league.config).describe(league.config)
    assert words.startswith("2 per pair and variant; then its best 4 to finals, knockout at most: double elimination")
