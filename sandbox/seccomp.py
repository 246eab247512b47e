"""The jail's second wall: a seccomp filter refusing the system calls through which jails could meet.

Namespaces separate processes, mounts, networks and IPC, but some kernel objects are shared by
every process of the machine whatever its namespaces. The filter (a classic BPF program, built
here byte by byte, loaded by bubblewrap's ``--seccomp FD`` just before the bot's command runs)
closes each of them:

* **Keyrings** are per uid and not namespaced: a key left in a user keyring is read by a later
  game's bot. ``add_key``, ``request_key`` and ``keyctl`` fail with ENOSYS ("not here").
* **Locks** on the read-only host files every jail shows (``/etc``, ``/usr``) are seen by every
  other jail: ``flock`` and the fcntl locks (``F_SETLK``, ``F_SETLKW``, ``F_OFD_SETLK``,
  ``F_OFD_SETLKW``) succeed and lock nothing, so no jail can hold a lock another can test.
  ``F_GETLK`` still answers (it can only ever find the host's own locks).
* **File watches**: ``inotify``, ``fanotify`` and fcntl's ``F_NOTIFY`` would tell a jail when
  another opens a shared file; they fail with ENOSYS (``F_NOTIFY``: EINVAL).
* **Page cache**: ``fadvise`` succeeds and does nothing, so a bot cannot evict the pages of a
  shared file for another to time.
* **Sockets** (only where the bot has no network and no TCP relay in its jail): every family but
  ``AF_UNIX`` fails with EAFNOSUPPORT ("Address family not supported by protocol"), so no bot pins
  kernel memory in socket buffers of its loopback.
* **New namespaces** (``unshare``, ``setns``, ``clone`` with a ``CLONE_NEW*`` flag; ``clone3``
  fails with ENOSYS, so the C library falls back to ``clone``) and the mount calls: a user
  namespace of its own would let a bot mount a fresh ``/proc`` past the jail's masks.
* ``io_uring`` (which would make system calls the filter never sees), ``bpf``,
  ``perf_event_open`` (the machine's counters) and ``userfaultfd`` fail with ENOSYS.

System calls of another ABI (x32, or 32-bit programs) fail with ENOSYS: the numbers above are
x86-64's, and a filter is only as good as the numbers it checks. Other architectures get no
filter (``seccomp_problem`` says so; ``sandbox: strict`` then refuses to run).
"""

from __future__ import annotations

import errno
import os
import platform
import struct

AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000

_LD_ABS_W, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW = 0x7FFF0000
_ERRNO = 0x00050000
_NR, _ARCH = 0, 4


def _arg(index: int) -> int:
    """The offset of a system call argument's low 32 bits in ``struct seccomp_data`` (little-endian)."""
    return 16 + 8 * index


SYSCALLS = {
    "socket": 41,
    "clone": 56,
    "fcntl": 72,
    "flock": 73,
    "pivot_root": 155,
    "mount": 165,
    "umount2": 166,
    "fadvise64": 221,
    "add_key": 248,
    "request_key": 249,
    "keyctl": 250,
    "inotify_init": 253,
    "unshare": 272,
    "inotify_init1": 294,
    "perf_event_open": 298,
    "fanotify_init": 300,
    "setns": 308,
    "bpf": 321,
    "userfaultfd": 323,
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "clone3": 435,
    "mount_setattr": 442,
}
"""x86-64 system call numbers (``asm/unistd_64.h``)."""

F_GETLK, F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW, F_NOTIFY = 5, 6, 7, 37, 38, 1026
AF_UNIX = 1
CLONE_NEW_ANY = 0x7E020000
"""CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET."""

_REFUSED = {
    **dict.fromkeys(("add_key", "request_key", "keyctl"), errno.ENOSYS),
    **dict.fromkeys(("inotify_init", "inotify_init1", "fanotify_init"), errno.ENOSYS),
    **dict.fromkeys(("io_uring_setup", "io_uring_enter", "io_uring_register"), errno.ENOSYS),
    **dict.fromkeys(("bpf", "perf_event_open", "userfaultfd", "clone3"), errno.ENOSYS),
    **dict.fromkeys(("unshare", "setns", "mount", "umount2", "pivot_root", "mount_setattr"), errno.EPERM),
    **dict.fromkeys(("open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick"), errno.EPERM),
    "flock": 0,
    "fadvise64": 0,
}
"""System call -> the errno it fails with (0: it succeeds and does nothing)."""


def seccomp_problem() -> str | None:
    """Why the jail's seccomp filter cannot be used on this machine, or None."""
    machine = platform.machine()
    if machine != "x86_64":
        return f"no seccomp filter for this machine's architecture ({machine}; the filter knows x86-64's calls)"
    return None


def _instruction(code: int, k: int, true: int = 0, false: int = 0) -> bytes:
    return struct.pack("<HBBI", code, true, false, k)


def _fail(code: int) -> bytes:
    return _instruction(_RET, _ERRNO | code)


def _on_value(value: int, action: bytes, test: int = _JEQ) -> list[bytes]:
    """Return ``action`` when the accumulator equals (or, with _JSET, has bits of) ``value``; else go on."""
    return [_instruction(test, value, 0, 1), action]


def _on_call(name: int, block: list[bytes]) -> list[bytes]:
    """Run ``block`` (which always returns) for system call ``name``; else skip it."""
    return [_instruction(_JEQ, name, 0, len(block)), *block]


def filter_program(sockets: bool) -> bytes:
    """The filter as bubblewrap's ``--seccomp`` reads it: ``struct sock_filter`` entries, in order.

    Args:
        sockets: Whether the bot may open sockets of every family (it has a network, or a TCP
            relay in its jail); otherwise only ``AF_UNIX``.
    """
    allow = _instruction(_RET, _ALLOW)
    program = [
        _instruction(_LD_ABS_W, _ARCH),
        _instruction(_JEQ, AUDIT_ARCH_X86_64, 1, 0),  # the right ABI goes on, past the next
        _fail(errno.ENOSYS),
        _instruction(_LD_ABS_W, _NR),
        _instruction(_JGE, X32_SYSCALL_BIT, 0, 1),
        _fail(errno.ENOSYS),
    ]
    for name, code in _REFUSED.items():
        program += _on_value(SYSCALLS[name], _fail(code))
    locks = [_instruction(_LD_ABS_W, _arg(1))]
    for command in (F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW):
        locks += _on_value(command, _fail(0))
    locks += [*_on_value(F_NOTIFY, _fail(errno.EINVAL)), allow]
    program += _on_call(SYSCALLS["fcntl"], locks)
    program += _on_call(
        SYSCALLS["clone"],
        [_instruction(_LD_ABS_W, _arg(0)), *_on_value(CLONE_NEW_ANY, _fail(errno.EPERM), _JSET), allow],
    )
    if not sockets:
        program += _on_call(
            SYSCALLS["socket"],
            [_instruction(_LD_ABS_W, _arg(0)), *_on_value(AF_UNIX, allow), _fail(errno.EAFNOSUPPORT)],
        )
    program.append(allow)
    assert len(program) < 4096, "a classic BPF program holds at most 4096 instructions"
    return b"".join(program)


def filter_fd(sockets: bool) -> int:
    """A pipe's read end holding ``filter_program(sockets)``, for bubblewrap's ``--seccomp FD``.

    The caller passes it to the launch (``pass_fds``) and closes it once the jail has started.
    """
    program = filter_program(sockets)
    read, write = os.pipe()
    try:
        os.write(write, program)  # far below a pipe's buffer: never blocks
    finally:
        os.close(write)
    return read
