#!x
"""A versus2048 bot whose ``#!`` line names its interpreter by a relative path, and that snoops as it plays.

Run as ``./v2048_relative_shebang.py [--guess=PATH ...]`` (mode 755) beside an executable ``x``
(a shell script that runs ``python3 "$@"``): the kernel looks ``x`` up from the folder the bot runs
in. A league that looked it up from its own current folder instead would have shown the bot that
folder whole, as the interpreter's installation: the league file, the report folder, the other
bots. So once it runs, it does what tests/bots/v2048_secret_reader.py does (beside it, with
v2048lib.py and botio.py): it looks for league files, stores and a neighbour's book upward from
where it runs and from its own folder, and where it is told to guess, says on stderr ``READ PATH``
for each file it could read and ``secrets read: N of M tried``, and plays legal moves to the end.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import v2048_secret_reader  # noqa: E402, F401  (it snoops, tells, then plays until the game ends)
