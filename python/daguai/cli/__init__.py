"""The ``daguai`` command: ``simulate``, ``evaluate``, ``bench``, ``serve``, ``train``,
``gate``, ``analyze``, ``ladder`` and ``rules`` (docs/simulation.md "The `daguai` command";
``daguai COMMAND --help``).

Every subcommand is one :class:`Command` (a function adding its arguments and a function
running it) in a module of this folder: ``simulate.py`` (simulate, evaluate), ``bench.py``,
``serve.py``, ``train.py``, ``gate.py``, ``analyze.py``, ``ladder.py``, ``rules.py``; ``options.py`` holds
what they share and ``main.py`` the table :data:`COMMANDS`, the parser and :func:`main`. To
add a subcommand, write its module and add its ``Command`` to the table.

Bad arguments print one line ``daguai: error: ...`` on stderr and exit with status 2;
a failure while running exits with status 1 the same way; Ctrl-C exits with 130; a closed
output pipe (``daguai ... | head``) ends the command quietly.
"""

from __future__ import annotations

from .main import COMMANDS, build_parser, main
from .options import Command

__all__ = ["COMMANDS", "Command", "build_parser", "main"]
