"""attack2048 defender that answers its first request, then closes its stdin and lingers."""

import os
import sys
import time

rows = [sys.stdin.readline() for _ in range(5)][1:]
tile_row = next(y for y, row in enumerate(rows) if any(v != "0" for v in row.split()))
print("south" if tile_row == 0 else "north", flush=True)
os.close(0)
time.sleep(30)
