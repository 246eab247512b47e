"""The standings' one order (league.stats.ranking): every game at once, whatever order they came in."""

import random

import numpy as np

from league.report.tables import STANDINGS_NOTES, standings_frame
from league.stats.analysis import assess
from league.stats.game_record import GameRecord
from league.stats.ranking import RULE, manifest_order, rank_league
from league.stats.ratings import league_table, trueskill_order
from tests.conftest import typed

FIVE = ["mybot", "minimax", "greedy", "random", "weak"]
WINS = {  # games of ten (five seat-swapped pairs) the first bot won of the pair; no draws
    ("mybot", "minimax"): 6,
    ("mybot", "greedy"): 6,
    ("mybot", "random"): 7,
    ("mybot", "weak"): 7,
    ("minimax", "greedy"): 6,
    ("minimax", "random"): 7,
    ("minimax", "weak"): 7,
    ("greedy", "random"): 6,
    ("greedy", "weak"): 7,
    ("random", "weak"): 6,
}


def five_bot_round_robin() -> list[dict]:
    """Issue 32's league: mybot 26 points to minimax's 24, and their head-to-head 6-4 for mybot."""
    games = []
    for (first, second), won in WINS.items():
        for k in range(10):
            seats = [first, second] if k % 2 == 0 else [second, first]
            first_won = k < won
            ranks = [1, 2] if (seats[0] == first) == first_won else [2, 1]
            games.append(
                {
                    "game_id": f"{first}-{second}-{k}",
                    "spec": {"seats": seats, "round": k // 2, "variant": "v", "seed": 1000 + len(games)},
                    "result": {"termination": "NORMAL", "ranks": ranks, "scores": [0, 0], "offenders": []},
                }
            )
    return games


def fed_in(games: list[dict], order: list[int]) -> list[GameRecord]:
    """The same games fed in ``order``: listed so and scheduled so (TrueSkill follows the schedule index)."""
    return typed({**games[k], "spec": {**games[k]["spec"], "index": index}} for index, k in enumerate(order))


def shuffled_feeds(games: list[dict], count: int, seed: int) -> list[list[dict]]:
    rng = random.Random(seed)
    feeds = []
    for _ in range(count):
        order = list(range(len(games)))
        rng.shuffle(order)
        feeds.append(fed_in(games, order))
    return feeds


def a_feed_where_trueskill_puts_minimax_first(games: list[dict]) -> list[dict]:
    """A schedule of the same games in which the old rule (online conservative TrueSkill) ranks minimax above mybot."""
    for seed in range(1000):
        order = list(range(len(games)))
        random.Random(seed).shuffle(order)
        feed = fed_in(games, order)
        old = trueskill_order(league_table(feed, FIVE, keep_history=False))
        if old.index("minimax") < old.index("mybot"):
            return feed
    raise AssertionError("no schedule of these games misleads online TrueSkill")


def test_the_five_bot_case_ranks_mybot_first_where_online_trueskill_put_minimax_above_it():
    games = five_bot_round_robin()
    table = league_table(fed_in(games, list(range(len(games)))), FIVE, keep_history=False)
    assert table.standings["mybot"].points == 26 and table.standings["minimax"].points == 24
    assert table.pair_points["mybot", "minimax"] == [6.0, 10]
    misleading = a_feed_where_trueskill_puts_minimax_first(games)
    old = trueskill_order(league_table(misleading, FIVE, keep_history=False))
    assert old.index("minimax") < old.index("mybot"), "the old rule would have put minimax above mybot"
    ranked = rank_league(FIVE, misleading)
    assert ranked.order == ["mybot", "minimax", "greedy", "random", "weak"]  # the order of the points
    assert ranked.places == [1, 2, 3, 4, 5] and ranked.ties == []
    frame = standings_frame(league_table(misleading, FIVE), ranked.order, ranked)
    assert frame["bot"].tolist()[:2] == ["mybot", "minimax"]
    assert frame["elo"].tolist() == sorted(frame["elo"].tolist(), reverse=True)
    assert (frame["low_95"] < frame["elo"]).all() and (frame["elo"] < frame["high_95"]).all()
    strength = assess(FIVE, misleading, old, fitted=ranked.fitted).strength
    assert strength["bot"].tolist() == ranked.order, "the strength table on the same page has the same order"


def test_the_same_games_in_five_shuffled_orders_give_the_same_places_and_strengths():
    games = five_bot_round_robin()
    feeds = shuffled_feeds(games, 5, seed=3)
    conservative = {round(league_table(feed, FIVE).ratings["mybot"].conservative, 6) for feed in feeds}
    assert len(conservative) == 5, "online TrueSkill moves with the feed: these feeds can tell the rules apart"
    first = rank_league(FIVE, feeds[0])
    for feed in feeds[1:]:
        ranked = rank_league(FIVE, feed[::-1])  # listed backwards too
        assert (ranked.order, ranked.places, ranked.ties) == (first.order, first.places, first.ties)
        for name in FIVE:
            np.testing.assert_allclose(ranked.strength(name), first.strength(name), atol=1e-6)


def table_league(seed: int) -> tuple[list[str], list[dict]]:
    """A league of four-seat tables (as nimmt's or fish's), every rotation of each table, ranks by hidden skill."""
    rng = random.Random(seed)
    bots = ["ann", "bob", "cid", "dee", "eve", "fay"]
    skill = dict(zip(bots, [3.0, 2.0, 1.5, 1.0, 0.5, 0.0], strict=True))
    games = []
    for table in range(30):
        sitting = rng.sample(bots, 4)
        for turn in range(4):
            seats = sitting[turn:] + sitting[:turn]
            noise = [skill[name] + rng.gauss(0, 1.5) for name in seats]
            ranks = [1 + sum(other > mine for other in noise) for mine in noise]
            games.append(
                {
                    "game_id": f"t{table}-{turn}",
                    "spec": {"seats": seats, "round": table, "variant": "v", "seed": 50 * table + turn},
                    "result": {"termination": "NORMAL", "ranks": ranks, "scores": [0] * 4, "offenders": []},
                }
            )
    return bots, games


def test_tables_of_four_are_ranked_alike_in_any_order_and_a_bot_without_games_comes_last():
    bots, games = table_league(seed=11)
    everyone = [*bots, "idle"]
    feeds = shuffled_feeds(games, 5, seed=4)
    first = rank_league(everyone, feeds[0])
    assert first.order[-1] == "idle" and first.unrated == ["idle"] and first.places[-1] == len(everyone)
    assert np.isnan(first.strength("idle")).all()
    for feed in feeds[1:]:
        ranked = rank_league(everyone, feed)
        assert (ranked.order, ranked.places) == (first.order, first.places)
        for name in bots:
            np.testing.assert_allclose(ranked.strength(name), first.strength(name), atol=1e-6)


def test_a_balanced_round_robin_is_never_ranked_against_its_points():
    """Where every pair met equally often in both seats, the strengths follow the points (module docstring)."""
    rng = random.Random(8)
    for _ in range(5):
        bots = [f"b{k}" for k in range(5)]
        games = []
        for i, first in enumerate(bots):
            for second in bots[i + 1 :]:
                for k in range(6):
                    seats = [first, second] if k % 2 == 0 else [second, first]
                    ranks = rng.choice([[1, 2], [2, 1], [1, 1]])
                    spec = {"seats": seats, "round": k // 2, "variant": "v", "seed": len(games)}
                    result = {"termination": "NORMAL", "ranks": ranks, "scores": [0, 0], "offenders": []}
                    games.append({"game_id": f"g{len(games)}", "spec": spec, "result": result})
        table = league_table(fed_in(games, list(range(len(games)))), bots)
        ranked = rank_league(bots, typed(games))
        points = [table.standings[name].points for name in ranked.order]
        assert points == sorted(points, reverse=True), (ranked.order, points)


def test_the_legend_states_the_one_rule():
    place = dict(STANDINGS_NOTES)["place"]
    assert place.startswith(RULE)
    assert "Bradley-Terry" in place and "every game at once" in place and "changes nothing" in place
    assert "never the order" in dict(STANDINGS_NOTES)["mu / sigma / conservative"]


def test_a_formats_own_order_places_the_bots_and_the_strengths_stay_as_they_were():
    games = a_feed_where_trueskill_puts_minimax_first(five_bot_round_robin())
    by_strength = rank_league(FIVE, games)
    bracket = ["greedy", "weak", "mybot", "minimax", "random"]  # a knockout's placing, say: not the strengths'
    ranked = rank_league(FIVE, games, final_order=bracket)
    assert (ranked.order, ranked.places, ranked.ties, ranked.by_format) == (bracket, [1, 2, 3, 4, 5], [], True)
    assert not by_strength.by_format
    for name in FIVE:  # the same fit, the same seed: the columns beside the order do not move
        assert ranked.strength(name) == by_strength.strength(name)
    # A name the league no longer has is left out; a bot the order does not name follows it by strength.
    partial = rank_league(FIVE, games, final_order=["weak", "gone", "random"])
    assert partial.order == ["weak", "random", "mybot", "minimax", "greedy"]
    assert manifest_order({"final_order": bracket}) == bracket
    assert manifest_order({"format": "round_robin"}) is None and manifest_order({"final_order": "mybot"}) is None
