"""codevs21 packs: parameters and cases, rotation, legal positions, the generator and pack files.

A pack is a T x T grid stored as a flat tuple, row 0 on top (cell ``c`` is row ``c // T``,
column ``c % T``). Values: 0 blank, 1 .. S-1 a number block, S+1 an obstruction block.
The generator (rules/codevs21.md section 10) uses only ``random.Random.shuffle``, in a fixed
order, so every implementation makes the same bytes from a seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

Pack = tuple[int, ...]


@dataclass(frozen=True)
class Params:
    """The numbers of one game (section 2 and 10).

    Attributes:
        W: Field width (columns).
        H: Field height (rows; a block resting at row H or above ends the game).
        T: Pack side.
        S: The target sum.
        N: Turns (packs).
        P: Score exponent cap.
        Th: Fire threshold (a turn's raw score at or over it raises the fire count).
        A: Generator: count of each small value.
        B_obs: Generator: obstruction blocks in the bag.
    """

    W: int
    H: int
    T: int
    S: int
    N: int
    P: int
    Th: int
    A: int
    B_obs: int

    def known_to_bots(self) -> Params:
        """The numbers as a bot knows them: W H T S N from its input, P and Th from the rules (not A, B_obs)."""
        return replace(self, A=0, B_obs=0)

    @property
    def obstruction(self) -> int:
        """The obstruction block's value, S + 1."""
        return self.S + 1

    def bag(self) -> list[int]:
        """The generator's blocks in ascending value order, before the shuffle (10, step 2)."""
        blocks: list[int] = []
        for value in range(1, self.S + 1):
            share = 4 * (value - 1) // self.S
            blocks += [value] * (self.A if share == 0 else 2 * self.A if share == 1 else 0)
        return blocks + [self.obstruction] * self.B_obs

    def problems(self, generating: bool) -> list[str]:
        """What makes these numbers unplayable (section 11), in sentences; empty when fine."""
        found = []
        if not self.W >= self.T >= 1:
            found.append(f"W >= T >= 1 is needed (W={self.W}, T={self.T})")
        for key, least in (("H", 1), ("S", 2), ("N", 1), ("P", 0), ("Th", 0), ("A", 0), ("B_obs", 0)):
            if getattr(self, key) < least:
                found.append(f"{key} must be at least {least}, not {getattr(self, key)}")
        if generating and not found:
            total = len(self.bag())
            if not self.N <= total <= self.N * self.T**2:
                found.append(
                    f"the generator's {total} blocks cannot fill {self.N} packs of {self.T}x{self.T}"
                    f" (N <= blocks <= N*T*T); change A, B_obs or N"
                )
        return found


CASES: dict[str, Params] = {
    "small": Params(W=10, H=16, T=4, S=10, N=1000, P=25, Th=100, A=400, B_obs=1000),
    "medium": Params(W=15, H=23, T=4, S=20, N=1000, P=30, Th=1000, A=213, B_obs=3000),
    "large": Params(W=20, H=36, T=5, S=30, N=1000, P=35, Th=10000, A=240, B_obs=7200),
}
"""The qualifier's three standard cases (section 10)."""


def rotate(pack: Pack, side: int, turns: int) -> Pack:
    """``pack`` turned ``turns`` quarter turns clockwise: new[r][c] = old[T-1-c][r] per turn (3.2)."""
    cells = pack
    for _ in range(turns % 4):
        cells = tuple(cells[(side - 1 - c) * side + r] for r in range(side) for c in range(side))
    return cells


def legal_positions(rotated: Pack, side: int, width: int) -> range:
    """The X that keep every block of a rotated pack inside columns 0 .. W-1 (3.3)."""
    columns = [c for c in range(side) if any(rotated[r * side + c] for r in range(side))]
    return range(-min(columns), width - max(columns))


def generate(params: Params, seed: int) -> list[Pack]:
    """The N packs of ``seed`` (section 10, steps 1-4)."""
    rng = random.Random(seed)
    blocks = params.bag()
    rng.shuffle(blocks)
    q, r = divmod(len(blocks), params.N)
    sizes = [q] * (params.N - r) + [q + 1] * r
    rng.shuffle(sizes)
    packs, cursor, area = [], 0, params.T * params.T
    for size in sizes:
        cells = list(range(area))
        rng.shuffle(cells)
        grid = [0] * area
        for value, cell in zip(blocks[cursor : cursor + size], cells, strict=False):
            grid[cell] = value
        cursor += size
        packs.append(tuple(grid))
    return packs


def fill_orders(seed: int, side: int, turns: int) -> list[list[int]]:
    """The versus insertion orders O_0 .. O_{N-1} of ``seed`` (section 10, step 5)."""
    rng = random.Random("codevs21-fill-" + str(seed))
    orders = []
    for _ in range(turns):
        order = list(range(side * side))
        rng.shuffle(order)
        orders.append(order)
    return orders


class PackFileError(ValueError):
    """A problem file that does not hold the game's packs; the message names what is wrong."""


def read_pack_file(text: str, params: Params) -> list[Pack]:
    """The packs of an official-format problem file (section 11), checked against ``params``.

    Raises:
        PackFileError: The header differs from the game's W H T S N, a pack is short, lacks its
            END, holds a value outside {0, 1 .. S-1, S+1} or no block at all.
    """
    words = text.split()
    header = [params.W, params.H, params.T, params.S, params.N]
    try:
        given = [int(word) for word in words[:5]]
    except ValueError:
        given = []
    if len(given) < 5:
        raise PackFileError(f"its first line must be 'W H T S N' ({' '.join(map(str, header))} for this game)")
    if given != header:
        cases = [name for name, case in CASES.items() if [case.W, case.H, case.T, case.S] == given[:4]]
        hint = f"; it is the {cases[0]} case's: set case: {cases[0]}" if cases else ""
        hint += f" and N: {given[4]}" if cases and given[4] != CASES[cases[0]].N else ""
        raise PackFileError(
            f"its first line says W H T S N = {' '.join(words[:5])}, but the game is {' '.join(map(str, header))}{hint}"
        )
    allowed = {0, params.obstruction, *range(1, params.S)}
    area, cursor, packs = params.T**2, 5, []
    for number in range(params.N):
        cells = words[cursor : cursor + area]
        end = words[cursor + area] if cursor + area < len(words) else None
        if len(cells) < area or end != "END":
            raise PackFileError(f"pack {number} is not {area} numbers followed by END")
        try:
            values = tuple(int(cell) for cell in cells)
        except ValueError:
            raise PackFileError(f"pack {number} holds something that is not a number") from None
        wrong = sorted(set(values) - allowed)
        if wrong:
            raise PackFileError(f"pack {number} holds {wrong[0]}: values are 0, 1 .. {params.S - 1} or {params.S + 1}")
        if not any(values):
            raise PackFileError(f"pack {number} holds no block")
        packs.append(values)
        cursor += area + 1
    if cursor < len(words):
        raise PackFileError(f"it holds more than the {params.N} packs its first line announces")
    return packs


def pack_lines(pack: Pack, side: int) -> str:
    """A pack as the protocol writes it: T lines of T numbers, single spaces, then END (9.1)."""
    rows = (" ".join(str(pack[r * side + c]) for c in range(side)) for r in range(side))
    return "".join(f"{row}\n" for row in rows) + "END\n"


def initial_input(params: Params, packs: Sequence[Pack], send_params: bool = False) -> str:
    """The initial input of both modes (9.1): the header line, then every pack."""
    head = [params.W, params.H, params.T, params.S, params.N] + ([params.P, params.Th] if send_params else [])
    return " ".join(map(str, head)) + "\n" + "".join(pack_lines(pack, params.T) for pack in packs)
