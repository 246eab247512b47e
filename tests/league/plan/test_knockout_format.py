"""format: knockout driven with made-up stored games (no Ray): same games and bracket whatever the finish order.

The games are decided by a fixed strength per bot (the stronger wins; equal strengths draw), or by a
table of results per game id, so each test knows who must go on.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from engine import GAMES
from league.plan.config_schema import LeagueConfig
from league.plan.formats.base import FormatInputs
from league.plan.formats.knockout import KnockoutFormat
from league.plan.formats.knockout_run import KnockoutRun
from league.plan.game_spec import GameSpec
from league.stats.game_record import GameRecord

FORMAT = KnockoutFormat()


def config(bots: list[str], **knockout) -> LeagueConfig:
    return LeagueConfig.model_validate(
        {
            "name": "cup",
            "game": "synthetic",
            "format": "knockout",
            "bots": [{"name": bot, "builtin": "synthetic.model"} for bot in bots],
            **({"knockout": knockout} if knockout else {}),
        }
    )


def inputs(bots: list[str], seed: int = 11, variants: tuple[str, ...] = ("default",), **knockout) -> FormatInputs:
    game = GAMES["synthetic"]()
    prints = {bot: f"print-{bot}" for bot in bots}
    return FormatInputs(config(bots, **knockout), {name: game for name in variants}, seed, prints)


def record(spec: GameSpec, ranks: list[int], termination: str = "NORMAL") -> GameRecord:
    return GameRecord.from_json(
        {
            "game_id": spec.game_id,
            "spec": {
                "index": spec.index,
                "league": spec.league,
                "variant": spec.variant,
                "seats": list(spec.seats),
                "seed": spec.seed,
                "round": spec.round,
            },
            "result": {"scores": [3 - r for r in ranks], "ranks": ranks, "termination": termination, "offenders": []},
        }
    )


def by_strength(strength: dict[str, int]) -> Callable[[GameSpec], list[int]]:
    def ranks(spec: GameSpec) -> list[int]:
        first, second = (strength[bot] for bot in spec.seats)
        return [1, 1] if first == second else [1, 2] if first > second else [2, 1]

    return ranks


def play(run: KnockoutRun, ranks: Callable[[GameSpec], list[int]], order: random.Random) -> list[GameRecord]:
    """Play every game the run plans, finishing them in a random order a few at a time; the records stored."""
    stored: list[GameRecord] = []
    pending = list(run.games)
    while pending:
        order.shuffle(pending)
        size = order.randint(1, 3)
        batch, pending = pending[:size], pending[size:]
        finished = [record(spec, ranks(spec)) for spec in batch]
        stored += finished
        pending += run.add(finished)
    return stored


def shape(run: KnockoutRun) -> tuple:
    return [(spec.game_id, spec.index, spec.seats, spec.seed) for spec in run.games], run.manifest()


STRENGTH = {"a": 5, "b": 9, "c": 1, "d": 7, "e": 3}


@pytest.mark.parametrize("elimination", ["single", "double"])
def test_two_finish_orders_give_the_same_games_ids_and_bracket(elimination):
    league = inputs(list(STRENGTH), elimination=elimination)
    runs = [FORMAT.start(league), FORMAT.start(league)]
    stores = [play(run, by_strength(STRENGTH), random.Random(seed)) for run, seed in zip(runs, (1, 2), strict=True)]
    assert [r.game_id for r in stores[0]] != [r.game_id for r in stores[1]]  # the finish orders did differ
    assert shape(runs[0]) == shape(runs[1])
    assert [spec.index for spec in runs[0].games] == list(range(len(runs[0].games)))
    assert runs[0].champion() == "b"  # the strongest wins every series
    bracket = runs[0].manifest()["knockout"]
    assert bracket["seeds"] == list(STRENGTH) and bracket["byes"] == ["a", "b", "c"]
    assert all(series["winner"] for series in bracket["series"])
    series_count = 4 if elimination == "single" else 8
    assert len(bracket["series"]) == series_count and len(runs[0].games) == series_count * 4  # 2 pairs, no extras
    assert runs[0].final_order()[:2] == (["b", "d"])
    assert runs[0].closing_lines() == ["Champion: b, beating d 4-0 in the final (points)."]


def test_a_resumed_run_fed_the_stored_games_plans_every_series_once_with_the_same_ids():
    league = inputs(list(STRENGTH), elimination="double")
    first = FORMAT.start(league)
    stored = play(first, by_strength(STRENGTH), random.Random(3))
    half = stored[: len(stored) // 2]
    again = FORMAT.start(league)
    more = again.add(list(reversed(half)))
    assert len({spec.game_id for spec in again.games}) == len(again.games)  # no game, so no series, twice
    assert [s.game_id for s in again.games] == [s.game_id for s in first.games[: len(again.games)]]
    assert more == list(again.games[len(again.games) - len(more) :])
    # fed everything at once, a fresh run plans exactly what the first one played, nothing more to play
    whole = FORMAT.start(league)
    whole.add(stored)
    assert shape(whole) == shape(first)
    assert {s.game_id for s in whole.games} == {r.game_id for r in stored}
    assert whole.add(stored) == []


def test_a_series_waits_for_every_game_before_its_last_in_schedule_order():
    league = inputs(["a", "b", "c", "d"])
    run = FORMAT.start(league)
    w11, w12 = run.games[:4], run.games[4:]
    ranks = by_strength(STRENGTH)
    assert run.add([record(spec, ranks(spec)) for spec in w12]) == []  # W1.2 done, but W1.1 is before it
    assert run.winners == {}
    planned = run.add([record(spec, ranks(spec)) for spec in w11])
    assert run.winners == {"W1.1": "d", "W1.2": "b"} and {spec.seats for spec in planned} == {("d", "b"), ("b", "d")}


def test_a_level_series_plays_extra_pairs_then_the_higher_seed_goes_on():
    league = inputs(["a", "b"], pairs_per_series=1, extra_pairs=2)
    run = FORMAT.start(league)
    level = {"a": 1, "b": 1}
    assert len(run.games) == 2
    extra = run.add([record(spec, by_strength(level)(spec)) for spec in run.games])
    assert len(extra) == 2 and {spec.round for spec in extra} == {1}  # pair 1, on a seed of its own
    assert extra[0].seed != run.games[0].seed and extra[0].seed == extra[1].seed
    extra = run.add([record(spec, by_strength(level)(spec)) for spec in extra])
    assert len(extra) == 2 and run.winners == {}
    assert run.add([record(spec, by_strength(level)(spec)) for spec in extra]) == []
    assert run.winners == {"W1.1": "a"} and run.decisions["W1.1"].how == "higher seed"
    assert len(run.games) == 6 == FORMAT.planned(league).__len__()


def test_an_extra_pair_won_decides_the_series():
    league = inputs(["a", "b"], pairs_per_series=1, extra_pairs=3)
    run = FORMAT.start(league)
    extra = run.add([record(spec, [1, 1]) for spec in run.games])
    run.add([record(spec, [1, 2] if spec.seats[0] == "b" else [1, 1]) for spec in extra])
    assert run.winners == {"W1.1": "b"} and run.decisions["W1.1"].how == "extra pair 1"
    assert run.decisions["W1.1"].points == (1.5, 2.5)


def test_the_tie_rule_gives_a_level_series_to_the_last_games_winner():
    league = inputs(["a", "b"], pairs_per_series=1, extra_pairs=0, then="tie_rule")
    run = FORMAT.start(league)
    last = run.games[-1]
    assert last.seats == ("b", "a")
    run.add([record(run.games[0], [1, 2]), record(last, [1, 2])])  # each wins its first seat: level 1-1
    assert run.winners == {"W1.1": "b"} and run.decisions["W1.1"].how == "tie rule (the last game)"
    drawn = FORMAT.start(league)
    drawn.add([record(spec, [1, 1]) for spec in drawn.games])
    assert drawn.winners == {"W1.1": "a"} and drawn.decisions["W1.1"].how.startswith("higher seed")


def test_infra_errors_wait_for_their_replay():
    league = inputs(["a", "b"], pairs_per_series=1)
    run = FORMAT.start(league)
    run.add([record(run.games[0], [1, 2]), record(run.games[1], [0, 0], "INFRA_ERROR")])
    assert run.winners == {}
    run.add([record(run.games[1], [2, 1])])
    assert run.winners == {"W1.1": "a"}


def test_ids_hold_the_stage_slot_pair_seats_fingerprints_and_seed():
    league = inputs(list(STRENGTH))
    ids = [spec.game_id for spec in FORMAT.start(league).games]
    assert ids == [spec.game_id for spec in FORMAT.start(league).games]
    assert ids != [spec.game_id for spec in FORMAT.start(inputs(list(STRENGTH), seed=12)).games]
    changed = FormatInputs(league.config, league.games, league.seed, {**league.fingerprints, "d": "other"})
    assert ids[0] not in {spec.game_id for spec in FORMAT.start(changed).games}  # W1.2 is d v e
    # the grand final between two bots who met in the winners' bracket is other games
    two = inputs(["a", "b"], elimination="double", pairs_per_series=1, extra_pairs=0)
    run = FORMAT.start(two)
    run.add([record(spec, by_strength(STRENGTH)(spec)) for spec in run.games])
    assert len({spec.game_id for spec in run.games}) == len(run.games) == 4


def test_planned_counts_every_series_at_its_longest_and_the_plan_names_seeds_and_byes():
    league = inputs(list(STRENGTH), variants=("short", "long"), elimination="double")
    planned = FORMAT.planned(league)
    assert len(planned) == 8 * 4 * 2 * 2  # series x pairs at most x games a pair x variants
    assert [spec.index for spec in planned] == list(range(len(planned)))
    assert planned[5] == list(planned)[5] and planned[-1].index == len(planned) - 1
    assert len({spec.game_id for spec in planned}) == len(planned)
    assert FORMAT.plan_lines(league, planned) == ["seeds: 1 a, 2 b, 3 c, 4 d, 5 e", "byes in the first round: a, b, c"]
    assert FORMAT.describe(league.config).startswith("at most: double elimination, 2 seat-swapped pairs a series")
    run = FORMAT.start(league)
    assert run.most_games == len(planned)


def test_seeding_by_ratings_and_the_best_k_go_on():
    league = inputs(list(STRENGTH), seeding="rating", ratings=STRENGTH, best=4)
    run = FORMAT.start(league)
    assert run.bracket.seeds == ("b", "d", "a", "e")
    assert {spec.seats for spec in run.games} == {("b", "e"), ("e", "b"), ("d", "a"), ("a", "d")}


def knockout_file(folder, bots=None, **keys):
    """A league file of a knockout of synthetic built-ins (``write_league``'s, without games_per_pair)."""
    import yaml

    from tests.conftest import write_league

    path = write_league(
        folder,
        game="synthetic",
        variants={"default": {}},
        format="knockout",
        bots=bots or [{"name": bot, "builtin": "synthetic.model"} for bot in STRENGTH],
        **({"knockout": keys} if keys else {}),
    )
    config = yaml.safe_load(path.read_text())
    del config["games_per_pair"]
    path.write_text(yaml.safe_dump(config))
    return path


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ({"best": 1}, "knockout.best: a knockout of 1 bot plays nothing; give best: 2 or more"),
        ({"best": 6}, "knockout.best: 6 is more than the 5 bots of this league; give best: 5 or fewer"),
        (
            {"seeding": "rating", "ratings": {**STRENGTH, "zed": 3}},
            "knockout.ratings: 'zed' is not a bot of this league; rate only its bots (a, b, c, d, e)",
        ),
        ({"seeding": "rating", "ratings": {"a": 1}}, "knockout.ratings: 'b' has no rating; give every bot a rating"),
        ({"seeding": "rating"}, "knockout.seeding: seeding by rating needs exactly one of"),
        ({"ratings": STRENGTH}, "knockout.ratings: a rating seeds the bracket only with knockout.seeding: rating"),
        ({"seeding": "rating", "ratings_from": "/nowhere"}, "knockout.ratings_from: /nowhere holds no stored league"),
        ({"best": 3, "seeding": "random"}, "knockout.best: the best K are the top of a rating"),
        ({"advance": 2}, "knockout.advance: only a knockout of tables (players_per_table: N) has tables"),
        ({"pairs_per_series": 0}, "knockout.pairs_per_series: Input should be greater than or equal to 1"),
        ({"elimination": "triple"}, "knockout.elimination: Input should be 'single' or 'double'"),
    ],
)
def test_bad_knockout_keys_are_one_line_naming_the_key_and_the_fix_exit_2_nothing_written(
    tmp_path, league_cli, keys, message
):
    from tests.conftest import refusal

    line = refusal(league_cli, "validate", str(knockout_file(tmp_path, **keys)))
    assert message in line, line
    assert not (tmp_path / "out").exists()


def test_a_knockout_of_one_bot_and_keys_of_other_formats_are_refused(tmp_path, league_cli):
    from tests.conftest import refusal

    alone = knockout_file(tmp_path, bots=[{"name": "a", "builtin": "synthetic.model"}])
    assert "bots: List should have at least 2 items" in refusal(league_cli, "validate", str(alone))
    pairs = knockout_file(tmp_path)
    pairs.write_text(pairs.read_text() + "games_per_pair: 4\n")
    assert "games_per_pair: a knockout plays series; give their length with knockout.pairs_per_series" in refusal(
        league_cli, "validate", str(pairs)
    )
    from tests.conftest import write_league

    other = write_league(tmp_path, knockout={"best": 2})
    assert "knockout: only format: knockout plays a bracket of series (this league is round_robin)" in refusal(
        league_cli, "validate", str(other)
    )


def test_a_finals_knockout_seeds_the_best_k_of_a_qualifiers_order_in_a_stage_of_its_own():
    from league.plan.formats.knockout import qualified

    league = inputs(list(STRENGTH), best=4)
    order = ["b", "d", "a", "e", "c"]  # a qualifier's final order
    finals = KnockoutRun(league, qualified(order, league.config), stage="finals")
    assert finals.bracket.seeds == ("b", "d", "a", "e")
    alone = KnockoutRun(league, qualified(order, league.config))
    assert {s.seats for s in finals.games} == {s.seats for s in alone.games}
    assert not {s.game_id for s in finals.games} & {s.game_id for s in alone.games}  # the stage is in the ids


def test_seeding_from_a_stored_leagues_standings(tmp_path):
    from league.plan.formats.knockout import field_seeds, stored_ratings

    strength = {"a": 1, "b": 4, "c": 2, "d": 3, "stranger": 9}  # the stored league had a bot this one has not
    pairs = [(x, y) for x in strength for y in strength if x != y]
    lines = []
    for number, (x, y) in enumerate(pairs * 2):
        spec = GameSpec(f"{number:04d}", number, "old", "default", (x, y), number, 0)
        lines.append(json.dumps(record(spec, by_strength(strength)(spec)).to_json()))
    (tmp_path / "games.jsonl").write_text("\n".join(lines) + "\n")
    ratings = stored_ratings(tmp_path, ["a", "b", "c", "d", "e"])  # e has no games there: last
    assert sorted(ratings, key=lambda bot: -ratings[bot]) == ["b", "d", "c", "a", "e"]
    league = inputs(["a", "b", "c", "d", "e"], seeding="rating", ratings_from=str(tmp_path), best=4)
    assert field_seeds(league) == ["b", "d", "c", "a"]

    # A stored league whose format has an order of its own (a Swiss's standings) seeds by it, as its standings do.
    (tmp_path / "league.json").write_text(json.dumps({"format": "swiss", "final_order": ["c", "stranger", "a", "b"]}))
    ratings = stored_ratings(tmp_path, ["a", "b", "c", "d", "e"])  # d and e are not in it: then by strength
    assert sorted(ratings, key=lambda bot: -ratings[bot]) == ["c", "a", "b", "d", "e"]


def test_a_relative_ratings_from_is_taken_from_the_league_files_folder(tmp_path, monkeypatch):
    import yaml

    from league.plan.config import load_league

    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "games.jsonl").write_text("")
    data = {
        "name": "cup",
        "game": "synthetic",
        "format": "knockout",
        "knockout": {"seeding": "rating", "ratings_from": "old"},
        "bots": [{"name": bot, "builtin": "synthetic.model"} for bot in "abc"],
    }
    (tmp_path / "league.yaml").write_text(yaml.safe_dump(data))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # no "old" folder here: only the file's folder holds it
    league = load_league(tmp_path / "league.yaml")
    assert league.config.knockout.ratings_from == str(tmp_path / "old")
