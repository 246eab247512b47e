"""A codevs21 solo bot as the qualifier's were: read the whole input (until EOF), then print moves.

Usage: ``codevs21_movefile.py MOVES [MODE]``. It reads stdin to its end (so it hangs unless the
referee closes it, as the rules say), checks that the input starts with a ``W H T S N`` line and
holds N ``END`` lines, then prints the file MOVES as it is and exits. MODE:

* ``plain``: as above;
* ``first K``: print only the first K lines of MOVES, then exit;
* ``sleep S``: sleep S seconds before printing.
"""

import sys
import time

text = sys.stdin.read()
lines = text.split("\n")
width, height, side, target, turns = (int(word) for word in lines[0].split()[:5])
if lines.count("END") != turns:
    print(f"codevs21_movefile: {lines.count('END')} packs, not {turns}", file=sys.stderr)
    sys.exit(2)
moves = open(sys.argv[1]).read()
mode = sys.argv[2] if len(sys.argv) > 2 else "plain"
if mode == "first":
    moves = "".join(line + "\n" for line in moves.splitlines()[: int(sys.argv[3])])
elif mode == "sleep":
    time.sleep(float(sys.argv[3]))
sys.stdout.write(moves)
sys.stdout.flush()
