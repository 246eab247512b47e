"""Separations are named, their gaps lower bounds; resampling does not depend on the order of the bot list."""

import math

import numpy as np
import pandas as pd
import pytest

from benchmarks.simulated_records import record
from league.stats.analysis import assess
from league.stats.bradley_terry import fit, points_and_games
from league.stats.pairwise import pairwise_results
from league.stats.separation import separations
from league.stats.strength import DESIGN_EFFECT_SE, MAX_SAMPLES, estimate

from .simulated_leagues import elo_model, round_robin

MINIMAX = {"minimax": 0.0, "search": 0.0}
"""Two bots that win every game against the two below them, and split their own games."""


def split_field(rounds: int, seed: int = 3) -> list[dict]:
    """minimax and search win every game against greedy and random; within each pair the games are close."""
    within = elo_model({"minimax": 40, "search": 0, "greedy": 0, "random": -300})

    def score(first: str, second: str) -> float:
        if (first in MINIMAX) != (second in MINIMAX):
            return 1.0 if first in MINIMAX else 0.0
        return within(first, second)

    return round_robin(score, ["minimax", "search", "greedy", "random"], rounds=rounds, seed=seed)


def test_a_group_that_never_lost_to_another_is_named_and_its_gap_is_a_lower_bound():
    names = ["minimax", "search", "greedy", "random"]
    found = assess(names, split_field(rounds=25), names)
    separation = found.separation
    assert separation.groups == [["minimax", "search"], ["greedy", "random"]]
    (gap,) = separation.gaps
    # the 200 games between the groups, all won by the upper, in 100 seat-swapped pairs (one seed each, so
    # perhaps one outcome each): 0.05 ** (1 / 100) at least, in Elo
    rate = 0.05 ** (1 / 100)
    assert (gap.games, gap.units) == (200, 100) and gap.at_least == pytest.approx(400 * math.log10(rate / (1 - rate)))
    assert round(gap.at_least) == 607
    strength = found.strength.set_index("bot")
    assert strength["group"].to_dict() == {"minimax": 1, "search": 1, "greedy": 2, "random": 2}
    last_of_top = strength.loc[strength.index[strength["group"] == 1][-1]]
    assert last_of_top["gap_below_at_least"] == pytest.approx(gap.at_least, abs=0.05)
    assert strength["gap_below_at_least"].isna().sum() == 3
    across = found.neighbours[found.neighbours["separated"]]
    assert len(across) == 1 and across.iloc[0]["settled"] and across.iloc[0]["more_games_per_pair"] == 0
    assert "2 groups (minimax, search | greedy, random): where one never lost a point to another" in found.verdict
    assert "a lower bound, not measured" in found.verdict and "never met" not in found.verdict
    assert (
        "minimax, search won all 200 games against greedy, random (100 seat-swapped pairs): the gap is at least"
        " 607 Elo (95%)" in separation.meaning
    )
    assert "come from the prior" in separation.meaning
    # no games are suggested to bound the gap: only the pairs inside the groups can need more
    for line in found.games_needed:
        assert not ("search above greedy" in line or "search/greedy" in line), line


def test_the_gap_across_a_separation_is_set_by_the_prior_and_grows_with_it():
    records = split_field(rounds=25)
    results = pairwise_results(["minimax", "search", "greedy", "random"], records)
    gaps = []
    for prior_sd in (400, 800, 1600):
        ratings = fit(*[part[None] for part in points_and_games(results.counts())], True, prior_sd).ratings[0]
        gaps.append(ratings[:2].min() - ratings[2:].max())
    assert gaps[0] < gaps[1] < gaps[2] and gaps[2] > 1.3 * gaps[0]  # what the data do not bound, the prior sets


def test_a_few_games_all_won_leave_the_order_open_and_say_how_many_more_would_settle_it():
    records = round_robin(lambda a, b: 1.0 if a == "top" else 0.0, ["top", "bottom"], rounds=1)
    found = assess(["top", "bottom"], records, ["top", "bottom"])
    pair = found.neighbours.iloc[0]
    assert pair["separated"] and not pair["settled"] and math.isnan(pair["factor"])
    assert found.separation.gaps[0].at_least is None  # 2 games bound nothing
    assert found.games_needed[0] == (
        "top above bottom: top's group won all 2 games against bottom's, in 1 seat-swapped pair, too few to settle"
        " the order; 4 more seat-swapped pairs won would settle it at 95%, but no number of games bounds their gap"
        " from above."
    )
    assert found.games_needed[1].startswith("Only neighbours across a separation are unsettled")
    assert found.verdict.startswith("No place is settled at 95%")


def test_draws_join_groups_and_a_round_robin_with_upsets_has_one_group():
    drawn = [record(0, ["a", "b"], [1, 1], 0), record(1, ["b", "a"], [1, 1], 0)]
    assert separations(pairwise_results(["a", "b"], drawn), np.zeros(2)).groups == [["a", "b"]]
    names = list("pqrs")
    close = round_robin(elo_model({"p": 100, "q": 50, "r": 0, "s": -50}), names, rounds=20, seed=5)
    found = assess(names, close, names)
    assert not found.separation.separated and found.separation.meaning == ""
    assert set(found.strength["group"]) == {1} and found.strength["gap_below_at_least"].isna().all()
    assert "groups" not in found.verdict


def test_a_sweep_down_the_order_puts_every_bot_in_a_group_of_its_own():
    names = ["first", "second", "third"]
    records = round_robin(lambda a, b: 1.0 if names.index(a) < names.index(b) else 0.0, names, rounds=5)
    found = assess(names, records, names)
    assert found.separation.groups == [["first"], ["second"], ["third"]]
    assert [gap.games for gap in found.separation.gaps] == [10, 10]
    assert found.neighbours["separated"].all() and found.neighbours["settled"].all()
    assert found.games_needed == ["Every neighbour's order is settled at 95%: no more games are needed."]


SEVEN = {"search": 300, "minimax": 260, "mcts": 200, "greedy": -150, "random": -400, "twin": 0, "copy": 10}


def test_listing_the_bots_in_another_order_gives_the_same_figures():
    names = list(SEVEN)
    records = round_robin(elo_model(SEVEN, first_seat=40), names, rounds=6, seed=11, draws=0.1)
    first = assess(names, records, names)
    for order in (names[::-1], sorted(names), names[3:] + names[:3]):
        other = assess(order, records, names)
        assert other.samples == first.samples
        assert other.design_effect == pytest.approx(first.design_effect, abs=1e-9)
        for name in ("strength", "los", "rank_probabilities", "neighbours"):
            pd.testing.assert_frame_equal(getattr(first, name), getattr(other, name), check_exact=False, atol=0.051)
        assert first.verdict == other.verdict


def test_the_design_effect_is_drawn_until_its_own_noise_is_small_and_that_noise_is_stated():
    names = list(SEVEN)[:4]
    results = pairwise_results(names, round_robin(elo_model(SEVEN), names, rounds=8, seed=2))
    few = estimate(results, samples=200, seed=1)
    enough = estimate(results, samples=200, seed=1, target_se=DESIGN_EFFECT_SE)
    assert few.samples == 200 and few.design_effect_se > DESIGN_EFFECT_SE  # 200 are not enough for 4 bots
    assert enough.design_effect_se <= DESIGN_EFFECT_SE or enough.samples == MAX_SAMPLES
    assert enough.samples > 200
    # the stated noise is the real one: independent seeds spread the figure about as much
    spread = np.std([estimate(results, samples=200, seed=seed).design_effect for seed in range(2, 22)])
    assert 0.5 * few.design_effect_se < spread < 2 * few.design_effect_se
    found = assess(names, round_robin(elo_model(SEVEN), names, rounds=8, seed=2), names)
    assert f"Monte Carlo standard error {found.design_effect_se:.3f} from {found.samples} resamples" in " ".join(
        found.method
    )


def test_units_are_numbered_by_round_and_names_not_by_list_positions():
    names = list(SEVEN)
    records = round_robin(elo_model(SEVEN), names, rounds=2, seed=4)
    orders = [names, names[::-1], sorted(names, key=len)]
    units = []
    for order in orders:
        results = pairwise_results(order, records)
        pairs = [
            tuple(sorted({results.bots[cell // len(order)], results.bots[cell % len(order)]}))
            for cell in results.row_cell
        ]
        units.append(sorted(set(zip(results.row_unit.tolist(), pairs, strict=True))))
    assert units[0] == units[1] == units[2]
    first_round = [pair for unit, pair in units[0] if unit < 21]  # 21 pairs of 7 bots a round
    assert len(first_round) == 21 and first_round == sorted(first_round)  # by the names, whatever the list


def game(records: list, seats: list[str], first_wins: bool, round_: int | None = None) -> None:
    """One game of two seats appended to ``records``, in a round of its own unless told."""
    round_ = len(records) if round_ is None else round_
    records.append(record(len(records), seats, [1, 2] if first_wins else [2, 1], round_))


def test_groups_are_ordered_by_who_never_lost_to_whom_and_a_rating_order_the_prior_made_is_never_settled():
    # y1 beats y2 30 times, y2 wins once (one group); x plays once and beats y2: x's group never lost a point
    records: list = []
    for _ in range(30):
        game(records, ["y1", "y2"], True)
    game(records, ["y2", "y1"], True)
    game(records, ["x", "y2"], True)
    found = assess(["x", "y1", "y2"], records, ["x", "y1", "y2"])
    assert found.separation.groups == [["x"], ["y1", "y2"]]  # x first, whatever the fit's order
    assert found.strength["bot"].tolist() == ["y1", "x", "y2"]  # the fit (the prior) puts y1 above x
    reversed_pair, dominated = found.neighbours.to_dict("records")
    assert reversed_pair["separated"] and not reversed_pair["settled"]
    assert found.games_needed[0].startswith("y1 above x is the prior's doing: x's group never lost a point to y1's")
    assert dominated["separated"] and not dominated["settled"]  # 1 game is not 5 units
    assert "x won the only game against y1, y2 (1 seat-swapped pair)" in found.separation.meaning


def test_groups_that_never_met_are_apart_not_separated_and_games_between_them_are_suggested():
    records: list = []
    for round_ in range(10):
        for first, second in (("a", "b"), ("c", "d")):
            game(records, [first, second], round_ % 3 != 0, round_)
            game(records, [second, first], round_ % 2 == 0, round_)
    found = assess(list("abcd"), records, list("abcd"))
    separation = found.separation
    assert len(separation.groups) == 2 and separation.apart and not separation.separated
    assert "never met, not even through common opponents: the prior alone orders them" in separation.meaning
    assert not found.neighbours["separated"].any()
    assert "the prior alone orders them" in found.verdict and "lower bound" not in found.verdict
    across = [line for line in found.games_needed if "their groups never met" in line]
    assert across and "more per pair" in across[0]  # games between them are suggested: they would measure it
    assert "Settling every neighbour" in found.games_needed[-1]


def test_a_table_counts_once_however_many_games_its_rotations_hold():
    records = []
    for rotation in range(4):  # one 4-seat table, its 4 rotations all won by A; B, C and D take turns below
        seats = ["A", "B", "C", "D"][rotation:] + ["A", "B", "C", "D"][:rotation]
        place = {"A": 1} | {bot: 2 + (number + rotation) % 3 for number, bot in enumerate("BCD")}
        records.append(record(rotation, seats, [place[bot] for bot in seats], 0))
    found = assess(list("ABCD"), records, list("ABCD"))
    (gap,) = found.separation.gaps
    assert (gap.games, gap.units, gap.at_least) == (12, 1, None)  # 12 results, 1 table: no bound, no settling
    assert "A won all 12 games against B, C, D (1 table)" in found.separation.meaning
    assert not found.neighbours.iloc[0]["settled"] and "4 more tables won" in found.games_needed[0]
