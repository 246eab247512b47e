"""pk2048 bot written as a contestant would: the first direction that changes the board.

It skips the seat line, flushes after every answer and expects nothing at the end of a game.
Stuck with its bomb unused, it bombs the first cell after which some slide works.
"""

from botio import say
from pk2048_lib import board_of, read_state, working

while True:
    cells = board_of(read_state())
    useful = working(cells)
    if useful:
        say(f"0 0 {useful[0]}")
        continue
    for cell in range(16):
        bombed = cells[:cell] + [0] + cells[cell + 1 :]
        if working(bombed):
            say(f"0 {cell + 1} {working(bombed)[0]}")
            break
