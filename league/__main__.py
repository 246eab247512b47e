"""``python -m league`` is the ``league`` command."""

import sys

from league.cli.main import main

sys.exit(main())
