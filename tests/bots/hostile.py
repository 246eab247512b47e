"""A versus2048 bot that answers the pre-game, then misbehaves at its first turn as argv[1] says.

Modes (argv[2:] are their arguments):
  forkbomb          fork without end
  memhog            allocate and touch memory without end
  spin              loop forever on the CPU
  oversleep         sleep past the per-turn deadline
  bank              answer every turn legally but slowly, until the total time bank is spent
  flood_stdout      print without ever writing a newline
  flood_stderr      write endlessly to stderr, never answer
  close_linger      close stdout, then keep running
  daemon            start a child in a new session that keeps stdout open, then exit
  connect PORT      try to connect to 127.0.0.1:PORT, then report and forfeit
  write PATH        try to create PATH (outside the scratch folder), then forfeit
  read PATH         try to read PATH and print it as the reply ("|" in PATH stands for "/", so that
                    the path is not named in the command and the jail does not expose it)
  kill PID          try to kill the referee's process PID, then forfeit
  longline BYTES    print one line of BYTES bytes
"""

import os
import socket
import subprocess
import sys
import time

from botio import read_line, say
from v2048lib import legal_reply, read_turn

mode, args = sys.argv[1], sys.argv[2:]
read_line()
say("1 1")
_, mine, theirs = read_turn()

if mode == "forkbomb":
    while True:
        try:
            os.fork()
        except OSError:
            time.sleep(0.01)
elif mode == "memhog":
    hoard = []
    while True:
        hoard.append(bytearray(16 << 20))
elif mode == "spin":
    while True:
        pass
elif mode == "oversleep":
    time.sleep(30)
elif mode == "bank":
    while True:
        reply = legal_reply(mine, theirs)
        time.sleep(0.2)
        say(reply)
        _, mine, theirs = read_turn()
elif mode == "flood_stdout":
    chunk = "x" * 65536
    while True:
        sys.stdout.write(chunk)
elif mode == "flood_stderr":
    chunk = "e" * 65536
    while True:
        sys.stderr.write(chunk)
elif mode == "close_linger":
    os.close(1)
    time.sleep(30)
elif mode == "daemon":
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    sys.exit(0)
elif mode == "connect":
    try:
        socket.create_connection(("127.0.0.1", int(args[0])), timeout=2).close()
        say("connected")
    except OSError as error:
        say(f"no connection: {error}")
elif mode == "write":
    try:
        with open(args[0], "w") as handle:
            handle.write("pwned")
        say("wrote it")
    except OSError as error:
        say(f"cannot write: {error}")
elif mode == "read":
    try:
        with open(args[0].replace("|", "/")) as handle:
            say("read: " + handle.read().replace("\n", " "))
    except OSError as error:
        say(f"cannot read: {error}")
elif mode == "kill":
    try:
        os.kill(int(args[0]), 9)
        say("killed it")
    except OSError as error:
        say(f"cannot kill: {error}")
elif mode == "longline":
    say("U" * int(args[0]))
time.sleep(30)
