"""Which games a league plays: pure functions, no Ray, no I/O.

Games come in pairs that share one seed with the seats swapped, so a first-seat advantage
cancels out; every variant is played on the same seeds, so variants compare like with like.
A game's id is a hash of the league, the variant, the pairing, the round and the seat order:
the same config always gives the same ids, whatever runs them.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from engine.core import derive_seed


@dataclass(frozen=True)
class GameSpec:
    """One match to play, as it crosses the wire to a worker.

    Attributes:
        game_id: Deterministic id (hex).
        index: Position in the schedule (ratings are applied in this order).
        league: The league's name.
        variant: The variant's name.
        seats: Bot names, seat 0 first.
        seed: The match seed (below 2**63), shared by the seat-swapped twin and by every variant.
        round: Which repetition of the pairing this is (0-based pair of games).
    """

    game_id: str
    index: int
    league: str
    variant: str
    seats: tuple[str, ...]
    seed: int
    round: int

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        data = asdict(self)
        data["seats"] = list(self.seats)
        return data


def game_id(
    league: str, variant: str, pairing: Sequence[str], round_: int, seats: Sequence[str], content: str = ""
) -> str:
    """The id of one game: a hash of what makes it that game.

    Args:
        league: The league's name.
        variant: The variant's name.
        pairing: The bots that meet.
        round_: Which repetition of the pairing.
        seats: The seat order.
        content: What the names stand for (variant parameters, bot specs, seed, limits), so a
            changed config gives new games instead of reusing stored ones.
    """
    text = "\x1f".join([league, variant, ",".join(sorted(pairing)), str(round_), ",".join(seats), content])
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _pair_games(
    league: str,
    seed: int,
    variants: Sequence[str],
    pairings: Sequence[tuple[str, str]],
    games_per_pair: int,
    fingerprints: Mapping[str, str],
) -> list[GameSpec]:
    games: list[GameSpec] = []
    for game_number in range(games_per_pair):
        round_, swapped = divmod(game_number, 2)
        for pairing in pairings:
            key = ",".join(sorted(pairing))
            match_seed = derive_seed(seed, "match", key, round_)
            # Odd rounds open with the other seat first, so an odd games_per_pair stays balanced overall.
            first_first = (round_ % 2 == 0) != bool(swapped)
            seats = pairing if first_first else (pairing[1], pairing[0])
            for variant in variants:
                content = "|".join([str(seed), *(fingerprints.get(name, "") for name in (variant, *pairing))])
                games.append(
                    GameSpec(
                        game_id=game_id(league, variant, pairing, round_, seats, content),
                        index=len(games),
                        league=league,
                        variant=variant,
                        seats=tuple(seats),
                        seed=match_seed,
                        round=round_,
                    )
                )
    return games


def round_robin(
    league: str,
    bots: Sequence[str],
    variants: Sequence[str],
    games_per_pair: int,
    seed: int,
    fingerprints: Mapping[str, str] | None = None,
) -> list[GameSpec]:
    """Every pair of bots meets ``games_per_pair`` times per variant, seats swapped inside each pair.

    Args:
        league: The league's name (part of every game id).
        bots: Bot names.
        variants: Variant names.
        games_per_pair: Games each pair plays per variant.
        seed: The league seed.
        fingerprints: Per bot and variant name, a digest of what it stands for (part of the ids).
    """
    pairings = list(itertools.combinations(bots, 2))
    return _pair_games(league, seed, variants, pairings, games_per_pair, fingerprints or {})


def gauntlet(
    league: str,
    candidates: Sequence[str],
    field: Sequence[str],
    variants: Sequence[str],
    games_per_pair: int,
    seed: int,
    fingerprints: Mapping[str, str] | None = None,
) -> list[GameSpec]:
    """Each candidate plays each bot of the field (not each other), like a round robin's pairs."""
    pairings = [(candidate, opponent) for candidate in candidates for opponent in field if opponent != candidate]
    return _pair_games(league, seed, variants, pairings, games_per_pair, fingerprints or {})
