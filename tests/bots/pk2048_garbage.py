"""pk2048 bot that answers its first request with garbage and waits (every game)."""

import sys

from botio import say
from pk2048_lib import read_state

read_state()
say("up, please!")
sys.stdin.read()
