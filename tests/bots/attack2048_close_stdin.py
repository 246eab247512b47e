"""attack2048 defender that closes its stdin as it answers its first request, then lingers.

The stdin is closed before the answer goes out, so the referee's next request always meets a
broken pipe (closed after it, the request could be written first and only time out).
"""

import os
import sys
import time

rows = [sys.stdin.readline() for _ in range(5)][1:]
tile_row = next(y for y, row in enumerate(rows) if any(v != "0" for v in row.split()))
os.close(0)
print("south" if tile_row == 0 else "north", flush=True)
time.sleep(30)
