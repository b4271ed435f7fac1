"""``python -m daguai``: the same as the ``daguai`` command (daguai.cli)."""

import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while importing: the same status as during a run
    sys.stderr.write("\ndaguai: interrupted\n")
    sys.exit(130)

sys.exit(main())
