"""How one bot program is confined: bubblewrap, an unprivileged uid, rlimits and a cgroup.

The launch chain, all started straight from ``subprocess.Popen`` (no Python in the child):

    sh -c 'join the cgroup' -- prlimit <rlimits> -- bwrap <namespaces, mounts> -- setpriv <uid> -- BOT

* ``sh`` writes its pid into the slot's ``cgroup.procs`` (as root, before anything else runs),
  so the bot and all it ever starts are capped in memory and process count;
* ``prlimit`` sets CPU, file-size, open-file, core and process-count rlimits;
* ``bwrap`` (as root) gives new pid, ipc, uts and network namespaces (only a loopback of its
  own), a read-only system (``/usr``, ``/etc``), the bot's own folder, its interpreter's installation
  and the folder of each file named in its command (its helper modules) read-only and nothing else
  of the host (``sandbox.folders``: a working folder that is not the bot's own is shown empty), a private
  writable scratch folder (a tmpfs of ``scratch_mb`` at ``/tmp``, also HOME: the only place it can
  write; ``/dev`` is read-only), a cleared environment and a new session; it dies with the referee;
* ``setpriv`` drops to the slot's own uid and gid with no groups and no capabilities.

As a non-root user the chain is ``prlimit -- bwrap --unshare-all --cap-drop ALL -- BOT`` (user
namespaces instead of a uid switch). Without bubblewrap no program bot runs in ``auto`` or
``strict`` mode: the user installs it or asks for ``none`` (plain processes, nothing capped, as a
warning says) in so many words.
``strict`` also refuses a jail without a uid of its own and cgroup caps; ``auto`` warns.

The scratch folder lives in the jail's own mount namespace: nothing of it reaches the host's disk,
it is capped in total (a full one answers ENOSPC; its pages count toward the bot's memory cgroup),
and it vanishes with the jail, however the run ends. bubblewrap 0.5 or later is needed (``--size``).
Runs of earlier versions kept it in a host folder (``league-scratch-PID-START-``): folders whose
owner died are swept at the next start.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sandbox.access import Unreadable, check_paths, check_program, check_tree
from sandbox.cgroups import CgroupSlot, cgroups_problem, cpu_cap_problem, socket_memory, socket_memory_problem
from sandbox.folders import SYSTEM_DIRS, SYSTEM_LINKS, exposed_paths, is_system, mount_arguments, own_folders
from sandbox.limits import Limits, SandboxMode
from sandbox.proc_masks import MASK_PREFIX, mask_arguments
from sandbox.procfs import START_TIME, stat_fields
from sandbox.reaper import become_subreaper, reap_orphans
from sandbox.seccomp import filter_fd, seccomp_problem
from sandbox.slots import Slot, acquire_slot

JAIL_PATH = "/usr/local/bin:/usr/bin:/bin"
SCRATCH = "/tmp"
_JOIN_CGROUP = 'for f; do shift; [ "$f" = -- ] && break; echo $$ > "$f" || exit 125; done; exec "$@"'


class SandboxError(Exception):
    """The sandbox asked for cannot be set up here; the message says why and what to change."""


@dataclass
class LaunchPlan:
    """Everything needed to start one confined bot, and to clean up after it.

    Attributes:
        argv: The full command line to run (the jail chain, then the bot's command).
        cwd: Where the chain starts.
        jailed: Whether bubblewrap wraps the bot (exit statuses 128+N then mean signal N).
        cgroup: The bot's cgroup slot, if any.
        cleanups: Called once the bot is gone, in order.
        network: Whether the bot keeps the host's network (False: its jail has only a loopback of its own).
    """

    argv: list[str]
    cwd: str | None = None
    jailed: bool = False
    cgroup: CgroupSlot | None = None
    cleanups: list[Callable[[], None]] = field(default_factory=list)
    network: bool = True
    pass_fds: list[int] = field(default_factory=list)
    """Descriptors the chain inherits (the seccomp filter's); ``started`` closes them."""

    def started(self) -> None:
        """Close what only the launch needed, once the chain has started (or failed to)."""
        for fd in self.pass_fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self.pass_fds.clear()

    def cleanup(self) -> None:
        """Release the cgroup and the slot."""
        self.started()
        for step in self.cleanups:
            try:
                step()
            except OSError:
                pass
        self.cleanups.clear()


def find_bwrap() -> str | None:
    """The bubblewrap program, or None. ``LEAGUE_BWRAP`` overrides the search ("" = missing)."""
    override = os.environ.get("LEAGUE_BWRAP")
    if override is not None:
        return override or None
    return shutil.which("bwrap")


@functools.cache
def _bwrap_probe(bwrap: str, root: bool) -> str | None:
    """Run an empty jail once; why it failed, or None."""
    namespaces = ["--unshare-ipc", "--unshare-pid", "--unshare-net"] if root else ["--unshare-all"]
    probe = [bwrap, *namespaces, "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev"]
    probe += ["--size", "1048576", "--tmpfs", "/tmp", "true"]
    become_subreaper()  # the jail's inner process ends after the outer one: it comes back to us
    try:
        completed = subprocess.run(probe, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bubblewrap cannot run ({error})"
    finally:
        deadline = time.monotonic() + 0.1
        while reap_orphans() == 0 and time.monotonic() < deadline:
            time.sleep(0.005)
    if completed.returncode != 0:
        reason = completed.stderr.strip().splitlines()[-1] if completed.stderr.strip() else "no message"
        if "--size" in reason:
            return f"bubblewrap is too old ({reason}): 0.5 or later caps a bot's scratch folder (Debian 12 has 0.8)"
        hint = "" if root else " (user namespaces may be disabled: sysctl kernel.unprivileged_userns_clone=1)"
        return f"bubblewrap cannot make a jail here: {reason}{hint}"
    return None


def isolation_problem() -> str | None:
    """Why bots cannot get the jail's filesystem and network isolation here, or None."""
    bwrap = find_bwrap()
    if bwrap is None:
        return "bubblewrap is not installed (apt-get install bubblewrap)"
    return _bwrap_probe(bwrap, os.geteuid() == 0)


def jail_problem() -> str | None:
    """Why the full jail (isolation, a uid of its own, cgroup caps) cannot run here, or None."""
    problem = isolation_problem()
    root = os.geteuid() == 0
    if problem is None and not root:
        return "not running as root: bots cannot get a uid of their own nor cgroup memory and process caps"
    if problem is None:
        if shutil.which("setpriv") is None:
            return "setpriv is missing (apt-get install util-linux)"
        if shutil.which("prlimit") is None:
            return "prlimit is missing (apt-get install util-linux)"
        return cpu_cap_problem() or seccomp_problem()
    return problem


_warned: set[str] = set()


def _warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        print(f"league: WARNING: {message}", file=sys.stderr)


SCRATCH_PREFIX = "league-scratch-"
"""How runs of earlier versions named bots' scratch folders in the host's temporary folder."""


def _process_start(pid: int) -> str | None:
    """The start time of process ``pid`` (clock ticks since boot), or None if there is none."""
    fields = stat_fields(pid)
    return fields[START_TIME] if fields is not None else None


def sweep_stale_scratch() -> int:
    """Remove host folders whose owner process is gone (a killed run); returns how many.

    They are scratch folders of earlier versions and the /proc masks of ``sandbox.proc_masks``.
    """
    removed = 0
    for folder, prefix in _owned_folders():
        pid, _, rest = folder.name.removeprefix(prefix).partition("-")
        start = rest.partition("-")[0]
        if not pid.isdigit() or not start.isdigit() or _process_start(int(pid)) == start:
            continue  # not ours to judge, or its owner still runs
        shutil.rmtree(folder, ignore_errors=True)
        removed += 1
    return removed


def _owned_folders() -> list[tuple[Path, str]]:
    """The host's temporary folders named after the process that made them, with their prefix."""
    top = Path(tempfile.gettempdir())
    return [(folder, prefix) for prefix in (SCRATCH_PREFIX, MASK_PREFIX) for folder in top.glob(f"{prefix}*")]


@functools.cache
def _sweep_once() -> None:
    sweep_stale_scratch()


class Sandbox:
    """Makes launch plans for bots under one mode and one set of limits.

    Args:
        mode: auto, strict or none.
        limits: The resource caps.

    Raises:
        SandboxError: ``strict`` on a machine where the full jail cannot run.
    """

    def __init__(self, mode: SandboxMode = SandboxMode.AUTO, limits: Limits | None = None) -> None:
        self.mode = SandboxMode(mode)
        self.limits = limits or Limits()
        self.problem = None if self.mode == SandboxMode.NONE else jail_problem()
        if self.problem and self.mode == SandboxMode.STRICT:
            raise SandboxError(f"sandbox: strict cannot run here: {self.problem}")
        self.root = os.geteuid() == 0
        self.isolation_problem = None if self.mode == SandboxMode.NONE else isolation_problem()
        self.bwrap = find_bwrap() if self.mode != SandboxMode.NONE and self.isolation_problem is None else None
        self.use_cgroups = self.mode != SandboxMode.NONE and self.root and cgroups_problem() is None
        self.seccomp = self.mode != SandboxMode.NONE and seccomp_problem() is None
        if self.mode != SandboxMode.NONE:
            _sweep_once()

    @property
    def switches_uid(self) -> bool:
        """Whether bots run as an unprivileged uid of their own (the league runs as root, jailed)."""
        return self.root and self.mode != SandboxMode.NONE

    def require_isolation(self) -> None:
        """Refuse to run programs without the jail's filesystem and network isolation.

        Raises:
            SandboxError: The jail cannot run here and the mode is not ``none``.
        """
        if self.mode != SandboxMode.NONE and self.isolation_problem is not None:
            fix = "Install it" if find_bwrap() is None else "Fix that"
            raise SandboxError(
                f"program bots cannot be jailed here: {self.isolation_problem}. {fix}, or run programs you trust"
                " without a jail (--sandbox none, or sandbox: none in a league file)"
            )

    def unreadable(
        self, argv: Sequence[str], cwd: str | Path | None, read_only: Sequence[str] = (), own_folder: bool = False
    ) -> Unreadable | None:
        """The first host file the jailed bot would need but could not read, or None.

        Only bots that run as a uid of their own can meet such a file. Checked: the program
        (executable by others); the bot's own folders, walked (``sandbox.folders.own_folders``: the
        working folder when given as its own, the folder of every file its command names, where its
        helper files live: the jail shows them whole); the other exposed paths (its interpreter's
        installation, ``read_only``). A working folder that is not its own is not checked: the jail
        shows it as an empty folder of its own making.

        Args:
            argv: The bot's command line.
            cwd: Its working folder (None: the current one).
            read_only: More host paths it may read.
            own_folder: ``cwd`` was given as the bot's own folder (walked whole); otherwise it is
                just where the command runs (the current folder, a league file's folder).
        """
        if not self.switches_uid:
            return None
        folder = Path(cwd or ".").resolve()
        program = argv[0]
        where = shutil.which(program) if "/" not in program else None
        located = (folder / program).resolve() if "/" in program else (Path(where).resolve() if where else None)
        found = check_program(located) if located is not None and not is_system(located) else None
        for root in own_folders(argv, folder, own_folder):
            found = found or check_tree(root)
        own = [str(folder)] if own_folder else []
        exposed = exposed_paths(argv, folder, [*self.limits.read_only, *read_only, *own])
        return found or check_paths(exposed)

    def cpu_cap(self) -> str:
        """One line for people: how a bot's CPU is capped here, or why it is not."""
        if self.mode == SandboxMode.NONE:
            return "CPU: not capped (sandbox none)"
        problem = cpu_cap_problem() if self.root else "not running as root: no cgroup can cap a bot's CPU"
        if problem is None:
            cores = f"{self.limits.cores:g} core" + ("" if self.limits.cores == 1 else "s")
            return f"CPU: each bot's processes together capped at {cores} by a cgroup quota (limits.cores)"
        return f"CPU: not capped ({problem}): a bot with many processes may slow the others"

    def walls(self) -> str:
        """One line for people: what keeps jails apart here beyond their namespaces, or why nothing does."""
        if self.mode == SandboxMode.NONE:
            return "jail: none (sandbox none)"
        if self.bwrap is None:
            return f"jail: none ({self.isolation_problem})"
        problem = seccomp_problem()
        calls = (
            "keyrings, file locks and watches, new namespaces and io_uring refused by a seccomp filter"
            if problem is None
            else f"no seccomp filter ({problem}): keyrings, file locks and watches reach across jails"
        )
        sockets = (
            "sockets: the host's network (limits.network)"
            if self.limits.network
            else "sockets: AF_UNIX only (TCP only through a relay in the jail)"
            if problem is None
            else "sockets: any"
        )
        tcp = socket_memory() if self.root else "not capped (not running as root: no cgroup)"
        return f"jail: {calls}; /proc's machine-wide counters masked; {sockets}, TCP socket buffers {tcp}"

    @property
    def own_network(self) -> bool:
        """Whether each bot gets a network of its own (only a loopback), so ports never clash."""
        return self.mode != SandboxMode.NONE and self.bwrap is not None and not self.limits.network

    def plan(
        self,
        argv: Sequence[str],
        cwd: str | Path | None,
        read_only: Sequence[str] = (),
        helper: Sequence[str] = (),
        own_folder: bool = False,
    ) -> LaunchPlan:
        """The launch plan of one bot process.

        Args:
            argv: The bot's command line.
            cwd: Its working folder (None: the current one).
            read_only: More host paths it may read (besides the limits' own).
            helper: A program of ours that runs the bot inside the jail (the TCP relay): its
                command line comes first, and its files are exposed read-only too.
            own_folder: ``cwd`` is the bot's own folder, shown whole; otherwise the jail shows it
                as an empty folder holding only the folders of the files the command names.
        """
        folder = Path(cwd or ".").resolve()
        read_only = [*read_only, str(folder)] if own_folder else list(read_only)
        if self.mode == SandboxMode.NONE:
            _warn_once(
                "sandbox none: bots run as plain processes, neither jailed nor capped: they may read and write all"
                " that this user may, fill the disk (no scratch_mb), and take any memory, processes and network"
            )
            return LaunchPlan([*helper, *argv], cwd=str(folder))
        if self.bwrap is None:
            raise SandboxError(f"cannot jail {argv[0]!r}: {self.isolation_problem}")
        if self.problem:
            _warn_once(f"bots are jailed without the full jail: {self.problem}")
        if self.limits.network:
            _warn_once("limits.network is on: bots share this host's network and can reach its services")
        if self.limits.network or helper:
            self._check_socket_memory(argv)
        plan = LaunchPlan([], cwd=str(folder), network=self.limits.network)
        try:
            self._fill(plan, argv, folder, read_only, helper)
        except BaseException:
            plan.cleanup()  # release the slot and the cgroup made so far
            raise
        return plan

    def _check_socket_memory(self, argv: Sequence[str]) -> None:
        """A bot that may open TCP sockets needs its socket buffers capped: refused (strict) or warned (auto).

        Raises:
            SandboxError: ``strict``, and the buffers cannot be capped here.
        """
        problem = socket_memory_problem() if self.root else "not running as root: no cgroup counts them"
        if problem is None:
            return
        message = (
            f"{argv[0]!r} may open TCP sockets (a relay or limits.network) whose kernel buffers no cap counts here"
            f" ({problem}): a bot could pin the host's TCP memory; use cgroup v2, or a cgroup v1 with kmem.tcp"
        )
        if self.mode == SandboxMode.STRICT:
            raise SandboxError(f"sandbox: strict cannot run here: {message}")
        _warn_once(message)

    def _fill(
        self, plan: LaunchPlan, argv: Sequence[str], folder: Path, read_only: Sequence[str], helper: Sequence[str]
    ) -> None:
        slot: Slot | None = acquire_slot(os.getpid() % 64 * 64) if self.root else None
        if slot is not None:
            plan.cleanups.append(slot.release)
        # Killed with the referee from the first instant: bubblewrap's --die-with-parent only holds once
        # it runs, and a referee killed while the chain before it starts would leave the jail behind.
        chain: list[str] = ["setpriv", "--pdeathsig", "KILL", "--"] if shutil.which("setpriv") else []
        if self.use_cgroups and slot is not None:
            limits = self.limits
            plan.cgroup = CgroupSlot.create(slot.name, limits.memory_mb, limits.processes, cores=limits.cores)
            plan.cleanups.insert(0, plan.cgroup.destroy)
            chain += ["/bin/sh", "-c", _JOIN_CGROUP, "sh", *plan.cgroup.procs_files, "--"]
        chain += ["prlimit", *self._rlimits(memory_from_rlimit=plan.cgroup is None), "--"]
        plan.jailed = True
        chain += self._bwrap(plan, argv, folder, [*self.limits.read_only, *read_only], helper)
        if slot is not None:
            chain += ["setpriv", f"--reuid={slot.uid}", f"--regid={slot.uid}", "--clear-groups"]
            chain += ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
        plan.argv = chain + list(helper) + list(argv)

    def _rlimits(self, memory_from_rlimit: bool) -> list[str]:
        limits = self.limits
        size = limits.file_size_mb << 20
        options = [f"--nofile={limits.open_files}", f"--fsize={size}", "--core=0"]
        if self.root:
            options.append(f"--nproc={limits.processes}")
        if limits.cpu_seconds is not None:
            options.append(f"--cpu={limits.cpu_seconds}")
        if memory_from_rlimit:
            options.append(f"--data={limits.memory_mb << 20}")
        return options

    def _bwrap(
        self, plan: LaunchPlan, argv: Sequence[str], cwd: Path, read_only: Sequence[str], helper: Sequence[str]
    ) -> list[str]:
        args = [str(self.bwrap), "--die-with-parent", "--new-session"]
        if self.root:
            args += ["--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try"]
            args += [] if self.limits.network else ["--unshare-net"]
        else:
            args += ["--unshare-all", "--cap-drop", "ALL"] + (["--share-net"] if self.limits.network else [])
        for top in SYSTEM_DIRS:
            if Path(top).is_dir():
                args += ["--ro-bind", top, top]
        for link in SYSTEM_LINKS:
            if Path(link).is_symlink():
                args += ["--symlink", os.readlink(link), link]
            elif Path(link).is_dir():
                args += ["--ro-bind", link, link]
        # The scratch: a tmpfs capped in total, writable by the bot's uid; exposed paths under /tmp go on top.
        # /dev is a tmpfs of bubblewrap's that a bot in a user namespace would own: read-only, it is no scratch.
        args += ["--proc", "/proc", *mask_arguments(self.limits.memory_mb), "--dev", "/dev", "--remount-ro", "/dev"]
        args += ["--perms", "01777", "--size", str(self.limits.scratch_mb << 20), "--tmpfs", SCRATCH]
        helper_paths = [str(path) for path in exposed_paths(helper, cwd)] if helper else []
        args += mount_arguments(exposed_paths(argv, cwd, [*read_only, *helper_paths]), cwd)
        args += ["--chdir", str(cwd), "--clearenv"]
        program_dir = Path(argv[0]).parent if "/" in argv[0] else None
        located = shutil.which(argv[0]) if program_dir is None else None
        path = JAIL_PATH if located is None else f"{Path(located).parent}:{JAIL_PATH}"
        for key, value in (("PATH", path), ("HOME", SCRATCH), ("TMPDIR", SCRATCH), ("LANG", "C.UTF-8")):
            args += ["--setenv", key, value]
        if self.seccomp:
            fd = filter_fd(sockets=self.limits.network or bool(helper))
            plan.pass_fds.append(fd)
            args += ["--seccomp", str(fd)]
        return [*args, "--"]
