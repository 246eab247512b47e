"""codevs21 field: dropping, gravity, summing runs in four directions, chains and scores.

Rules (rules/codevs21.md sections 4-6): a rotated pack drops into the well; every straight run
of touching number blocks (horizontal, vertical, both diagonals) adding up to exactly S is erased
at once, with the obstruction blocks next to any erased cell (8-neighbourhood); blocks above fall
and may make new runs (a chain). A step that erases E blocks (each run's length counted, runs may
overlap, plus the obstruction) at chain step C scores ``2^min(q, P) * max(1, q - P + 1) * C``
with q = E // 3. The turn's raw points are multiplied by the fire count Fc + 1 (Fc from before
the turn), and a raw score of at least Th raises Fc by one. Integers only: scores pass 2^53.

The field is kept as W gap-free columns, bottom first. Before a turn the field holds no run, so
a step only looks at the lines through blocks that moved (were dropped or fell): a run made only
of unmoved blocks would have been erased already.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.codevs21.packs import Pack, Params

Cell = tuple[int, int]
Step = tuple[int, int, int]
"""One erase step: (chain step C, blocks erased E, its score)."""


def step_score(erased: int, chain: int, cap: int) -> int:
    """The score of one erase step (6.1)."""
    q = erased // 3
    return 2 ** min(q, cap) * max(1, q - cap + 1) * chain


def attack(chain: int, erased: int, fire: int) -> int:
    """Obstruction sent for one erase step in versus: floor(log2 C * (E // 3) * (Fc // 10 + 1)) (6.3)."""
    k = erased // 3 * (fire // 10 + 1)
    return 0 if chain == 1 or k == 0 else pow(chain, k).bit_length() - 1


@dataclass
class Field:
    """One player's well and record.

    Attributes:
        params: The game's numbers.
        columns: Per column its blocks, bottom first (no gaps).
        score: Points so far (an exact integer).
        fire: The fire count Fc.
        max_chain: The longest chain of any turn.
        turns: Moves applied.
    """

    params: Params
    columns: list[list[int]] = field(default_factory=list)
    score: int = 0
    fire: int = 0
    max_chain: int = 0
    turns: int = 0

    def __post_init__(self) -> None:
        if not self.columns:
            self.columns = [[] for _ in range(self.params.W)]

    def copy(self) -> Field:
        """An independent copy, to try moves on."""
        columns = [column[:] for column in self.columns]
        return Field(self.params, columns, self.score, self.fire, self.max_chain, self.turns)

    def overflowed(self) -> bool:
        """Whether a block rests at row H or above (7.1)."""
        return any(len(column) > self.params.H for column in self.columns)

    def play(self, rotated: Pack, x: int) -> list[Step]:
        """Drop a rotated pack with its leftmost column at ``x`` and resolve the turn (4.1).

        The move must be legal (``legal_positions``). Updates the score, fire count, max chain
        and turns; returns the turn's erase steps.
        """
        side, params = self.params.T, self.params
        moved: set[Cell] = set()
        for c in range(side):
            for r in range(side - 1, -1, -1):  # the pack's bottom row lands first
                value = rotated[r * side + c]
                if value:
                    column = self.columns[x + c]
                    moved.add((x + c, len(column)))
                    column.append(value)
        steps: list[Step] = []
        while moved:
            runs = self._runs(moved)
            if not runs:
                break
            chain = len(steps) + 1
            erased, count = self._erase(runs)
            steps.append((chain, count, step_score(count, chain, params.P)))
            moved = self._settle(erased)
        raw = sum(score for _, _, score in steps)
        self.score += raw * (self.fire + 1)
        if raw >= params.Th:
            self.fire += 1
        self.max_chain = max(self.max_chain, len(steps))
        self.turns += 1
        return steps

    def _value(self, x: int, y: int) -> int:
        column = self.columns[x]
        return column[y] if y < len(column) else 0

    def _lines(self, moved: set[Cell]) -> list[list[Cell]]:
        """Every line through a moved block, each once, as its cells that can hold blocks, in order."""
        width, height = self.params.W, max(len(column) for column in self.columns)
        keys = {key for x, y in moved for key in ((0, y), (1, x), (2, x - y), (3, x + y))}
        lines = []
        for kind, key in keys:
            if kind == 0:  # a row
                lines.append([(x, key) for x in range(width)])
            elif kind == 1:  # a column
                lines.append([(key, y) for y in range(len(self.columns[key]))])
            elif kind == 2:  # up-right: x - y is constant
                lines.append([(x, x - key) for x in range(max(0, key), min(width, height + key))])
            else:  # down-right: x + y is constant
                lines.append([(x, key - x) for x in range(max(0, key - height + 1), min(width, key + 1))])
        return lines

    def _runs(self, moved: set[Cell]) -> list[list[Cell]]:
        """Every summing run on a line through a moved block (section 5: every window counts)."""
        target, columns, runs = self.params.S, self.columns, []
        for line in self._lines(moved):
            values = [columns[x][y] if y < len(columns[x]) else 0 for x, y in line]
            start, total = 0, 0
            for end, value in enumerate(values):
                if not 0 < value < target:  # a gap, an obstruction (or a lone S): the run breaks
                    start, total = end + 1, 0
                    continue
                total += value
                while total > target:
                    total -= values[start]
                    start += 1
                if total == target:
                    runs.append(line[start : end + 1])
        return runs

    def _erase(self, runs: list[list[Cell]]) -> tuple[set[Cell], int]:
        """The cells the runs erase (their blocks and the obstruction beside them), and E (section 5)."""
        marked = {cell for run in runs for cell in run}
        obstruction = self.params.obstruction
        beside = {
            (x + dx, y + dy)
            for x, y in marked
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if 0 <= x + dx < self.params.W and y + dy >= 0 and self._value(x + dx, y + dy) == obstruction
        }
        return marked | beside, sum(len(run) for run in runs) + len(beside)

    def _settle(self, erased: set[Cell]) -> set[Cell]:
        """Remove ``erased`` and let the blocks above fall; returns the cells of the blocks that moved."""
        moved: set[Cell] = set()
        for x in {x for x, _ in erased}:
            column = self.columns[x]
            lowest = min(y for cx, y in erased if cx == x)
            kept = [value for y, value in enumerate(column) if (x, y) not in erased]
            self.columns[x] = kept
            moved.update((x, y) for y in range(lowest, len(kept)))
        return moved
