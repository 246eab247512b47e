"""Exact ties are ordered by name and share a place, whatever the solver's last bits say."""

import itertools

import pytest

from benchmarks.simulated_records import record
from league.report.strength import strength_report
from league.stats.analysis import assess
from league.stats.ranking import rank_league
from league.stats.ratings import league_table
from league.stats.ties import TIE_TOLERANCE, best_first, shared_places, tie_classes, tie_sentence, tied_runs

from .simulated_leagues import elo_model, round_robin


def test_values_a_solver_noise_apart_tie_and_go_by_name_either_way():
    names = ["b", "a", "c"]
    for noise in (-1e-12, 0.0, 1e-12):
        values = [153.62143425, 153.62143425 + noise, -10.0]
        order = best_first(names, values)
        assert [names[k] for k in order] == ["a", "b", "c"]
        assert shared_places(order, values) == [1, 1, 3]
        assert tied_runs(names, order, values) == [["a", "b"]]


def test_a_tie_is_anchored_at_its_best_value_and_never_creeps_down_a_ladder():
    step = 0.6 * TIE_TOLERANCE
    assert tie_classes([0.0, -step, -2 * step, -3 * step]) == [0, 0, 1, 1]
    assert tie_classes([1.0, float("nan"), 1.0 + 0.5 * TIE_TOLERANCE, float("nan")]) == [0, 1, 0, 1]
    assert tie_classes([float("-inf"), 2.0, float("-inf")]) == [1, 0, 1]


def test_a_later_key_orders_a_tie_of_the_first_and_names_only_what_both_tie():
    names = ["d", "c", "b", "a"]
    first, second = [5.0, 5.0, 5.0, 1.0], [2.0, 3.0, 2.0, 9.0]
    order = best_first(names, first, second)
    assert [names[k] for k in order] == ["c", "b", "d", "a"]
    assert shared_places(order, first, second) == [1, 2, 2, 4]
    assert tied_runs(names, order, first, second) == [["b", "d"]]


def test_the_sentence_names_each_tie():
    one = tie_sentence([["a", "b"]], "Bradley-Terry strength")
    assert one == (
        "Tied: a and b have the same Bradley-Terry strength (their results do not tell them apart), so they share a"
        " place and are listed by name."
    )
    two = tie_sentence([["a", "b", "c"], ["x", "y"]], "rating")
    assert "a, b and c; x and y have the same rating" in two and "each tie shares a place, by name" in two
    assert tie_sentence([], "rating") == ""


def _with_twin(records, bot, twin):
    """``records`` with ``twin`` given exactly ``bot``'s games against the others, and a split pair between them."""
    copies = [
        record(
            len(records) + k,
            [twin if seat == bot else seat for seat in game["spec"]["seats"]],
            game["result"]["ranks"],
            game["spec"]["round"],
        )
        for k, game in enumerate(game for game in records if bot in game["spec"]["seats"])
    ]
    between = [
        record(len(records) + len(copies) + k, seats, [1, 2], round_)
        for k, (round_, seats) in enumerate(itertools.product(range(2), ([bot, twin], [twin, bot])))
    ]
    return records + copies + between


@pytest.mark.parametrize("reverse", [False, True])
def test_bots_with_identical_results_are_tied_by_name_in_the_report(reverse):
    listed = ["top", "twin_b", "low", "mid"]
    games = round_robin(elo_model({"top": 200, "twin_b": 0, "mid": -50, "low": -200}), listed, rounds=6, seed=12)
    games = _with_twin(games, "twin_b", "twin_a")  # here the fit puts twin_b 7e-15 Elo above twin_a
    bots = [*listed, "twin_a"][:: -1 if reverse else 1]
    found = assess(bots, games, bots)
    # mid and low scored the same points in a balanced round robin: Bradley-Terry rates them equal too
    assert found.strength["bot"].tolist() == ["top", "twin_a", "twin_b", "low", "mid"]
    assert found.strength["place"].tolist() == [1, 2, 2, 4, 4]
    assert found.ties == [["twin_a", "twin_b"], ["low", "mid"]]
    assert found.los.loc["twin_a", "twin_b"] == found.los.loc["low", "mid"] == 0.5
    shown = [
        block.text
        for section in strength_report(bots, games, bots).sections
        for block in section.blocks
        if hasattr(block, "text")
    ]
    assert (
        "Tied: twin_a and twin_b; low and mid have the same Bradley-Terry strength (their results do not tell them"
        " apart), so each tie shares a place, by name."
    ) in shown


def test_standings_tied_in_rating_and_points_share_a_place_by_name():
    drawn = [record(k, seats, [1, 1], k // 2) for k, seats in enumerate([["zeta", "alpha"], ["alpha", "zeta"]] * 3)]
    table = league_table(drawn, ["zeta", "idle", "alpha"])
    assert table.standings["alpha"].points == table.standings["zeta"].points
    ranked = rank_league(["zeta", "idle", "alpha"], drawn)
    assert ranked.strength("alpha")[0] == pytest.approx(ranked.strength("zeta")[0], abs=TIE_TOLERANCE)
    assert ranked.order == ["alpha", "zeta", "idle"]
    assert ranked.places == [1, 1, 3]
    assert ranked.ties == [["alpha", "zeta"]]
