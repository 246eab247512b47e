"""A Swiss league's standings after its rounds: each bot's score, whom it met, its seats, its byes; the tie-breaks.

A bot's score is its points from its games, 1 a win, 1/2 a draw, 0 a loss (``league.stats.sprt.game_points``:
a faulted seat loses), summed over its rounds. A bye scores a win of every game of its round
(``games_per_round`` points), as a pairing-allocated bye scores a win in FIDE's Dutch system.

The tie-breaks, both over the final scores:

* Buchholz: the sum of the scores of the opponents it met, one term a meeting (a repeated pairing
  counts twice); a bye adds nothing. Whole, not cut: no opponent's score is dropped.
* Sonneborn-Berger: the sum, over its meetings, of its points in the meeting times that opponent's
  score: beating strong bots weighs more than beating weak ones. A bye adds nothing.

The final order: score, then Buchholz, then Sonneborn-Berger, then the league's draw order (the
seeded order of ``swiss.seeding``), so no two bots share a place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Meeting:
    """One pairing of a round and its result.

    Attributes:
        seats: The two bots, the one that sat first in the round's first game first.
        points: Each one's points from the round's games, in ``seats`` order.
        first_seats: How many of the round's games each sat first in, in ``seats`` order.
    """

    seats: tuple[str, str]
    points: tuple[float, float]
    first_seats: tuple[int, int]


@dataclass(frozen=True)
class PlayedRound:
    """One round played: its meetings and the bot that sat out (None for an even field)."""

    meetings: tuple[Meeting, ...]
    bye: str | None = None


@dataclass(frozen=True)
class Standing:
    """One bot after some rounds.

    Attributes:
        score: Its points, byes included.
        met: Each meeting, in order: the opponent and its own points in it.
        firsts: Games it sat first in.
        seconds: Games it sat second in.
        byes: Rounds it sat out.
    """

    score: float = 0.0
    met: tuple[tuple[str, float], ...] = ()
    firsts: int = 0
    seconds: int = 0
    byes: int = 0

    @property
    def opponents(self) -> tuple[str, ...]:
        """The opponents it met, in order (one a meeting)."""
        return tuple(opponent for opponent, _ in self.met)

    @property
    def seat_lean(self) -> int:
        """Games it sat first in less those it sat second in: above 0, it is owed a second seat."""
        return self.firsts - self.seconds


@dataclass(frozen=True)
class TieBreaks:
    """A bot's place figures: score, Buchholz, Sonneborn-Berger."""

    bot: str
    score: float
    buchholz: float
    sonneborn_berger: float


@dataclass
class _Tally:
    score: float = 0.0
    met: list[tuple[str, float]] = field(default_factory=list)
    firsts: int = 0
    seconds: int = 0
    byes: int = 0


def standings(bots: Sequence[str], rounds: Sequence[PlayedRound], games_per_round: int) -> dict[str, Standing]:
    """Every bot's standing after ``rounds``.

    Args:
        bots: The league's bots.
        rounds: The rounds played, in order.
        games_per_round: Games each pairing plays a round (a bye scores as many points).
    """
    tallies = {bot: _Tally() for bot in bots}
    for round_ in rounds:
        if round_.bye is not None:
            tallies[round_.bye].score += games_per_round
            tallies[round_.bye].byes += 1
        for meeting in round_.meetings:
            for side in (0, 1):
                tally, other = tallies[meeting.seats[side]], meeting.seats[1 - side]
                tally.score += meeting.points[side]
                tally.met.append((other, meeting.points[side]))
                tally.firsts += meeting.first_seats[side]
                tally.seconds += meeting.first_seats[1 - side]
    return {
        bot: Standing(tally.score, tuple(tally.met), tally.firsts, tally.seconds, tally.byes)
        for bot, tally in tallies.items()
    }


def tie_breaks(table: Mapping[str, Standing]) -> dict[str, TieBreaks]:
    """Each bot's score, Buchholz and Sonneborn-Berger (see the module docstring) from the standings."""
    found = {}
    for bot, standing in table.items():
        buchholz = sum(table[opponent].score for opponent, _ in standing.met)
        sonneborn_berger = sum(points * table[opponent].score for opponent, points in standing.met)
        found[bot] = TieBreaks(bot, standing.score, buchholz, sonneborn_berger)
    return found


def final_order(table: Mapping[str, Standing], draw_order: Sequence[str]) -> list[TieBreaks]:
    """The bots' figures, best first: by score, Buchholz, Sonneborn-Berger, then ``draw_order``."""
    figures = tie_breaks(table)
    place = {bot: number for number, bot in enumerate(draw_order)}
    return sorted(figures.values(), key=lambda tie: (-tie.score, -tie.buchholz, -tie.sonneborn_berger, place[tie.bot]))


def decided_by(above: TieBreaks, below: TieBreaks) -> str:
    """What puts ``above`` ahead of ``below``: "score", "Buchholz", "Sonneborn-Berger" or "the draw order"."""
    if above.score != below.score:
        return "score"
    if above.buchholz != below.buchholz:
        return "Buchholz"
    if above.sonneborn_berger != below.sonneborn_berger:
        return "Sonneborn-Berger"
    return "the draw order"
