"""A crafted pickle for the tests of untrusted files: loading it would run code."""

from __future__ import annotations

from pathlib import Path


class Planted:
    """Unpickling this writes ``marker`` (what a crafted checkpoint does: runs code on load), so a
    test checks that ``marker`` does not exist after a refused load."""

    def __init__(self, marker: str | Path) -> None:
        self.marker = str(marker)

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Path(self.marker).write_text, ("ran",))
