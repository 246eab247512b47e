"""``format: swiss`` behind the format interface (league.plan.formats.swiss), fed synthetic stored games, no Ray.

A game's result is made up from its spec alone (the stronger bot by a fixed table wins, some games
drawn by their id), so the same game always has the same result, whoever "plays" it and when.
"""

import hashlib
import json
import random

import pytest
import yaml

from league.plan.config import ConfigError, load_league
from league.plan.formats.base import FormatInputs
from league.plan.formats.swiss import SwissFormat, circle_rounds, draw_order
from league.stats.game_record import GameRecord

STRENGTH = {"ace": 5, "bolt": 4, "cog": 3, "dart": 2, "echo": 1, "fig": 0}


def league_file(tmp_path, bots=5, **keys):
    config = {
        "name": "swiss5",
        "game": "synthetic",
        "bots": [{"name": name, "builtin": "synthetic.model"} for name in list(STRENGTH)[:bots]],
        "format": "swiss",
        "seed": 11,
        **keys,
    }
    path = tmp_path / "league.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def inputs_of(tmp_path, bots=5, **keys):
    league = load_league(league_file(tmp_path, bots, **keys))
    fingerprints = {name: f"print-{name}" for name in [*league.games, *league.bots]}
    return FormatInputs(league.config, league.games, 11, fingerprints, league.openings)


def result_of(spec):
    """A made-up stored game: a draw for 1 id in 4, else the stronger bot wins (faults none)."""
    first, second = spec.seats
    if int(hashlib.sha256(spec.game_id.encode()).hexdigest(), 16) % 4 == 0:
        ranks = [1, 1]
    else:
        ranks = [1, 2] if STRENGTH[first] > STRENGTH[second] else [2, 1]
    line = {
        "game_id": spec.game_id,
        "spec": {**spec.to_json(), "game": "synthetic"},
        "result": {"scores": [2 - rank for rank in ranks], "ranks": ranks, "termination": "NORMAL", "offenders": []},
    }
    return GameRecord.from_json(json.loads(json.dumps(line)))


def play_through(run, order_seed=None):
    """Feed a run every game it plans, round by round (in a shuffled order when ``order_seed``); all records made."""
    made = []
    waiting = list(run.games)
    while waiting:
        records = [result_of(spec) for spec in waiting]
        if order_seed is not None:
            random.Random(order_seed).shuffle(records)
        made += records
        waiting = []
        for record in records:  # one at a time, as workers finish
            waiting += run.add([record])
    return made


def test_the_same_games_whatever_order_they_finish_in(tmp_path):
    inputs = inputs_of(tmp_path, swiss={"rounds": 4})
    runs = [SwissFormat().start(inputs) for _ in range(3)]
    play_through(runs[0])
    play_through(runs[1], order_seed=1)
    play_through(runs[2], order_seed=2)
    ids = [[spec.game_id for spec in run.games] for run in runs]
    assert ids[0] == ids[1] == ids[2]
    assert len(ids[0]) == len(set(ids[0])) == 4 * 2 * 2  # 4 rounds of 2 pairings (5 bots: one bye), 2 games each
    assert [spec.index for spec in runs[0].games] == list(range(16))
    assert runs[0].manifest() == runs[1].manifest() == runs[2].manifest()
    assert runs[0].final_order() == runs[1].final_order()


def test_a_round_is_paired_only_once_every_game_of_the_round_before_is_stored(tmp_path):
    run = SwissFormat().start(inputs_of(tmp_path, swiss={"rounds": 3}))
    first = list(run.games)
    assert len(first) == 4
    records = [result_of(spec) for spec in first]
    assert run.add(records[:3]) == []
    infra = GameRecord.from_json(
        {**records[3].to_json(), "result": {"scores": [0, 0], "ranks": [1, 1], "termination": "INFRA_ERROR"}}
    )
    assert run.add([infra]) == []  # a game that could not be played waits for its replay
    second = run.add(records[3:])
    assert len(second) == 4 and run.progress() == "round 2 of 3"
    assert [spec.index for spec in second] == [4, 5, 6, 7]


def test_a_resumed_run_plans_nothing_twice_and_re_derives_the_rounds(tmp_path):
    inputs = inputs_of(tmp_path, swiss={"rounds": 4})
    whole = SwissFormat().start(inputs)
    records = play_through(whole)
    half = [record for record in records if record.spec.index < 8]  # rounds 1 and 2 stored, then killed
    resumed = SwissFormat().start(inputs)
    planned = [*resumed.games, *resumed.add(list(reversed(half)))]
    assert [spec.game_id for spec in planned] == [spec.game_id for spec in whole.games[:12]]
    later = [record for record in records if record.spec.index >= 8]
    planned += resumed.add(later)
    ids = [spec.game_id for spec in planned]
    assert ids == [spec.game_id for spec in whole.games] and len(ids) == len(set(ids))
    assert resumed.add(records) == []  # everything stored again: nothing new
    assert resumed.manifest() == whole.manifest()


def test_an_odd_field_gives_each_round_a_bye_and_its_points(tmp_path):
    run = SwissFormat().start(inputs_of(tmp_path, swiss={"rounds": 5}))
    play_through(run)
    swiss = run.manifest()["swiss"]
    byes = [round_["bye"] for round_ in swiss["rounds_paired"]]
    assert sorted(byes) == sorted(list(STRENGTH)[:5])  # 5 rounds of 5 bots: each sits out once
    met = [frozenset(pair) for round_ in swiss["rounds_paired"] for pair in round_["pairings"]]
    repeats = sum(len(round_["repeats"]) for round_ in swiss["rounds_paired"])
    assert len(met) - len(set(met)) == repeats  # a repeat happens only where the manifest says so
    points = {row["bot"]: row["score"] for row in swiss["standings"]}
    assert sum(points.values()) == 5 * (2 * 2 + 2)  # each round: 2 pairings x 2 games' points, and a bye's 2
    assert swiss["rounds_played"] == 5 and run.final_order() == [row["bot"] for row in swiss["standings"]]
    assert run.final_order()[0] == "ace"
    json.dumps(run.manifest())


def test_two_games_a_round_are_a_seat_swapped_pair_on_one_seed_and_one_game_follows_seat_history(tmp_path):
    run = SwissFormat().start(inputs_of(tmp_path, bots=4, swiss={"rounds": 3}))
    play_through(run)
    for first, second in zip(run.games[:2], run.games[2:4], strict=True):
        assert (first.seed, first.round) == (second.seed, second.round)
        assert first.seats == tuple(reversed(second.seats))
    run = SwissFormat().start(inputs_of(tmp_path, bots=4, swiss={"rounds": 3, "games_per_round": 1}))
    play_through(run)
    firsts = {bot: sum(spec.seats[0] == bot for spec in run.games) for bot in list(STRENGTH)[:4]}
    assert len(run.games) == 6 and set(firsts.values()) <= {1, 2}  # 3 games each, seats within 1
    assert len({spec.round for spec in run.games}) == 3


def test_closing_line_names_the_winner_and_its_tie_breaks(tmp_path):
    run = SwissFormat().start(inputs_of(tmp_path, swiss={"rounds": 2, "seeding": "file"}))
    assert run.closing_lines() == ["swiss: no round of 2 played yet; run the league again to go on"]
    run.add([result_of(spec) for spec in run.games])
    assert run.closing_lines()[0].startswith("swiss: 1 of 2 rounds played, ")
    assert run.closing_lines()[0].endswith("; run the league again to go on")
    play_through(run)
    top = run.manifest()["swiss"]["standings"][0]
    line = run.closing_lines()[0]
    assert line.startswith(f"swiss: {top['bot']} wins after 2 rounds with {top['score']:g} of 4 points (Buchholz ")
    assert "Sonneborn-Berger" in line


def test_planned_is_the_most_the_rounds_play_and_describe_says_how(tmp_path):
    inputs = inputs_of(tmp_path, swiss={"rounds": 4, "games_per_round": 1})
    planned = SwissFormat().planned(inputs)
    assert len(planned) == 4 * 2 * 1 == SwissFormat().start(inputs).most_games
    assert all(spec.seats[0] != spec.seats[1] for spec in planned)
    assert SwissFormat().describe(inputs.config) == "4 rounds, 1 game per pairing (a single game, seats by history)"
    default = inputs_of(tmp_path).config
    assert SwissFormat().describe(default) == "4 rounds, 2 games per pairing (a seat-swapped pair)"  # ceil(log2 5) + 1
    assert [len(round_) for round_ in circle_rounds("abcde", 5)] == [2] * 5
    assert {frozenset(pair) for round_ in circle_rounds("abcd", 3) for pair in round_} == {
        frozenset(pair) for pair in ("ab", "ac", "ad", "bc", "bd", "cd")
    }


def test_the_draw_order_is_the_seeds_or_the_files():
    assert draw_order("abcdef", 1, "file") == list("abcdef")
    assert draw_order("abcdef", 1, "random") == draw_order("abcdef", 1, "random")
    assert {tuple(draw_order("abcdef", seed, "random")) for seed in range(5)} != {tuple("abcdef")}


@pytest.mark.parametrize(
    ("keys", "words"),
    [
        ({"swiss": {"rounds": 6}}, "swiss.rounds: 6 rounds need 6 opponents or byes for each bot"),
        ({"games_per_pair": 2}, "games_per_pair: a Swiss plays swiss.games_per_round games a pairing each round"),
        ({"variants": {"a": {}, "b": {}}}, "variants: a Swiss ranks under one rule set"),
    ],
)
def test_its_keys_are_checked_with_the_fix(tmp_path, keys, words):
    config = load_league(league_file(tmp_path, **keys)).config
    with pytest.raises(ValueError, match=words):
        SwissFormat().check(config)


def test_its_settings_are_typed(tmp_path):
    with pytest.raises(ConfigError, match="games_per_round"):
        load_league(league_file(tmp_path, swiss={"games_per_round": 0}))
    with pytest.raises(ConfigError, match="seeding"):
        load_league(league_file(tmp_path, swiss={"seeding": "rating"}))
