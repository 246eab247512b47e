"""A tiny geister toolkit for the test bots, independent of the engine under test (I/O: botio).

Lines from the referee end CR LF; ``read_message`` strips both. Boards are the 48-character
strings of rules/geister.md section 2.4: own pieces A-H, then the opponent's, as ``x y colour``.
"""

from botio import read_line

LETTERS = "ABCDEFGH"
STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def read_message():
    """The next line from the referee without CR LF (exits quietly at EOF)."""
    return read_line().removesuffix("\r")


def pieces(board):
    """(own, opponent): each eight (x, y, colour) triples, A-H."""
    groups = [(int(board[i]), int(board[i + 1]), board[i + 2]) for i in range(0, 48, 3)]
    return groups[:8], groups[8:]


def captured_own(board):
    """The letters of this bot's own pieces that were captured."""
    own, _ = pieces(board)
    return [letter for letter, (x, y, _) in zip(LETTERS, own, strict=True) if (x, y) == (9, 9)]


def charge(board):
    """A legal move: a capture if there is one, else the first piece that can step north, else any."""
    own, opponent = pieces(board)
    mine = {(x, y) for x, y, _ in own}
    theirs = {(x, y) for x, y, _ in opponent}
    moves = []
    for letter, (x, y, _) in zip(LETTERS, own, strict=True):
        if x > 5:
            continue
        for word, (dx, dy) in STEPS.items():
            to = (x + dx, y + dy)
            if 0 <= to[0] <= 5 and 0 <= to[1] <= 5 and to not in mine:
                moves.append((to not in theirs, word != "N", f"MOV:{letter},{word}"))
    return min(moves)[2]
