"""A new version's validation: a game against a built-in in the jail, and the queue that plays them in order.

``validate`` plays the league's game (its first variant) against ``contest.validate_against`` (by
default the game's ``greedy``): the version seated first, then, if that game went well, a second
game with the seats swapped (a bot that only works as the first player would fault in half its
league games). It runs as ``league play`` runs a program (``league.match.players.make_launcher``,
``league.match.referee.play_match``) under the league's own sandbox, limits and clock, from its
version's folder, which its jail shows whole and read-only (``own_folder``): no league file, no store,
no database, no other version, and (the jail's network being its own loopback) no port of the server.
The games' seeds come from the version's digest, never from the league's secret seed.

A fault of the version's seat (a crash, a timeout, bad output, an illegal move) refuses it: the
fault is the record's detail sentence; its stderr (each game's tail, under a line naming the game
and its seat) is kept either way, shown only to its author and the organiser.

``ValidationQueue`` is one daemon thread that takes the queued submissions in order
(``league.store.submissions.next_queued``), validates each, records the outcome and calls
``on_valid`` for a valid one. Its ``start`` is the contest's start-up for submissions: what killed
uploads left is swept (``league.contest.submit.sweep_leftovers``) and what a killed server was
validating is queued again (``requeue_interrupted``), so it is validated again, whole.
"""

from __future__ import annotations

import sys
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass

from engine.core import Game, Termination
from league.contest.submit import outside_word, sweep_leftovers
from league.match.bot_spec import BotSpec, BotSpecError, parse_bot_argument
from league.match.players import check_program_access, make_launcher
from league.match.record import ClockSettings, MatchRecord
from league.match.referee import play_match
from league.plan.config import League
from league.store.authors import AuthorError
from league.store.submissions import Status, Submission, finish_validation, next_queued, requeue_interrupted
from sandbox.jail import Sandbox
from sandbox.limits import SandboxMode

POLL_S = 5.0
"""How often the queue looks for submissions when nobody told it of one (another process may have added it)."""
MAX_STDERR = 16 * 1024
"""The most of a validation's stderr kept (each game's tail is a few KB already)."""


@dataclass(frozen=True)
class ValidationOutcome:
    """What a validation found.

    Attributes:
        ok: The version played without a fault of its own.
        fault: Why it is refused (the game record's detail sentence), or "".
        stderr: What it wrote to stderr in its validation games, each under a line naming the game.
    """

    ok: bool
    fault: str = ""
    stderr: str = ""


def validate(league: League, submission: Submission) -> ValidationOutcome:
    """Play ``submission``'s validation games against the contest's built-in and judge them.

    Raises:
        SandboxError: No jail can be made here (the server's problem, not the version's).
    """
    config = league.config
    game = next(iter(league.games.values()))
    opponent = parse_bot_argument(type(game), config.contest.opponent(config.game))
    spec = version_spec(game, submission)
    limits = config.limits.model_copy(
        update={"read_only": tuple(config.limits.read_only) + tuple(league.sandbox_read_only)}
    )
    sandbox = Sandbox(SandboxMode(config.sandbox.mode), limits)
    outside = outside_word(submission.command)
    if outside is not None:  # the upload's own check, again: a path it names would be shown in the jail
        sentence = f"its command names {outside!r}, outside its folder: name only its own files"
        return ValidationOutcome(False, sentence, "")
    try:
        check_program_access(spec, sandbox)
    except BotSpecError as error:
        return ValidationOutcome(False, str(error).removeprefix(f"bot {spec.name!r}: "), "")
    counts = game.seat_counts()
    seats = 2 if 2 in counts else counts[0]
    clock = ClockSettings(kind=config.clock, margin_ms=config.time_margin_ms, game_wall_s=config.limits.wall_seconds)
    seed = int(submission.digest[:15], 16)
    stderr: list[str] = []
    for number, seat in enumerate(dict.fromkeys((0, seats - 1)), start=1):
        specs = [opponent] * seats
        specs[seat] = spec
        launchers = [make_launcher(game, bot, index, seed + number, sandbox) for index, bot in enumerate(specs)]
        record = play_match(game, launchers, seed + number, clock)
        tails = [tail.text for tail in record.stderr if tail.seat == seat]
        if tails:
            stderr.append(f"validation game {number}, your bot in seat {seat} against {opponent.builtin}:\n")
            stderr += [text if text.endswith("\n") else text + "\n" for text in tails]
        fault = seat_fault(record, seat)
        if fault is not None:
            return ValidationOutcome(False, fault, _capped("".join(stderr)))
    return ValidationOutcome(True, "", _capped("".join(stderr)))


def version_spec(game: Game, submission: Submission) -> BotSpec:
    """A version as the bot that plays: its command, run in its own folder (shown whole and read-only)."""
    side = BotSpec(
        name=submission.author, command=tuple(submission.command), cwd=str(submission.folder), own_folder=True
    )
    roles = type(game).roles
    if len(roles) > 1:  # one command plays every role
        return BotSpec(name=submission.author, roles={role: side for role in roles})
    return side


def seat_fault(record: MatchRecord, seat: int) -> str | None:
    """The detail sentence of ``seat``'s fault in the match (one of a best of three's games too), or None.

    Raises:
        RuntimeError: The match failed on our side (``INFRA_ERROR``): no verdict on the bot.
    """
    result = record.result
    if result.termination == Termination.INFRA_ERROR:
        raise RuntimeError(result.detail or "the referee failed")
    for fault in result.faults:
        if fault.seat == seat:
            return fault.detail or f"seat {seat} faulted ({fault.termination.value})"
    faulted = next((move for move in record.moves if move.seat == seat and move.fault), None)
    if faulted is not None:
        return f"seat {seat} faulted ({faulted.fault}) in one of the match's games"
    return None


def _capped(text: str) -> str:
    return text if len(text) <= MAX_STDERR else "...\n" + text[-MAX_STDERR:]


class ValidationQueue:
    """Validates the contest's queued submissions one at a time, in order, in a daemon thread.

    Args:
        league: The contest's league (its folder holds the database; its game, sandbox and limits are played).
        on_valid: Called (from the queue's thread) with each submission found valid, as stored.
        check: How a submission is validated (``validate``; a test may give another).
    """

    def __init__(
        self,
        league: League,
        on_valid: Callable[[Submission], None],
        check: Callable[[League, Submission], ValidationOutcome] = validate,
    ) -> None:
        self.league = league
        self.on_valid = on_valid
        self.check = check
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Sweep what killed uploads left, queue again what a killed server was validating, then start the thread."""
        folder = self.league.output
        sweep_leftovers(folder)
        requeue_interrupted(folder)
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="contest-validation", daemon=True)
        self._thread.start()

    def notify(self) -> None:
        """A submission arrived: look now, not at the next poll."""
        self._wake.set()

    def stop(self, wait_s: float | None = None) -> None:
        """Stop taking submissions; wait up to ``wait_s`` (None: as long as it takes) for a game in flight to end.

        A validation cut short by the process's exit is played again at the next start.
        """
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(wait_s)

    def _run(self) -> None:
        folder = self.league.output
        while not self._stopping.is_set():
            try:
                submission = next_queued(folder)
            except AuthorError as error:
                print(f"league: validation queue: {error}", file=sys.stderr)
                submission = None
            if submission is None:
                self._wake.wait(POLL_S)
                self._wake.clear()
                continue
            try:
                outcome = self.check(self.league, submission)
            except Exception as error:  # noqa: BLE001 - ours, never the bot's: said to its author
                outcome = ValidationOutcome(
                    False,
                    "The validation game could not be played, a failure of the server and not of the bot"
                    f" ({type(error).__name__}: {error}): tell the organiser.",
                )
            try:
                done = finish_validation(folder, submission.id, outcome.ok, outcome.fault, outcome.stderr)
            except (AuthorError, KeyError) as error:
                print(f"league: validation queue: submission {submission.id}: {error}", file=sys.stderr)
                continue
            if done.status == Status.VALID:
                try:
                    self.on_valid(done)
                except Exception:  # noqa: BLE001 - the listener's bug must not stop the queue
                    traceback.print_exc()
