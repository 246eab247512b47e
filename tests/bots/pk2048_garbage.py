"""pk2048 bot that answers its first request with garbage and waits (every game)."""

import sys

from pk2048_lib import read_state, say

read_state()
say("up, please!")
sys.stdin.read()
