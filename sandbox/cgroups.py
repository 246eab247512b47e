"""Memory and process-count caps for one bot through a cgroup of its own (v2, or v1 as on Debian 12).

A ``CgroupSlot`` is made before the bot starts; the bot joins it by writing its own pid into the
listed ``cgroup.procs`` files before it execs the jail, so every process it ever starts is
counted. At the end every process left in the slot is killed and the slot removed.
"""

from __future__ import annotations

import functools
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
PARENT = "league"


def _v2_root() -> Path | None:
    controllers = CGROUP_ROOT / "cgroup.controllers"
    if controllers.exists() and {"memory", "pids"} <= set(controllers.read_text().split()):
        return CGROUP_ROOT
    return None


def _v1_roots() -> tuple[Path, Path] | None:
    memory, pids = CGROUP_ROOT / "memory", CGROUP_ROOT / "pids"
    if (memory / "cgroup.procs").exists() and (pids / "cgroup.procs").exists():
        return memory, pids
    return None


def _v1_cpuacct() -> Path | None:
    for name in ("cpuacct", "cpu,cpuacct"):
        folder = CGROUP_ROOT / name
        if (folder / "cpuacct.usage").exists() and os.access(folder, os.W_OK):
            return folder
    return None


@functools.cache
def cgroups_problem() -> str | None:
    """Why per-bot cgroups cannot be made here, or None when they can (probed once by making one)."""
    problem = _tree_problem()
    if problem is None:
        try:
            CgroupSlot.create(f"probe{os.getpid()}", 64, 8).destroy()
        except OSError as error:
            return f"a cgroup with memory and pids caps cannot be made ({error})"
    return problem


def _tree_problem() -> str | None:
    roots: list[Path] = []
    v2 = _v2_root()
    if v2 is not None:
        roots = [v2]
    else:
        v1 = _v1_roots()
        if v1 is None:
            return "no cgroup with memory and pids controllers is mounted under /sys/fs/cgroup"
        roots = list(v1)
    for root in roots:
        if not os.access(root, os.W_OK):
            return f"the cgroup tree {root} is not writable (run as root, or delegate a cgroup to this user)"
    return None


def _remove_stale(name: str) -> None:
    """Remove a slot's cgroups left by a run that was killed (the caller holds the slot).

    A reused cgroup would keep its old peak memory and CPU time, and say a bot hit its memory
    cap when an earlier one did.
    """
    stale = [root / PARENT / name for root in CGROUP_ROOT.iterdir() if (root / PARENT / name).is_dir()]
    if (CGROUP_ROOT / PARENT / name).is_dir():
        stale.append(CGROUP_ROOT / PARENT / name)
    if stale:
        CgroupSlot(stale, 0).destroy()


@dataclass
class CgroupSlot:
    """A cgroup (one per controller hierarchy) capping one bot.

    Attributes:
        dirs: The cgroup folders made for the bot.
        memory_limit: Bytes of memory it may use.
    """

    dirs: list[Path]
    memory_limit: int

    @classmethod
    def create(cls, name: str, memory_mb: int, processes: int) -> CgroupSlot:
        """Make the slot's cgroup(s) with their caps.

        Raises:
            OSError: The cgroup tree refused (see ``cgroups_problem``).
        """
        limit = memory_mb << 20
        _remove_stale(name)
        v2 = _v2_root()
        if v2 is not None:
            folder = v2 / PARENT / name
            parent = folder.parent
            parent.mkdir(exist_ok=True)
            try:
                (parent / "cgroup.subtree_control").write_text("+memory +pids")
            except OSError:
                pass
            folder.mkdir(exist_ok=True)
            (folder / "memory.max").write_text(str(limit))
            if (folder / "memory.swap.max").exists():
                (folder / "memory.swap.max").write_text("0")
            (folder / "pids.max").write_text(str(processes))
            return cls([folder], limit)
        roots = _v1_roots()
        if roots is None:
            raise OSError("no cgroup with memory and pids controllers")
        memory_root, pids_root = roots
        memory, pids = memory_root / PARENT / name, pids_root / PARENT / name
        for folder in (memory, pids):
            folder.parent.mkdir(exist_ok=True)
            folder.mkdir(exist_ok=True)
        (memory / "memory.limit_in_bytes").write_text(str(limit))
        swap = memory / "memory.memsw.limit_in_bytes"
        if swap.exists():
            try:
                swap.write_text(str(limit))
            except OSError:
                pass
        (pids / "pids.max").write_text(str(processes))
        dirs = [memory, pids]
        cpuacct = _v1_cpuacct()
        if cpuacct is not None:
            (cpuacct / PARENT).mkdir(exist_ok=True)
            (cpuacct / PARENT / name).mkdir(exist_ok=True)
            dirs.append(cpuacct / PARENT / name)
        return cls(dirs, limit)

    @property
    def procs_files(self) -> list[str]:
        """The files a process writes its pid into to join the slot."""
        return [str(folder / "cgroup.procs") for folder in self.dirs]

    def pids(self) -> set[int]:
        """Processes still in the slot."""
        found: set[int] = set()
        for folder in self.dirs:
            try:
                found |= {int(pid) for pid in (folder / "cgroup.procs").read_text().split()}
            except OSError:
                pass
        return found

    def hit_memory_cap(self) -> bool:
        """Whether the bot's memory reached its cap (the kernel then kills it)."""
        for folder in self.dirs:
            for name in ("memory.max_usage_in_bytes", "memory.peak"):
                path = folder / name
                if path.exists():
                    try:
                        return int(path.read_text()) >= self.memory_limit - (1 << 20)
                    except (OSError, ValueError):
                        return False
            events = folder / "memory.events"
            if events.exists():
                counts = dict(line.split() for line in events.read_text().splitlines())
                return int(counts.get("max", 0)) > 0 or int(counts.get("oom_kill", 0)) > 0
        return False

    def cpu_ns(self) -> int | None:
        """CPU time used by everything in the slot so far (ns), where the tree reports it."""
        for folder in self.dirs:
            usage = folder / "cpuacct.usage"
            if usage.exists():
                return int(usage.read_text())
            stat = folder / "cpu.stat"
            if stat.exists():
                for line in stat.read_text().splitlines():
                    key, _, value = line.partition(" ")
                    if key == "usage_usec":
                        return int(value) * 1000
        return None

    def destroy(self, timeout_s: float = 2.0) -> None:
        """Kill whatever is left in the slot and remove it."""
        deadline = time.monotonic() + timeout_s
        while True:
            left = self.pids()
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            for folder in self.dirs:
                try:
                    folder.rmdir()
                except OSError:
                    pass
            if not any(folder.exists() for folder in self.dirs) or time.monotonic() > deadline:
                return
            time.sleep(0.002)
