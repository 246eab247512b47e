"""codevs21 versus (our definition, rules 4.3, 6.3, 7.2, 9.3): two fields, one pack sequence.

Every turn: each player's stock of obstruction fills blank cells of its copy of the base pack in
the turn's fill order; both players move at once; each move is resolved on its own field, and
each erase step after the first attacks (``field.attack``, with the player's fire count from
before the turn). Unless a game ended, attacks first cancel the attacker's own stock, then the
rest crosses over. The match ends after the first turn in which a game ended (the other player
wins; both: the higher score) or after N turns (the higher score; equal scores draw).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field as data_field

from engine.codevs21.field import Field, Step, attack
from engine.codevs21.packs import Pack, Params, pack_lines
from engine.codevs21.solo import CLEAR, OVERFLOW, MoveFault, check_move

SURVIVED = "survived"
"""The end of a player whose game was still on when the opponent's ended."""


def exchange(attacks: tuple[int, int], stocks: tuple[int, int]) -> tuple[int, int]:
    """The stocks after a turn's exchange (4.3, step 6): attacks cancel their own stock, the rest crosses."""
    kept = (min(attacks[0], stocks[0]), min(attacks[1], stocks[1]))
    return stocks[0] - kept[0] + attacks[1] - kept[1], stocks[1] - kept[1] + attacks[0] - kept[0]


@dataclass
class Player:
    """One versus player: its well and record, its stock, and how its game ended (empty: playing)."""

    well: Field
    stock: int = 0
    end: str = ""
    last_move: tuple[int, int] | None = None


@dataclass
class VersusGame:
    """A versus match in progress.

    Attributes:
        params: The game's numbers.
        packs: The base packs, in turn order.
        orders: Per turn, the order in which blank cells take obstruction.
        players: The two players.
        turn: The turn to play next (0-based).
        steps: Per turn, each player's erase steps.
    """

    params: Params
    packs: Sequence[Pack]
    orders: Sequence[Sequence[int]]
    players: list[Player] = data_field(default_factory=list)
    turn: int = 0
    steps: list[tuple[list[Step], list[Step]]] = data_field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.players:
            self.players = [Player(Field(self.params)), Player(Field(self.params))]
        self._inserted = [self._insert(0), self._insert(1)]

    def is_over(self) -> bool:
        """Whether a game ended, or N turns were played."""
        return any(player.end for player in self.players) or self.turn >= self.params.N

    def pack_of(self, seat: int) -> Pack:
        """The pack ``seat`` plays this turn, its stock's obstruction inserted."""
        return self._inserted[seat]

    def _insert(self, seat: int) -> Pack:
        """Fill blank cells of the turn's base pack with ``seat``'s stock, in the fill order (4.3, step 1)."""
        player, cells = self.players[seat], list(self.packs[self.turn])
        for cell in self.orders[self.turn]:
            if player.stock and not cells[cell]:
                cells[cell] = self.params.obstruction
                player.stock -= 1
        return tuple(cells)

    def message(self, seat: int) -> str:
        """What ``seat`` is sent before it moves at turn >= 1 (9.3): both packs, the other's move, both stocks."""
        other = 1 - seat
        x, rotation = self.players[other].last_move or (0, 0)
        side = self.params.T
        return (
            pack_lines(self.pack_of(seat), side)
            + pack_lines(self.pack_of(other), side)
            + f"{x} {rotation}\n{self.players[seat].stock} {self.players[other].stock}\n"
        )

    def play(self, moves: Sequence[tuple[int, int] | str]) -> None:
        """Resolve one turn from both players' moves (X, R), or a fault code (``timeout``, ``eof``, ``format``)."""
        attacks, turn_steps = [0, 0], ([], [])
        for seat, move in enumerate(moves):
            player = self.players[seat]
            if isinstance(move, str):
                player.end = f"fault:{move}"
                continue
            fire, (x, rotation) = player.well.fire, move
            try:
                rotated = check_move(self.pack_of(seat), self.params, x, rotation)
            except MoveFault as fault:
                player.end = f"fault:{fault.code}"
                continue
            steps = player.well.play(rotated, x)
            turn_steps[seat].extend(steps)
            player.last_move = (x, rotation)
            attacks[seat] = sum(attack(chain, erased, fire) for chain, erased, _ in steps)
            if player.well.overflowed():
                player.end = OVERFLOW
        self.steps.append(turn_steps)
        self.turn += 1
        if any(player.end for player in self.players):
            for player in self.players:
                player.end = player.end or SURVIVED
            return
        stocks = exchange((attacks[0], attacks[1]), (self.players[0].stock, self.players[1].stock))
        for player, stock in zip(self.players, stocks, strict=True):
            player.stock = stock
        if self.turn >= self.params.N:
            for player in self.players:
                player.end = CLEAR
            return
        self._inserted = [self._insert(0), self._insert(1)]

    def ranks(self) -> list[int]:
        """Each player's rank (7.2): the only one still playing wins; otherwise the higher score; a draw shares 1."""
        ended = [player.end not in ("", CLEAR, SURVIVED) for player in self.players]
        if ended[0] != ended[1]:
            return [2, 1] if ended[0] else [1, 2]
        first, second = (player.well.score for player in self.players)
        return [1, 1] if first == second else [1, 2] if first > second else [2, 1]

    def record(self, seat: int) -> dict[str, int | str]:
        """A player's result record (7.2): score, max_chain, turns, fc, end and its final stock."""
        player = self.players[seat]
        well = player.well
        return {
            "score": well.score,
            "max_chain": well.max_chain,
            "turns": well.turns,
            "fc": well.fire,
            "end": player.end,
            "stock": player.stock,
        }
