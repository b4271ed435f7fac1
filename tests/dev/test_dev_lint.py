"""The house style as a test (STYLE.md): ruff's rule set (E, F, I, B, UP; pyproject.toml) on the
Python files and clang-format (.clang-format) on the C++ files. Both tools come with the
``test`` extra, pinned, so the suite and CI check the same thing."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PY_DIRS = ["python", "tests", "benchmarks", "examples"]
CPP_DIRS = ["cpp", "examples"]


def cpp_files() -> list[Path]:
    return sorted(p for d in CPP_DIRS for p in (ROOT / d).rglob("*") if p.suffix in (".cpp", ".hpp"))


def test_ruff_finds_nothing():
    pytest.importorskip("ruff", reason="ruff comes with the test extra")
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise",
                           *PY_DIRS], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_cpp_is_clang_formatted():
    exe = shutil.which("clang-format")
    assert exe, "clang-format comes with the test extra (pip install '.[test]')"
    files = cpp_files()
    assert len(files) > 20, "the C++ sources were not found"
    proc = subprocess.run([exe, "--dry-run", "--Werror", *map(str, files)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode == 0, (proc.stderr[:4000] + "\nfix with: clang-format -i " +
                                  " ".join(str(f.relative_to(ROOT)) for f in files))


def test_lint_catches_a_violation(tmp_path):
    """The checks can fail: an unsorted import and a misformatted line are reported."""
    pytest.importorskip("ruff", reason="ruff comes with the test extra")
    bad = tmp_path / "bad.py"
    bad.write_text("import sys\nimport os\n\nprint(os, sys)\n")
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--config",
                           str(ROOT / "pyproject.toml"), str(bad)], capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 1 and "I001" in proc.stdout
    src = tmp_path / "bad.cpp"
    src.write_text("int  f( int x ){return x;}\n")
    shutil.copy(ROOT / ".clang-format", tmp_path / ".clang-format")
    proc = subprocess.run([shutil.which("clang-format") or "clang-format", "--dry-run", "--Werror", str(src)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode != 0
