"""A TCP client that sends back every byte it receives, unchanged, until the server closes.

Usage: ``tcp_echo.py HOST PORT``. It first sends ``hello\\r\\n`` and says on stdout where it connected.
"""

import socket
import sys

connection = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=30)
print(f"connected to {sys.argv[1]}:{sys.argv[2]}", flush=True)
connection.sendall(b"hello\r\n")
while True:
    data = connection.recv(4096)
    if not data:
        break
    connection.sendall(data)
