"""Masks over /proc's machine-wide counters: a jail sees figures of its own making, never the host's.

A jail's ``/proc`` is the kernel's, and some of its files count the whole machine whatever the
namespaces: ``/proc/stat`` (every CPU's busy time), ``/proc/loadavg``, ``/proc/pressure/*``,
``/proc/meminfo``, ``/proc/vmstat``, the interrupt counts, the open-file and key counts. A spy
reading them sees its opponent think (how hard, and so which ghost it is about to move), and two
colluding bots can signal through them. So each is covered, read-only, by a file made here once
a process (as lxcfs covers them in containers, but static):

* ``/proc/stat``: a ``cpu`` line and one line per host CPU (so a runtime still counts the CPUs),
  every counter 0, the host's boot time;
* ``/proc/meminfo``: the bot's memory cap as its total, all of it free;
* ``/proc/loadavg``, ``/proc/uptime``, ``/proc/pressure/{cpu,memory,io,irq}``: an idle machine;
* ``/proc/cgroups``: the controllers, each with one cgroup;
* the rest (``COUNTERS_HIDDEN``): empty.

A file the host's kernel does not have is left out (a mask needs something to cover). The masks
live in a folder of the league's own (``league-proc-PID-START-``), removed at exit, or swept
by the next run when a killed one left it (``sandbox.jail.sweep_stale_scratch``).
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from pathlib import Path

from sandbox.procfs import START_TIME, stat_fields

MASK_PREFIX = "league-proc-"

COUNTERS_HIDDEN = (
    "/proc/key-users",
    "/proc/keys",
    "/proc/vmstat",
    "/proc/zoneinfo",
    "/proc/buddyinfo",
    "/proc/interrupts",
    "/proc/softirqs",
    "/proc/schedstat",
    "/proc/diskstats",
    "/proc/locks",
    "/proc/swaps",
    "/proc/sched_debug",
    "/proc/sys/fs/file-nr",
    "/proc/sys/fs/inode-nr",
    "/proc/sys/fs/inode-state",
    "/proc/sys/fs/dentry-state",
    "/proc/sys/fs/aio-nr",
)
"""Machine-wide counters shown empty."""

_IDLE_PRESSURE = "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"


def _host_cpus() -> list[str]:
    """The names of the host's CPU lines in /proc/stat (``cpu0``, ``cpu1``, ...)."""
    try:
        lines = Path("/proc/stat").read_text().splitlines()
    except OSError:
        return [f"cpu{k}" for k in range(os.cpu_count() or 1)]
    return [line.split()[0] for line in lines if line.startswith("cpu") and line[3:4].isdigit()]


def _boot_time() -> str:
    try:
        for line in Path("/proc/stat").read_text().splitlines():
            if line.startswith("btime "):
                return line.split()[1]
    except OSError:
        pass
    return "0"


def stat_text() -> str:
    """A ``/proc/stat`` of an idle machine with the host's CPUs."""
    zeros = " ".join(["0"] * 10)
    lines = [f"cpu  {zeros}", *(f"{cpu} {zeros}" for cpu in _host_cpus())]
    lines += ["intr 0", "ctxt 0", f"btime {_boot_time()}", "processes 0", "procs_running 1", "procs_blocked 0"]
    lines.append("softirq " + " ".join(["0"] * 11))
    return "\n".join(lines) + "\n"


def meminfo_text(memory_mb: int) -> str:
    """A ``/proc/meminfo`` whose total is the bot's cap, all of it free."""
    total = memory_mb << 10
    figures = {"MemTotal": total, "MemFree": total, "MemAvailable": total}
    figures |= dict.fromkeys(("Buffers", "Cached", "SwapCached", "Active", "Inactive", "Shmem", "Slab"), 0)
    figures |= dict.fromkeys(("SReclaimable", "SUnreclaim", "SwapTotal", "SwapFree", "Dirty", "Mapped"), 0)
    return "".join(f"{key + ':':<16}{value:>8} kB\n" for key, value in figures.items())


def cgroups_text() -> str:
    """``/proc/cgroups`` with every controller's count of cgroups at 1."""
    try:
        lines = Path("/proc/cgroups").read_text().splitlines()
    except OSError:
        return ""
    shown = [lines[0]] if lines else []
    for line in lines[1:]:
        fields = line.split()
        if len(fields) == 4:
            shown.append("\t".join([fields[0], fields[1], "1", fields[3]]))
    return "\n".join(shown) + "\n"


def _texts(memory_mb: int) -> dict[str, str]:
    """Each covered /proc file -> what the jail reads there."""
    texts = {
        "/proc/stat": stat_text(),
        "/proc/meminfo": meminfo_text(memory_mb),
        "/proc/loadavg": "0.00 0.00 0.00 1/1 1\n",
        "/proc/uptime": "1.00 0.00\n",
        "/proc/cgroups": cgroups_text(),
        **{f"/proc/pressure/{kind}": _IDLE_PRESSURE for kind in ("cpu", "memory", "io", "irq")},
        **dict.fromkeys(COUNTERS_HIDDEN, ""),
    }
    return {path: text for path, text in texts.items() if os.path.isfile(path)}


@functools.cache
def _mask_folder() -> Path:
    """This process's folder of mask files (made once, removed at exit)."""
    fields = stat_fields(os.getpid())
    start = fields[START_TIME] if fields is not None else "0"
    folder = Path(tempfile.mkdtemp(prefix=f"{MASK_PREFIX}{os.getpid()}-{start}-"))
    folder.chmod(0o755)  # bubblewrap (root) binds from it; jailed uids read the files through the binds
    atexit.register(shutil.rmtree, folder, True)
    return folder


@functools.cache
def mask_files(memory_mb: int) -> tuple[tuple[str, str], ...]:
    """(mask file on the host, /proc path it covers), for a bot capped at ``memory_mb``."""
    folder = _mask_folder() / str(memory_mb)
    folder.mkdir(exist_ok=True)
    pairs = []
    for path, text in _texts(memory_mb).items():
        mask = folder / path.removeprefix("/proc/").replace("/", "-")
        mask.write_text(text)
        mask.chmod(0o444)
        pairs.append((str(mask), path))
    return tuple(pairs)


def mask_arguments(memory_mb: int) -> list[str]:
    """The bubblewrap arguments that cover the counters, after its ``--proc /proc``."""
    args: list[str] = []
    for mask, path in mask_files(memory_mb):
        args += ["--ro-bind", mask, path]
    return args
