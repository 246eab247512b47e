"""``python -m league`` is the ``league`` command."""

import sys

from league.cli import main

sys.exit(main())
