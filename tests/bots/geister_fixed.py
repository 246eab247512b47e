"""geister bot that never randomises: it names its reds SETUP (argv[1], default ABCD) and plays ``geister_lib.charge``.

With argv[2] == "echo" it writes every line it reads to stderr as Python's repr of its bytes, so a
test can see the exact bytes it was sent.
"""

import sys

from botio import read_raw_line, say
from geister_lib import charge

reds = sys.argv[1] if len(sys.argv) > 1 else "ABCD"
echo = len(sys.argv) > 2 and sys.argv[2] == "echo"
while True:
    message = read_raw_line(echo).decode("ascii").rstrip("\r\n")
    if message == "SET?":
        say(f"SET:{reds}")
    elif message.startswith("MOV?"):
        say(charge(message[4:]))
