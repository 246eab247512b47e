"""Tables for multi-player games: the schedule's balance, the config's checks, ratings by rank, a league."""

import itertools
import json
from collections import Counter

import pandas as pd
import pytest
import yaml

from league.cluster.runner import run_league, schedule
from league.plan.config import ConfigError, load_league
from league.plan.schedule import balance, round_robin, tables
from league.plan.table_draw import even_tables
from league.report.build import write_report
from league.stats.analysis import assess
from league.stats.game_record import GameRecord
from league.stats.placing import rank_points
from league.stats.ratings import league_table

SIX = ["a", "b", "c", "d", "e", "f"]


def test_each_table_is_played_once_per_rotation_of_its_seats_on_one_seed():
    specs = tables("L", SIX, ["one", "two"], [4], 5, seed=3)
    assert len(specs) == 5 * 4 * 2
    by_table = {}
    for spec in specs:
        by_table.setdefault(spec.round, []).append(spec)
    for games in by_table.values():
        assert len({spec.seed for spec in games}) == 1, "a table's rotations and variants share its seed"
        for variant in ("one", "two"):
            seatings = [spec.seats for spec in games if spec.variant == variant]
            assert len(seatings) == 4
            for seat in range(4):
                assert len({seating[seat] for seating in seatings}) == 4, "every bot of the table in every seat"
    assert len({spec.game_id for spec in specs}) == len(specs)
    assert [spec.index for spec in specs] == list(range(len(specs)))


def test_every_variant_is_played_on_the_same_tables_and_seeds():
    specs = tables("L", SIX, ["one", "two"], [3, 5], 4, seed=9)
    one = [(spec.seats, spec.seed) for spec in specs if spec.variant == "one"]
    two = [(spec.seats, spec.seed) for spec in specs if spec.variant == "two"]
    assert one == two


def test_the_same_config_gives_the_same_tables_and_another_seed_others():
    first = tables("L", SIX, ["v"], [3, 4], 6, seed=1)
    assert first == tables("L", SIX, ["v"], [3, 4], 6, seed=1)
    assert [spec.seats for spec in first] != [spec.seats for spec in tables("L", SIX, ["v"], [3, 4], 6, seed=2)]


def test_a_divisible_league_is_perfectly_balanced():
    # 12 tables of 5 from 6 bots: 60 seats, 10 tables each; 12 * 10 pairs over 15 pairs = 8 tables each.
    result = balance(tables("L", SIX, ["v"], [5], 12, seed=0), SIX)
    assert set(result.games.values()) == {50}
    assert set(result.meetings.values()) == {40}
    assert {count for row in result.seats[5].values() for count in row} == {10}


@pytest.mark.parametrize(("bots", "sizes", "count"), [(7, [3, 4], 10), (12, [4], 30), (9, [2, 3], 12)])
def test_games_and_meetings_stay_close_to_even(bots, sizes, count):
    names = [f"bot{k}" for k in range(bots)]
    specs = tables("L", names, ["v"], sizes, count, seed=5)
    result = balance(specs, names)
    per_size = {size: Counter() for size in sizes}
    for spec in specs:
        for name in spec.seats:
            per_size[len(spec.seats)][name] += 1
    for size, counter in per_size.items():
        tables_of = {name: counter[name] // size for name in names}
        assert max(tables_of.values()) - min(tables_of.values()) <= 1, f"tables of {size} per bot: {tables_of}"
    meetings = result.meetings.values()
    mean = sum(meetings) / len(meetings)
    biggest = max(sizes)
    assert max(meetings) - mean <= 1.5 * biggest and mean - min(meetings) <= 1.5 * biggest, sorted(meetings)


def test_the_balance_is_told_in_words():
    lines = balance(tables("L", SIX, ["v"], [5], 12, seed=0), SIX).lines()
    assert lines == [
        "games per bot: 50",
        "games each pair plays together: 40 (mean 40.0)",
        "5-player tables per bot: 10; each bot sits in each seat 10 times",
    ]


@pytest.mark.parametrize("seed", range(8))
def test_more_tables_keep_every_table_drawn_before(seed):
    # As raising games_per_pair keeps a round robin's games, raising tables keeps the stored ones.
    for bots, sizes in ((SIX, [4]), (SIX, [3, 5]), ([f"b{k}" for k in range(9)], [2, 3, 4])):
        shorter = tables("L", bots, ["v"], sizes, 5, seed)
        longer = tables("L", bots, ["v"], sizes, 13, seed)
        assert [spec.game_id for spec in longer[: len(shorter)]] == [spec.game_id for spec in shorter]


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize(("bots", "sizes", "count"), [(7, [3, 4], 10), (9, [2, 3], 12), (8, [2, 3, 4], 7)])
def test_each_size_is_shared_out_evenly_and_so_is_any_stretch_played(seed, bots, sizes, count):
    names = [f"b{k}" for k in range(bots)]
    specs = tables("L", names, ["v"], sizes, count, seed)
    for played in range(1, count + 1):  # the first tables of each size, as a stopped league has them
        per_size = {size: Counter() for size in sizes}
        for spec in specs[: played * sum(sizes)]:  # a table is one game per seat rotation
            for name in spec.seats:
                per_size[len(spec.seats)][name] += 1
        for size, counter in per_size.items():
            sat = [counter[name] // size for name in names]
            assert max(sat) - min(sat) <= 1, (played, size, sat)


def test_the_sizes_take_turns():
    specs = tables("L", SIX, ["v"], [3, 4], 3, seed=0)
    assert [len(spec.seats) for spec in specs] == [3, 3, 3, 4, 4, 4, 4] * 3


def test_a_table_of_two_is_never_taken_for_a_pairs_game():
    pairs = round_robin("L", SIX[:3], ["v"], 4, 0)
    two = tables("L", SIX[:3], ["v"], [2], 6, 0)
    assert not {spec.game_id for spec in pairs} & {spec.game_id for spec in two}


@pytest.mark.parametrize(("bots", "size", "count", "most"), [(12, 4, 30, 4), (20, 10, 20, 7), (13, 4, 13, 2)])
def test_pairs_meet_about_equally_often(bots, size, count, most):
    names = [f"b{k}" for k in range(bots)]
    meetings = balance(tables("L", names, ["v"], [size], count, 0), names).meetings.values()
    assert max(meetings) // size <= most, sorted(meetings)


def league_file(folder, **config):
    """A league file of exactly these keys (no defaults from elsewhere), its output in ``folder``."""
    path = folder / "league.yaml"
    path.write_text(yaml.safe_dump({"output": str(folder / "out"), **config}))
    return path


def nimmt_league(folder, **overrides):
    """Five random nimmt bots at tables of 3 and 4, two rule variants."""
    config = {
        "name": "tables",
        "game": "nimmt",
        "variants": {"gpcc": {}, "classic": {"bullheads": "classic"}},
        "bots": [{"name": f"r{k}", "builtin": "nimmt.random"} for k in range(5)],
        "format": "tables",
        "players_per_table": [3, 4],
        "tables": 2,
        "seed": 11,
        "concurrency": 2,
    }
    return league_file(folder, **{**config, **overrides})


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"players_per_table": 11}, "players_per_table: nimmt is played by 2 to 10 players, not 11"),
        ({"players_per_table": [3, 6]}, "players_per_table: a table of 6 needs at least 6 bots, not 5"),
        ({"players_per_table": [3, 3]}, "players_per_table: a size is given twice in [3, 3]"),
        ({"players_per_table": "four"}, "players_per_table: give a table size (players_per_table: 4)"),
        ({"players_per_table": None}, "players_per_table: give a table size"),
        ({"games_per_pair": 2}, "games_per_pair: tables have no pairs; say how many tables to draw with tables: N"),
        ({"tables": 0}, "tables: Input should be greater than or equal to 1"),
        ({"format": "round_robin"}, "players_per_table: only formats tables and knockout seat bots at tables"),
    ],
)
def test_bad_table_settings_name_their_key(tmp_path, league_cli, overrides, message):
    path = nimmt_league(tmp_path, **overrides)
    with pytest.raises(ConfigError) as error:
        load_league(path)
    assert message in str(error.value)
    status, out, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 2 and out == "" and message in err and "Traceback" not in err


def test_a_size_the_game_does_not_allow_is_refused_for_fish(tmp_path, league_cli):
    bots = [{"name": f"r{k}", "builtin": "fish.random"} for k in range(5)]
    path = league_file(tmp_path, name="f", game="fish", bots=bots, format="tables", players_per_table=5)
    status, _, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 2 and "players_per_table: fish is played by 2 to 4 players, not 5" in err


def test_validate_states_the_tables_and_their_balance(tmp_path, league_cli):
    path = nimmt_league(tmp_path)
    status, out, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 0, err
    assert "nimmt, tables, 28 games (2 tables of each size (3 and 4 players), each played once per seat rotation" in out
    assert "  balance (per variant):\n    games per bot: " in out
    assert "games each pair plays together: " in out
    assert "3-player tables per bot: 1 to 2; each bot sits in each seat 1 to 2 times" in out


def test_points_by_rank_are_linear_and_ties_share_their_places():
    assert [rank_points([1, 2], seat) for seat in (0, 1)] == [1.0, 0.0]
    assert [rank_points([1, 1], seat) for seat in (0, 1)] == [0.5, 0.5]
    assert [rank_points([1, 2, 2, 4], seat) for seat in range(4)] == [1.0, 0.5, 0.5, 0.0]
    assert [rank_points([2, 1, 3], seat) for seat in range(3)] == [0.5, 1.0, 0.0]
    for ranks in ([1, 1, 3, 4, 4], [1, 2, 3, 4, 5], [1, 1, 1, 1]):
        assert sum(rank_points(ranks, seat) for seat in range(len(ranks))) == pytest.approx(len(ranks) / 2)


def table_record(index, seats, ranks, scores=None, table=None):
    return GameRecord.from_json(
        {
            "game_id": f"t{index}",
            "spec": {"index": index, "seats": seats, "variant": "v", "round": index if table is None else table},
            "result": {"ranks": ranks, "scores": scores or [0] * len(seats), "termination": "NORMAL", "offenders": []},
        }
    )


def test_tables_rate_every_seat_by_rank_in_schedule_order():
    records = []
    for index, order in enumerate(itertools.islice(itertools.cycle(itertools.permutations("abcd")), 48)):
        seats = list(order)
        ranks = [{"a": 1, "b": 2, "c": 2, "d": 4}[name] for name in seats]
        records.append(table_record(index, seats, ranks, [{"a": 3, "b": 9, "c": 9, "d": 20}[n] for n in seats]))
    table = league_table(records[::-1], "abcd")  # stored in any order: rated in schedule order
    assert table.ratings["a"].mu > table.ratings["b"].mu > table.ratings["d"].mu
    assert abs(table.ratings["b"].mu - table.ratings["c"].mu) < 0.01, "tied seats rate alike (but for the order)"
    a, b, d = (table.standings[name] for name in "abd")
    assert (a.games, a.wins, a.points, a.mean_rank, a.mean_score) == (48, 48, 48.0, 1.0, "3.00")
    assert (b.points, b.mean_rank, b.losses) == (24.0, 2.0, 48)
    assert (d.points, d.mean_rank, d.mean_score) == (0.0, 4.0, "20.00")
    assert table.pair_points[("b", "c")] == [24.0, 48]


def test_bradley_terry_resamples_whole_tables():
    # Each table is played twice (two rotations of one deal): a first and c last, then the reverse.
    # Resampling whole tables keeps a and c level in every resample; resampling games would not.
    records = []
    for table in range(30):
        records.append(table_record(2 * table, ["a", "b", "c"], [1, 2, 3], table=table))
        records.append(table_record(2 * table + 1, ["b", "c", "a"], [2, 1, 3], table=table))
    records.append(table_record(60, ["a", "b", "c"], [2, 1, 2], table=30))  # b a little ahead, a and c tied
    found = assess(["a", "b", "c"], records, ["a", "b", "c"], samples=100, seed=1)
    again = assess(["a", "b", "c"], records, ["a", "b", "c"], samples=100, seed=1)
    assert found.strength.equals(again.strength) and found.los.equals(again.los)
    by_name = found.strength.set_index("bot")
    assert found.strength["bot"].iloc[0] == "b"
    assert by_name.loc["a", "elo"] == pytest.approx(by_name.loc["c", "elo"], abs=0.1)
    assert (by_name.loc["a", "low_95"], by_name.loc["a", "high_95"]) == pytest.approx(
        (by_name.loc["c", "low_95"], by_name.loc["c", "high_95"]), abs=0.1
    )
    assert by_name.loc["a", "high_95"] - by_name.loc["a", "low_95"] > 1, "the intervals are real, not points"


def test_bots_without_games_get_no_strength():
    records = [table_record(k, ["a", "b", "c"], [1, 2, 3]) for k in range(5)]
    found = assess(["a", "b", "c", "idle"], records, ["a", "b", "c", "idle"], samples=20)
    assert list(found.strength["bot"]) == ["a", "b", "c"] and found.unrated == ["idle"]
    assert [tuple(pair) for pair in found.neighbours[["higher", "lower"]].values] == [("a", "b"), ("b", "c")]


def test_a_league_that_leaves_a_bot_out_is_refused(tmp_path, league_cli):
    path = nimmt_league(tmp_path, players_per_table=[4], tables=1)
    status, _, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 2
    assert "tables: 1 table of each size seat 4 of the 5 bots; give tables: 2 or more so that every bot plays" in err


def test_uneven_games_are_pointed_out_with_the_tables_that_even_them(tmp_path, league_cli):
    assert even_tables(5, [4], 3) == 5 and even_tables(6, [4], 5) == 6 and even_tables(6, [3, 4], 1) == 6
    status, out, err = league_cli("validate", str(nimmt_league(tmp_path, players_per_table=[4], tables=3)))
    assert status == 0, err
    assert "games per bot: 8 to 12" in out
    assert "(uneven games: tables: 5 gives every bot the same games; compare points per game)" in out


def test_a_table_league_plays_resumes_and_reports_by_rank(ray_local, tmp_path):
    league = load_league(nimmt_league(tmp_path))
    specs = schedule(league)
    summary = run_league(league)
    assert (summary.total, summary.played, summary.infra_errors) == (len(specs), len(specs), 0)
    records = [json.loads(line) for line in (league.output / "games.jsonl").read_text().splitlines()]
    assert Counter(len(r["spec"]["seats"]) for r in records) == {3: 12, 4: 16}
    assert all(sorted(r["result"]["ranks"])[0] == 1 for r in records)
    again = run_league(league)
    assert (again.played, again.skipped) == (0, len(specs))
    write_report(league.output, "tables", list(league.bots), list(league.games), None, "bullheads (lower is better)")
    header = (league.output / "standings.csv").read_text().splitlines()[0]
    assert header.startswith("place,bot,games,points,points_per_game,mean_rank,wins,draws,losses,faults,score_sum")
    report = (league.output / "report.md").read_text()
    assert "Points by rank: 1 for first, 0 for last, linear between" in report
    assert "Each game of n seats counts as its n(n-1)/2 pairwise results" in report
    assert "multi-player update from every seat's rank" in report
    assert "score_sum and mean_score are the game's own score, here bullheads (lower is better)" in report
    assert "place is the order by Bradley-Terry strength (elo), fitted to every game at once" in report
    assert "never the order" in report
    standings, strength = (pd.read_csv(league.output / name) for name in ("standings.csv", "strength.csv"))
    assert standings["bot"].tolist() == strength["bot"].tolist(), "one order on the page"
    assert standings["elo"].tolist() == strength["elo"].tolist()
