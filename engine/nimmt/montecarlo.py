"""The ``montecarlo`` built-in nimmt player: sampled deals played out with a rule of thumb.

For a ``PLAY`` request the bot draws deals of the cards it has not seen
(``engine/nimmt/tracking.py``) into the opponents' hands, each opponent holding as many cards as
the bot. In each sampled deal every opponent plays this round the card of least one-ply risk
from its own point of view (the ``greedy`` estimate), or with chance ``epsilon`` a random card;
then every card of the bot's hand still in the running is tried against those same opponent
cards (common random numbers: the cards are compared on equal deals). The round is resolved and
the rest of the deal played out, every seat playing the rule of thumb below and taking the
cheapest row when its card is low, for at most ``horizon`` rounds in all. A card's value is the
bot's penalty less ``rivalry`` times the others' mean penalty (ranks count, not bullheads alone).
The search runs in stages (a quarter, a quarter and half of ``samples`` deals); after each stage
the worse half of the cards drops out. The lowest mean value wins, the lower card among equals.

A ``TAKE`` request is answered the same way: the round's cards are known, so each row is taken
in turn, the round resolved exactly, and the rest of the deal played out on half of ``samples``
sampled deals (the same deals for every row).

The rule of thumb (:func:`rule_of_thumb`) is a fast version of the same one-ply risk: a card
below every row end costs the cheapest row; a card on a row with room costs the row's bullheads
times the (Poisson) chance that enough cards the seat has not seen land on the row first; a
sixth card costs its row unless such a card lands first. Rows are kept as ends, lengths and
bullheads only.

The work is budgeted by the number of samples, never by the clock: given the seed, the choices
are the same on every machine.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from itertools import accumulate

from engine.core import require_at_least
from engine.nimmt.rules import CARDS, ROUNDS, ROW_LIMIT, PlayObservation, TakeObservation
from engine.nimmt.tracking import TABLES, CardTracker, landing_risks, play_chance

Observation = PlayObservation | TakeObservation
FACTORIALS = (1, 1, 2, 6, 24, 120)
STAGES = (0.25, 0.25, 0.5)  # each stage's share of ``samples``; the cards left are halved after each


View = tuple[int, int, list[int], list[tuple[int, int, int, int, float]]]
"""The rows as the rule of thumb reads them: the lowest end, the cheapest row's bullheads, the
count of public cards up to each value, and per row by ascending end (end, next end or 105, room
left, bullheads at stake, risk factor)."""


def row_view(ends: list[int], lens: list[int], costs: list[int], public: bytearray, chance: float) -> View:
    """The rows (ends, lengths, bullheads) as :func:`rule_of_thumb` reads them.

    Args:
        ends: Each row's end.
        lens: Each row's length.
        costs: Each row's bullheads.
        public: 1 for each card value every seat has seen (index 0 unused).
        chance: The chance that one card a seat has not seen is played by an opponent this round.
    """
    order = sorted(range(4), key=ends.__getitem__)
    rows = []
    for j, k in enumerate(order):
        room = ROW_LIMIT - lens[k]
        stop = ends[order[j + 1]] if j < 3 else CARDS + 1
        factor = chance**room / FACTORIALS[room] if room else chance
        rows.append((ends[k], stop, room, costs[k] + room, factor))
    return ends[order[0]], min(costs), list(accumulate(public)), rows


def rule_of_thumb(hand: list[int], view: View) -> int:
    """The playouts' card for the ascending ``hand`` on rows seen as ``view`` (:func:`row_view`).

    A card below every end scores the cheapest row; a card on a row with room scores the row's
    bullheads (and the cards that would fill it) times the Poisson chance that enough of the
    cards in between that the seat has not seen land first; a sixth card scores its row's
    bullheads unless such a card lands first. The lowest score wins, the lower card among
    equals. On a row with room the score grows with the card, on a full row it falls: only the
    lowest and the highest card landing on each row need scoring.
    """
    lowest, cheapest, seen, rows = view
    best_card, best = hand[0], 1e9
    if best_card < lowest:
        best = cheapest
    size = len(hand)
    for end, stop, room, stake, factor in rows:
        first = bisect_right(hand, end)
        if first == size:
            break
        card = hand[first]
        if card > stop:
            continue
        if room:
            score = factor * (card - end - 1 - seen[card] + seen[end]) ** room
            score = (score if score < 1.0 else 1.0) * stake
        else:
            last = bisect_left(hand, stop, first) - 1
            card = hand[last]
            score = 1.0 - (card - end - 1 - seen[card] + seen[end] - last + first) * factor
            score = score * stake if score > 0.0 else 0.0
        if score < best or (score == best and card < best_card):
            best_card, best = card, score
    return best_card


def resolve(
    plays: list[tuple[int, int]],
    ends: list[int],
    lens: list[int],
    costs: list[int],
    penalties: list[int],
    table: tuple[int, ...],
) -> None:
    """Place (card, seat) pairs in ascending order, in place; a low card's seat takes the cheapest row."""
    for card, seat in sorted(plays):
        e0, e1, e2, e3 = ends
        end, k = 0, -1
        if e0 < card:
            end, k = e0, 0
        if end < e1 < card:
            end, k = e1, 1
        if end < e2 < card:
            end, k = e2, 2
        if end < e3 < card:
            k = 3
        if k < 0:
            k = costs.index(min(costs))
        elif lens[k] < ROW_LIMIT:
            ends[k] = card
            lens[k] += 1
            costs[k] += table[card]
            continue
        penalties[seat] += costs[k]
        ends[k], lens[k], costs[k] = card, 1, table[card]


def play_out(
    hands: list[list[int]],
    ends: list[int],
    lens: list[int],
    costs: list[int],
    penalties: list[int],
    table: tuple[int, ...],
    rounds: int,
    public: bytearray,
) -> None:
    """Play ``rounds`` more rounds (at most the cards left), every seat by the rule of thumb, in place.

    ``public`` (1 for each card every seat has seen) is updated with the cards played.
    """
    others = len(hands) - 1
    known = sum(public)
    for _ in range(min(rounds, len(hands[0]))):
        plays = []
        chance = others / max(1, CARDS - known - len(hands[0]))
        known += others + 1
        view = row_view(ends, lens, costs, public, chance)
        for seat, hand in enumerate(hands):
            card = rule_of_thumb(hand, view)
            hand.remove(card)
            plays.append((card, seat))
            public[card] = 1
        resolve(plays, ends, lens, costs, penalties, table)


class MonteCarloBot:
    """Sampled deals, every choice played out to the end of the deal (see the module docstring).

    Args:
        seed: Seeds the sampled deals and the opponents' random cards.
        samples: Sampled deals per decision for the cards left in the last stage (the work
            budget; at least 4).
        epsilon: The chance that a sampled opponent plays a random card this round instead of
            the card of least risk.
        rivalry: Weight of the other seats' mean penalty, subtracted from the bot's own.
        horizon: Rounds played out per decision, this one included (at least 1; 10 = the whole deal).
    """

    def __init__(
        self, seed: int = 0, samples: int = 100, epsilon: float = 0.1, rivalry: float = 0.3, horizon: int = ROUNDS
    ) -> None:
        require_at_least(4, samples=samples)
        require_at_least(1, horizon=horizon)
        self.rng = random.Random(seed)
        self.samples = samples
        self.epsilon = epsilon
        self.rivalry = rivalry
        self.horizon = horizon
        self.tracker = CardTracker()

    def act(self, observation: Observation) -> int:
        """A card of the hand for ``PLAY``, a row 0..3 for ``TAKE``."""
        self.tracker.update(observation)
        if isinstance(observation, TakeObservation):
            return self.choose_row(observation)
        if len(observation.hand) == 1:
            return observation.hand[0]
        return self.choose_card(observation)

    def deals(self, observation: Observation, size: int, count: int) -> list[list[list[int]]]:
        """``count`` deals of ``size`` unseen cards to each other seat (in seat order, the bot left out)."""
        unseen = self.tracker.unseen()
        others = observation.players - 1
        result = []
        for _ in range(count):
            drawn = self.rng.sample(unseen, others * size)
            result.append([sorted(drawn[i * size : (i + 1) * size]) for i in range(others)])
        return result

    def public(self, observation: Observation) -> bytearray:
        """1 for each card every seat has seen: what the bot has seen less its hand."""
        public = bytearray(CARDS + 1)
        for card in self.tracker.seen.difference(observation.hand):
            public[card] = 1
        return public

    def value(self, penalties: list[int], me: int) -> float:
        """The bot's penalty less ``rivalry`` times the mean of the others'."""
        others = (sum(penalties) - penalties[me]) / (len(penalties) - 1)
        return penalties[me] - self.rivalry * others

    def opponent_cards(self, observation: PlayObservation, opponents: list[list[int]], hidden: set[int]) -> list[int]:
        """Each sampled opponent's card this round: the least risky from its point of view, or a random one.

        Args:
            observation: The bot's request.
            opponents: The sampled hands of the other seats.
            hidden: The cards no opponent has seen as public: the bot's unseen cards and its hand.
        """
        table = TABLES[observation.bullheads]
        cards = []
        for hand in opponents:
            if self.rng.random() < self.epsilon:
                cards.append(self.rng.choice(hand))
                continue
            theirs = sorted(hidden.difference(hand))
            risks = landing_risks(hand, observation.rows, theirs, play_chance(observation.players, len(theirs)), table)
            cards.append(hand[risks.index(min(risks))])
        return cards

    def choose_card(self, observation: PlayObservation) -> int:
        """The card with the lowest mean value over the sampled deals, the field halved between stages."""
        table = TABLES[observation.bullheads]
        rows = observation.rows
        public = self.public(observation)
        start = ([row[-1] for row in rows], [len(row) for row in rows], [sum(table[c] for c in row) for row in rows])
        hand = list(observation.hand)
        me = observation.seat
        totals = dict.fromkeys(hand, 0.0)
        alive = list(hand)
        hidden = set(self.tracker.unseen()).union(hand)
        for share in STAGES:
            for opponents in self.deals(observation, len(hand), max(1, round(share * self.samples))):
                first = self.opponent_cards(observation, opponents, hidden)
                plays = [(played, seat + (seat >= me)) for seat, played in enumerate(first)]
                left = [[c for c in h if c != played] for h, played in zip(opponents, first, strict=True)]
                for card in alive:
                    hands = [h[:] for h in left]
                    hands.insert(me, [c for c in hand if c != card])
                    ends, lens, costs = start[0][:], start[1][:], start[2][:]
                    penalties = [0] * observation.players
                    resolve([*plays, (card, me)], ends, lens, costs, penalties, table)
                    seen = public[:]
                    for played, _ in plays:
                        seen[played] = 1
                    seen[card] = 1
                    play_out(hands, ends, lens, costs, penalties, table, self.horizon - 1, seen)
                    totals[card] += self.value(penalties, me)
            alive.sort(key=lambda card: (totals[card], card))
            alive = alive[: max(2, (len(alive) + 1) // 2)]
        return alive[0]

    def choose_row(self, observation: TakeObservation) -> int:
        """The row whose take, with the round resolved and the deal played out, has the lowest mean value."""
        table = TABLES[observation.bullheads]
        public = self.public(observation)
        me = observation.seat
        left = list(observation.hand)
        later = [(card, seat) for seat, card in enumerate(observation.revealed) if card != observation.card]
        deals = self.deals(observation, len(left), self.samples // 2) if left else [[]]
        totals = [0.0] * len(observation.rows)
        for k in range(len(observation.rows)):
            for opponents in deals:
                ends = [row[-1] for row in observation.rows]
                lens = [len(row) for row in observation.rows]
                costs = [sum(table[c] for c in row) for row in observation.rows]
                penalties = [0] * observation.players
                penalties[me] = costs[k]
                ends[k], lens[k], costs[k] = observation.card, 1, table[observation.card]
                resolve(later, ends, lens, costs, penalties, table)
                if left:
                    hands = [list(h) for h in opponents]
                    hands.insert(me, list(left))
                    play_out(hands, ends, lens, costs, penalties, table, self.horizon - 1, public[:])
                totals[k] += self.value(penalties, me)
        return min(range(len(totals)), key=lambda k: (totals[k], k))
