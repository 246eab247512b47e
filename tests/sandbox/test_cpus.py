"""Cores: what counts as usable (affinity, cgroup quota), which cores a lease gets, and pinning a game's bots."""

import os
import subprocess
import sys
import threading

import pytest

from sandbox import cpus
from sandbox.cpus import cgroup_cpu_quota, lease_cpus, pinned_to_cores, usable_cores


@pytest.fixture
def own_leases(tmp_path, monkeypatch):
    """Leases in a folder of this test's own, so a league running on the machine is not disturbed."""
    monkeypatch.setattr(cpus, "LEASE_DIR", tmp_path / "leases")
    return tmp_path / "leases"


def test_a_cgroup_quota_caps_the_usable_cores(monkeypatch):
    monkeypatch.setattr(cpus, "available_cpus", lambda: [0, 1, 2, 3])
    for quota, cores in ((None, 4), (1.5, 2), (0.5, 1), (8.0, 4)):
        monkeypatch.setattr(cpus, "cgroup_cpu_quota", lambda quota=quota: quota)
        assert usable_cores() == cores


def test_quotas_are_read_from_cgroup_v2_and_v1_files(tmp_path, monkeypatch):
    monkeypatch.setattr(cpus, "CGROUP_ROOT", tmp_path)
    monkeypatch.setattr(cpus, "_own_cgroup_paths", lambda: ["/"])
    assert cgroup_cpu_quota() is None
    (tmp_path / "cpu.max").write_text("max 100000\n")
    assert cgroup_cpu_quota() is None
    (tmp_path / "cpu.max").write_text("150000 100000\n")
    assert cgroup_cpu_quota() == 1.5
    (tmp_path / "cpu.max").unlink()
    (tmp_path / "cpu").mkdir()
    (tmp_path / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("-1\n")
    assert cgroup_cpu_quota() is None
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("250000\n")
    assert cgroup_cpu_quota() == 2.5


def test_leases_take_cores_in_turn_and_wrap_around_when_games_outnumber_cores():
    assert [lease_cpus(lease, 1, [0, 1]) for lease in range(4)] == [[0], [1], [0], [1]]
    assert [lease_cpus(lease, 2, [0, 1, 2, 3]) for lease in range(3)] == [[0, 1], [2, 3], [0, 1]]
    assert lease_cpus(0, 5, [4, 6]) == [4, 6], "a game never gets more cores than there are"


def child_affinity() -> str:
    command = [sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()


def test_a_pinned_game_s_programs_inherit_its_cores_and_the_thread_is_unpinned_after(own_leases):
    before = os.sched_getaffinity(0)
    with pinned_to_cores(1) as cores:
        assert cores == [min(before)]
        assert child_affinity() == str(cores)
    assert os.sched_getaffinity(0) == before
    with pinned_to_cores(0) as cores:
        assert cores == [] and os.sched_getaffinity(0) == before


def test_two_games_at_once_hold_different_leases(own_leases):
    inside, leave = threading.Event(), threading.Event()
    seen = {}

    def other_game() -> None:
        with pinned_to_cores(1) as cores:
            seen["other"] = cores
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=other_game)
    thread.start()
    try:
        assert inside.wait(10)
        with pinned_to_cores(1) as cores:
            seen["this"] = cores
    finally:
        leave.set()
        thread.join()
    available = sorted(os.sched_getaffinity(0))
    assert seen == {"other": [available[0]], "this": [available[1 % len(available)]]}
    assert sorted(p.name for p in own_leases.iterdir()) == ["0", "1"]
