"""The development side of a newcomer's first hour: the default ``pytest`` leaves out
the ``slow`` tests, CI runs everything, and the README says both; the server's schema
validator is a runtime dependency of the ``serve`` extra."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = None  # type: ignore[assignment]


def _pyproject() -> str:
    return (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_the_default_run_deselects_slow_tests():
    """`pytest` with the project's addopts selects no test marked slow (the
    default run included the 50-65 s CMake builds)."""
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                          "tests/dev/test_dev_cpp_frontend.py", "tests/plays/test_rules_perft_tool.py",
                          "-p", "no:cacheprovider"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert "deselected" in out.stdout and "::" not in out.stdout, out.stdout + out.stderr
    both = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "slow or not slow",
                           "tests/plays/test_rules_perft_tool.py", "-p", "no:cacheprovider"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert "::" in both.stdout, both.stdout + both.stderr


def test_ci_runs_everything():
    lines = [ln for ln in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
             if ln.strip().startswith("pytest")]
    assert lines, "CI runs no pytest"
    for line in lines:
        args = shlex.split(line.split("#")[0])
        assert args[args.index("-m") + 1] == "slow or not slow", line


def test_the_readme_states_the_default_and_the_ci_run():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = text.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"^pytest\s+#.*slow.*deselected", setup, re.M), setup
    assert re.search(r'^pytest -m "slow or not slow"\s+#.*CI', setup, re.M), setup
    assert "CI" in setup and "slow" in setup


def test_jsonschema_is_a_runtime_dependency_of_the_server():
    if tomllib is None:
        extras = _pyproject()
        assert re.search(r'^serve = \[.*"jsonschema', extras, re.M)
        return
    deps = tomllib.loads(_pyproject())["project"]["optional-dependencies"]
    assert any(d.startswith("jsonschema") for d in deps["serve"])
    assert "daguai[serve]" in deps["test"]


def _python_blocks(page: Path) -> list[tuple[int, str]]:
    lines = page.read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            out.append((i + 2, "\n".join(lines[i + 1:j])))
            i = j
        i += 1
    return out


def test_every_docs_python_block_imports_the_modules_it_uses():
    """Found: two blocks of docs/simulation.md failed when copied alone (`import daguai`
    missing). A block that uses a module imports it itself (other names may come from an
    earlier block of the page, as the docs test runs them)."""
    import ast

    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    blocks = [(page, line, code) for page in pages for line, code in _python_blocks(page)]
    modules: set[str] = set()
    for _, _, code in blocks:
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.Import):
                modules |= {(a.asname or a.name).split(".")[0] for a in node.names}
    missing = []
    for page, line, code in blocks:
        tree = ast.parse(code)
        bound = {(a.asname or a.name).split(".")[0] for n in ast.walk(tree)
                 if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        for name in sorted((used & modules) - bound):
            missing.append(f"{page.relative_to(ROOT)}:{line}: uses {name} without importing it")
    assert not missing, "\n".join(missing)
