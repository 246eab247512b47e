"""Line I/O shared by the test bots of every game, independent of the engine under test.

The bots run as scripts from this folder (Python puts a script's folder on ``sys.path``), so they
import it as ``botio``, next to their game's toolkit (v2048lib, pk2048_lib, attack2048_lib).
"""

import sys


def read_line():
    """One line from stdin without its end, or exit quietly at EOF."""
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.rstrip("\n")


def say(text):
    """Write one reply line and flush."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
