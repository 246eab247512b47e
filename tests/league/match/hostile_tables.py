"""Tables of hostile, plain and built-in seats, for the fault tests of multi-player games (nimmt, fish)."""

from tests.conftest import bot_command


class HostileTables:
    """Tables written one letter a seat, played through ``league play --json``.

    ``H`` is the game's hostile test program in a mode of its own, ``P`` the same program in mode
    ``plain``, ``R`` the ``random`` built-in: ``RPHR`` is four seats, the hostile one third.

    Args:
        game: The game's name.
        script: The hostile program in tests/bots/.
    """

    def __init__(self, game: str, script: str) -> None:
        self.game = game
        self.script = script
        self.clean_games: dict[tuple, dict] = {}

    def bots(self, layout: str, *modes: str) -> list[str]:
        """The BOT arguments of ``layout``: the ``H`` seats take ``modes`` in order."""
        modes_left = list(modes)
        others = {"P": bot_command(f"{self.script} plain"), "R": "random"}
        return [
            bot_command(f"{self.script} {modes_left.pop(0)}") if letter == "H" else others[letter] for letter in layout
        ]

    def play(self, play_json, layout: str, modes: list[str], seed: int, options=()) -> dict:
        """The ``--json`` result of ``layout`` on ``seed``, with the layout added."""
        data = play_json(self.game, *self.bots(layout, *modes), "--seed", str(seed), *options)
        data["layout"] = layout
        return data

    def clean(self, play_json, layout: str, seed: int, options=()) -> dict:
        """The same table with every ``H`` played by ``P``: the game the fallback policy makes (cached)."""
        key = (layout.replace("H", "P"), seed, tuple(options))
        if key not in self.clean_games:
            data = self.play(play_json, key[0], [], seed, options)
            assert data["result"]["termination"] == "NORMAL", data["result"]["detail"]
            self.clean_games[key] = data
        return self.clean_games[key]


def end_line(data: dict, seat: int) -> str:
    """What a ``P`` seat wrote to stderr when the game ended: its only stderr line, ``got ...``."""
    [tail] = [tail["text"] for tail in data["stderr"] if tail["seat"] == seat]
    assert tail.startswith("got "), tail
    return tail
