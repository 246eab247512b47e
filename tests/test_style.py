"""The code base is ruff clean (part of the test suite, so CI checks it)."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_clean():
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    completed = subprocess.run([ruff, "check", str(ROOT)], capture_output=True, text=True)
    assert completed.returncode == 0, completed.stdout + completed.stderr
