"""versus2048 bot that reaches for the network at its first turn, which its jail does not have.

Modes (argv[1]); the error goes unhandled, so the traceback is on stderr and the bot exits:
  connect   open a TCP connection to 1.1.1.1:53
  resolve   look up a host name
  refused   connect to a port of the jail's own loopback, where nothing listens
"""

import socket
import sys

from botio import read_line, say
from v2048lib import read_turn

mode = sys.argv[1]
read_line()
say("1 1")
read_turn()
if mode == "connect":
    socket.create_connection(("1.1.1.1", 53), timeout=5)
elif mode == "resolve":
    socket.getaddrinfo("example.com", 443)
elif mode == "refused":
    socket.create_connection(("127.0.0.1", 9), timeout=5)
