"""Memory, process-count and CPU caps for one bot through a cgroup of its own (v2, or v1 as on Debian 12).

A ``CgroupSlot`` is made before the bot starts; the bot joins it by writing its own pid into the
listed ``cgroup.procs`` files before it execs the jail, so every process it ever starts is
counted. At the end every process left in the slot is killed and the slot removed.

Where the tree has a CPU controller (v1 ``cpu``, v2 ``cpu``), the slot also caps the CPU time of
all the bot's processes together at its cores (a CFS quota: however many processes, sessions or
threads it makes, it never gets more than ``cores`` CPUs; sessions of its own cannot win it more
through scheduler autogroups, which apply only outside cgroups). While the bot is not asked for
a reply its weight can drop to the least the kernel allows (``thinking(False)``; the referee does
so for a bot seen computing on its opponent's time), so that it only takes CPU that no thinking
bot wants.
"""

from __future__ import annotations

import functools
import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

from sandbox.procfs import OpenCounter

CGROUP_ROOT = Path("/sys/fs/cgroup")
PARENT = "league"
CFS_PERIOD_US = 100_000
"""The period of a bot's CPU quota: it may use ``cores`` x this much CPU time in every such period."""
V1_TCP_LIMIT = "memory.kmem.tcp.limit_in_bytes"
"""cgroup v1's cap on the TCP socket buffers of a cgroup's processes (v2 charges them to ``memory.max``)."""
_V1_WEIGHTS = ("1024", "2")
"""``cpu.shares`` of a bot asked for a reply, and of one that is not (the least v1 allows)."""
_V2_WEIGHTS = ("100", "1")
"""``cpu.weight`` of the same two (v2's default and least)."""


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


def _v1_controller(names: tuple[str, ...], marker: str) -> Path | None:
    """The first writable v1 hierarchy of ``names`` that has ``marker`` (its controller's file), or None."""
    for name in names:
        folder = CGROUP_ROOT / name
        if (folder / marker).exists() and os.access(folder, os.W_OK):
            return folder
    return None


def _v1_cpu() -> Path | None:
    return _v1_controller(("cpu", "cpu,cpuacct"), "cpu.cfs_quota_us")


def _v2_cpu() -> Path | None:
    v2 = _v2_root()
    if v2 is None or "cpu" not in (v2 / "cgroup.controllers").read_text().split():
        return None
    return v2


@functools.cache
def cpu_cap_problem() -> str | None:
    """Why a bot's processes cannot be capped together at its cores here, or None when they can.

    Probed once by making a slot with a CPU quota.
    """
    problem = cgroups_problem()
    if problem is not None:
        return problem
    if _v2_cpu() is None and _v1_cpu() is None:
        return "the cgroup tree has no writable CPU controller (cgroup v1 cpu or v2 cpu) for a CPU quota"
    try:
        slot = CgroupSlot.create(f"cpuprobe{os.getpid()}", 64, 8, cores=1)
    except OSError as error:
        return f"a cgroup with a CPU quota cannot be made ({error})"
    slot.destroy()
    return None if slot.cpu_dir is not None else "the cgroup tree refused a CPU quota"


def tcp_limit(memory_limit: int) -> int:
    """Bytes of TCP socket buffers a bot may pin on cgroup v1: a quarter of its memory cap, 64 MB at most.

    Only a bot with a network, or a TCP relay in its jail, can open such sockets (``sandbox.seccomp``);
    a relay's traffic is a few lines at a time.
    """
    return min(memory_limit // 4, 64 << 20)


def socket_memory_problem() -> str | None:
    """Why the TCP socket buffers of a bot cannot be capped here, or None when they are."""
    problem = cgroups_problem()
    if problem is not None:
        return problem
    roots = _v1_roots()
    if _v2_root() is None and (roots is None or not (roots[0] / V1_TCP_LIMIT).exists()):
        return f"this cgroup v1 memory controller has no {V1_TCP_LIMIT}"
    return None


def socket_memory() -> str:
    """How the kernel memory of a bot's TCP socket buffers is capped here, for people (one phrase)."""
    problem = socket_memory_problem()
    if problem is not None:
        return f"not capped ({problem})"
    if _v2_root() is not None:
        return "charged to its memory cap (cgroup v2)"
    return "capped apart at a quarter of the memory cap, 64 MB at most (cgroup v1 kmem.tcp)"


def _v1_cpuacct() -> Path | None:
    return _v1_controller(("cpuacct", "cpu,cpuacct"), "cpuacct.usage")


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
    cpu_dir: Path | None = None
    """The cgroup holding the bot's CPU quota and weight (None: its CPU is not capped)."""
    thinking_now: bool = True
    _usage: OpenCounter | None = field(default=None, repr=False)
    _weight_fd: int | None = field(default=None, repr=False)
    _weights: tuple[str, str] = field(default=_V1_WEIGHTS, repr=False)

    @classmethod
    def create(cls, name: str, memory_mb: int, processes: int, cores: float | None = None) -> CgroupSlot:
        """Make the slot's cgroup(s) with their caps.

        Args:
            name: The slot's name (one per bot running at once).
            memory_mb: Memory of all its processes together.
            processes: Processes and threads at once.
            cores: CPUs its processes may use together (a CFS quota), where the tree allows it;
                None caps no CPU.

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
            capped = cores is not None and _v2_cpu() is not None
            try:
                (parent / "cgroup.subtree_control").write_text("+memory +pids" + (" +cpu" if capped else ""))
            except OSError:
                capped = False
            folder.mkdir(exist_ok=True)
            (folder / "memory.max").write_text(str(limit))
            if (folder / "memory.swap.max").exists():
                (folder / "memory.swap.max").write_text("0")
            (folder / "pids.max").write_text(str(processes))
            slot = cls([folder], limit)
            if capped and cores is not None and (folder / "cpu.max").exists():
                (folder / "cpu.max").write_text(f"{round(cores * CFS_PERIOD_US)} {CFS_PERIOD_US}")
                slot.cpu_dir = folder
            return slot
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
        tcp = memory / V1_TCP_LIMIT
        if tcp.exists():  # v1 charges socket buffers to a counter of their own only once it has a limit
            tcp.write_text(str(tcp_limit(limit)))
        dirs = [memory, pids]
        cpuacct = _v1_cpuacct()
        if cpuacct is not None:
            (cpuacct / PARENT).mkdir(exist_ok=True)
            (cpuacct / PARENT / name).mkdir(exist_ok=True)
            dirs.append(cpuacct / PARENT / name)
        slot = cls(dirs, limit)
        cpu = _v1_cpu() if cores is not None else None
        if cpu is not None and cores is not None:
            parent = cpu / PARENT
            parent.mkdir(exist_ok=True)
            # The bots together weigh as one task a core against the host's other tasks.
            (parent / "cpu.shares").write_text(str(1024 * max(1, os.cpu_count() or 1)))
            folder = parent / name
            folder.mkdir(exist_ok=True)
            (folder / "cpu.cfs_period_us").write_text(str(CFS_PERIOD_US))
            (folder / "cpu.cfs_quota_us").write_text(str(round(cores * CFS_PERIOD_US)))
            if folder not in dirs:
                dirs.append(folder)
            slot.cpu_dir = folder
        return slot

    def thinking(self, asked: bool) -> None:
        """Give the bot its full CPU weight while it is asked for a reply, the least while it is not.

        A bot computing on its opponent's time (pondering, or hogging) then takes only CPU that
        no bot asked for a reply wants; its quota caps it either way.
        """
        if self.cpu_dir is None or asked == self.thinking_now:
            return
        self.thinking_now = asked
        try:
            if self._weight_fd is None:  # which file, once: the slot's tree does not change
                v1 = (self.cpu_dir / "cpu.shares").exists()
                self._weights = _V1_WEIGHTS if v1 else _V2_WEIGHTS
                self._weight_fd = os.open(self.cpu_dir / ("cpu.shares" if v1 else "cpu.weight"), os.O_WRONLY)
            os.pwrite(self._weight_fd, self._weights[0 if asked else 1].encode(), 0)
        except OSError:
            pass

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
        if self._usage is not None:
            data = self._usage.read()
            return int(data) if data else None
        for folder in self.dirs:
            usage = folder / "cpuacct.usage"
            if usage.exists():
                self._usage = OpenCounter(usage)  # read again and again while the bot runs
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
        if self._usage is not None:
            self._usage.close()
        if self._weight_fd is not None:
            os.close(self._weight_fd)
            self._weight_fd = None
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
