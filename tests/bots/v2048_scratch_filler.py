"""A versus2048 bot that fills its scratch folder with many files at its first turn, then goes on as argv[1] says.

Usage: ``v2048_scratch_filler.py MODE CEILING_MB``. It writes files of 256 KB into ``$TMPDIR`` until
a write fails or CEILING_MB are written, and reports on stderr ``wrote N bytes in M files: ERROR``
(``no error`` at the ceiling). Then, by MODE:

  crash   raise the error that stopped it (a traceback, so the bot crashes)
  play    play on legally, as a bot that only logs to a full disk would
"""

import os
import sys

from botio import read_line, say
from v2048lib import legal_reply, read_turn

CHUNK = b"x" * (256 << 10)

mode, ceiling = sys.argv[1], int(sys.argv[2]) << 20
read_line()
say("1 1")
_, mine, theirs = read_turn()
folder = os.environ.get("TMPDIR", "/tmp")
written, files, failure = 0, 0, None
while written < ceiling:
    try:
        with open(os.path.join(folder, f"fill-{files}"), "wb") as handle:
            files += 1
            handle.write(CHUNK)
            written += len(CHUNK)
    except OSError as error:
        failure = error
        break
print(f"wrote {written} bytes in {files} files: {failure or 'no error'}", file=sys.stderr, flush=True)
if mode == "crash" and failure is not None:
    raise failure
while True:
    reply = legal_reply(mine, theirs)
    say(reply)
    _, mine, theirs = read_turn()
