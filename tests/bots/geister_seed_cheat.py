"""A geister bot that plays legal moves and tries to know its opponent's red ghosts from the league seed.

Usage: ``geister_seed_cheat.py OWN_NAME OPPONENT_NAME OPPONENT_BUILTIN [FOLDER ...]``. A contestant
knows every line of the league's source and the bots' names; with the league seed too, a
built-in opponent's hidden setup follows from the public seed derivation. This bot takes the seed
from a ``seed:`` line of the first league file (``*.yaml``, ``*.yml``) it finds in the FOLDERs, the
folder it runs in or one above it, else the default of earlier versions, 0. At its first ``MOV?``
(before any colour is revealed) it knows its seat (seat 0 moves first: the opponent has not moved
yet), replays the league's own schedule (``league.plan.schedule.round_robin``, two games a pair) for the
match seed, and starts the opponent's built-in exactly as the league's launcher does
(``league.match.players.make_launcher``) to see the setup it will choose. It plays ``geister_lib.charge``
moves. At the end the board is revealed: it writes ``seed-cheat: hit`` or ``seed-cheat: miss`` on
stderr, with both setups, and the league keeps that with the game.

It imports the project, so it is run unjailed (``sandbox: none``): what it tests is the secrecy of
the league seed, not the jail.
"""

import re
import sys
from pathlib import Path

from botio import say
from geister_lib import LETTERS, charge, pieces, read_message

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the project under test

from engine.core import ProcessKey  # noqa: E402 - after the project is on the path
from engine.geister import Geister  # noqa: E402
from engine.geister.board import START, rotate  # noqa: E402
from league.match.bot_spec import parse_bot_argument  # noqa: E402
from league.match.players import make_launcher  # noqa: E402
from league.plan.schedule import round_robin  # noqa: E402

OWN, OPPONENT, OPPONENT_BUILTIN = sys.argv[1:4]
FOLDERS = [Path(folder) for folder in sys.argv[4:]]


def guessed_league_seed() -> int:
    """The seed of the first league file found, else 0 (the default before the league drew its own)."""
    here = Path.cwd()
    for folder in [*FOLDERS, here, *here.parents]:
        for path in sorted([*folder.glob("*.yaml"), *folder.glob("*.yml")]):
            try:
                found = re.search(r"^seed:\s*(\d+)\s*$", path.read_text(), re.MULTILINE)
            except (OSError, UnicodeDecodeError):  # unreadable, or not a league file
                continue
            if found:
                return int(found.group(1))
    return 0


def predicted_reds(league_seed: int, opponent_seat: int) -> str:
    """The reds the opponent's built-in chooses in this match, if the league seed is ``league_seed``."""
    games = round_robin("league", [OWN, OPPONENT], ["variant"], 2, league_seed)
    [match] = [spec for spec in games if spec.seats[opponent_seat] == OPPONENT]
    opponent = parse_bot_argument(Geister, OPPONENT_BUILTIN)
    transport = make_launcher(Geister(), opponent, opponent_seat, match.seed)(ProcessKey(opponent_seat))
    transport.send(b"SET?\r\n")
    reply = transport.take_line(skip_blank=True, fragment_at_eof_is_line=False, cap=None)
    return "".join(sorted(reply.data.decode().strip().removeprefix("SET:")))


def main() -> None:
    seed = guessed_league_seed()
    predicted = None
    while True:
        message = read_message()
        if message == "SET?":
            say("SET:ABCD")
        elif message.startswith("MOV?"):
            board = message[4:]
            if predicted is None:
                _, opponent = pieces(board)
                untouched = [(x, y) for x, y, _ in opponent] == [rotate(square) for square in START]
                predicted = predicted_reds(seed, 1 if untouched else 0)
            say(charge(board))
        elif message[:4] in ("WON:", "LST:", "DRW:") and predicted is not None:
            _, opponent = pieces(message[4:])
            actual = "".join(letter for letter, (_, _, colour) in zip(LETTERS, opponent, strict=True) if colour == "r")
            verdict = "hit" if actual == predicted else "miss"
            print(f"seed-cheat: {verdict} (predicted {predicted}, actual {actual}, seed {seed})", file=sys.stderr)
            sys.stderr.flush()


main()
