"""versus2048 bot that prints its pre-game answer but never flushes: the referee sees nothing at all."""

import sys
import time

sys.stdin.readline()
print("1 1")  # stdout is a pipe: block-buffered, so this stays in the bot
time.sleep(30)
