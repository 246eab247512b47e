"""The worker pool: warm workers play what ``play_game`` plays, a dead worker's games come back, the tail evens out."""

import operator
import os
import signal
import time
from collections import Counter, deque

from league.cluster import runner
from league.cluster.pool import CALLS_PER_WORKER, HEAP_SLACK, START_TRIES, GameWorker, Outcome, WorkerPool
from league.cluster.runner import TASK_RETRIES, _settle, league_setup, run_league, schedule
from league.cluster.worker import infra_record, play_game
from league.plan.config import load_league
from tests.conftest import write_league

SHORT, LONG = "short", "long"


def two_lengths_league(folder):
    """Games of 2 turns a player and of 400 between bots that think 3 ms a turn (a long game takes a second or more)."""
    variants = {SHORT: {"turns_per_player": 2}, LONG: {"turns_per_player": 400}}
    thinker = {"builtin": "versus2048.minimax", "params": {"depth": 6, "max_nodes": 10**7, "budget_ms": 3}}
    bots = [{"name": "one", **thinker}, {"name": "two", **thinker}]
    return load_league(write_league(folder, variants=variants, bots=bots, games_per_pair=4))


def games_of(league, variant):
    return [spec for spec in schedule(league) if spec.variant == variant]


def started(pool):
    """Wait until every worker of the pool has answered."""
    deadline = time.monotonic() + 600  # 400 workers on a busy machine: far beyond the seconds it needs idle
    while pool.ready_at is None and time.monotonic() < deadline:
        assert pool.wait() == []  # nothing was handed out yet
    assert pool.ready_at is not None, "the workers did not start"
    return pool


def back(pool, count):
    """The next ``count`` outcomes."""
    outcomes = []
    while len(outcomes) < count:
        outcomes += pool.wait()
    return outcomes


def test_a_worker_plays_the_game_that_play_game_plays(tmp_path):
    league = load_league(write_league(tmp_path))  # bots that play the same game from the same seed
    setup = league_setup(league)
    spec = schedule(league)[-1].to_json()
    warm, cold = GameWorker(setup).play(spec), play_game(spec, setup)
    assert warm["result"] == cold["result"]
    assert [move[:3] for move in warm["moves"]] == [move[:3] for move in cold["moves"]]
    import ray

    assert ("node" in warm) == ray.is_initialized(), "a game names its node where Ray runs, none outside it"


def test_a_killed_worker_gives_its_games_back_and_a_new_worker_plays_them(ray_local, tmp_path):
    league = two_lengths_league(tmp_path)
    with started(WorkerPool(league_setup(league), 1)) as pool:
        assert pool.submit(games_of(league, SHORT)[0])
        (first,) = back(pool, 1)
        pid = int(first.record["worker"].rsplit(":", 1)[1])
        assert first.record["node"], "a game played on Ray names its node"
        held = games_of(league, LONG)[:3]
        assert all(pool.submit(spec) for spec in held)
        assert not pool.submit(games_of(league, LONG)[3]), "a worker holds three games at most"
        time.sleep(0.3)  # the first long game is being played
        os.kill(pid, signal.SIGKILL)  # the worker's own process, started for this test
        returned = back(pool, 3)
        assert [outcome.spec for outcome in returned] == held, "given back in the order given"
        assert [(outcome.record, outcome.tried) for outcome in returned] == [(None, True), (None, False), (None, False)]
        assert all("its worker died" in outcome.detail for outcome in returned)
        for spec in held:  # to a new worker, once it has started
            while not pool.submit(spec):
                assert pool.wait() == []
        replayed = back(pool, 3)
    assert sorted(outcome.spec.game_id for outcome in replayed) == sorted(spec.game_id for spec in held)
    workers = {outcome.record["worker"] for outcome in replayed}
    assert len(workers) == 1 and workers != {first.record["worker"]}, "one new worker played them"
    assert all(outcome.record["result"]["termination"] == "NORMAL" for outcome in replayed)


def test_an_idle_worker_takes_over_a_game_queued_behind_a_long_one_and_each_game_comes_back_once(ray_local, tmp_path):
    league = two_lengths_league(tmp_path)
    long_games, short_game = games_of(league, LONG)[:2], games_of(league, SHORT)[0]
    with started(WorkerPool(league_setup(league), 2)) as pool:
        for spec in (long_games[0], short_game, long_games[1]):  # the second long game queues behind the first
            assert pool.submit(spec)
        outcomes = []
        while pool.busy():
            outcomes += pool.wait()
            pool.rebalance()  # no game is left to hand out
    assert all(outcome.record for outcome in outcomes)
    played = Counter(outcome.spec.game_id for outcome in outcomes)
    assert played == Counter(spec.game_id for spec in (*long_games, short_game)), "each game comes back once"
    worker = {outcome.spec.game_id: outcome.record["worker"] for outcome in outcomes}
    assert worker[long_games[1].game_id] == worker[short_game.game_id], "the idle worker took it over"
    assert worker[long_games[0].game_id] != worker[short_game.game_id]


class GatedStandIn:
    """Every worker of a pool at once (one async actor): each game waits for ``open`` and comes back unplayed."""

    def __init__(self) -> None:
        import asyncio

        self.gate = asyncio.Event()
        self.played = 0

    async def ready(self) -> bool:
        return True

    async def open(self) -> None:
        self.gate.set()

    async def play(self, spec: dict) -> dict:
        await self.gate.wait()
        self.played += 1
        return infra_record(spec, "a stand-in played it")

    async def count(self) -> int:
        return self.played


class SharedActor:
    """An actor class whose every actor is the one given."""

    def __init__(self, actor) -> None:
        self.actor = actor

    def remote(self, *_):
        return self.actor


def test_many_workers_hold_three_games_each_spread_evenly_and_what_comes_back_together_is_taken_at_once(
    ray_local, tmp_path
):
    workers = 400
    league = load_league(write_league(tmp_path, games_per_pair=2 * workers))  # 3 pairs: 2,400 games
    specs = schedule(league)[: workers * CALLS_PER_WORKER + 1]
    stand_in = ray_local.remote(num_cpus=0, max_concurrency=10_000)(GatedStandIn).remote()
    with started(WorkerPool(league_setup(league), workers, actor_class=SharedActor(stand_in))) as pool:
        for round_ in range(1, CALLS_PER_WORKER + 1):
            assert all(pool.submit(spec) for spec in specs[(round_ - 1) * workers : round_ * workers])
            assert {worker.load() for worker in pool._workers} == {round_}, "the least loaded worker gets the game"
        assert not pool.submit(specs[-1]), "every worker holds three games at most"
        ray_local.get(stand_in.open.remote())
        deadline = time.monotonic() + 60
        while ray_local.get(stand_in.count.remote()) < len(specs) - 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)  # every game is back: their replies reach the driver
        waits, outcomes = 0, []
        while pool.busy():
            outcomes += pool.wait()
            waits += 1
    assert sorted(outcome.spec.game_id for outcome in outcomes) == sorted(spec.game_id for spec in specs[:-1])
    assert waits <= 3, f"{waits} waits for {len(outcomes)} games that came back at once"


def test_the_pools_heaps_stay_small_over_a_long_league(ray_local, tmp_path):
    short = {"short": {"turns_per_player": 2}}
    league = load_league(write_league(tmp_path, variants=short, games_per_pair=30))  # 90 games
    specs = deque(schedule(league))
    with started(WorkerPool(league_setup(league), 2)) as pool:
        while specs or pool.busy():
            while specs and pool.submit(specs[0]):
                specs.popleft()
            if not specs:
                pool.rebalance()
            pool.wait()
            assert len(pool._open) <= HEAP_SLACK * 2 + 16 and len(pool._loaded) <= HEAP_SLACK * 2 + 16


class Unreadable:
    """Data that pickles, but cannot be read back (in a worker: it cannot start)."""

    def __reduce__(self):
        return operator.truediv, (1, 0)


def test_workers_that_cannot_start_leave_the_pool_broken_saying_why(ray_local):
    with WorkerPool(Unreadable(), 1) as pool:
        deadline = time.monotonic() + 120
        while not pool.broken() and time.monotonic() < deadline:
            assert pool.wait() == []
        assert pool.broken(), f"not given up after {START_TRIES} failed starts"
        assert "ZeroDivisionError" in pool.start_failure, pool.start_failure
        assert not pool.busy()


def test_a_league_whose_workers_cannot_start_stores_its_games_as_failures_of_ours(ray_local, tmp_path, monkeypatch):
    league = load_league(write_league(tmp_path))
    monkeypatch.setattr(runner, "league_setup", lambda *_: Unreadable())
    summary = run_league(league)
    assert summary.infra_errors == summary.played == len(schedule(league))
    assert summary.infra_detail == "no worker could start (ZeroDivisionError: division by zero)"
    assert summary.startup_seconds is None


def test_games_of_ours_are_tried_again_then_stored_as_infra_errors(tmp_path):
    league = two_lengths_league(tmp_path)
    lost, failed, cancelled = games_of(league, SHORT)[:3]
    outcomes = [
        Outcome(lost, None, "its worker died (ActorDiedError: gone)", tried=True),
        Outcome(failed, infra_record(failed.to_json(), "OSError: no jail")),
        Outcome(cancelled, None, "cancelled on a busy worker"),
    ]
    tries: Counter[str] = Counter()
    for _ in range(TASK_RETRIES):
        pending: deque = deque()
        assert _settle(outcomes, tries, pending) == []
        assert list(pending) == [lost, failed, cancelled], "played again, in the order they came"
    pending = deque()
    stored = _settle(outcomes, tries, pending)
    assert [record["game_id"] for record in stored] == [lost.game_id, failed.game_id]
    assert [record["result"]["termination"] for record in stored] == ["INFRA_ERROR"] * 2
    assert [record["result"]["detail"] for record in stored] == [outcomes[0].detail, "OSError: no jail"]
    assert list(pending) == [cancelled], "a game that came back unplayed, untried, is played again, however often"
    assert tries == {lost.game_id: TASK_RETRIES, failed.game_id: TASK_RETRIES}
