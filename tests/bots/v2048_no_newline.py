"""versus2048 bot that answers the pre-game without the newline (flushed): the bytes must be quoted."""

import sys
import time

sys.stdin.readline()
sys.stdout.write("1 1")
sys.stdout.flush()
time.sleep(30)
