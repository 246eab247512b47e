"""An adaptive league's batches: a warm-up of every pair, then batches decided from completed ones, in order.

Batch 0, the warm-up, gives every pair of bots ``warmup_units`` units (seat-swapped pairs of games
on one seed). Batches are taken in order, each once all its units are in; when batch ``k`` is
taken, the league either stops (its ranking is settled: ``league.stats.active_ranking``) or plans
batch ``k + 2`` from batches ``0..k``, counting batch ``k + 1``'s units as planned. So one batch is
always planned beyond the one being finished, and workers never wait at a batch's end for the next
to be decided; yet every batch is a function of completed batches alone, so the same league and
seed plan the same batches whatever the number of workers or the order games finish in, and a
resumed league plans what it would have planned unstopped. Batch 1 and 2 are both planned from the
warm-up. Units of batches planned beyond the one where the league stopped (in flight when it
stopped) are stored but count for nothing. ``max_units`` caps all batches together: the last is cut
to fit, and the league stops, unsettled, when every unit it may play has been taken.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from league.stats.active_ranking import ActiveRanking, Claim, Pair

Batch = dict[Pair, int]
"""Units per pair."""


@dataclass(frozen=True)
class AdaptiveSettings:
    """How an adaptive league plays and when it stops.

    Attributes:
        confidence: The chance that every claim it makes is right.
        tie_elo: Neighbours proven within this many Elo of each other are declared tied.
        warmup_units: Units every pair plays first.
        batch_units: Units per batch after the warm-up, at the least (a batch grows to a tenth of
            the units planned before it).
        max_units: Units in all, warm-up included.
    """

    confidence: float = 0.95
    tie_elo: float = 20.0
    warmup_units: int = 1
    batch_units: int = 20
    max_units: int = 10_000


BATCH_GROWTH = 0.1
"""A batch holds at least this share of the units planned before it: few batches however long the league."""

STOP_SETTLED = "settled"
STOP_CAPPED = "capped"
STOP_REPEATED = "repeated"
"""Stopped without a claim: most units repeated earlier ones (``league.plan.adaptive.take_batch``)."""


class AdaptiveBatches:
    """The batches of an adaptive league over bots ``bots``, fed each batch's units in order.

    Args:
        bots: The league's bots in its order.
        settings: Its settings.
    """

    def __init__(self, bots: Sequence[str], settings: AdaptiveSettings) -> None:
        self.settings = settings
        self.ranking = ActiveRanking(bots, settings.confidence, settings.tie_elo)
        warmup = dict.fromkeys(itertools.combinations(bots, 2), settings.warmup_units)
        self.batches: list[Batch] = [warmup]
        self.taken = 0
        self.stop: str | None = None
        self.open_after: list[int] = []
        """Per batch taken, how many pairs of neighbours were still open after it (the settling chart)."""

    @property
    def planned_units(self) -> int:
        """Units of every batch planned so far."""
        return sum(sum(batch.values()) for batch in self.batches)

    @property
    def counted_units(self) -> int:
        """Units of the batches taken (those the league's claims rest on)."""
        return sum(sum(batch.values()) for batch in self.batches[: self.taken])

    def take(self, units: Mapping[Pair, Iterable[float]]) -> list[Batch]:
        """Take the next batch's unit scores (per pair, its first bot's); the batches this lets it plan.

        Raises:
            ValueError: The league has stopped.
        """
        if self.stop is not None:
            raise ValueError(f"the league has stopped ({self.stop})")
        self.ranking.take(units)
        self.taken += 1
        self.open_after.append(sum(n.claim is Claim.OPEN for n in self.ranking.claims()))
        if self.ranking.settled:
            self.stop = STOP_SETTLED
            return []
        planned = []
        while len(self.batches) < self.taken + 2:
            batch = self._plan()
            if not batch:
                break
            self.batches.append(batch)
            planned.append(batch)
        if self.taken == len(self.batches):
            self.stop = STOP_CAPPED
        return planned

    def _plan(self) -> Batch:
        """The next batch from the batches taken, counting units planned and not taken (none past the cap)."""
        room = self.settings.max_units - self.planned_units
        if room <= 0:
            return {}
        pending: dict[Pair, int] = {}
        for batch in self.batches[self.taken :]:
            for pair, count in batch.items():
                pending[pair] = pending.get(pair, 0) + count
        size = max(self.settings.batch_units, math.ceil(BATCH_GROWTH * self.planned_units))
        return self.ranking.next_batch(min(size, room), pending)
