"""A nimmt bot as a plain program (stdin/stdout), to show a program bot in configs/nimmt.yaml.

It follows the rows from ``ROWS`` lines and plays the card that lands closest above a row end
whose row has room (never the sixth card if it can help it); with no such card it plays its
lowest card. Asked to take a row, it takes the one with the fewest bullheads.
"""

import sys


def bullheads(card: int, table: str) -> int:
    """Penalty points of one card under the table in force (gpcc or classic)."""
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2 if table == "classic" else 1
    return 1


def choose(hand: list[int], rows: list[list[int]]) -> int:
    """The card that lands closest above a row end with room, else the lowest card."""
    best = None
    for card in hand:
        below = [(row[-1], len(row)) for row in rows if row[-1] < card]
        if not below:
            continue
        end, length = max(below)
        if length < 5 and (best is None or card - end < best[0]):
            best = (card - end, card)
    return best[1] if best else min(hand)


def main() -> None:
    """Answer the referee's requests until ``END``."""
    hand: list[int] = []
    rows: list[list[int]] = []
    table = "gpcc"
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "BULLHEADS":
            table = words[1]
        elif words[0] == "HAND":
            hand = [int(word) for word in words[1:]]
        elif words[0] == "ROWS":
            rows = [[int(card) for card in word.split(",")] for word in words[1:]]
        elif words[0] == "PLAY":
            card = choose(hand, rows)
            hand.remove(card)
            print(card, flush=True)
        elif words[0] == "TAKE":
            costs = [sum(bullheads(card, table) for card in row) for row in rows]
            print(costs.index(min(costs)), flush=True)
        elif words[0] == "END":
            return


if __name__ == "__main__":
    main()
