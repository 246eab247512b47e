"""attack2048 bot that never randomises: ``attack [last]`` or ``defend [ORDER]``, then ``echo`` to log its input.

The attacker puts a 2 on the first empty cell in reading order (the last with ``last``); the
defender slides the first direction of ORDER (default ``nesw``: north, east, south, west) that
changes the board. With a last argument ``echo`` it writes every line it reads to stderr as
Python's repr of its bytes, so a test can see the exact bytes it was sent.
"""

import sys

from attack2048_lib import legal_directions

role = sys.argv[1]
echo = sys.argv[-1] == "echo"
options = [arg for arg in sys.argv[2:] if arg != "echo"]
WORDS = {"n": "north", "e": "east", "s": "south", "w": "west"}


def line():
    raw = sys.stdin.buffer.readline()
    if echo:
        sys.stderr.write(repr(raw) + "\n")
        sys.stderr.flush()
    if raw in (b"", b"quit\n"):
        sys.exit(0)
    return raw.decode("ascii")


while True:
    assert line() == "game\n"
    rows = [[int(value) for value in line().split()] for _ in range(4)]
    if role == "attack":
        empty = [(x, y) for y in range(4) for x in range(4) if rows[y][x] == 0]
        x, y = empty[-1] if options[:1] == ["last"] else empty[0]
        print(f"{x} {y} 2", flush=True)
    else:
        legal = legal_directions(rows)
        order = [WORDS[letter] for letter in (options[0] if options else "nesw")]
        print(next(word for word in order if word in legal), flush=True)
