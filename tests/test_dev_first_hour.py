"""Issue 19 item 5, the development side of the first hour: the default ``pytest`` leaves out
the ``slow`` tests, CI runs everything, and the README says both; the server's schema
validator is a runtime dependency of the ``serve`` extra."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = None  # type: ignore[assignment]


def _pyproject() -> str:
    return (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_the_default_run_deselects_slow_tests():
    """`pytest` with the project's addopts selects no test marked slow (issue 19: the
    default run included the 50-65 s CMake builds)."""
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                          "tests/test_dev_cpp_frontend.py", "tests/test_rules_perft_tool.py",
                          "-p", "no:cacheprovider"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert "deselected" in out.stdout and "::" not in out.stdout, out.stdout + out.stderr
    both = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "slow or not slow",
                           "tests/test_rules_perft_tool.py", "-p", "no:cacheprovider"],
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
