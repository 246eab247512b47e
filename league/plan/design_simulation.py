"""A league's design simulated on the strengths its organiser guesses: games needed and claims right, per format.

No game is played. Outcomes are drawn from the synthetic game's model (``engine.synthetic.model``:
BayesElo with a draw rate, a first-seat advantage and the rock-paper-scissors cycle) for the
guessed strengths, and each design decides as a league of its format decides:

* **round robin**: ``games_per_pair`` games a pair, seated as ``league.plan.schedule.PairSchedule``
  seats them; it claims its whole ranking, the Bradley-Terry fit of its games with a first-seat
  advantage (``league.stats.bradley_terry``, as the report fits two-seat games).
* **adaptive**: the league's own batches and stop (``league.plan.adaptive_batches``), fed units
  (seat-swapped pairs of games) drawn per pair as ``league.plan.adaptive_simulation`` draws them; it
  claims what it settled of each pair of neighbours (ordered or tied; open pairs claim nothing).
* **SPRT** (two bots, the candidate first): seat-swapped pairs until the league's LLR crosses a
  bound or ``max_games`` is reached, each test's LLR after every pair computed for many tests at
  once (``league.stats.sprt.llr_batch``, the league's own statistic), as
  ``benchmarks/sprt_errors.py`` does; it claims its verdict, if any (H1: better by more than
  ``elo0``; H0: not better by ``elo1`` or more, both in normalized Elo).

**The true order** ranks bots by their true mean score against the rest of the field: their Elo
order, unless the cycle makes it otherwise (then it is the order a balanced round robin's
Bradley-Terry fit tends to, since that fit's totals match the observed ones). Bots of equal true
score may come in either order.

Adaptive leagues run side by side, one batch each at a time, so that their rankings are fitted in
one batched call (fitted one by one, the fit was most of an adaptive league's cost; its planning,
``ActiveRanking.next_batch``, is now); each league draws from its own
stream, so a league's outcome is that of ``adaptive_simulation.simulate_adaptive`` on the same
stream (tested), whatever the number of leagues beside it. Everything is a function of the seed.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.synthetic.model import draw_elo, elo_difference, outcome_probabilities
from league.plan.adaptive import adaptive_settings
from league.plan.adaptive_batches import STOP_CAPPED, STOP_SETTLED, AdaptiveBatches, AdaptiveSettings
from league.plan.adaptive_simulation import UNIT_SCORES, AdaptiveOutcome, Model, UnitSource
from league.plan.config import League
from league.stats import bradley_terry
from league.stats.active_ranking import ActiveRanking, add_units
from league.stats.sprt import H0, H1, NELO_PER_T, SprtSettings, llr_batch
from league.stats.ties import best_first, tied_runs

ROUND_ROBIN, ADAPTIVE, SPRT = "round_robin", "adaptive", "sprt"
SIMULATED = (ROUND_ROBIN, ADAPTIVE, SPRT)
"""The formats ``league plan`` simulates (it refuses a league of another)."""
STREAMS = {ROUND_ROBIN: 0, ADAPTIVE: 1, SPRT: 2}
"""Each design's random stream under the seed: one design's draws never shift another's."""
DEFAULT_SPRT = SprtSettings(elo0=0.0, elo1=5.0)
"""The test simulated for two bots whose file states none (the README's example)."""
UNDECIDED = "undecided"
ROWS_PER_CALL = 1000
"""About how many LLRs one ``llr_batch`` call is asked for: its cost a row is least near here."""
SAME_STRENGTH = 1e-9
"""True mean scores closer than this are equal: such bots may be ranked either way."""


@dataclass(frozen=True)
class GuessedModel(Model):
    """The league the organiser guesses: ``Model`` with the synthetic game's cycle as well.

    Attributes:
        styles: Each bot's style in the cycle (``rock``, ``paper``, ``scissors``; absent or None: none).
        cycle_elo: What the cycle adds to d when seat 0's style beats seat 1's, and takes off when it loses.
    """

    styles: Mapping[str, str | None] = field(default_factory=dict)
    cycle_elo: float = 0.0

    def game_chances(self, first: str, second: str, first_seated: bool) -> tuple[float, float, float]:
        """``first``'s chances to win, draw and lose one game, seated first or second (the game's own d)."""
        seats = (first, second) if first_seated else (second, first)
        d = elo_difference(
            (self.elos[seats[0]], self.elos[seats[1]]),
            (self.styles.get(seats[0]), self.styles.get(seats[1])),
            self.first_seat_elo,
            self.cycle_elo,
        )
        win, draw, loss = outcome_probabilities(d, draw_elo(self.draw_rate))
        return (win, draw, loss) if first_seated else (loss, draw, win)


def true_strengths(model: Model) -> dict[str, float]:
    """Each bot's true mean unit score against the other bots (the module docstring's true order)."""
    bots = list(model.elos)
    return {bot: float(np.mean([model.true_score(bot, other) for other in bots if other != bot])) for bot in bots}


def in_true_order(order: Sequence[str], strengths: Mapping[str, float]) -> bool:
    """Whether a ranking, strongest first, is the true order (bots of equal true score either way)."""
    return all(strengths[upper] >= strengths[lower] - SAME_STRENGTH for upper, lower in itertools.pairwise(order))


def normalized_difference(model: Model, candidate: str, baseline: str) -> float:
    """The candidate's true normalized Elo over the baseline (``league.stats.sprt.normalized_elo``'s measure)."""
    chances = model.unit_chances(candidate, baseline)
    mean = float(chances @ UNIT_SCORES)
    spread = math.sqrt(float(chances @ (UNIT_SCORES - mean) ** 2))
    if spread == 0:
        return 0.0 if mean == 0.5 else math.copysign(math.inf, mean - 0.5)
    return (mean - 0.5) / spread / math.sqrt(2) * NELO_PER_T


@dataclass(frozen=True)
class DesignOutcome:
    """What one design did over the simulated leagues.

    Attributes:
        design: ``round_robin``, ``adaptive`` or ``sprt``.
        settings: Its settings, for people.
        batches: Per simulated league, its games batch by batch (a round robin and an SPRT: one batch).
        claims_right: The share of leagues whose every claim is true.
        order_right: The share whose ranking is the true order (None for an SPRT, which ranks nothing).
        stops: The share of leagues per way of stopping (adaptive: settled, capped; SPRT: H1, H0, undecided).
    """

    design: str
    settings: str
    batches: list[list[int]]
    claims_right: float
    order_right: float | None
    stops: dict[str, float] = field(default_factory=dict)

    @property
    def games(self) -> np.ndarray:
        """Each simulated league's games."""
        return np.array([sum(batches) for batches in self.batches])

    @property
    def mean_games(self) -> float:
        """The mean games of a league."""
        return float(self.games.mean())

    @property
    def games_p90(self) -> int:
        """The 90th percentile of a league's games (nearest rank)."""
        games = np.sort(self.games)
        return int(games[math.ceil(0.9 * len(games)) - 1])

    def rounds(self, workers: int) -> float:
        """The mean rounds of ``workers`` games at once a league takes, its batches one after another."""
        return float(np.mean([sum(math.ceil(games / workers) for games in batches) for batches in self.batches]))


def _order(bots: Sequence[str], ratings: np.ndarray) -> list[str]:
    """The bots by rating, best first; equal ratings by name (``league.stats.ties``), bots without games last."""
    return [bots[k] for k in best_first(bots, ratings.tolist())]


def first_seated_games(games_per_pair: int) -> int:
    """Of a pair's games in a round robin, how many its first bot plays seated first (``PairSchedule``'s seating)."""
    return sum((game // 2 % 2 == 0) != bool(game % 2) for game in range(games_per_pair))


def _ranked_right(bots: Sequence[str], ratings: np.ndarray, strengths: Mapping[str, float]) -> bool:
    """Whether fitted ``ratings`` rank the bots in their true order, no two of unequal strength tied exactly.

    An exact tie is listed by name (``league.stats.ties``) and said to be a tie: an order by names is
    never a right answer.
    """
    order = best_first(bots, ratings.tolist())
    ties = tied_runs(bots, order, ratings.tolist())
    unequal = any(max(strengths[b] for b in run) - min(strengths[b] for b in run) > SAME_STRENGTH for run in ties)
    return not unequal and in_true_order([bots[k] for k in order], strengths)


def simulate_round_robin(model: Model, games_per_pair: int, leagues: int, rng: np.random.Generator) -> DesignOutcome:
    """``leagues`` round robins of ``games_per_pair`` games a pair, each ranked by its Bradley-Terry fit."""
    bots = list(model.elos)
    size = len(bots)
    points, games = np.zeros((leagues, size, size)), np.zeros((leagues, size, size))
    first_seated = first_seated_games(games_per_pair)
    for i, j in itertools.combinations(range(size), 2):
        for seat_0, seat_1, count in ((i, j, first_seated), (j, i, games_per_pair - first_seated)):
            if count:
                chances = model.game_chances(bots[seat_0], bots[seat_1], True)
                won, drawn, _ = rng.multinomial(count, chances, size=leagues).T
                points[:, seat_0, seat_1] += won + drawn / 2
                games[:, seat_0, seat_1] += count
    ratings = bradley_terry.fit(points, games, seat_advantage=True).ratings
    strengths = true_strengths(model)
    right = np.mean([_ranked_right(bots, row, strengths) for row in ratings])
    total = games_per_pair * size * (size - 1) // 2
    return DesignOutcome(
        ROUND_ROBIN, f"games_per_pair {games_per_pair}", [[total]] * leagues, float(right), float(right)
    )


class _FittedElsewhere(ActiveRanking):
    """An adaptive league's evidence whose ranking is fitted outside, with other leagues' (``_adaptive_leagues``)."""

    fitted: list[str] | None = None

    def ranking(self) -> list[str]:
        """The ranking fitted outside, once given."""
        return list(self.fitted) if self.fitted is not None else super().ranking()


def _adaptive_leagues(
    model: Model, settings: AdaptiveSettings, rngs: Sequence[np.random.Generator]
) -> list[tuple[AdaptiveOutcome, list[int]]]:
    """One adaptive league per stream, side by side; each one's outcome and games per batch taken.

    Each league's ranking after a batch is what ``ActiveRanking.ranking`` fits from its units (the
    same counts, ``add_units``), fitted for every league still going in one call.
    """
    bots = list(model.elos)
    position = {bot: number for number, bot in enumerate(bots)}
    leagues = []
    for _ in rngs:
        league = AdaptiveBatches(bots, settings)
        league.ranking = _FittedElsewhere(bots, settings.confidence, settings.tie_elo)
        leagues.append(league)
    sources = [UnitSource(model, rng) for rng in rngs]
    points, games = np.zeros((len(rngs), len(bots), len(bots))), np.zeros((len(rngs), len(bots), len(bots)))
    going = list(range(len(rngs)))
    while going:
        drawn = []
        for index in going:
            league = leagues[index]
            units = {pair: sources[index].draw(pair, count) for pair, count in league.batches[league.taken].items()}
            for (first, second), scores in units.items():
                add_units(points[index], games[index], (position[first], position[second]), len(scores), scores.sum())
            drawn.append(units)
        ratings = bradley_terry.fit(points[going], games[going], seat_advantage=False).ratings
        for index, units, row in zip(going, drawn, ratings, strict=True):
            leagues[index].ranking.fitted = _order(bots, row)
            leagues[index].take(units)
        going = [index for index in going if leagues[index].stop is None]
    outcomes = []
    for league in leagues:
        claims = league.ranking.claims()
        wrong = any(model.wrong(claim, settings.tie_elo) for claim in claims)
        outcome = AdaptiveOutcome(league.counted_units, league.stop, claims, wrong, league.taken)
        outcomes.append((outcome, [2 * sum(batch.values()) for batch in league.batches[: league.taken]]))
    return outcomes


def simulate_adaptive(model: Model, settings: AdaptiveSettings, leagues: int, seed: int) -> DesignOutcome:
    """``leagues`` adaptive leagues, each on its own stream of the seed."""
    streams = np.random.SeedSequence([seed, STREAMS[ADAPTIVE]]).spawn(leagues)
    simulated = _adaptive_leagues(model, settings, [np.random.default_rng(stream) for stream in streams])
    strengths = true_strengths(model)
    outcomes = [outcome for outcome, _ in simulated]
    in_order = [
        in_true_order([outcome.claims[0].upper, *(c.lower for c in outcome.claims)], strengths) for outcome in outcomes
    ]
    stops = {stop: sum(o.stop == stop for o in outcomes) / leagues for stop in (STOP_SETTLED, STOP_CAPPED)}
    described = (
        f"confidence {settings.confidence:g}, tie_elo {settings.tie_elo:g}, warm-up {2 * settings.warmup_units}"
        f" games a pair, batches of {2 * settings.batch_units} games or more, max_games {2 * settings.max_units:,}"
    )
    return DesignOutcome(
        ADAPTIVE,
        described,
        [batches for _, batches in simulated],
        1 - sum(o.any_wrong for o in outcomes) / leagues,
        float(np.mean(in_order)),
        stops,
    )


def simulate_sprt(
    model: Model, settings: SprtSettings, max_pairs: int, leagues: int, rng: np.random.Generator
) -> DesignOutcome:
    """``leagues`` tests of the model's first bot (the candidate) against its second, each to its verdict.

    Each test takes its LLR after every pair and stops at its first crossing of a bound, as a league
    decides. The tests still going draw their next pairs in chunks (about ``ROWS_PER_CALL`` LLRs a
    ``llr_batch`` call, a chunk a test at first and longer as tests end), each chunk's LLRs after
    every pair computed at once: the same first crossing as pair by pair, for fewer calls.
    """
    candidate, baseline = list(model.elos)[:2]
    cumulative = np.cumsum(model.unit_chances(candidate, baseline))[:-1]
    counts = np.zeros((leagues, 5))
    verdicts: list[str] = [UNDECIDED] * leagues
    pairs = [max_pairs] * leagues
    going = np.arange(leagues)
    taken = 0
    while len(going) and taken < max_pairs:
        chunk = min(max(1, ROWS_PER_CALL // len(going)), max_pairs - taken)
        drawn = (rng.random((len(going), chunk, 1)) > cumulative).sum(axis=2)
        after = counts[going][:, None, :] + np.cumsum(np.eye(5)[drawn], axis=1)
        values = llr_batch(after.reshape(-1, 5), settings).reshape(len(going), chunk)
        crossed = (values >= settings.upper) | (values <= settings.lower)
        done = crossed.any(axis=1)
        for test, first, row in zip(going[done], crossed[done].argmax(axis=1), values[done], strict=True):
            verdicts[test] = H1 if row[first] >= settings.upper else H0
            pairs[test] = taken + int(first) + 1
        counts[going] = after[:, -1]
        going = going[~done]
        taken += chunk
    truth = normalized_difference(model, candidate, baseline)
    right = {H1: truth > settings.elo0, H0: truth < settings.elo1, UNDECIDED: True}
    described = (
        f"{candidate} against {baseline}: H0 {settings.elo0:g}, H1 {settings.elo1:g} normalized Elo, alpha"
        f" {settings.alpha:g}, beta {settings.beta:g}, max_games {2 * max_pairs:,}; the true difference"
        f" {truth:+.1f} normalized Elo"
    )
    return DesignOutcome(
        SPRT,
        described,
        [[2 * count] for count in pairs],
        sum(right[verdict] for verdict in verdicts) / leagues,
        None,
        {verdict: verdicts.count(verdict) / leagues for verdict in (H1, H0, UNDECIDED)},
    )


def matching_games_per_pair(games: float, bots: int) -> int:
    """The games per pair of a round robin of about ``games`` games in all: whole seat-swapped pairs, 2 at least."""
    pairs = bots * (bots - 1) // 2
    return max(2, 2 * round(games / pairs / 2))


def simulate_designs(league: League, model: Model, leagues: int, seed: int) -> list[DesignOutcome]:
    """The league's own design, then the other designs that fit its bots, each simulated ``leagues`` times.

    A round robin is compared at the file's ``games_per_pair``, or for an adaptive or SPRT file at
    the games per pair of about the mean games of its own design; the adaptive design at the file's
    settings or the defaults (with its ``max_games``); the SPRT, for two bots only, at the file's
    test or ``DEFAULT_SPRT``.

    Args:
        league: The league (two-seat games of one variant; formats round_robin, adaptive or sprt).
        model: The guessed strengths, its bots in the file's order.
        leagues: Simulated leagues per design.
        seed: Every draw derives from it.
    """
    config = league.config
    own = config.format
    if own not in STREAMS:
        raise ValueError(f"format {own} is not simulated: give round_robin, adaptive or sprt")
    designs = [own, *(design for design in (ROUND_ROBIN, ADAPTIVE, SPRT) if design != own)]
    if len(config.bots) != 2:
        designs.remove(SPRT)
    outcomes: list[DesignOutcome] = []
    for design in designs:
        rng = np.random.default_rng([seed, STREAMS[design]])
        if design == ROUND_ROBIN and own == ROUND_ROBIN:
            outcome = simulate_round_robin(model, config.games_per_pair, leagues, rng)
        elif design == ROUND_ROBIN:
            per_pair = matching_games_per_pair(outcomes[0].mean_games, len(config.bots))
            outcome = _noted(
                simulate_round_robin(model, per_pair, leagues, rng), f"about the {own} design's mean games"
            )
        elif design == ADAPTIVE:
            outcome = simulate_adaptive(model, adaptive_settings(league), leagues, seed)
            if config.adaptive is None:
                outcome = _noted(outcome, "the defaults")
        else:
            given = config.sprt
            test = SprtSettings(given.elo0, given.elo1, given.alpha, given.beta) if given else DEFAULT_SPRT
            outcome = simulate_sprt(model, test, config.max_games // 2, leagues, rng)
            if given is None:
                outcome = _noted(outcome, "none in the file: a common test")
        outcomes.append(outcome)
    return outcomes


def _noted(outcome: DesignOutcome, note: str) -> DesignOutcome:
    """The outcome with a note on where its settings came from."""
    return DesignOutcome(
        outcome.design,
        f"{outcome.settings} ({note})",
        outcome.batches,
        outcome.claims_right,
        outcome.order_right,
        outcome.stops,
    )
