"""synthetic: the strength model, its outcome frequencies over many seeds, and both sides of the protocol.

Frequencies are counted over 4000 seeds with the state driven directly (the referee adds nothing
to the draw) and must lie within the binomial 99.9% interval around the model's chance. A few
games go through the real ``Referee`` with scripted bots to see every byte each seat receives.
"""

import json
import math

import pytest
from pydantic import ValidationError

from engine import GAMES
from engine.core import Request, Termination
from engine.protocol import ParseError
from engine.synthetic import Synthetic
from engine.synthetic.bots import ModelBot, RandomBot
from engine.synthetic.model import cycle_term, draw_elo, elo_difference, outcome_probabilities
from engine.synthetic.protocol import SyntheticReferee, encode_strength, parse_strength
from engine.synthetic.rules import MODEL_OUTCOME, Strength, StrengthRequest
from engine.synthetic.view import frame, tension, text
from league.match.referee import Referee
from tests.engine.scripted import EOF, ScriptedTransport

GAMES_COUNTED = 4000
Z_999 = 3.2905  # two-sided 99.9% normal quantile
REFEREE = SyntheticReferee()


def play(game, seed, first, second):
    """The finished state of one game where seat 0 states ``first`` and seat 1 ``second``."""
    state = game.new_state(seed)
    for seat, strength in enumerate((first, second)):
        assert state.to_act() == [Request(seat)]
        state.apply({Request(seat): strength})
    assert state.is_over()
    return state


def shares(game, first, second, seeds=range(GAMES_COUNTED)):
    """Counts of seat 0's wins, draws and losses over ``seeds``."""
    counts = [0, 0, 0]
    for seed in seeds:
        ranks = play(game, seed, first, second).result().ranks
        counts[{(1, 2): 0, (1, 1): 1, (2, 1): 2}[tuple(ranks)]] += 1
    return counts


def assert_binomial(counts, chances):
    """Each count within the binomial 99.9% interval of its chance (normal approximation)."""
    n = sum(counts)
    for count, chance in zip(counts, chances, strict=True):
        spread = Z_999 * math.sqrt(n * chance * (1 - chance))
        assert abs(count - n * chance) <= spread + 0.5, f"{counts} against {[round(c * n, 1) for c in chances]}"


# -- the model --------------------------------------------------------------------------------
@pytest.mark.parametrize(("draw_rate", "expected"), [(0.0, 0.0), (0.2, 70.4), (0.5, 190.8), (0.9, 511.5)])
def test_draw_elo_gives_the_draw_rate_between_equal_strengths(draw_rate, expected):
    value = draw_elo(draw_rate)
    assert value == pytest.approx(expected, abs=0.05)  # the README's table
    assert value == pytest.approx(400 * math.log10(2 / (1 - draw_rate) - 1), abs=1e-9)
    win, draw, loss = outcome_probabilities(0.0, value)
    assert draw == pytest.approx(draw_rate, abs=1e-12)
    assert win == pytest.approx(loss, abs=1e-15) == pytest.approx((1 - draw_rate) / 2)


@pytest.mark.parametrize("d", [-700.0, -100.0, 0.0, 35.5, 200.0, 1e6])
@pytest.mark.parametrize("draw_rate", [0.0, 0.2, 0.9])
def test_chances_are_bayeselo_and_symmetric(d, draw_rate):
    de = draw_elo(draw_rate)
    win, draw, loss = outcome_probabilities(d, de)
    assert win + draw + loss == pytest.approx(1.0, abs=1e-12)
    assert min(win, draw, loss) >= 0.0
    if abs(d) < 1000:
        assert win == pytest.approx(1 / (1 + 10 ** ((-d + de) / 400)))
        assert loss == pytest.approx(1 / (1 + 10 ** ((d + de) / 400)))
    assert outcome_probabilities(-d, de) == pytest.approx((loss, draw, win))
    if draw_rate == 0.0:
        assert draw == 0.0


def test_the_readmes_examples():
    assert outcome_probabilities(200.0) == pytest.approx((0.760, 0.0, 0.240), abs=5e-4)
    assert outcome_probabilities(100.0, draw_elo(0.2)) == pytest.approx((0.542, 0.185, 0.273), abs=5e-4)
    assert outcome_probabilities(150.0)[0] == pytest.approx(0.703, abs=5e-4)


def test_the_cycle_term():
    assert cycle_term("rock", "scissors", 80) == 80
    assert cycle_term("scissors", "paper", 80) == 80
    assert cycle_term("paper", "rock", 80) == 80
    assert cycle_term("scissors", "rock", 80) == -80
    assert cycle_term("rock", "rock", 80) == 0
    assert cycle_term(None, "rock", 80) == cycle_term("rock", None, 80) == 0
    assert elo_difference((1600, 1500), ("paper", "rock"), first_seat_elo=30, cycle_elo=50) == 180


# -- frequencies over many seeds --------------------------------------------------------------
def test_outcome_frequencies_match_the_model_at_d_100_with_draws():
    game = Synthetic(draw_rate=0.2)
    counts = shares(game, Strength(1600.0), Strength(1500.0))
    assert_binomial(counts, outcome_probabilities(100.0, draw_elo(0.2)))


def test_without_draws_there_are_none():
    counts = shares(Synthetic(), Strength(1700.0), Strength(1500.0), range(1000))
    assert counts[1] == 0
    assert_binomial(counts, outcome_probabilities(200.0))


def test_the_first_seats_advantage_moves_the_shares_as_stated():
    equal = (Strength(1500.0), Strength(1500.0))
    plain = shares(Synthetic(draw_rate=0.2), *equal)
    favoured = shares(Synthetic(draw_rate=0.2, first_seat_elo=100), *equal)
    assert_binomial(plain, outcome_probabilities(0.0, draw_elo(0.2)))
    assert_binomial(favoured, outcome_probabilities(100.0, draw_elo(0.2)))
    assert favoured[0] > plain[0] and favoured[2] < plain[2]


@pytest.mark.parametrize(
    ("styles", "d"),
    [(("rock", "scissors"), 100.0), (("scissors", "rock"), -100.0), (("paper", "paper"), 0.0), ((None, "rock"), 0.0)],
)
def test_the_cycle_moves_the_shares_as_stated(styles, d):
    game = Synthetic(draw_rate=0.2, cycle_elo=100)
    counts = shares(game, Strength(1500.0, styles[0]), Strength(1500.0, styles[1]))
    assert_binomial(counts, outcome_probabilities(d, draw_elo(0.2)))


def test_the_two_games_of_a_seat_swapped_pair_are_drawn_independently():
    game = Synthetic(draw_rate=0.2)
    strong, weak = Strength(1600.0), Strength(1500.0)
    both = 0
    for seed in range(GAMES_COUNTED):
        first = play(game, seed, strong, weak).result().winner == 0
        second = play(game, seed, weak, strong).result().winner == 1
        both += first and second
    win = outcome_probabilities(100.0, draw_elo(0.2))[0]
    assert_binomial([both, GAMES_COUNTED - both], [win * win, 1 - win * win])


def test_the_draw_depends_on_the_seed_and_the_strengths_in_seat_order():
    game = Synthetic()
    strong, weak = Strength(1600.0, "rock"), Strength(1500.0)
    draw = play(game, 8, strong, weak).uniform()
    assert draw == play(game, 8, Strength(1600.0, "rock"), Strength(1500.0)).uniform()
    assert draw != play(game, 8, weak, strong).uniform(), "a seat-swapped pair draws twice"
    assert draw != play(game, 9, strong, weak).uniform()
    assert draw != play(game, 8, Strength(1600.0, "paper"), weak).uniform()
    assert play(game, 8, Strength(1600.0), weak).uniform() == play(game, 8, parse_strength("+1600.0"), weak).uniform()


# -- determinism and state --------------------------------------------------------------------
def test_the_same_seed_and_replies_give_the_same_game():
    game = Synthetic(draw_rate=0.4)
    first, second = Strength(1550.0, "paper"), Strength(1500.0)
    results = [play(game, seed, first, second).result().to_json() for seed in range(200)]
    assert results == [play(game, seed, first, second).result().to_json() for seed in range(200)]
    assert len({json.dumps(result["ranks"]) for result in results}) == 3, "wins, draws and losses all occur"


def test_a_state_round_trips_through_json_at_every_step():
    game = Synthetic(draw_rate=0.1, first_seat_elo=-15.5, cycle_elo=40)
    state = game.new_state(9)
    for seat, strength in enumerate((Strength(1512.5, "rock"), Strength(1490.0, "scissors"))):
        data = json.loads(json.dumps(state.to_json()))
        assert type(state).from_json(data).to_json() == state.to_json()
        state.apply({Request(seat): strength})
    data = json.loads(json.dumps(state.to_json()))
    rebuilt = type(state).from_json(data)
    assert rebuilt.result() == state.result()
    assert state.result().extra["elo_difference"] == 1512.5 - 1490.0 - 15.5 + 40


def test_the_result_of_a_decided_game():
    state = play(Synthetic(), 3, Strength(1700.0), Strength(1500.0))
    result = state.result()
    assert result.termination == Termination.NORMAL and result.reason_code == MODEL_OUTCOME
    assert result.offenders == [] and result.plies == 2
    assert result.scores == ([2, 0] if result.winner == 0 else [0, 2])
    assert result.extra["elos"] == [1700.0, 1500.0] and result.extra["styles"] == [None, None]
    assert result.extra["probabilities"] == pytest.approx(list(outcome_probabilities(200.0)))
    assert "d = 200 Elo: win 0.760, draw 0.000, loss 0.240" in result.detail


def test_a_draw_ranks_both_first_and_scores_one_each():
    game = Synthetic(draw_rate=0.9)
    results = [play(game, seed, Strength(1500.0), Strength(1500.0)).result() for seed in range(20)]
    drawn = next(result for result in results if result.winner is None)
    assert drawn.ranks == [1, 1] and drawn.scores == [1, 1] and "a draw" in drawn.detail


@pytest.mark.parametrize("variant", [{"draw_rate": 0.95}, {"draw_rate": -0.1}, {"cycle_elo": -5}, {"reply_time_ms": 0}])
def test_variants_out_of_range_are_refused(variant):
    with pytest.raises(ValidationError):
        Synthetic(**variant)


def test_only_two_seats():
    with pytest.raises(ValueError, match="2 bots"):
        Synthetic().new_state(0, 3)
    assert GAMES["synthetic"] is Synthetic


# -- the referee side --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "strength"),
    [
        ("1500", Strength(1500.0)),
        ("1650 rock", Strength(1650.0, "rock")),
        ("  -20\tscissors \r", Strength(-20.0, "scissors")),
        ("+1500  paper", Strength(1500.0, "paper")),
        ("1512.25", Strength(1512.25)),
        ("0007", Strength(7.0)),
        ("100000", Strength(100000.0)),
        ("-100000 rock", Strength(-100000.0, "rock")),
    ],
)
def test_well_formed_replies(line, strength):
    assert parse_strength(line) == strength


@pytest.mark.parametrize(
    "line",
    [
        "",
        "   ",
        "abc",
        "1500 lizard",
        "1500 Rock",
        "1500 rock extra",
        "rock 1500",
        "1e3",
        "1500.",
        ".5",
        "1,500",
        "100000.5",
        "-200000",
        "9" * 500,
        "nan",
        "inf",
        "１５００",
    ],
)
def test_malformed_replies(line):
    with pytest.raises(ParseError):
        parse_strength(line)


def test_a_late_reply_is_a_timeout_and_exactly_the_limit_is_not():
    state = Synthetic(reply_time_ms=250).new_state(0)
    assert state.time_allowance_ms(Request(0)) == 250
    assert state.charge_time(Request(0), 250) is None
    fault = state.charge_time(Request(0), 251)
    assert fault.termination == Termination.TIMEOUT and fault.reason_code == "timeout" and fault.seat == 0
    assert "251 ms" in fault.detail and "250 ms" in fault.detail


def referee_match(replies_0, replies_1, **variant):
    """One match through the real referee with scripted seats; the record and both transports."""
    bots = [ScriptedTransport(replies_0), ScriptedTransport(replies_1)]
    record = Referee(Synthetic(**variant), [lambda key: bots[key.seat] for _ in bots], seed=11).play()
    return record, bots


def test_through_the_referee_byte_exact():
    record, bots = referee_match([b"1650 rock\n"], [b"1500\r\n"], draw_rate=0.2)
    assert bots[0].received == [b"STRENGTH 0\n"]
    assert bots[1].received == [b"STRENGTH 1\n"]
    expected = play(Synthetic(draw_rate=0.2), 11, Strength(1650.0, "rock"), Strength(1500.0)).result()
    assert record.result.ranks == expected.ranks and record.result.extra == expected.extra
    assert record.result.termination == Termination.NORMAL and record.result.plies == 2
    assert [(move.seat, move.reply) for move in record.moves] == [(0, "1650 rock"), (1, "1500\r")]


@pytest.mark.parametrize(
    ("reply", "termination", "code"),
    [(b"1500 lizard\n", "BAD_OUTPUT", "bad_output"), (b"\n", "BAD_OUTPUT", "bad_output"), (EOF, "CRASH", "crash")],
)
def test_a_faulty_seat_0_loses_and_seat_1_is_never_asked(reply, termination, code):
    record, bots = referee_match([reply], [b"1500\n"])
    assert bots[0].received == [b"STRENGTH 0\n"] and bots[1].received == []
    result = record.result
    assert result.termination == Termination(termination) and result.reason_code == code
    assert result.offenders == [0] and result.ranks == [2, 1] and result.scores == [0, 2]
    assert result.extra["probabilities"] is None and result.extra["elos"] == [None, None]


def test_a_faulty_seat_1_loses():
    record, bots = referee_match([b"1500\n"], [b"1500 rock paper\n"])
    assert bots[1].received == [b"STRENGTH 1\n"]
    result = record.result
    assert result.termination == Termination.BAD_OUTPUT and result.offenders == [1]
    assert result.ranks == [1, 2] and result.scores == [2, 0] and result.plies == 1
    assert "seat 1" in result.detail


# -- the bot side -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("params", "reply"),
    [
        ({}, "1500"),
        ({"elo": 1650, "style": "rock"}, "1650 rock"),
        ({"elo": -20.5, "style": "scissors"}, "-20.5 scissors"),
        ({"elo": 1512.1234567}, "1512.123457"),
        ({"elo": 1500, "style": "none"}, "1500"),
    ],
)
def test_the_model_bot_states_its_parameters_byte_exact(params, reply):
    bot = ModelBot(seed=3, **params)
    driver = Synthetic().bot_protocol(bot)
    assert driver.feed("GREETING") is None, "only a STRENGTH line is answered"
    for seat in (0, 1):
        assert driver.feed(f"STRENGTH {seat}") == reply
    assert parse_strength(reply) == bot.act(StrengthRequest(0)), "the referee reads what the bot meant"


@pytest.mark.parametrize("params", [{"elo": 100001}, {"elo": -1e9}, {"style": "lizard"}])
def test_the_model_bot_refuses_what_it_cannot_state(params):
    with pytest.raises(ValueError):
        ModelBot(**params)


def test_the_random_bot_round_trips_and_depends_on_its_seed():
    stated = []
    for seed in range(40):
        strength = RandomBot(seed=seed).act(StrengthRequest(0))
        assert 1000 <= strength.elo <= 2000 and strength.elo == int(strength.elo)
        assert parse_strength(encode_strength(strength)) == strength
        stated.append(strength)
    assert len(set(stated)) > 30 and {strength.style for strength in stated} == {None, "rock", "paper", "scissors"}
    assert RandomBot(seed=5).act(StrengthRequest(1)) == RandomBot(seed=5).act(StrengthRequest(1))


# -- the replay view -----------------------------------------------------------------------------
def test_the_view_shows_the_strengths_the_chances_and_the_end():
    game = Synthetic(draw_rate=0.2)
    state = game.new_state(4)
    start = frame(state)
    assert start["elos"] == [None, None] and start["to_move"] == [0] and not start["over"]
    assert tension(state) == 0.0 and "not stated yet" in text(start)
    state.apply({Request(0): Strength(1500.0, "rock")})
    state.apply({Request(1): Strength(1500.0, "rock")})
    end = frame(state)
    json.dumps(end)
    assert end["over"] and end["to_move"] == [] and end["end"]["reason"] == MODEL_OUTCOME
    assert tension(state) == pytest.approx(1.0), "equal strengths: the most open result"
    assert "seat 0: 1500 rock" in text(end) and "d = 0 Elo" in text(end)
    assert game.render(state.to_json()) == text(end, with_end=False) == text(end).rpartition("\nover: ")[0]
    lopsided = play(game, 4, Strength(2500.0), Strength(1000.0))
    assert 0.0 <= tension(lopsided) < 0.01
