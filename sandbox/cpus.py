"""The cores this host gives us, and leases that pin each game in flight to cores of its own.

``usable_cores`` counts what bots can really run on: the CPUs in this process's affinity mask,
capped by a cgroup CPU quota (a container given 1.5 CPUs counts 2; one given 0.5 counts 1).

``pinned_to_cores`` pins the calling thread for the duration of one game: every bot process it
starts inherits the mask at ``fork`` (and every thread of theirs), as fastchess does with its
engines. Each game in flight on the host holds a lease, an exclusive ``flock`` on a numbered file
(released by the kernel if its holder dies), so that several workers and leagues never pin two
games to the same core while another is free; lease ``i`` of a game needing ``n`` cores gets cores
``i * n ... i * n + n - 1`` of the usable ones, wrapping around when more games run than cores.
A bot may widen its own mask again (it is a scheduling hint, not a wall): pinning is for fairness
between honest bots, not a limit.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Iterator
from pathlib import Path

from sandbox.locks import hold_first_free

CGROUP_ROOT = Path("/sys/fs/cgroup")
LEASE_DIR = Path("/tmp/league-cpu-leases")
MAX_LEASES = 4096


def available_cpus() -> list[int]:
    """The CPU numbers this process may run on, in order."""
    return sorted(os.sched_getaffinity(0))


def _own_cgroup_paths() -> list[str]:
    """This process's cgroup path per hierarchy line of ``/proc/self/cgroup`` (``"/"`` when unknown)."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return ["/"]
    return [line.split(":", 2)[2] for line in lines if line.count(":") >= 2] or ["/"]


def cgroup_cpu_quota() -> float | None:
    """The CPU quota of this process's cgroup in cores (cgroup v2 ``cpu.max`` or v1 CFS), or None if unlimited."""
    quotas: list[float] = []
    for own in dict.fromkeys(_own_cgroup_paths()):
        relative = own.lstrip("/")
        for folder in {CGROUP_ROOT / relative, CGROUP_ROOT}:  # a cgroup namespace shows its own as the root
            quotas += _v2_quota(folder / "cpu.max")
            for v1 in ("cpu", "cpu,cpuacct"):
                quotas += _v1_quota(CGROUP_ROOT / v1 / relative)
    return min(quotas) if quotas else None


def _v2_quota(path: Path) -> list[float]:
    try:
        quota, period = path.read_text().split()[:2]
    except (OSError, ValueError):
        return []
    return [] if quota == "max" or int(period) <= 0 else [int(quota) / int(period)]


def _v1_quota(folder: Path) -> list[float]:
    try:
        quota = int((folder / "cpu.cfs_quota_us").read_text())
        period = int((folder / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError):
        return []
    return [quota / period] if quota > 0 and period > 0 else []


def usable_cores() -> int:
    """How many cores bots can think on at once here: the affinity mask, capped by a cgroup quota (at least 1)."""
    cores = len(available_cpus())
    quota = cgroup_cpu_quota()
    if quota is not None:
        cores = min(cores, math.ceil(quota))
    return max(1, cores)


def lease_cpus(lease: int, cores_per_game: int, cpus: list[int]) -> list[int]:
    """The cores of lease number ``lease`` for a game needing ``cores_per_game`` of ``cpus`` (wrapping around)."""
    count = min(max(1, cores_per_game), len(cpus))
    return sorted({cpus[(lease * count + offset) % len(cpus)] for offset in range(count)})


def _hold_first_free_lease() -> tuple[int, int]:
    """(lease number, its open locked file): the lowest lease no game on this host holds."""
    held = hold_first_free(LEASE_DIR, (str(lease) for lease in range(MAX_LEASES)))
    if held is None:
        raise RuntimeError(f"all {MAX_LEASES} CPU leases in {LEASE_DIR} are held")
    return int(held[0]), held[1]


@contextlib.contextmanager
def pinned_to_cores(cores_per_game: int) -> Iterator[list[int]]:
    """Pin the calling thread (and so every bot it starts) to cores of a lease of its own, then unpin.

    Args:
        cores_per_game: Cores the game needs while its bots think (bots asked at once); 0 pins nothing.

    Yields:
        The cores pinned to (empty when nothing was pinned).
    """
    if cores_per_game <= 0:
        yield []
        return
    before = os.sched_getaffinity(0)
    lease, fd = _hold_first_free_lease()
    try:
        cores = lease_cpus(lease, cores_per_game, sorted(before))
        os.sched_setaffinity(0, cores)
        try:
            yield cores
        finally:
            os.sched_setaffinity(0, before)
    finally:
        os.close(fd)
