"""How much of each part ``benchmarks/engine_speed.py`` runs, the game lengths it plays, and its section headings."""

from __future__ import annotations

from dataclasses import dataclass

LONG_TURNS = 1000
"""``turns_per_player`` of a long versus2048 game: as long as a random game lasts."""


@dataclass(frozen=True)
class Settings:
    """How much of each part to run."""

    boards: int
    slide_runs: int
    slide_passes: int
    playout_games: int
    match_pairs: int
    round_trips: int
    round_trip_warmup: int
    scripted_matches: int


FULL = Settings(
    boards=1000,
    slide_runs=5,
    slide_passes=10,
    playout_games=200,
    match_pairs=30,
    round_trips=20000,
    round_trip_warmup=2000,
    scripted_matches=30,
)
QUICK = Settings(
    boards=200,
    slide_runs=3,
    slide_passes=5,
    playout_games=20,
    match_pairs=3,
    round_trips=3000,
    round_trip_warmup=500,
    scripted_matches=5,
)


def heading(text: str) -> None:
    print(f"\n== {text}")
