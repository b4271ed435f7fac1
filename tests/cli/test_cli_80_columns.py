"""Tables and help fit 80 columns: every `--help` at COLUMNS=80 and piped (no terminal),
measured in display columns (a CJK character is two); the `simulate` table's cells never
wrap; evaluate's A/B help names model files and file.py:policy."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata

import pytest


def _width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


def _run(*args: str) -> str:
    env = {**os.environ, "COLUMNS": "80"}
    p = subprocess.run([sys.executable, "-m", "daguai", *args], capture_output=True, text=True,
                       timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    return p.stdout


@pytest.mark.parametrize(
    "command", ["", "simulate", "evaluate", "analyze", "serve", "bench", "train", "rules"]
)
def test_help_fits_80_columns(command):
    text = _run(*([command] if command else []), "--help")
    wide = [line for line in text.splitlines() if _width(line) > 80]
    assert not wide, wide


def test_evaluate_help_names_every_policy_form():
    text = " ".join(_run("evaluate", "--help").split())
    assert ".dgn" in text and "file.py:policy" in text


def test_simulate_table_cells_do_not_wrap():
    text = _run("simulate", "--rounds", "300")
    lines = text.splitlines()
    assert all(_width(line) <= 80 for line in lines), [ln for ln in lines if _width(ln) > 80]
    rows = [ln for ln in lines if ln.lstrip().startswith(("A  0 2 4", "B  1 3 5"))]
    assert len(rows) == 2 and all("%" in r and "[" in r and "±" in r for r in rows), lines[:8]
    # no continuation line of a row (a wrapped cell starts a line with spaces then a value)
    i = lines.index(rows[1])
    assert not lines[i + 1].strip(), lines[i + 1]


@pytest.mark.parametrize("extra", [[], ["--targets"]])
def test_bench_rows_fit_80_columns(extra):
    text = _run("bench", "--quick", "--hands", "5", "--no-rollouts", *extra)
    lines = text.splitlines()
    assert any("µs" in ln or "ns" in ln for ln in lines), lines
    assert all(_width(line) <= 80 for line in lines), [ln for ln in lines if _width(ln) > 80]
