"""Session set-up shared by every test folder.

Ray: a local ``ray.init()`` (Ray 2.60) turns token authentication on and, when it finds no
token, writes one to ``~/.ray/auth_token``, the home of whoever runs the suite. For the tests'
session the token is instead a file of the session's own (``RAY_AUTH_TOKEN_PATH``, which Ray
reads first, as do the ``ray`` processes the tests start), removed at the end; a token the user
set (``RAY_AUTH_TOKEN`` or ``RAY_AUTH_TOKEN_PATH``) is left as it is.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
from pathlib import Path

_TOKEN_DIR: Path | None = None


def pytest_configure(config):
    global _TOKEN_DIR
    if "RAY_AUTH_TOKEN" in os.environ or "RAY_AUTH_TOKEN_PATH" in os.environ:
        return
    _TOKEN_DIR = Path(tempfile.mkdtemp(prefix="daguai-tests-ray-"))
    token = _TOKEN_DIR / "auth_token"
    token.write_text(secrets.token_hex(32))
    token.chmod(0o600)
    os.environ["RAY_AUTH_TOKEN_PATH"] = str(token)


def pytest_unconfigure(config):
    if _TOKEN_DIR is not None:
        os.environ.pop("RAY_AUTH_TOKEN_PATH", None)
        shutil.rmtree(_TOKEN_DIR, ignore_errors=True)
