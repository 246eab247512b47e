"""pk2048 bot that reads its first request, then dies of SIGSEGV (every game)."""

import os
import signal

from pk2048_lib import read_state

read_state()
os.kill(os.getpid(), signal.SIGSEGV)
