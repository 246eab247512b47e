"""codevs21 solo built-ins decide each move only when it is taken, and play the very moves they always did.

The moves below were recorded from the code that decided all N moves before printing the first
(same seed, same moves): changing how the moves come out must not change which moves they are.
"""

import hashlib
import io
import itertools

import pytest

from engine.codevs21 import Codevs21
from engine.codevs21.bots import BUILTIN_BOTS
from engine.codevs21.protocol import Codevs21Referee, SoloDriver
from engine.protocol import run_stdio

SHORT = {"case": "small", "N": 60, "A": 30, "B_obs": 60}
SHORT_MOVES_SHA256 = "a92c423d8f80706c1cd73b5f248a3f09dc7ecb466047ab05be3bd366a032ffa0"
"""sha256 of chains' 60 moves (seed 0, SHORT, one line each, joined by LF), from the code before."""
SHORT_FIRST = ["4 1", "6 0", "2 2", "0 2", "-1 0", "2 0", "1 3", "1 0", "0 2", "3 0", "5 1", "1 3"]
FIRST_MOVES = {
    "medium": ["11 3", "0 0", "9 2", "8 3", "12 0", "7 1", "7 0", "0 2", "6 3", "3 1", "6 3", "7 1"],
    "large": ["5 2", "0 3", "15 0", "6 3", "8 0", "13 1", "3 3", "2 2", "2 0", "7 3", "7 0", "10 0"],
}
"""chains' first 12 moves of the Medium and Large cases, seed 0 (whole games of 1000 moves), from the code before."""


class Counting:
    """Wraps a built-in and counts the moves it was asked to decide."""

    def __init__(self, bot):
        self.bot = bot
        self.asked = 0

    def act(self, observation):
        self.asked += 1
        return self.bot.act(observation)


def greeted(variant: dict, seed: int) -> tuple[Counting, SoloDriver, str]:
    """chains' bot side after every line of the initial input but the last ``END``: (its bot, driver, that line)."""
    game = Codevs21(**variant)
    params = game.params()
    bot = Counting(BUILTIN_BOTS["chains"](seed=seed))
    driver = SoloDriver(bot, params.P, params.Th)
    *lines, last = Codevs21Referee().greeting(game.new_state(seed, 1), None).decode().splitlines()
    for line in lines:
        assert list(driver.replies(line)) == [], "no move before the last pack"
    return bot, driver, last


def test_chains_plays_the_moves_it_played_before():
    _, driver, last = greeted(SHORT, 0)
    moves = driver.feed(last)
    assert hashlib.sha256(moves.encode()).hexdigest() == SHORT_MOVES_SHA256
    assert moves.split("\n")[:12] == SHORT_FIRST
    _, lazily, last = greeted(SHORT, 0)
    assert "\n".join(lazily.replies(last)) == moves, "taken one at a time, the same moves"


@pytest.mark.parametrize("case", sorted(FIRST_MOVES))
def test_each_move_is_decided_only_when_it_is_taken(case):
    bot, driver, last = greeted({"case": case}, 0)
    moves = driver.replies(last)
    assert bot.asked == 0
    assert list(itertools.islice(moves, 12)) == FIRST_MOVES[case]
    assert bot.asked == 12, "12 moves taken, 12 decided: not the 1000 of the whole game"


@pytest.mark.parametrize("name", sorted(BUILTIN_BOTS))
def test_as_a_program_each_move_is_printed_and_flushed_before_the_next_is_decided(name):
    game = Codevs21(**SHORT)
    params = game.params()
    bot = Counting(BUILTIN_BOTS[name](seed=1))

    printed = []  # per flush: (moves decided by then, what was written since the last flush)

    class Stdout(io.StringIO):
        def flush(self):
            printed.append((bot.asked, self.getvalue()))
            self.seek(0)
            self.truncate()

    greeting = Codevs21Referee().greeting(game.new_state(1, 1), None).decode()
    run_stdio(SoloDriver(bot, params.P, params.Th), io.StringIO(greeting), Stdout())
    assert len(printed) == bot.asked >= 1
    assert [asked for asked, _ in printed] == list(range(1, bot.asked + 1))
    assert all(text.count("\n") == 1 for _, text in printed), "one move a flush"
