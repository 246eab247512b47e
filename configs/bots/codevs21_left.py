"""The codevs21 README's minimal solo bot as a program: every pack dropped as far left as it goes."""

import sys

words = sys.stdin.read().split()
width, height, side, target, turns = map(int, words[:5])
for turn in range(turns):
    cells = words[5 + turn * (side * side + 1) : 5 + turn * (side * side + 1) + side * side]
    used = [c for c in range(side) if any(int(cells[r * side + c]) for r in range(side))]
    print(-min(used), 0)  # leftmost legal position, no rotation
sys.stdout.flush()
