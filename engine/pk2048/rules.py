"""pk2048: PK2048, two players on one shared 4x4 2048 board (engine/pk2048/README.md).

The rules in short:

* One board, cells 1..16 in reading order; every game starts with 2 4 / 4 2 on cells 6 7 10 11.
  Players alternate; each keeps an own score (0 at the start of every game).
* An answer ``I B D`` is one operation: a plain slide ``0 0 D`` (D: 1 up, 2 right, 3 down,
  4 left), a bomb + slide ``0 B D`` (cell B, which must hold a tile, is emptied first; once per
  game) or an interference ``I 0 0`` (a 2 on empty cell I instead of sliding; once per game).
  A slide must change the board; each merge scores its new value for the mover. A random tile
  (2, or 4 with ``four_probability``) spawns on a random empty cell after every slide, never
  after an interference.
* Before a player is asked: a stuck board (no slide changes it) ends the game
  ``NO_LEGAL_OPERATION`` if that player's bomb is used (higher score wins, a tie loses for the
  stuck player); with its bomb unused the player must bomb. A tile of ``target_tile`` after an
  operation ends the game ``REACHED_TARGET_TILE`` (higher score wins, a tie goes to its maker).
* A fault (timeout, crash, malformed answer, broken rule; codes of section 6) loses that game
  at once, whatever the scores. There are no draws.
* A match is the best of ``games_per_match`` (3) games with fresh bot processes every game;
  the first player of game 1 is ``first_player`` (a seeded coin by default), then it alternates.
  Play stops once a seat has won a majority unless ``play_all_games``.

The match result, as we report it (our choice, the rules define only the per-game record):

* ``scores`` are the games won per seat; ``ranks`` follow the match winner (never a draw).
* ``termination``, ``reason_code`` and ``detail`` are those of the deciding game: the game in
  which the winner took its deciding win (without ``play_all_games`` that is the last game).
  A fault that lost an earlier game is not the match's termination, since the match went on.
* ``offenders`` names the faulting seat only when a fault decided the match.
* ``extra["games"]`` holds every game's record (section 5): ``winner``, ``first``, ``reason``,
  ``decided_by``, ``scores``, ``operations``, ``termination``, ``offender`` (the faulting seat
  or None), ``detail`` and the ``final_board`` in values.

An interference or a bomb is judged on the board as it is when the answer comes (cell 6 is
occupied at the start position, empty on other boards).

This module holds the pure rules on exponent boards (see engine/slide.py); the match state that
the referee drives is in engine/pk2048/match.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.slide import Board, SlideOutcome, square

GEOMETRY = square(4)
CELLS = 16
START_BOARD: Board = (0, 0, 0, 0, 0, 1, 2, 0, 0, 2, 1, 0, 0, 0, 0, 0)
"""The start position in exponents: 2 4 on cells 6 7, 4 2 on cells 10 11."""

SLIDE_LETTERS = {1: "U", 2: "R", 3: "D", 4: "L"}
DIRECTION_NAMES = {1: "up", 2: "right", 3: "down", 4: "left"}

# Game ends (section 5).
REACHED_TARGET_TILE = "REACHED_TARGET_TILE"
NO_LEGAL_OPERATION = "NO_LEGAL_OPERATION"
# Faults (section 6.1).
TIMEOUT = "TIMEOUT"
CRASH = "CRASH"
PRESENTATION_ERROR = "PRESENTATION_ERROR"
INTERFERENCE_ALREADY_USED = "INTERFERENCE_ALREADY_USED"
BOMB_ALREADY_USED = "BOMB_ALREADY_USED"
ILLEGAL_COMBINATION = "ILLEGAL_COMBINATION"
INVALID_INTERFERENCE_CELL = "INVALID_INTERFERENCE_CELL"
INVALID_BOMB_CELL = "INVALID_BOMB_CELL"
INVALID_MOVE = "INVALID_MOVE"

DECIDED_BY_SCORE = "score"
DECIDED_BY_TIEBREAK = "tiebreak"
DECIDED_BY_FAULT = "fault"


@dataclass(frozen=True)
class Operation:
    """An answer ``I B D`` as the three integers sent (range checks belong to the rules).

    Attributes:
        interference: Cell for the interference, or 0.
        bomb: Cell to bomb before the slide, or 0.
        direction: 1 up, 2 right, 3 down, 4 left; 0 only with an interference.
    """

    interference: int
    bomb: int
    direction: int

    def __str__(self) -> str:
        return f"{self.interference} {self.bomb} {self.direction}"


@dataclass(frozen=True)
class Observation:
    """The state line of section 7.3, typed, plus what a bot can tell from the lines it received.

    Attributes:
        player: 1 for the first player of this game, 2 for the second (the seat line).
        spawn_cell: Where a tile spawned after the previous operation, 0 if none.
        spawn_value: That tile's value (2 or 4), 0 if none.
        opp_interference: Cell of the opponent's interference in its previous operation, else 0.
        opp_bomb: Cell the opponent bombed in its previous operation, else 0.
        opp_move: Direction of the opponent's previous slide, 0 if it interfered (or nothing yet).
        board: The board to act on, 16 cells as exponents (0 empty, e a tile of 2**e).
        my_score: The receiver's score in this game.
        opp_score: The other player's score in this game.
        my_interference_used: Whether the receiver already interfered in this game.
        my_bomb_used: Whether the receiver already bombed in this game.
        opp_interference_used: Whether the opponent already interfered in this game.
        opp_bomb_used: Whether the opponent already bombed in this game.
    """

    player: int
    spawn_cell: int
    spawn_value: int
    opp_interference: int
    opp_bomb: int
    opp_move: int
    board: Board
    my_score: int
    opp_score: int
    my_interference_used: bool = False
    my_bomb_used: bool = False
    opp_interference_used: bool = False
    opp_bomb_used: bool = False


@dataclass(frozen=True)
class Violation:
    """A rule an operation breaks: the code of section 6.1 and what was wrong, for people."""

    code: str
    what: str


def value_of(exponent: int) -> int:
    """The tile value of an exponent (0 stays 0)."""
    return 1 << exponent if exponent else 0


def exponent_of(value: int) -> int:
    """The exponent of a tile value (0 stays 0).

    Raises:
        ValueError: The value is not 0 or a power of two from 2 up.
    """
    if value == 0:
        return 0
    if value < 2 or value & (value - 1):
        raise ValueError(f"{value} is not a tile value (0 or a power of two from 2 up)")
    return value.bit_length() - 1


def is_stuck(board: Board) -> bool:
    """Whether no slide changes the board (all cells full, no equal orthogonal neighbours)."""
    return not GEOMETRY.can_move(board)


def slide(board: Board, direction: int) -> SlideOutcome:
    """Slide the board in a direction code 1..4."""
    return GEOMETRY.slide(board, SLIDE_LETTERS[direction])


def with_cell(board: Board, cell: int, exponent: int) -> Board:
    """The board with 1-based ``cell`` set to ``exponent``."""
    return board[: cell - 1] + (exponent,) + board[cell:]


def empty_cells(board: Board) -> list[int]:
    """The empty cells, 1-based, increasing."""
    return [i + 1 for i, exponent in enumerate(board) if exponent == 0]


def shown(number: int) -> str:
    """A number for a detail sentence; huge ones are not spelled out."""
    return str(number) if abs(number) < 10**9 else ("-" if number < 0 else "") + "(a huge number)"


def _listing(cells: list[int]) -> str:
    return ", ".join(map(str, cells)) if cells else "none"


def _working_directions(board: Board) -> list[int]:
    return [d for d in SLIDE_LETTERS if slide(board, d).changed(board)]


def find_violation(board: Board, operation: Operation, interference_used: bool, bomb_used: bool) -> Violation | None:
    """Judge an operation in the order of section 6.2 (steps 3 to 5).

    Args:
        board: The board the player acts on (exponents).
        operation: The answer.
        interference_used: Whether the player already interfered in this game.
        bomb_used: Whether the player already bombed in this game.

    Returns:
        The first rule broken, or None for a legal operation.
    """
    i, b, d = operation.interference, operation.bomb, operation.direction
    if i != 0:
        if interference_used:
            return Violation(
                INTERFERENCE_ALREADY_USED,
                f"interference on cell {shown(i)}, but this player already interfered in this game "
                "(one interference per game; slide with '0 0 D')",
            )
        if b != 0 or d != 0:
            return Violation(
                ILLEGAL_COMBINATION,
                f"an interference on cell {shown(i)} combined with a {'bomb' if b else 'slide'}; "
                f"an interference is the whole turn: answer '{shown(i)} 0 0'",
            )
        if not 1 <= i <= CELLS:
            return Violation(INVALID_INTERFERENCE_CELL, f"interference cell {shown(i)} is not in 1..16")
        if board[i - 1]:
            return Violation(
                INVALID_INTERFERENCE_CELL,
                f"interference cell {i} holds a {value_of(board[i - 1])}; empty cells: {_listing(empty_cells(board))}",
            )
        return None
    bombed = ""
    if b != 0:
        if bomb_used:
            return Violation(
                BOMB_ALREADY_USED,
                f"bomb on cell {shown(b)}, but this player already bombed in this game (one bomb per game)",
            )
        if d == 0:
            return Violation(
                ILLEGAL_COMBINATION,
                f"bomb on cell {shown(b)} without a slide; a bomb needs a direction 1..4 in the same answer, "
                f"e.g. '0 {shown(b)} 1'",
            )
        if not 1 <= b <= CELLS:
            return Violation(INVALID_BOMB_CELL, f"bomb cell {shown(b)} is not in 1..16")
        if board[b - 1] == 0:
            occupied = [cell for cell in range(1, CELLS + 1) if board[cell - 1]]
            return Violation(
                INVALID_BOMB_CELL,
                f"bomb cell {b} is empty; a bomb must name a cell holding a tile (occupied: {_listing(occupied)})",
            )
        board = with_cell(board, b, 0)
        bombed = f" after the bomb on cell {b}"
    if not 1 <= d <= 4:
        need = "a slide is required" if b else "without an interference a slide is required"
        return Violation(INVALID_MOVE, f"direction {shown(d)} is not 1 (up), 2 (right), 3 (down) or 4 (left); {need}")
    if not slide(board, d).changed(board):
        working = [f"{code} ({DIRECTION_NAMES[code]})" for code in _working_directions(board)]
        hint = ", ".join(working) if working else "none, the board is stuck (only a bomb can free it)"
        return Violation(
            INVALID_MOVE, f"slide {d} ({DIRECTION_NAMES[d]}) changes nothing{bombed}; slides that change it: {hint}"
        )
    return None


def perform(board: Board, operation: Operation) -> tuple[Board, int]:
    """Execute a legal operation without its spawn: the new board and the mover's gain."""
    if operation.interference:
        return with_cell(board, operation.interference, 1), 0
    if operation.bomb:
        board = with_cell(board, operation.bomb, 0)
    outcome = slide(board, operation.direction)
    return outcome.board, outcome.gain


def legal_operations(board: Board, interference_used: bool, bomb_used: bool) -> list[tuple[Operation, Board, int]]:
    """Every legal operation with its board after the operation (before any spawn) and its gain.

    Order: plain slides (directions 1..4), then interferences (cells increasing), then bombs
    (cells increasing, directions 1..4).
    """
    found = []
    for d, letter in SLIDE_LETTERS.items():
        outcome = GEOMETRY.slide(board, letter)
        if outcome.board != board:
            found.append((Operation(0, 0, d), outcome.board, outcome.gain))
    if not interference_used:
        for cell in empty_cells(board):
            found.append((Operation(cell, 0, 0), with_cell(board, cell, 1), 0))
    if not bomb_used:
        for cell in range(1, CELLS + 1):
            if board[cell - 1]:
                bombed = with_cell(board, cell, 0)
                for d, letter in SLIDE_LETTERS.items():
                    outcome = GEOMETRY.slide(bombed, letter)
                    if outcome.board != bombed:
                        found.append((Operation(0, cell, d), outcome.board, outcome.gain))
    return found
