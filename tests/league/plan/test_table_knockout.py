"""A knockout of tables (league.plan.table_knockout, formats/knockout_run.TableKnockoutRun): the best K go on.

Driven with made-up stored games of three and four seats (no Ray): each game ranks its seats by a
fixed strength per bot, so each test knows who must go on.
"""

from __future__ import annotations

import random

import pytest

from league.plan.formats.knockout_run import TableKnockoutRun
from league.plan.knockout_series import SeriesRules
from league.plan.table_knockout import deal, decide_table, round_sizes, sizes_problem
from league.stats.game_record import GameRecord
from tests.league.plan.test_knockout_format import inputs

STRENGTH = {f"b{n}": 20 - n for n in range(1, 11)}  # b1 strongest


def ranked(seats, strength) -> list[int]:
    return [1 + sum(strength[other] > strength[bot] for other in seats) for bot in seats]


def record(spec, ranks) -> GameRecord:
    return GameRecord.from_json(
        {
            "game_id": spec.game_id,
            "spec": {"index": spec.index, "variant": spec.variant, "seats": list(spec.seats), "seed": spec.seed},
            "result": {"scores": [0] * len(ranks), "ranks": ranks, "termination": "NORMAL", "offenders": []},
        }
    )


def play(run, strength, order: random.Random) -> list[GameRecord]:
    stored, pending = [], list(run.games)
    while pending:
        order.shuffle(pending)
        size = order.randint(1, 4)
        batch, pending = pending[:size], pending[size:]
        finished = [record(spec, ranked(spec.seats, strength)) for spec in batch]
        stored += finished
        pending += run.add(finished)
    return stored


def test_deal_snakes_the_seeds_so_every_table_has_a_top_seed_and_sizes_differ_by_one_at_most():
    assert deal([f"s{n}" for n in range(1, 11)], 4) == [
        ["s1", "s6", "s7"],
        ["s2", "s5", "s8"],
        ["s3", "s4", "s9", "s10"],
    ]
    for field in range(2, 30):
        tables = deal([str(n) for n in range(field)], 4)
        assert max(map(len, tables)) - min(map(len, tables)) <= 1 and max(map(len, tables)) <= 4
        assert len(tables) == -(-field // 4) and sorted(sum(tables, [])) == sorted(str(n) for n in range(field))
    assert round_sizes(10, 4, 2) == [[3, 3, 4], [3, 3], [4]]
    assert round_sizes(4, 4, 1) == [[4]]


def test_sizes_that_cannot_come_down_to_a_final_table_are_refused():
    assert sizes_problem(10, 4, 4, 2).startswith("knockout.advance: 4 of each table go on, but a table seats only 4")
    assert sizes_problem(10, 4, 3, 2).startswith("knockout.advance: round 1 would seat a table of 3, where all 3")
    assert sizes_problem(7, 3, 1, 3).startswith(
        "players_per_table: round 1 of a knockout of 7 bots would seat a table of 2"
    )
    assert sizes_problem(10, 4, 2, 2) is None


def test_a_tie_at_the_cut_plays_extra_sets_then_the_higher_seed():
    rules = SeriesRules(pairs=1, extra_pairs=1)
    league = inputs(["a", "b", "c"])
    run = TableKnockoutRun(league, ["a", "b", "c"], rules, 3, 1)
    level = {"a": 1, "b": 1, "c": 0}  # a and b share first in every game
    assert len(run.games) == 3  # one game per seat rotation
    extra = run.add([record(spec, ranked(spec.seats, level)) for spec in run.games])
    assert len(extra) == 3 and {spec.round for spec in extra} == {1}
    run.add([record(spec, ranked(spec.seats, level)) for spec in extra])
    assert run.champion() == "a" and run.decisions["F"].how == "higher seed"
    assert run.final_order() == ["a", "b", "c"]


def test_the_tie_rule_orders_the_tied_by_the_last_game():
    # every bot wins one of the three games and is second in one: all level on 1.5 points
    results = [{"a": 2, "b": 0, "c": 1}, {"a": 0, "b": 1, "c": 2}, {"a": 1, "b": 2, "c": 0}]
    orders = {}
    for then in ("tie_rule", "higher_seed"):
        rules = SeriesRules(pairs=1, extra_pairs=0, then=then)
        run = TableKnockoutRun(inputs(["a", "b", "c"]), ["a", "b", "c"], rules, 3, 1)
        run.add([record(spec, ranked(spec.seats, won)) for spec, won in zip(run.games, results, strict=True)])
        assert run.decisions["F"].points == {"a": 1.5, "b": 1.5, "c": 1.5}
        orders[then] = (run.final_order(), run.decisions["F"].how)
    assert orders["tie_rule"] == (["b", "a", "c"], "tie rule (the last game)")  # the last game: b, a, c
    assert orders["higher_seed"] == (["a", "b", "c"], "higher seed")
    tied_last = [{"a": 2, "b": 0, "c": 1}, {"a": 0, "b": 1, "c": 2}, {"a": 1, "b": 1, "c": 2}]
    rules = SeriesRules(pairs=1, extra_pairs=0, then="tie_rule")
    games = TableKnockoutRun(inputs(["a", "b", "c"]), ["a", "b", "c"], rules, 3, 1).games
    records = [record(spec, ranked(spec.seats, won)) for spec, won in zip(games, tied_last, strict=True)]
    decision = decide_table(["a", "b", "c"], records, rules, 1, ["a", "b", "c"])
    assert decision.points == {"a": 1.25, "b": 0.75, "c": 2.5} and decision.order == ["c", "a", "b"]
    assert decision.how == "points"  # no tie at the cut: the tie rule is not needed


def test_ten_bots_at_tables_of_four_the_best_two_going_on_whatever_the_finish_order():
    bots = list(STRENGTH)
    league = inputs(bots)
    runs = [TableKnockoutRun(league, bots, SeriesRules(), 4, 2) for _ in range(2)]
    for run, seed in zip(runs, (1, 2), strict=True):
        play(run, STRENGTH, random.Random(seed))
    assert [(s.game_id, s.index, s.seats) for s in runs[0].games] == [
        (s.game_id, s.index, s.seats) for s in runs[1].games
    ]
    assert runs[0].manifest() == runs[1].manifest()
    run = runs[0]
    assert run.rounds == [["T1.1", "T1.2", "T1.3"], ["T2.1", "T2.2"], ["F"]]
    assert run.champion() == "b1"
    assert run.final_order()[:4] == ["b1", "b2", "b3", "b4"]  # the final table, in its order
    assert sorted(run.final_order()) == sorted(bots)
    assert len(run.games) == 2 * (3 + 3 + 4 + 3 + 3 + 4)  # two sets of seat rotations a table
    assert run.closing_lines()[0].startswith(
        "Champion: b1, first at the final table (b1 8, b2 5.33, b3 2.67, b4 0; points)"
    )
    # resumed: a fresh run fed the stored games plans the same games and plays nothing more
    stored = play(TableKnockoutRun(league, bots, SeriesRules(), 4, 2), STRENGTH, random.Random(9))
    again = TableKnockoutRun(league, bots, SeriesRules(), 4, 2)
    again.add(reversed(stored))
    assert [s.game_id for s in again.games] == [s.game_id for s in run.games] and again.add(stored) == []
    assert run.most_games == len(run.games)


def test_a_rotation_seats_every_bot_of_a_table_in_every_seat_once_on_one_seed():
    run = TableKnockoutRun(inputs(["a", "b", "c", "d"]), ["a", "b", "c", "d"], SeriesRules(pairs=1), 4, 1)
    assert [spec.seats for spec in run.games] == [
        ("a", "b", "c", "d"),
        ("b", "c", "d", "a"),
        ("c", "d", "a", "b"),
        ("d", "a", "b", "c"),
    ]
    assert len({spec.seed for spec in run.games}) == 1


@pytest.mark.parametrize("advance", [1, 2])
def test_most_games_is_what_a_knockout_plays_at_its_longest(advance):
    run = TableKnockoutRun(inputs(list(STRENGTH)), list(STRENGTH), SeriesRules(), 4, advance)
    sizes = round_sizes(10, 4, advance)
    assert run.most_games == sum(size * 4 for round_ in sizes for size in round_)  # 4: two sets, two extra


@pytest.mark.parametrize(
    ("tables", "keys", "message"),
    [
        ([3, 4], {}, "players_per_table: a knockout's tables are of one size, 2 to 10 for nimmt"),
        ([3], {"advance": 3}, "knockout.advance: 3 of each table go on, but a table seats only 3; give fewer"),
        ([4], {"advance": 3}, "knockout.advance: round 1 would seat a table of 3, where all 3 go on"),
        ([3], {"elimination": "double"}, "knockout.elimination: a knockout of tables is single elimination"),
    ],
)
def test_bad_table_knockouts_are_one_line_naming_the_key(tmp_path, league_cli, tables, keys, message):
    from tests.conftest import refusal
    from tests.league.plan.test_knockout_format import knockout_file

    bots = [{"name": f"n{k}", "builtin": "nimmt.random"} for k in range(6)]
    path = knockout_file(tmp_path, bots=bots, **keys)
    path.write_text(path.read_text().replace("game: synthetic", "game: nimmt") + f"players_per_table: {tables}\n")
    assert message in refusal(league_cli, "validate", str(path))
