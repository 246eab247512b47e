"""Formats simulated by playing their real runs on drawn games: a closed-form knockout, tau by hand, the ranking."""

import math
from collections.abc import Iterable, Sequence

import numpy as np
import pytest

from engine.synthetic.model import outcome_probabilities
from league.plan.adaptive_batches import AdaptiveSettings
from league.plan.adaptive_simulation import Model
from league.plan.design_simulation import GuessedModel, simulate_round_robin, true_strengths
from league.plan.format_comparison import budget_of, formats_for, synthetic_field
from league.plan.format_simulation import (
    GameDraws,
    SimulatedFormat,
    kendall_tau,
    play_format,
    simulate_format,
    stage_rounds,
    standings_order,
    synthetic_record,
    top_right,
)
from league.plan.formats.base import FormatRun, ScheduledRun
from league.plan.formats.knockout import KnockoutConfig, KnockoutFormat
from league.plan.game_spec import GameSpec
from league.plan.schedule import round_robin_schedule
from league.stats.distinct import distinct_games
from league.stats.game_record import GameRecord
from league.stats.ranking import rank_league
from league.stats.sprt import SprtSettings, game_points


def p_beats(elos: dict[str, float], first: str, second: str) -> float:
    """One game's chance that ``first`` beats ``second``: BayesElo without draws or a first seat."""
    return 1 / (1 + 10 ** ((elos[second] - elos[first]) / 400))


def spec(index: int, seats: tuple[str, str], round_: int = 0) -> GameSpec:
    return GameSpec(f"g{index:03d}", index, "k", "v", seats, index, round_)


class FourBotKnockout(FormatRun):
    """A test-only bracket: 1 v 4 and 2 v 3 in round one, one game a series, the winners meet, placing by round."""

    def __init__(self, seeded: Sequence[str]) -> None:
        self.seeded = list(seeded)
        self._games = [spec(0, (seeded[0], seeded[3])), spec(1, (seeded[1], seeded[2]))]
        self._winners: dict[str, str] = {}
        self._losers: dict[str, str] = {}

    @property
    def games(self) -> Sequence[GameSpec]:
        return self._games

    def add(self, records: Iterable[GameRecord]) -> list[GameSpec]:
        for record in records:
            seats = record.spec.seats
            winner = seats[record.result.ranks.index(1)] if record.result.ranks != [1, 1] else None
            assert winner is not None, "a series is one decisive game here"
            self._winners[record.game_id] = winner
            self._losers[record.game_id] = seats[1 - seats.index(winner)]
        if len(self._games) == 2 and {"g000", "g001"} <= set(self._winners):
            final = spec(2, (self._winners["g000"], self._winners["g001"]), 1)
            self._games.append(final)
            return [final]
        return []

    def final_order(self) -> list[str] | None:
        if "g002" not in self._winners:
            return None
        return [self._winners["g002"], self._losers["g002"], self._losers["g000"], self._losers["g001"]]


def test_a_four_bot_knockout_finds_the_best_as_often_as_the_closed_form_says():
    """P(1 wins) = p(1 beats 4) [p(2 beats 3) p(1 beats 2) + p(3 beats 2) p(1 beats 3)], within 4 standard errors."""
    elos = {"one": 200.0, "two": 120.0, "three": 60.0, "four": 0.0}
    model = Model(elos)  # no draws, no first seat
    exact = p_beats(elos, "one", "four") * (
        p_beats(elos, "two", "three") * p_beats(elos, "one", "two")
        + p_beats(elos, "three", "two") * p_beats(elos, "one", "three")
    )
    leagues = 4000
    bracket = SimulatedFormat("knockout", "one game a series", lambda seed: FourBotKnockout(list(elos)))
    outcome = simulate_format(bracket, model, leagues, seed=7)
    error = math.sqrt(exact * (1 - exact) / leagues)
    assert abs(outcome.best_first - exact) < 4 * error, (outcome.best_first, exact)
    assert all(league.stages == [2, 1] and league.played == league.counted == 3 for league in outcome.leagues)
    assert outcome.wall_seconds(workers=64, seconds_per_game=10.0) == 20.0  # the final waits for round one
    assert outcome.wall_seconds(workers=1, seconds_per_game=10.0) == 30.0


def test_the_real_knockout_finds_the_best_as_often_as_the_closed_form_says():
    """``KnockoutRun`` seeded by the file's order, a series one seat-swapped pair, level: the higher seed goes on.

    Without draws or a first seat, the higher seed i wins its series against j with
    Q = 1 - (1 - p)^2 (it loses only both games), p = p(i beats j); seed 1 is the higher seed in each
    of its series, so P(1 wins) = Q(1, 4) [Q(2, 3) Q(1, 2) + (1 - Q(2, 3)) Q(1, 3)].
    """
    elos = {"one": 120.0, "two": 80.0, "three": 40.0, "four": 0.0}

    def q(first: str, second: str) -> float:
        return 1 - (1 - p_beats(elos, first, second)) ** 2

    exact = q("one", "four") * (q("two", "three") * q("one", "two") + (1 - q("two", "three")) * q("one", "three"))
    field = synthetic_field(list(elos), budget=6)
    settings = KnockoutConfig(pairs_per_series=1, extra_pairs=0, then="higher_seed", seeding="order")
    bracket = SimulatedFormat(
        "knockout",
        "one pair a series",
        lambda seed: KnockoutFormat().start(field.started(seed, format="knockout", knockout=settings)),
    )
    leagues = 4000
    outcome = simulate_format(bracket, Model(elos), leagues, seed=3)
    error = math.sqrt(exact * (1 - exact) / leagues)
    assert abs(outcome.best_first - exact) < 4 * error, (outcome.best_first, exact)
    assert all(league.stages == [4, 2] and league.played == 6 for league in outcome.leagues)
    assert {league.order[0] for league in outcome.leagues} == set(elos)  # every bot wins some brackets


def test_kendall_tau_matches_hand_counts():
    strengths = {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}
    assert kendall_tau(["a", "b", "c", "d"], strengths) == 1.0
    assert kendall_tau(["d", "c", "b", "a"], strengths) == -1.0
    # b>a discordant, b>d b>c a>d a>c concordant, d>c discordant: (4 - 2) / 6
    assert kendall_tau(["b", "a", "d", "c"], strengths) == pytest.approx(1 / 3)
    # a and b equally strong: that pair is tied, 2 concordant of 3 pairs: tau-b = 2 / sqrt(3 * 2)
    tied = {"a": 2.0, "b": 2.0, "c": 1.0}
    assert kendall_tau(["b", "a", "c"], tied) == pytest.approx(2 / math.sqrt(6))
    assert kendall_tau(["c", "a", "b"], tied) == pytest.approx(-2 / math.sqrt(6))
    assert math.isnan(kendall_tau(["a", "b"], {"a": 1.0, "b": 1.0}))


def test_the_top_k_is_a_set_and_equal_strengths_count_either_way():
    strengths = {"a": 4.0, "b": 3.0, "c": 3.0, "d": 1.0}
    assert top_right(["b", "a", "d", "c"], strengths, 2)  # {a, b}: the order inside does not matter
    assert top_right(["c", "a", "b", "d"], strengths, 2)  # c is as strong as b
    assert not top_right(["a", "d", "b", "c"], strengths, 2)
    assert top_right(["d", "c", "b", "a"], strengths, 4)  # the whole field is always its own top 4


def test_a_drawn_game_is_a_record_the_league_reads_and_each_is_a_distinct_game():
    model = Model({"x": 0.0, "y": 0.0})
    draws = GameDraws(model, np.random.default_rng(0))
    specs = [spec(k, ("x", "y") if k % 2 == 0 else ("y", "x"), k // 2) for k in range(200)]
    records = draws.play(specs)
    assert len(distinct_games(records)) == 200
    assert {game_points(record, "x") for record in records} == {0.0, 1.0}  # no draws without a draw rate
    drawn = synthetic_record(specs[0], 0)
    assert drawn.result.ranks == [1, 1] and drawn.result.scores == [1, 1] and game_points(drawn, "y") == 0.5
    assert drawn.spec.seats == ["x", "y"] and drawn.spec.round == 0 and drawn.result.termination == "NORMAL"


def test_games_are_drawn_at_the_models_chances_with_the_cycle_and_first_seat():
    model = GuessedModel({"r": 0.0, "p": 0.0}, 0.2, 30.0, {"r": "rock", "p": "paper"}, 80.0)
    draws = GameDraws(model, np.random.default_rng(3))
    games = 20000
    records = draws.play([spec(k, ("r", "p")) for k in range(games)])
    win, draw, _ = model.game_chances("r", "p", True)
    assert win == pytest.approx(outcome_probabilities(30.0 - 80.0, 400 * math.log10(1.2 / 0.8))[0])
    for chance, ranks in ((win, [1, 2]), (draw, [1, 1])):
        seen = sum(record.result.ranks == ranks for record in records) / games
        assert abs(seen - chance) < 4 * math.sqrt(chance * (1 - chance) / games)


def test_the_order_without_a_format_of_its_own_is_the_standings_order_ties_in_a_drawn_order():
    elos = {"e": 0.0, "b": 150.0, "d": 40.0, "a": 200.0, "c": 90.0}
    model = GuessedModel(elos, 0.1, 20.0)
    tied = set()
    for seed in range(6):
        schedule = list(round_robin_schedule("l", list(elos), ["v"], 8, seed))
        played = play_format(ScheduledRun(schedule), list(elos), GameDraws(model, np.random.default_rng(seed)))
        assert played.stages == [len(schedule)] and played.played == played.counted == 80
        records = GameDraws(model, np.random.default_rng(seed)).play(schedule)
        ranking = rank_league(list(elos), records, samples=20)
        place = dict(zip(ranking.order, ranking.places, strict=True))
        orders = {tuple(standings_order(list(elos), records, np.random.default_rng(draw))) for draw in range(8)}
        for order in orders:  # each bot where the standings place it; bots sharing a place in any order
            assert [place[bot] for bot in order] == ranking.places
        tied.add(len(orders) > 1)
        assert (len(orders) > 1) == bool(ranking.ties)
    assert tied == {True, False}  # seeds with and without exact ties were seen


def test_a_round_robin_played_through_records_is_right_as_often_as_one_drawn_in_counts():
    """The record path (runs, records, the standings) against ``design_simulation``'s counts path, 4 standard errors."""
    elos = {"a": 0.0, "b": -40.0, "c": -80.0, "d": -120.0}
    model = GuessedModel(elos, 0.2, 25.0)
    leagues = 600
    robin = SimulatedFormat(
        "round robin",
        "6 a pair",
        lambda seed: ScheduledRun(list(round_robin_schedule("l", list(elos), ["v"], 6, seed))),
    )
    ours = simulate_format(robin, model, leagues, seed=11)
    theirs = simulate_round_robin(model, 6, leagues, np.random.default_rng(5)).order_right
    whole = float(np.mean([tau == 1.0 for tau in ours.tau]))
    error = math.sqrt(2 * theirs * (1 - theirs) / leagues)
    assert 0.1 < theirs < 0.9 and abs(whole - theirs) < 4 * error, (whole, theirs)


def test_the_same_seed_gives_the_same_leagues_and_another_seed_others():
    elos = {"a": 0.0, "b": -30.0, "c": -60.0}
    robin = formats_for(synthetic_field(list(elos), budget_of(4, 3)))[0]
    first, again, other = (simulate_format(robin, Model(elos), 30, seed) for seed in (1, 1, 2))
    assert [league.order for league in first.leagues] == [league.order for league in again.leagues]
    assert [league.order for league in first.leagues] != [league.order for league in other.leagues]


def test_each_format_fits_the_budget_and_one_that_stops_counts_only_what_it_used():
    elos = {"a": 0.0, "b": -40.0, "c": -80.0, "d": -120.0, "e": -160.0}
    settings = AdaptiveSettings(confidence=0.8, batch_units=8)
    budget = budget_of(40, 5)
    field = synthetic_field(list(elos), budget, 4, settings, SprtSettings(0, 5))
    compared = {format_.name: format_ for format_ in formats_for(field)}
    assert list(compared) == [  # no SPRT for five bots
        "round robin", "adaptive", "swiss", "knockout (single)", "knockout (double)", "swiss + knockout",
    ]  # fmt: skip
    assert compared["round robin"].settings == "games_per_pair 40"
    assert compared["swiss"].settings == "4 rounds, games_per_round 50"  # 4 rounds x 2 pairings x 50 = 400
    assert compared["knockout (single)"].settings.startswith("50 pairs a series")  # 4 series x 100 games = 400
    assert compared["knockout (double)"].settings.startswith("25 pairs a series")  # 8 series x 50 games = 400
    for name, format_ in compared.items():
        outcome = simulate_format(format_, Model(elos), 10, seed=3)
        assert all(league.counted <= league.played for league in outcome.leagues)
        assert all(sorted(league.order) == sorted(elos) for league in outcome.leagues)
        if name != "adaptive":  # a level series' extra pairs come on top of the budget
            assert budget * 0.9 <= outcome.mean_games <= budget * 1.1, (name, outcome.mean_games)
        else:
            assert all(league.played <= budget for league in outcome.leagues)
            assert all(len(league.stages) >= 2 for league in outcome.leagues)  # a warm-up, then batches
    short = synthetic_field(list(elos), budget_of(2, 5), adaptive=settings)
    assert "adaptive" not in [format_.name for format_ in formats_for(short)]  # the warm-up is the whole budget
    pair = synthetic_field(["a", "b"], 400, 8, settings, SprtSettings(0, 5))
    assert [format_.name for format_ in formats_for(pair)] == ["round robin", "sprt", "knockout (single)"]
    sprt = simulate_format(formats_for(pair)[1], Model({"a": 0.0, "b": -300.0}), 20, seed=1)
    assert all(league.played % 8 == 0 or league.played == 400 for league in sprt.leagues)  # 8 at once
    assert all(league.counted <= league.played for league in sprt.leagues)
    assert sprt.best_first == 1.0


def test_the_qualifier_hands_its_best_to_the_knockout_after_its_last_round():
    elos = {f"b{k}": -50.0 * k for k in range(10)}
    field = synthetic_field(list(elos), budget_of(2, 10))
    (staged,) = [format_ for format_ in formats_for(field) if format_.name == "swiss + knockout"]
    assert "its best 8 to a single knockout" in staged.settings
    run = staged.start(5)
    played = play_format(run, list(elos), GameDraws(Model(elos), np.random.default_rng(1)))
    swiss_games = len(run.qualifier.games)
    finals = run.finals
    assert finals is not None and len(finals.bracket.seeds) == 8
    assert list(finals.bracket.seeds) == run.qualifier.final_order()[:8]  # seeded by the Swiss standings
    assert played.played == swiss_games + len(finals.games)
    assert played.order[8:] == run.qualifier.final_order()[8:]  # the two left out, in the qualifier's order
    assert [spec.index for spec in run.games] == list(range(len(run.games)))
    assert len(played.stages) == run.qualifier.rounds + 3  # Swiss rounds, then quarter-finals, semi-finals, final


def test_wall_time_is_its_stages_one_after_another():
    assert stage_rounds([10, 3, 1], 4) == 3 + 1 + 1
    assert stage_rounds([10, 3, 1], 100) == 3
    assert stage_rounds([], 4) == 0


def test_in_a_cycle_the_truly_strongest_is_the_best_mean_score_not_the_best_elo():
    """Rock has the top Elo but paper beats it by the cycle: paper is the one a format should find first."""
    elos = {"rock": 10.0, "paper": 0.0, "plain": 5.0}
    model = GuessedModel(elos, 0.0, 0.0, {"rock": "rock", "paper": "paper"}, 200.0)
    strengths = true_strengths(model)
    assert max(strengths, key=strengths.get) == "paper"
    robin = SimulatedFormat(
        "round robin",
        "40 a pair",
        lambda seed: ScheduledRun(list(round_robin_schedule("l", list(elos), ["v"], 40, seed))),
    )
    outcome = simulate_format(robin, model, 100, seed=2)
    firsts = [league.order[0] for league in outcome.leagues]
    assert outcome.best_first == firsts.count("paper") / 100 > 0.7
    assert firsts.count("rock") < 5
