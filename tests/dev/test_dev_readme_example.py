"""The README's example prints what the README says it prints: its python block runs as
written (no sizes shrunk, unlike tests/dev/test_dev_docs.py) and its output is compared with
the text block that follows, line by line (trailing spaces aside). The example is seeded, so
the output is the same on every machine and thread count (R17)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import daguai

ROOT = Path(__file__).resolve().parents[2]
PKG_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(daguai.__file__)))


def example() -> tuple[str, str]:
    """(code, shown output) of the README's "Example" section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Example\n", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"^```python\n(.*?)^```$", section, re.M | re.S)
    shown = re.search(r"^```text\n(.*?)^```$", section, re.M | re.S)
    assert code and shown, "the README's Example needs a python block and its output in a text block"
    assert code.start() < shown.start()
    return code.group(1), shown.group(1)


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def test_the_readme_example_prints_what_the_readme_shows(tmp_path):
    code, shown = example()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PKG_PARENT] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    p = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stderr == "", p.stderr[-3000:]
    assert _lines(p.stdout) == _lines(shown), f"the README shows:\n{shown}\nthe example prints:\n{p.stdout}"


def test_the_example_is_short_and_seeded():
    code, shown = example()
    assert len(code.splitlines()) <= 20 and len(shown.splitlines()) >= 3
    assert "seed=" in code  # a fixed seed: the output cannot move between runs


def test_the_readme_is_a_front_page():
    """At most ~150 lines: figures live in docs/performance.md and docs/ladder.md, the file
    map in docs/development.md; the install line for users comes before the developers'."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    assert text.index("pip install .") < text.index('pip install ".[test]"')
    assert "| expert |" not in text and "## Benchmark figures" not in text and "## Files" not in text
    for page in ("performance.md", "ladder.md", "development.md", "rules.md", "rules.zh.md"):
        assert f"(docs/{page})" in text, page
    assert "![" in text and "docs/web-table.png" in text
