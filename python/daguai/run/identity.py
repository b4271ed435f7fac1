"""What a cached result of a player depends on (the ladder's cache, docs/ladder.md "The cache").

A model file is identified by the SHA-256 of its bytes. A built-in player is identified by the
engine's version and the SHA-256 of the native engine's file (``daguai._core``): every change of
a built-in policy's code, or of the rules it plays, is a new build of that file, so its cached
results are played again. The built-in players that play the shipped models (``learned`` and
the searches whose incumbent is its choice) add the SHA-256 of the shipped model files.
"""

from __future__ import annotations

import functools
import hashlib
import os
import stat
from pathlib import Path

from .. import _core
from ..dgn import models_digest

#: A model file is hashed, never executed; one larger than this is refused before reading.
MAX_MODEL_BYTES = 256 << 20
#: The built-in policies that play the shipped model files (cpp/engine/catalog/policies.def:
#: the model policy and the searches whose incumbent is its choice).
MODEL_POLICIES = frozenset({"learned", "expert"})
MODELS = Path(__file__).resolve().parents[1] / "models"
#: The native engine's file (the extension module) whose bytes identify the built-in players.
ENGINE = Path(_core.__file__)


@functools.lru_cache(maxsize=8)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    """SHA-256 of a file, read in chunks; cached per (path, size, modification time)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def engine_digest(path: Path | None = None) -> str:
    """SHA-256 of the native engine's file (``ENGINE`` unless ``path`` is given)."""
    st = os.stat(path or ENGINE)
    return _file_digest(str(path or ENGINE), st.st_size, st.st_mtime_ns)


def identity(p: str) -> str:
    """What a pairing's result depends on besides the deals: a model file's bytes, or a
    built-in policy of this engine build (and, for those that play them, the shipped
    model files' bytes). A bad model path raises ``ValueError`` after reading at most
    ``MAX_MODEL_BYTES``."""
    if "@" in p:  # SEARCH@MODEL: the search of this build over that model
        search, _, model = p.partition("@")
        return f"{identity(search)}+over:{identity(model)}"
    if p.endswith(".dgn"):
        try:
            st = os.stat(p)
        except OSError as e:
            raise ValueError(f"model file {p!r}: {e.strerror}") from None
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"model file {p!r} is not a regular file")
        if st.st_size > MAX_MODEL_BYTES:
            raise ValueError(f"model file {p!r} is {st.st_size:,} bytes, over {MAX_MODEL_BYTES:,}")
        h = hashlib.sha256()
        with open(p, "rb") as f:
            h.update(f.read(MAX_MODEL_BYTES + 1))
        return "model:" + h.hexdigest()
    built = f"{p}@{_core.__version__}+engine:{engine_digest()}"
    if p in MODEL_POLICIES:
        return f"{built}+models:{models_digest(MODELS)}"
    return built
