"""Line I/O and the stalls shared by the test bots of every game, independent of the engine under test.

The bots run as scripts from this folder (Python puts a script's folder on ``sys.path``), so they
import it as ``botio``, next to their game's toolkit (v2048lib, pk2048_lib, attack2048_lib).
"""

import signal
import sys
import time


def read_line():
    """One line from stdin without its end, or exit quietly at EOF."""
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.rstrip("\n")


def read_raw_line(echo=False):
    """One line from stdin as its bytes, end included, or exit quietly at EOF; with ``echo``, its repr to stderr.

    The echo lets a test see the exact bytes a bot was sent.
    """
    raw = sys.stdin.buffer.readline()
    if not raw:
        sys.exit(0)
    if echo:
        sys.stderr.write(repr(raw) + "\n")
        sys.stderr.flush()
    return raw


def say(text):
    """Write one reply line and flush."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def wait_for_the_end():
    """Read everything without answering until stdin is closed, then exit."""
    sys.stdin.read()
    sys.exit(0)


def hang():
    """Ignore SIGTERM and sleep for a minute: a bot that must be killed."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(60)
