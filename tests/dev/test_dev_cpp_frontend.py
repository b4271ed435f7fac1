"""The engine as a C++ library: install it with CMake, build examples/cpp against the installed
package with find_package(daguai), run it, and check it deals what the Python API deals."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
from cmake_helpers import cmake_exe
from daguai import Game

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

pytestmark = pytest.mark.slow


def _cmake() -> str:
    return cmake_exe("the C++ example")


def _run(*args: str) -> str:
    p = subprocess.run(list(args), capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, f"{' '.join(args)}\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return p.stdout


def test_installed_engine_builds_the_cpp_example(tmp_path):
    if not os.path.exists(os.path.join(ROOT, "CMakeLists.txt")):
        pytest.skip("not a source checkout")
    cmake = _cmake()
    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    build, prefix, example = tmp_path / "engine", tmp_path / "prefix", tmp_path / "example"
    _run(cmake, "-S", ROOT, "-B", str(build), *gen, "-DCMAKE_BUILD_TYPE=Release")
    _run(cmake, "--build", str(build), "--parallel", "2")
    _run(cmake, "--install", str(build), "--prefix", str(prefix))
    # headers install by layer, as the engine includes them: <daguai/LAYER/NAME.hpp>
    assert (prefix / "include" / "daguai" / "game" / "state.hpp").exists()
    assert not (prefix / "include" / "daguai" / "state.hpp").exists()
    _run(cmake, "-S", os.path.join(ROOT, "examples", "cpp"), "-B", str(example), *gen,
         f"-DCMAKE_PREFIX_PATH={prefix}")
    _run(cmake, "--build", str(example))
    exe = str(example / "play_round")
    for seed in (7, 123):
        out = _run(exe, str(seed))
        g = Game(seed=seed)
        first = out.splitlines()[0]
        assert first == f"seat {g.dealer} deals; seat 0 holds {g.hand(0)}"
        m = re.search(r"(\d+) decisions; finishing order: ([0-5 ]+); winner: (.*)$", out)
        assert m, out
        assert sorted(int(s) for s in m.group(2).split()) == list(range(6))
        assert m.group(3) in ("draw", "team A", "team B")
        assert int(m.group(1)) > 6
