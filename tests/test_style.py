"""The code base is ruff clean (part of the test suite, so CI checks it).

Only files under version control are checked: a scratch file of one's own in the working tree,
or another tool's output, is not the project's code.
"""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def tracked_python_files() -> list[str]:
    """The Python files git tracks, or every one when this is not a git checkout."""
    listing = subprocess.run(["git", "ls-files", "-z", "*.py"], cwd=ROOT, capture_output=True)
    if listing.returncode != 0:
        return [str(path.relative_to(ROOT)) for path in ROOT.rglob("*.py") if ".venv" not in path.parts]
    return [name for name in listing.stdout.decode().split("\0") if name]


def test_ruff_clean():
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    files = tracked_python_files()
    assert len(files) > 50, files
    completed = subprocess.run([ruff, "check", *files], cwd=ROOT, capture_output=True, text=True)
    assert completed.returncode == 0, completed.stdout + completed.stderr
