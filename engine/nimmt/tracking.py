"""What a nimmt bot has seen of the current deal, and the one-ply risk of each card.

A ``PLAY`` observation carries the bot's hand and the rows, not the cards revealed in earlier
rounds, so a bot keeps :class:`CardTracker`: every card it has held or seen in a row (and, when
it answers ``TAKE``, the round's revealed cards) since the deal began. The other cards are
*unseen*: the opponents' hands are among them, with the deal's unused cards and the few cards
that were placed and taken away within one round between two observations.

:func:`landing_risks` is the one-ply estimate the ``greedy`` bot plays by and the ``montecarlo``
bot expects of its opponents: the penalty a card is expected to cost this round, given how many
unseen cards would land on the same row before it (every card between a row's end and the card
goes on that row), each played by some opponent with the same chance.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from engine.nimmt.rules import CARDS, ROW_LIMIT, PlayObservation, TakeObservation, bullheads

Observation = PlayObservation | TakeObservation
TABLES = {table: (0, *(bullheads(card, table) for card in range(1, CARDS + 1))) for table in ("gpcc", "classic")}
"""Per bullhead table, the penalty of each card by value (index 0 unused)."""


class CardTracker:
    """The cards a bot has seen in the current deal, fed every observation it is given."""

    def __init__(self) -> None:
        self.deal = 0
        self.round = 0
        self.seen: set[int] = set()

    def update(self, observation: Observation) -> None:
        """Record the hand, the rows and (for ``TAKE``) the revealed cards; a new deal starts afresh."""
        if observation.deal != self.deal or observation.round < self.round:
            self.seen = set()  # a new deal, or a new game given to the same bot
        self.deal, self.round = observation.deal, observation.round
        self.seen.update(observation.hand)
        for row in observation.rows:
            self.seen.update(row)
        if isinstance(observation, TakeObservation):
            self.seen.update(observation.revealed)

    def unseen(self) -> list[int]:
        """The cards never seen this deal, ascending."""
        return [card for card in range(1, CARDS + 1) if card not in self.seen]


def play_chance(players: int, unseen_count: int) -> float:
    """The chance that one given unseen card is played by some opponent this round.

    Each of the ``players - 1`` opponents plays one card; seen from the bot, every unseen card is
    as likely as any other to be one of them.
    """
    return min(1.0, (players - 1) / max(unseen_count, 1))


def landing_risks(
    hand: tuple[int, ...] | list[int],
    rows: tuple[tuple[int, ...], ...],
    unseen: list[int],
    chance: float,
    table: tuple[int, ...],
) -> list[float]:
    """Per card of ``hand``, the penalty it is expected to cost this round if played now (see the module).

    Args:
        hand: The cards to score.
        rows: The rows before the round.
        unseen: The cards the player has not seen, ascending.
        chance: The chance that one unseen card is played this round (:func:`play_chance`).
        table: The penalty of each card by value.
    """
    costs = [sum(table[c] for c in row) for row in rows]
    ends = sorted((row[-1], k) for k, row in enumerate(rows))
    cheapest = min(costs)
    keep = 1.0 - chance
    risks = []
    for card in hand:
        below = [(end, k) for end, k in ends if end < card]
        if not below:
            # A low card: the cheapest row unless an opponent plays lower still and takes first.
            risks.append(cheapest * keep ** bisect_left(unseen, card))
            continue
        end, k = below[-1]
        room = ROW_LIMIT - len(rows[k])
        between = bisect_left(unseen, card) - bisect_right(unseen, end)
        if room == 0:
            risks.append(costs[k] * keep**between)  # the sixth card unless someone lands first
            continue
        # Taken as the sixth card when at least ``room`` unseen cards land first: P(Binomial >= room).
        taken = 1.0
        term = keep**between
        for landed in range(min(room, between + 1)):
            taken -= term
            term *= (between - landed) / (landed + 1) * chance / max(keep, 1e-9)
        risks.append(max(taken, 0.0) * (costs[k] + room))
    return risks
