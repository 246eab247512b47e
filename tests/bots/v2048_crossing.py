"""A versus2048 bot that plays legal moves while it tries to reach past its jail, and tells how far it got.

Usage: ``v2048_crossing.py TRICK``. Each trick is one a colluding or spying entrant would try; the
bot prints ``TRICK NAME: WORKED ...`` or ``TRICK NAME: FAILED ...`` on stderr (at its first turn;
tricks that watch the whole game say again at every turn what they saw so far, the last line the
whole game's) and plays on legally (v2048lib).

Tricks:
  key-leave     add a key to its user keyring, readable by anyone, for a later game's bot
  key-find      look for such a key (by name, and in /proc/keys)
  lock-hold     hold an exclusive flock and a fcntl read lock on /etc/hostname all game long
  lock-test     at every turn, test whether another jail holds a lock on /etc/hostname
  watch         watch /etc with inotify all game long, counting what others open there
  touch         open /etc/hostname at every turn (a signal for a watcher)
  counters      read the machine-wide counters at every turn, counting those that moved
  hoard         open loopback TCP connections and queue as much as the kernel takes
"""

import ctypes
import errno
import fcntl
import os
import select
import socket
import struct
import sys

from botio import read_line, say
from v2048lib import legal_reply, read_turn

SHARED = "/etc/hostname"
COUNTERS = (
    "/proc/stat",
    "/proc/loadavg",
    "/proc/uptime",
    "/proc/meminfo",
    "/proc/vmstat",
    "/proc/interrupts",
    "/proc/softirqs",
    "/proc/schedstat",
    "/proc/pressure/cpu",
    "/proc/pressure/memory",
    "/proc/key-users",
    "/proc/sys/fs/file-nr",
)
FLOCK = "hhxxxxqqixxxx"
"""``struct flock`` on x86-64: l_type, l_whence, l_start, l_len, l_pid."""
KEY_NAME = b"league-note"
KEYCTL_SETPERM, KEYCTL_SEARCH, KEYCTL_READ = 5, 10, 11
KEY_SPEC_USER_KEYRING = -4

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def report(trick, worked, detail):
    print(f"TRICK {trick}: {'WORKED' if worked else 'FAILED'} {detail}", file=sys.stderr, flush=True)


def system_call(number, *args):
    """A raw system call: (result, errno name)."""
    result = libc.syscall(number, *args)
    return result, "" if result >= 0 else errno.errorcode.get(ctypes.get_errno(), "?")


def key_leave():
    payload = b"the hands I saw"
    key, error = system_call(248, b"user", KEY_NAME, payload, len(payload), KEY_SPEC_USER_KEYRING)
    if key < 0:
        return report("key-leave", False, f"add_key: {error}")
    system_call(250, KEYCTL_SETPERM, key, 0x3F3F3F3F)
    report("key-leave", True, f"key {key} left in the user keyring")


def key_find():
    key, error = system_call(250, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, b"user", KEY_NAME, 0)
    listed = ""
    try:
        with open("/proc/keys") as keys:
            listed = " ".join(line.split()[0] for line in keys if KEY_NAME.decode() in line)
    except OSError:
        pass
    if key >= 0 or listed:
        buffer = ctypes.create_string_buffer(64)
        if key >= 0:
            system_call(250, KEYCTL_READ, key, buffer, 64)
        return report("key-find", True, f"found key {key if key >= 0 else listed}: {buffer.value!r}")
    report("key-find", False, f"keyctl search: {error}; /proc/keys lists none")


class Watcher:
    def __init__(self):
        self.fd, self.error = system_call(294, os.O_NONBLOCK)  # inotify_init1
        self.events = 0
        if self.fd >= 0:
            watch = libc.inotify_add_watch(self.fd, b"/etc", 0x20 | 0x01)  # IN_OPEN | IN_ACCESS
            if watch < 0:
                self.error = errno.errorcode.get(ctypes.get_errno(), "?")

    def count(self):
        while self.fd >= 0 and select.select([self.fd], [], [], 0)[0]:
            try:
                self.events += len(os.read(self.fd, 4096)) // 16  # an event is 16 bytes with no name
            except BlockingIOError:
                break

    def report(self):
        self.count()
        if self.fd < 0:
            return report("watch", False, f"inotify_init1: {self.error}")
        report("watch", self.events > 0, f"{self.events} events from others' opens")


def lock_hold(handle):
    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    fcntl.lockf(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
    print("holding the locks", file=sys.stderr, flush=True)


def lock_seen():
    """Whether another process holds a lock on the shared file now (flock, or a fcntl lock)."""
    with open(SHARED) as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        query = struct.pack(FLOCK, fcntl.F_WRLCK, os.SEEK_SET, 0, 0, 0)
        return struct.unpack(FLOCK, fcntl.fcntl(handle, fcntl.F_GETLK, query))[0] != fcntl.F_UNLCK


def counters():
    values = {}
    for path in COUNTERS:
        try:
            with open(path) as handle:
                values[path] = handle.read()
        except OSError:
            values[path] = None
    return values


def hoard():
    try:
        server = socket.socket()
    except OSError as error:
        return report("hoard", False, f"socket: {error.strerror}")
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    queued, held = 0, []
    for _ in range(24):
        client = socket.socket()
        client.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 30)
        client.connect(server.getsockname())
        other, _ = server.accept()
        other.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 30)
        client.setblocking(False)
        while True:
            try:
                queued += client.send(b"x" * 65536)
            except (BlockingIOError, OSError):
                break
        held.append((client, other))
    report("hoard", True, f"queued {queued >> 20} MiB in socket buffers")


trick = sys.argv[1]
read_line()
watcher = Watcher() if trick == "watch" else None
held = open(SHARED) if trick == "lock-hold" else None
if held is not None:
    lock_hold(held)
say("1 1")
seen_locked, moved, before = 0, set(), counters()
turns = 0
while True:
    _, mine, theirs = read_turn()
    turns += 1
    if turns == 1:
        {"key-leave": key_leave, "key-find": key_find, "hoard": hoard}.get(trick, lambda: None)()
    if trick == "lock-test":
        seen_locked += lock_seen()
        report("lock-test", seen_locked > 0, f"saw a lock at {seen_locked} of {turns} turns")
    elif trick == "touch":
        with open(SHARED) as handle:
            handle.read()
    elif trick == "watch":
        watcher.report()
    elif trick == "counters":
        now = counters()
        moved |= {path for path in COUNTERS if now[path] is not None and now[path] != before[path]}
        before = now
        report("counters", bool(moved), f"moved: {', '.join(sorted(moved)) or 'none'} over {turns} turns")
    say(legal_reply(mine, theirs))
