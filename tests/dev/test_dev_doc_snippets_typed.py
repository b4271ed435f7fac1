"""Every Python snippet of the README and docs/*.md type-checks under `mypy --strict`, as a
user's editor would check it after copying (the README example's `classify()` is
`Play | None` and `current_player` `int | None`: the snippets say what None means).
daguai is checked as installed (its modules followed silently); pyspiel has no stubs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")
ROOT = Path(__file__).resolve().parents[2]
CONFIG = """[mypy]
strict = True
[mypy-daguai.*]
follow_imports = silent
[mypy-pyspiel.*]
ignore_missing_imports = True
"""


def snippets() -> list[tuple[str, str]]:
    out = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for i, m in enumerate(re.finditer(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)):
            out.append((f"{path.stem}_{i}", m.group(1)))
    return out


def test_there_are_snippets_including_the_readme_example():
    names = [n for n, _ in snippets()]
    assert "README_0" in names and len(names) >= 8


# slow: one mypy --strict run over every snippet (~20 s on a loaded machine); CI runs it
@pytest.mark.slow
def test_every_documented_snippet_type_checks(tmp_path):
    import daguai

    files = []
    for name, code in snippets():
        f = tmp_path / "snippets" / f"{name}.py"
        f.parent.mkdir(exist_ok=True)
        f.write_text(code, encoding="utf-8")
        files.append(str(f))
    (tmp_path / "mypy.ini").write_text(CONFIG, encoding="utf-8")
    env = dict(os.environ)
    source = Path(daguai.__file__).resolve().parents[1]
    if "site-packages" not in source.parts:
        env["MYPYPATH"] = str(source)
    p = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(tmp_path / "mypy.ini"),
                        "--cache-dir", str(tmp_path / "cache"), *files],
                       capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
