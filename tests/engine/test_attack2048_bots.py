"""The built-in attack2048 players: legal under every variant when told its rules, seeded, fast, ordered."""

import time

import pytest

from engine.attack2048 import Attack2048
from engine.attack2048.botbase import VariantRules
from engine.attack2048.bots import BUILTIN_BOTS
from engine.attack2048.rules import Attack2048Observation, Placement
from league.match.bot_spec import BotSpec
from league.match.players import make_launcher
from league.match.referee import play_match

RULE_KEYS = ("tiles", "four_limit", "four_every_twos", "four_on_new_max")
VARIANTS = [
    {"tiles": [2]},
    {"tiles": [2, 4]},
    {"four_limit": 2},
    {"four_limit": 0},
    {"four_every_twos": 3},
    {"four_on_new_max": True},
    {"four_on_new_max": True, "opening": "random_two"},
    {"four_on_new_max": True, "opening": "attacker_two"},
    {"four_every_twos": 2, "four_on_new_max": True, "four_limit": 5},
]


def play_half(variant, attacker, defender, seed, max_plies=400):
    """Half 1 of a match between two built-in classes told the variant's rules; every action is checked."""
    game = Attack2048(**variant, max_plies_per_half=max_plies)
    rules = {key: value for key, value in game.variant().items() if key in RULE_KEYS}
    bots = {"attack": attacker(seed=seed, **rules), "defend": defender(seed=seed + 1, **rules)}
    state = game.new_state(seed)
    actions = []
    while state.half == 1:
        (request,) = state.to_act()
        action = bots[request.role].act(Attack2048Observation(state.board))
        fault = state.check(request, action)
        assert fault is None, f"{variant}: {fault.detail}"
        state.apply({request: action})
        actions.append(action)
    return state.halves[0], actions


@pytest.mark.parametrize("variant", VARIANTS, ids=[str(v) for v in VARIANTS])
@pytest.mark.parametrize("attacker", ["random", "greedy", "expectimax"])
def test_attackers_told_the_rules_never_place_an_illegal_4(variant, attacker):
    fours = 0
    for seed in range(2):
        record, _ = play_half(variant, BUILTIN_BOTS[attacker]["attack"], BUILTIN_BOTS["greedy"]["defend"], seed, 120)
        fours += record["fours"]
    if variant.get("tiles") == [2] or variant.get("four_limit") == 0:
        assert fours == 0
    elif attacker == "random":
        assert fours > 0, "told that 4s are allowed, the random attacker uses them"


@pytest.mark.parametrize("name", ["random", "greedy", "expectimax"])
def test_defenders_play_legal_halves_to_the_end(name):
    record, _ = play_half({"tiles": [2, 4]}, BUILTIN_BOTS["greedy"]["attack"], BUILTIN_BOTS[name]["defend"], 3, 3000)
    assert record["end"] == "stuck"


def test_untold_attackers_place_only_2s():
    for name in BUILTIN_BOTS:
        bot = BUILTIN_BOTS[name]["attack"](seed=1)
        action = bot.act(Attack2048Observation((0,) * 16))
        assert isinstance(action, Placement) and action.value == 2


def test_variant_rules_count_credits_from_the_boards_seen():
    rules = VariantRules(tiles=[2, 4], four_on_new_max=True)
    rules.observe((0,) * 16)
    assert rules.exponents() == (1,)
    left = (1,) + (0,) * 14 + (1,)
    rules.placed(left, 1)
    rules.observe((2,) + (0,) * 15)  # a slide merged the two 2s: the largest tile grew
    assert rules.credits == 1 and rules.exponents() == (1, 2)
    rules.placed((2, 2) + (0,) * 14, 2)
    assert rules.credits == 0
    rules.observe((2, 2) + (0,) * 14)  # attacker_two: the same board again, no slide
    assert rules.credits == 0
    opening = VariantRules(tiles=[2, 4], four_on_new_max=True)
    opening.observe((2,) + (0,) * 15)  # random_two: the defender merged the two opening 2s
    assert opening.credits == 1


@pytest.mark.parametrize("name", ["random", "greedy", "expectimax"])
def test_same_seed_same_choices(name):
    variant = {"tiles": [2, 4]}
    first = play_half(variant, BUILTIN_BOTS[name]["attack"], BUILTIN_BOTS[name]["defend"], 7, 200)
    assert first == play_half(variant, BUILTIN_BOTS[name]["attack"], BUILTIN_BOTS[name]["defend"], 7, 200)


def test_expectimax_decides_well_inside_the_time_limit():
    _, actions = play_half({"tiles": [2, 4]}, BUILTIN_BOTS["greedy"]["attack"], BUILTIN_BOTS["greedy"]["defend"], 5)
    game = Attack2048(tiles=[2, 4])
    state = game.new_state(0)
    boards = []
    for action in actions:
        (request,) = state.to_act()
        boards.append((request.role, state.board))
        state.apply({request: action})
        if state.half != 1:
            break
    slowest = 0.0
    for role, board in boards[::3]:
        bot = BUILTIN_BOTS["expectimax"][role](seed=0, tiles=[2, 4])
        began = time.process_time()  # its own CPU: other work on the machine does not count
        bot.act(Attack2048Observation(board))
        slowest = max(slowest, time.process_time() - began)
    assert slowest < 0.5, f"slowest decision {slowest * 1000:.0f} ms of CPU (aim: well under 50 ms)"


def test_expectimax_beats_greedy_in_both_seat_orders():
    game = Attack2048(tiles=[2, 4])
    names = ["expectimax", "greedy"]
    for seed, order in ((1, names), (2, names[::-1])):
        specs = [BotSpec(name, builtin=f"attack2048.{name}", params={"tiles": [2, 4]}) for name in order]
        record = play_match(game, [make_launcher(game, spec, seat, seed) for seat, spec in enumerate(specs)], seed)
        assert record.result.winner == order.index("expectimax"), record.result.detail
