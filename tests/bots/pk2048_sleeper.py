"""pk2048 bot that reads its first request and never answers (sleeps)."""

import time

from pk2048_lib import read_state

read_state()
time.sleep(3600)
