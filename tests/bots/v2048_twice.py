"""versus2048 bot that writes every pre-game answer twice: the extra line answers the next request."""

import sys

from botio import read_line, say

read_line()
say("1 1")
say("1 1")
sys.stdin.read()
