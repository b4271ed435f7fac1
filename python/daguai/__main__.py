"""``python -m daguai``: the same as the ``daguai`` command (daguai.cli)."""

import sys

from .cli import main

sys.exit(main())
