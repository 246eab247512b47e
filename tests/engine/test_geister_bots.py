"""The built-in geister players: legal in both escape variants, seeded, tactically sane, and ranked."""

import pytest

from engine.core import Termination
from engine.geister import Geister
from engine.geister.belief import Belief, red_chances
from engine.geister.bots import BUILTIN_BOTS, GreedyBot, legal_moves
from engine.geister.observations import Move, MoveObservation, SetReds, SetupObservation
from engine.geister.protocol import decode_board
from engine.geister.search import SearchBot
from league.match.builtins import parameters

VARIANTS = ["on_turn_start", "move_off"]
FAST = {"search": {"max_nodes": 400}}  # legality does not need the full budget


def play_game(names, seed, params=({}, {}), **variant):
    """A whole game between built-ins told the variant's rules; every action is checked. Returns state, actions."""
    game = Geister(**variant)
    state = game.new_state(seed)
    bots = [
        BUILTIN_BOTS[name](seed=seed * 2 + seat, **game.bot_rules(), **params[seat]) for seat, name in enumerate(names)
    ]
    actions = []
    while not state.is_over():
        acts = {}
        for request in state.to_act():
            action = bots[request.seat].act(state.observation(request))
            fault = state.check(request, action)
            assert fault is None, f"{names[request.seat]} at seat {request.seat}: {fault.detail}"
            if isinstance(action, Move):
                assert action in state.legal_moves(request.seat)
            acts[request] = action
            actions.append((request.seat, action))
        state.apply(acts)
    assert state.termination is Termination.NORMAL
    return state, actions


def wins(name, other, seeds, params=({}, {})):
    """Games ``name`` wins out of two per seed (seats swapped)."""
    won = 0
    for seed in seeds:
        for seat in (0, 1):
            names = (name, other) if seat == 0 else (other, name)
            state, _ = play_game(names, seed, params if seat == 0 else params[::-1])
            won += state.winner == seat
    return won


def obs(board, move_number=10):
    """The observation of a 48-character board string (own A-H, then the opponent's A-H)."""
    return MoveObservation(*decode_board(board.replace(" ", "")), move_number)


@pytest.mark.parametrize("escape", VARIANTS)
@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_every_bot_plays_only_legal_moves(name, escape):
    for seed, other in ((1, "random"), (2, "greedy"), (3, name)):
        for names in ((name, other), (other, name)):
            params = (FAST.get(names[0], {}), FAST.get(names[1], {}))
            state, actions = play_game(names, seed, params, escape=escape)
            assert state.reason in ("escape", "all_blue_captured", "all_red_captured", "max_plies")
            assert all(isinstance(a, SetReds) and len(set(a.reds)) == 4 for _, a in actions[:2])


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_every_bot_plays_legal_moves_up_to_a_short_ply_cap(name):
    state, _ = play_game((name, "random"), 5, (FAST.get(name, {}), {}), max_plies=9)
    assert state.plies <= 9


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_same_seed_same_game(name):
    first = play_game((name, "greedy"), 7, max_plies=80)
    second = play_game((name, "greedy"), 7, max_plies=80)
    assert first[1] == second[1] and first[0].to_json() == second[0].to_json()
    other_seed = play_game((name, "greedy"), 8, max_plies=80)
    assert other_seed[1] != first[1]


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_parameters_are_documented(name):
    for parameter in parameters(BUILTIN_BOTS[name]).values():
        assert parameter.meaning, f"{name}: {parameter.name} has no description in Args:"
    assert {"escape", "max_plies"} <= set(parameters(BUILTIN_BOTS[name]))


def test_search_refuses_a_zero_budget():
    with pytest.raises(ValueError, match="max_nodes"):
        SearchBot(max_nodes=0)


def test_legal_moves_include_an_escape_only_for_a_blue_on_an_exit_under_move_off():
    position = obs("00B 50R 34R 99r 25B 35B 15R 99b  42u 53u 32u 99r 99b 20u 30u 40u")
    escapes = {Move("A", "NORTH"), Move("A", "WEST")}
    assert escapes <= set(legal_moves(position, "move_off"))
    assert not escapes & set(legal_moves(position, "on_turn_start"))
    assert not {Move("B", "NORTH"), Move("B", "EAST")} & set(legal_moves(position, "move_off"))  # B is red


@pytest.mark.parametrize("cls", [GreedyBot, SearchBot])
def test_a_blue_escapes_when_it_can(cls):
    # Blue A next to exit (0, 0), no opponent piece within reach of it: step on (or off, under move_off).
    assert cls(seed=1).act(obs("01B 34R 44R 99r 25B 35B 15R 99b  42u 53u 32u 99r 99b 20u 30u 40u")) == Move(
        "A", "NORTH"
    )
    on_exit = obs("00B 34R 44R 99r 25B 35B 15R 99b  42u 53u 32u 99r 99b 20u 30u 40u")
    assert cls(seed=1, escape="move_off").act(on_exit) in (Move("A", "NORTH"), Move("A", "WEST"))


@pytest.mark.parametrize("cls", [GreedyBot, SearchBot])
def test_an_opponent_piece_on_its_exit_is_taken(cls):
    # Opponent A on (0, 5), one of its exits: if blue it escapes when its turn begins. Own red A takes it.
    position = obs("15R 34B 44R 99r 23B 99b 35R 45B  05u 41u 31u 21u 99r 99b 30u 99b")
    assert cls(seed=2).act(position) == Move("A", "WEST")


@pytest.mark.parametrize("cls", [GreedyBot, SearchBot])
def test_a_likely_fourth_red_is_not_taken_when_nothing_forces_it(cls):
    # Three reds taken; of the four pieces left one is red. Taking E (next to own A) loses one time in four.
    position = obs("23R 34B 44R 99r 15B 99b 35R 45B  99r 99r 99r 99b 22u 51u 40u 10u")
    assert cls(seed=3).act(position) != Move("A", "NORTH")


def test_the_belief_finds_the_seat_and_learns_that_a_piece_left_on_its_exit_is_red():
    mine = "14R24R34R44R15B25B35B45B"
    belief = Belief("on_turn_start")
    belief.update(obs(mine + "41u31u21u11u40u30u20u10u", move_number=1))
    assert belief.seat == 0 and belief.plies_played(obs(mine + "41u31u21u11u40u30u20u10u", move_number=3)) == 4
    belief.update(obs(mine + "05u31u21u11u40u30u20u10u", move_number=2))
    assert belief.known_red == set()
    later = obs(mine + "05u32u21u11u40u30u20u10u", move_number=3)
    belief.update(later)
    assert belief.known_red == {0} and belief.marginals(later)[0] == 1.0
    assert belief.weights[1] > 1.0  # B stepped toward the bot's side
    second = Belief("on_turn_start")
    second.update(obs(mine + "42u31u21u11u40u30u20u10u", move_number=1))
    assert second.seat == 1 and second.plies_played(later) == 5


def test_red_chances_follow_the_counts_and_the_weights():
    even = red_chances((0, 1, 2, 3), 2, (1.0,) * 8)
    assert even == pytest.approx({0: 0.5, 1: 0.5, 2: 0.5, 3: 0.5})
    skewed = red_chances((0, 1, 2, 3), 2, (4.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0))
    assert skewed[0] < 0.5 < skewed[1] and sum(skewed.values()) == pytest.approx(2.0)
    assert red_chances((0, 1), 0, (1.0,) * 8) == {0: 0.0, 1: 0.0}


def test_setups_name_four_distinct_pieces():
    for cls in (GreedyBot, SearchBot):
        for seed in range(20):
            reds = cls(seed=seed).act(SetupObservation()).reds
            assert len(reds) == 4 and len(set(reds)) == 4 and set(reds) <= set("ABCDEFGH")


def test_greedy_beats_random():
    assert wins("greedy", "random", range(10)) >= 16  # of 20


def test_search_beats_greedy():
    assert wins("search", "greedy", range(8)) >= 11  # of 16 (seeded, so the same games every run)
