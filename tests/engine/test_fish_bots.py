"""The built-in fish players: legal at every table size and penguin count, seeded, and ranked."""

import statistics

import pytest

from engine.core import Request, Termination
from engine.fish import Fish
from engine.fish.board import CELL_OF, CELLS, RAYS, cell_index
from engine.fish.bots import BUILTIN_BOTS, GreedyBot
from engine.fish.observations import Move, Place
from engine.fish.rules import MOVE, FishState
from engine.fish.search import CELL_AT, NEIGHBOURS_AT, POS, RAYS_AT, Board, SearchBot
from league.match.builtins import parameters

FAST = {"search": {"max_nodes": 300}}  # legality does not need the full budget


def play_game(names, seed, params=FAST, **variant):
    """A whole game between built-ins (seat ``s`` plays ``names[s]``); every action is checked.

    Returns the final state and the actions in order.
    """
    state = Fish(**variant).new_state(seed, len(names))
    bots = [BUILTIN_BOTS[name](seed=seed * 10 + seat, **params.get(name, {})) for seat, name in enumerate(names)]
    actions = []
    while not state.is_over():
        (request,) = state.to_act()
        observation = state.observation(request)
        action = bots[request.seat].act(observation)
        assert action in observation.legal, f"{names[request.seat]} at seat {request.seat}: {action}"
        assert state.check(request, action) is None
        actions.append((request.seat, action))
        state.apply({request: action})
    assert state.result().termination is Termination.NORMAL
    return state, actions


def mean_ranks(name, other, players, seeds, params=FAST):
    """Mean rank of ``name`` (one seat, rotating) and of ``other`` (every other seat) over the seeds."""
    mine, theirs = [], []
    for game, seed in enumerate(seeds):
        seat = game % players
        names = [name if s == seat else other for s in range(players)]
        ranks = play_game(names, seed, params)[0].result().ranks
        mine.append(ranks[seat])
        theirs.extend(rank for s, rank in enumerate(ranks) if s != seat)
    return statistics.mean(mine), statistics.mean(theirs)


def position(fish, penguins, to_move=0):
    """A movement-phase state from ``{(r, c): fish}`` tiles (every other cell a gap) and penguins per seat."""
    board = [0] * CELLS
    for (r, c), count in fish.items():
        board[cell_index(r, c)] = count
    state = FishState(
        players=len(penguins),
        penguins_per_player=len(penguins[0]),
        fish=board,
        penguins=[[cell_index(*cell) for cell in seat] for seat in penguins],
        phase=MOVE,
        turn=10,
        to_move=to_move,
    )
    return state


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_bot_plays_only_legal_actions(name, players):
    for seed in range(3):
        others = ["random", "greedy", "search"]
        names = [name] + [others[(seed + s) % 3] for s in range(players - 1)]
        names = names[seed % players :] + names[: seed % players]  # the bot under test changes seat
        state, actions = play_game(names, 100 + seed)
        assert state.reason == "no_move"
        assert sum(1 for seat, _ in actions if seat == names.index(name)) >= state.penguins_per_player


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
@pytest.mark.parametrize(("players", "penguins"), [(2, 1), (2, 3), (3, 4), (4, 1), (4, 4)])
def test_every_bot_plays_legally_with_other_penguin_counts(name, players, penguins):
    names = [name] * (players - 1) + ["greedy"]
    state, _ = play_game(names, 7 + players + penguins, penguins=penguins)
    assert all(len(cells) == penguins for cells in state.penguins)


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_same_seed_same_game(name):
    names = [name, "greedy", name, "random"]
    first = play_game(names, 11, {})
    second = play_game(names, 11, {})
    assert first[1] == second[1] and first[0].to_json() == second[0].to_json()
    bots_reseeded = [BUILTIN_BOTS[name](seed=99) for _ in range(2)]
    state = Fish().new_state(11, 4)
    observation = state.observation(Request(0))
    assert bots_reseeded[0].act(observation) == bots_reseeded[1].act(observation)


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_seeds_break_ties_differently(name):
    placements = {
        BUILTIN_BOTS[name](seed=seed).act(Fish().new_state(3, 2).observation(Request(0))) for seed in range(8)
    }
    assert len(placements) > 1


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_parameters_are_documented(name):
    for parameter in parameters(BUILTIN_BOTS[name]).values():
        assert parameter.meaning, f"{name}: {parameter.name} has no description in Args:"


def test_search_refuses_bad_parameters():
    with pytest.raises(ValueError, match="max_nodes"):
        SearchBot(max_nodes=0)
    with pytest.raises(ValueError, match="territory"):
        SearchBot(territory=-1)
    with pytest.raises(ValueError, match="rivalry"):
        SearchBot(rivalry=1.5)


def test_bitboard_geometry_matches_the_rules():
    on_board = sum(1 << pos for pos in POS)
    for cell in range(CELLS):
        pos = POS[cell]
        mask = 1 << pos
        shifted = (mask << 2) | (mask >> 2) | (mask << 15) | (mask >> 15) | (mask << 17) | (mask >> 17)
        expected = {POS[ray[0]] for ray in RAYS[cell] if ray}
        assert {p for p in range(128) if (shifted & on_board) >> p & 1} == expected
        assert {p for p in range(128) if NEIGHBOURS_AT[pos] >> p & 1} == expected
        assert sorted(RAYS_AT[pos]) == sorted(tuple(POS[t] for t in ray) for ray in RAYS[cell] if ray)


@pytest.mark.parametrize("players", [2, 4])
def test_search_board_agrees_with_the_rules(players):
    state = Fish().new_state(4, players)
    bot = GreedyBot(seed=4)
    while not state.is_over():
        (request,) = state.to_act()
        observation = state.observation(request)
        board = Board(observation)
        pairs = board.actions(request.seat)
        actions = [
            Place(*CELL_OF[CELL_AT[t]]) if s < 0 else Move(*CELL_OF[CELL_AT[s]], *CELL_OF[CELL_AT[t]]) for s, t in pairs
        ]
        assert sorted(map(str, actions)) == sorted(map(str, observation.legal))
        banked = [state.scores[s] + sum(state.fish[c] for c in state.penguins[s]) for s in range(players)]
        assert board.banked == banked
        action = bot.act(observation)
        board.play(request.seat, *pairs[actions.index(action)])
        state.apply({request: action})
        assert board.next_seat(request.seat) == (-1 if state.is_over() else state.to_move)


def test_search_plans_a_path_where_greedy_grabs():
    # Seat 0's penguin on (3, 4): east a 3-fish dead end, west four 1-fish tiles in a row.
    # Seat 1's penguin on (0, 0) is stuck. West is worth 4 fish more than the start tile, east 3.
    tiles = {(3, 4): 1, (3, 5): 3, (3, 3): 1, (3, 2): 1, (3, 1): 1, (3, 0): 1, (0, 0): 1}
    state = position(tiles, [[(3, 4)], [(0, 0)]])
    observation = state.observation(Request(0))
    assert GreedyBot(seed=1).act(observation) == Move(3, 4, 3, 5)
    for seed in range(4):  # any move west can take all four (a jump to (3, 0) walks back east)
        move = SearchBot(seed=seed).act(observation)
        assert (move.r2, move.c2) in {(3, 0), (3, 1), (3, 2), (3, 3)}


def test_search_collects_everything_in_an_island_it_owns():
    state = position(
        {(3, 4): 1, (3, 5): 3, (3, 3): 1, (3, 2): 1, (3, 1): 1, (3, 0): 1, (0, 0): 1}, [[(3, 4)], [(0, 0)]]
    )
    bot = SearchBot(seed=2)
    while not state.is_over():
        (request,) = state.to_act()
        state.apply({request: bot.act(state.observation(request))})
    assert state.scores == [5, 1]


def test_greedy_beats_random_at_four_players():
    greedy, random_ = mean_ranks("greedy", "random", 4, range(200, 232))
    assert greedy < 1.7 and random_ > 2.6  # 1.28 and 2.86 when written


def test_search_beats_greedy_at_four_players():
    search, greedy = mean_ranks("search", "greedy", 4, range(300, 324), {})
    assert search < 1.9 and greedy > 2.6  # 1.46 and 2.82 when written
