"""Finding CMake for the tests that build C++ with it (the C++ frontend, the perft tool)."""

from __future__ import annotations

import os
import shutil

import pytest


def cmake_exe(what: str) -> str:
    """cmake on PATH, or the one the PyPI ``cmake`` package (which scikit-build-core brings)
    ships; skips the test, saying it cannot build ``what``, when there is neither."""
    exe = shutil.which("cmake")
    if exe is not None:
        return exe
    try:
        import cmake
    except ImportError:
        pytest.skip(f"no cmake on PATH and no cmake Python package: cannot build {what}")
    return os.path.join(cmake.CMAKE_BIN_DIR, "cmake")
