"""benchmarks/instructions.py, the instruction counts under callgrind: with valgrind installed
it counts (a tiny run) and writes its Markdown table; without it, it says so and exits 0."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "instructions.py"


def _run(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = dict(env if env is not None else os.environ)
    # the daguai this test imports (installed, or the source tree with its built module): a
    # fresh clone's python/ folder has no built module
    import daguai

    here = str(Path(daguai.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([here, env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
        check=False,
    )


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_instruction_table_has_its_shape(tmp_path: Path) -> None:
    out = tmp_path / "table.md"
    r = _run(["--tiny", "--only", "legal leads,apply,random x6", "--out", str(out)])
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert text == r.stdout
    lines = text.splitlines()
    assert lines[0].startswith("`python benchmarks/instructions.py --tiny`")
    assert lines[2] == "| operation | instructions | operations | difference of |"
    rows = [line for line in lines[4:] if line.startswith("|")]
    assert [row.split(" | ")[0] for row in rows] == [
        "| all legal leads, 27-card hand (written)",
        "| apply an action (recording off)",
        "| apply an action (recording on)",
        "| a round, random x6",
    ]
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 4
        per, ops = int(cells[1].replace(",", "")), int(cells[2].replace(",", ""))
        assert per > 0 and ops > 0, row
    # a lead set is hundreds of thousands of instructions, an apply well under ten thousand
    per = {
        c[0]: int(c[1].replace(",", ""))
        for c in ([x.strip() for x in row.strip("|").split("|")] for row in rows)
    }
    assert per["all legal leads, 27-card hand (written)"] > 20 * per["apply an action (recording off)"]


def test_instructions_without_valgrind_skips_cleanly(tmp_path: Path) -> None:
    """A PATH without valgrind: one line saying so, exit 0, no file written."""
    env = dict(os.environ, PATH=str(tmp_path))
    out = tmp_path / "table.md"
    r = _run(["--out", str(out)], env)
    assert r.returncode == 0, r.stderr
    assert re.fullmatch(r"valgrind is not installed: no instruction counts \(skipped\)\n", r.stdout)
    assert not out.exists()
