"""A core for every bot thinking at once: what a game needs, the default concurrency, and validate's warning.

The machine's cores are never the test machine's: ``league.plan.cores.usable_cores`` is replaced.
"""

import pytest
import yaml

from engine import GAMES
from league.cluster.worker import play_game
from league.match.bot_spec import BotSpec
from league.plan import cores
from league.plan.config import load_league
from league.plan.cores import cores_per_game, oversubscription_warning, seats_asked_at_once
from tests.conftest import BOTS, write_league
from tests.league.plan.test_tables import nimmt_league


@pytest.fixture
def machine_of(monkeypatch):
    """Pretend this machine has the given number of usable cores."""

    def set_cores(count: int) -> None:
        monkeypatch.setattr(cores, "usable_cores", lambda: count)
        monkeypatch.delenv("RAY_ADDRESS", raising=False)

    return set_cores


def programs(count: int) -> list[BotSpec]:
    return [BotSpec(name=f"p{index}", command=("bot",)) for index in range(count)]


def builtins(game: str, count: int) -> list[BotSpec]:
    return [BotSpec(name=f"b{index}", builtin=f"{game}.random") for index in range(count)]


def test_seats_asked_at_once_come_from_the_game_s_own_opening():
    assert seats_asked_at_once(GAMES["versus2048"](), 2) == 1, "versus2048's players alternate"
    assert seats_asked_at_once(GAMES["nimmt"](), 5) == 5, "nimmt asks every seat at once"
    assert seats_asked_at_once(GAMES["geister"](), 2) == 2, "geister's setup asks both at once"


def test_programs_need_a_core_each_while_built_ins_share_the_worker_s_one():
    nimmt = [GAMES["nimmt"]()]
    assert cores_per_game([GAMES["versus2048"]()], [2], programs(3)) == 1
    assert cores_per_game(nimmt, [5], programs(6)) == 5
    assert cores_per_game(nimmt, [3, 5], programs(6)) == 5, "the largest table counts"
    assert cores_per_game(nimmt, [5], builtins("nimmt", 6)) == 1
    assert cores_per_game(nimmt, [5], programs(2) + builtins("nimmt", 4)) == 3


def test_programs_allowed_more_cores_need_them_while_they_think():
    nimmt = [GAMES["nimmt"]()]
    assert cores_per_game([GAMES["versus2048"]()], [2], programs(3), bot_cores=2) == 2
    assert cores_per_game(nimmt, [5], programs(6), bot_cores=1.5) == 10
    assert cores_per_game(nimmt, [5], programs(2) + builtins("nimmt", 4), bot_cores=2) == 5


def without_concurrency(path):
    data = yaml.safe_load(path.read_text())
    del data["concurrency"]
    path.write_text(yaml.safe_dump(data))
    return path


def test_the_default_concurrency_gives_every_thinking_bot_a_core(tmp_path, machine_of):
    machine_of(4)
    on_wall = without_concurrency(write_league(tmp_path, clock="wall"))
    assert load_league(on_wall).config.concurrency == 3, "a core for the league"
    assert load_league(without_concurrency(write_league(tmp_path))).config.concurrency == 4, "clock: own, the default"
    on_cpu = without_concurrency(write_league(tmp_path, clock="cpu"))
    assert load_league(on_cpu).config.concurrency == 4, "clock: cpu charges no wait for a core"
    machine_of(1)
    assert load_league(without_concurrency(write_league(tmp_path))).config.concurrency == 1
    machine_of(4)
    assert load_league(write_league(tmp_path, concurrency=7)).config.concurrency == 7, "a given value is kept"
    table_programs = [{"name": f"p{k}", "command": f"python3 {BOTS / 'nimmt_hostile.py'} plain"} for k in range(3)]
    tables = nimmt_league(tmp_path, bots=table_programs, players_per_table=3, output=str(tmp_path / "out"))
    assert load_league(without_concurrency(tables)).config.concurrency == 1, "3 programs asked at once, 4 cores"


def validate(league_cli, path):
    status, out, err = league_cli("validate", str(path), "--no-estimate")
    assert status == 0 and out.strip().endswith("ok")
    return err


def test_validate_warns_in_one_line_when_bots_outnumber_the_cores(tmp_path, league_cli, machine_of):
    machine_of(2)
    err = validate(league_cli, write_league(tmp_path, concurrency=4, clock="wall"))
    assert err.count("\n") == 1 and err.startswith("league: WARNING: ")
    assert "4 bots thinking at once on 2 cores" in err and "give concurrency: 2" in err


def test_validate_is_quiet_when_every_thinking_bot_has_a_core(tmp_path, league_cli, machine_of):
    machine_of(2)
    assert "WARNING" not in validate(league_cli, write_league(tmp_path, concurrency=2, clock="wall"))


def test_the_own_clock_tolerates_up_to_twice_the_cores(tmp_path, league_cli, machine_of):
    machine_of(2)
    assert "WARNING" not in validate(league_cli, write_league(tmp_path, concurrency=4))
    err = validate(league_cli, write_league(tmp_path, concurrency=5))
    assert "wall guard of clock: own" in err and "give concurrency: 4" in err


def test_the_cpu_clock_tolerates_up_to_twice_the_cores(tmp_path, league_cli, machine_of):
    machine_of(2)
    assert "WARNING" not in validate(league_cli, write_league(tmp_path, concurrency=4, clock="cpu"))
    err = validate(league_cli, write_league(tmp_path, concurrency=5, clock="cpu"))
    assert "wall guard of clock: cpu" in err and "give concurrency: 4" in err, "what clock: cpu allows, not the cores"


def test_a_cluster_s_cores_are_not_guessed(tmp_path, league_cli, machine_of, monkeypatch):
    machine_of(64)
    monkeypatch.setenv("RAY_ADDRESS", "ray://nowhere:10001")
    err = validate(league_cli, write_league(tmp_path, concurrency=4))
    assert err.startswith("league: note: ") and "cannot be checked from here" in err and "WARNING" not in err


def test_a_table_larger_than_the_machine_names_other_fixes():
    warning = oversubscription_warning(1, 5, "wall", cores=3)
    assert warning is not None and "give concurrency" not in warning
    assert "use clock: own (fair up to concurrency: 1), fewer players per table" in warning
    warning = oversubscription_warning(1, 5, "wall", cores=2)
    assert warning is not None and warning.endswith("use fewer players per table or a machine with more cores")
    assert "clock: own" not in warning, "5 bots at once are more than clock: own allows on 2 cores"
    on_cpu = oversubscription_warning(1, 5, "cpu", cores=2)
    assert on_cpu is not None and on_cpu.endswith("use fewer players per table or a machine with more cores")


@pytest.mark.parametrize(
    ("concurrency", "need", "clock", "cores", "fix"),
    [
        (3, 1, "wall", 2, "give concurrency: 2, or clock: own (fair up to concurrency: 4)"),
        (4, 1, "wall", 2, "give concurrency: 2, or clock: own (fair up to concurrency: 4)"),
        (32, 1, "wall", 2, "give concurrency: 2, or concurrency: 4 with clock: own"),
        (2, 3, "wall", 4, "give concurrency: 1, or clock: own (fair up to concurrency: 2)"),
        (5, 1, "own", 2, "give concurrency: 4"),
        (5, 1, "cpu", 2, "give concurrency: 4"),
        (32, 1, "cpu", 2, "give concurrency: 4"),
        (3, 3, "cpu", 4, "give concurrency: 2"),
    ],
)
def test_the_warning_names_a_concurrency_that_fits_under_each_clock(concurrency, need, clock, cores, fix):
    warning = oversubscription_warning(concurrency, need, clock, cores=cores)
    assert warning is not None and warning.endswith(fix), warning
    assert f"= {concurrency * need} bots thinking at once on {cores} cores" in warning


def test_no_warning_where_the_clock_allows_it():
    assert oversubscription_warning(2, 1, "wall", cores=2) is None
    assert oversubscription_warning(4, 1, "cpu", cores=2) is None
    assert oversubscription_warning(2, 3, "cpu", cores=3) is None


def test_on_a_cluster_its_cpus_count_and_each_game_takes_one():
    level, line = cores.cluster_note(4, 1, "wall", None)
    assert level == "note" and "cannot be checked from here" in line and "give --address" in line
    level, line = cores.cluster_note(16, 1, "wall", 16)
    assert level == "note" and "= 16 bots thinking at once on the cluster's 16 CPUs" in line
    level, line = cores.cluster_note(32, 1, "wall", 16)
    assert level == "note" and "16 play (a CPU each) while the others wait" in line
    level, line = cores.cluster_note(8, 5, "wall", 16)
    assert level == "WARNING" and "40 bots thinking at once on the cluster's 16 CPUs" in line
    assert line.endswith("give concurrency: 3, or concurrency: 6 with clock: own")
    assert [cores.cluster_concurrency(cpus, need) for cpus, need in ((16, 5), (2, 5), (0, 1))] == [3, 1, 1]


def test_a_pinned_game_s_jailed_bots_run_on_its_core(tmp_path, monkeypatch):
    from league.cluster.runner import league_setup, schedule
    from sandbox import cpus

    monkeypatch.setattr(cpus, "LEASE_DIR", tmp_path / "leases")
    spinner = {"command": "python3 v2048_spinner.py 1", "cwd": str(BOTS)}
    bots = [{"name": "a", **spinner}, {"name": "b", **spinner}]
    league = load_league(
        write_league(tmp_path, bots=bots, pin_cpus=True, games_per_pair=2, variants={"v": {"turns_per_player": 2}})
    )
    record = play_game(schedule(league)[0].to_json(), league_setup(league))
    assert record["result"]["termination"] == "NORMAL", record["result"]["detail"]
    first = min(cpus.available_cpus())
    assert [tail["text"].strip() for tail in record["stderr"]] == [f"cpus {first}"] * 2
