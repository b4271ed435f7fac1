"""The example remote bot now ships in the package as :mod:`daguai.bot`
(``python -m daguai.bot --help``); this file only runs it, for old instructions::

    python examples/remote_bot.py --vs-bots
"""

from __future__ import annotations

from daguai.bot import main

if __name__ == "__main__":
    raise SystemExit(main())
