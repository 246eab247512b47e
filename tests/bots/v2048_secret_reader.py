"""A versus2048 bot that plays legal moves while it tries to read what no bot may see, and tells what it read.

Usage: ``v2048_secret_reader.py [--guess=PATH ...]``. Before its first reply it looks for

* league files: every ``*.yaml`` and ``*.yml`` in its working folder, in its own folder (where this
  script lies) and in every folder above either;
* the store of earlier games: ``games.jsonl`` and ``moves.jsonl`` in those folders and in their
  ``reports/*/`` and ``out/`` folders;
* a neighbour's files: ``book.txt`` in every folder beside its own folder and beside its working
  folder, and one level below those;
* each PATH it was told (a file, or the files of a folder): the league file, the report folder, a
  neighbour's book, as a contestant who knows the organiser's layout would guess them. They come as
  ``--guess=`` options, so that the jail is not asked to show them as files of the command.

It prints on stderr one line ``READ PATH`` for each file it could read (its first bytes after it),
then ``secrets read: N of M tried``, and plays on legally (v2048lib) until the game ends.
"""

import glob
import os
import sys

from botio import read_line, say
from v2048lib import legal_reply, read_turn

LEAGUE_FILES = ("*.yaml", "*.yml")
STORE_FILES = ("games.jsonl", "moves.jsonl")


def upward(folder):
    """``folder`` and every folder above it."""
    folder = os.path.abspath(folder)
    while True:
        yield folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent


def candidates(guesses):
    """Every path worth a try, each once, in a fixed order."""
    here, mine = os.getcwd(), os.path.dirname(os.path.abspath(__file__))
    found = []
    for start in (here, mine):
        for folder in upward(start):
            for pattern in LEAGUE_FILES:
                found += glob.glob(os.path.join(folder, pattern))
            for name in STORE_FILES:
                for where in ("", "reports/*", "out"):
                    found += glob.glob(os.path.join(folder, where, name))
        for beside in glob.glob(os.path.join(os.path.dirname(start), "*")):
            found += glob.glob(os.path.join(beside, "book.txt")) + glob.glob(os.path.join(beside, "*", "book.txt"))
    for guess in guesses:
        try:
            found += [os.path.join(guess, name) for name in sorted(os.listdir(guess))]
        except OSError:  # not a folder, or none it can see
            found.append(guess)
    return list(dict.fromkeys(found))


def snoop(guesses):
    """Try every candidate; say on stderr what could be read."""
    tried = candidates(guesses)
    read = 0
    for path in tried:
        try:
            with open(path, "rb") as handle:
                first = handle.read(60)
        except OSError:
            continue
        read += 1
        print(f"READ {path}: {first!r}", file=sys.stderr)
    print(f"secrets read: {read} of {len(tried)} tried", file=sys.stderr, flush=True)


guesses = [argument.removeprefix("--guess=") for argument in sys.argv[1:] if argument.startswith("--guess=")]
read_line()
snoop(guesses)
say("1 1")
while True:
    _, mine, theirs = read_turn()
    say(legal_reply(mine, theirs))
