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


def _run_ci_with_fake_tools(tmp_path: Path, install_status: int, torch_installed: bool = True
                            ) -> tuple[subprocess.CompletedProcess, str]:
    """`.ci/run` with a PATH of stand-ins: an ``apt-get`` whose ``update`` fails (as a
    repository's signature check makes it fail on a fresh machine), and ``pip``, ``pytest``
    and ``python`` that only log; no chromium, so the browser packages are due."""
    import os

    bin_dir, log = tmp_path / "bin", tmp_path / "calls.log"
    bin_dir.mkdir(parents=True)
    fake = {
        "apt-get": f'echo "apt-get $*" >> {log}\n[ "$1" = update ] && exit 100\nexit {install_status}\n',
        "pip": f'echo "pip $*" >> {log}\n[ "$1" = config ] && echo {tmp_path / "wheels"}\nexit 0\n',
        "pytest": f'echo "pytest $*" >> {log}\n',
        "python": "exit 0\n" if torch_installed else "exit 1\n",  # `import torch`
    }
    (tmp_path / "wheels").mkdir()
    (tmp_path / "wheels" / "torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl").write_bytes(b"")
    for name, body in fake.items():
        path = bin_dir / name
        path.write_text(f"#!/bin/bash\n{body}", encoding="utf-8")
        path.chmod(0o755)
    for tool in ("env", "id", "dirname", "ls", "sort", "tail"):
        found = subprocess.run(["bash", "-c", f"command -v {tool}"], capture_output=True, text=True)
        if found.returncode == 0:
            os.symlink(found.stdout.strip(), bin_dir / tool)
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path)}
    p = subprocess.run(
        ["/bin/bash", str(ROOT / ".ci" / "run")], env=env, capture_output=True, text=True, timeout=60
    )
    return p, log.read_text(encoding="utf-8") if log.exists() else ""


def test_ci_goes_on_when_apt_get_update_fails(tmp_path):
    """Found: `apt-get update` failing on one repository's signature stopped `.ci/run`
    before it installed anything, though the index on the machine already listed chromium.
    Now a failed update is reported and the install still runs; CI then goes on."""
    p, calls = _run_ci_with_fake_tools(tmp_path, install_status=0)
    assert p.returncode == 0, p.stderr + calls
    lines = calls.splitlines()
    assert lines[0] == "apt-get update", calls
    assert lines[1].startswith("apt-get install -y") and "chromium" in lines[1], calls
    assert "pip install .[test]" in lines and "pytest -m slow or not slow" in lines, calls
    assert "apt-get update failed" in p.stderr


def test_ci_stops_when_the_browser_install_fails(tmp_path):
    p, calls = _run_ci_with_fake_tools(tmp_path, install_status=100)
    assert p.returncode != 0
    assert "apt-get install" in calls and "pip install .[test]" not in calls, calls


def _extras() -> dict[str, list[str]]:
    if tomllib is None:  # Python 3.10: the lines of the table
        table = _pyproject().split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
        return {
            m.group(1): re.findall(r'"([^"]+)"', m.group(2))
            for m in re.finditer(r"^(\w+) = \[(.*?)\]", table, re.M | re.S)
        }
    return tomllib.loads(_pyproject())["project"]["optional-dependencies"]


def test_the_train_extra_bounds_torch_from_below_only():
    """Found: `torch>=2.4,<=2.13.0`, a cap written for one machine's wheel folder, which
    would refuse every newer torch to every user. A floor only; the torch installed here
    meets it, so `pip install ".[test]"` installs no other torch (no CUDA build of GBs)."""
    from importlib import metadata

    from packaging.requirements import Requirement

    torch = next(Requirement(r) for r in _extras()["train"] if Requirement(r).name == "torch")
    assert torch.specifier and all(s.operator == ">=" for s in torch.specifier), str(torch)
    try:
        installed = metadata.version("torch")
    except metadata.PackageNotFoundError:
        return
    assert torch.specifier.contains(installed, prereleases=True), (installed, str(torch))


def test_the_readme_names_every_extra():
    """Found: the README's list of extras left out `[ladder]` and `[openspiel]`."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for extra in _extras():
        if extra in ("test", "cli"):  # the developers' extra (named in Set-up) and an old alias
            continue
        assert f"`[{extra}]`" in text or f"daguai[{extra}]" in text, extra


def test_ci_takes_a_cpu_torch_from_the_find_links_folder_when_none_is_installed(tmp_path):
    """The train extra bounds torch from below only; on a machine without torch, CI takes the
    CPU wheel lying in pip's find-links folder first, so the extra's torch is already met
    (instead of a CUDA build of several GB)."""
    p, calls = _run_ci_with_fake_tools(tmp_path, install_status=0, torch_installed=False)
    assert p.returncode == 0, p.stderr + calls
    pips = [ln for ln in calls.splitlines() if ln.startswith("pip install")]
    wheel = tmp_path / "wheels" / "torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl"
    assert pips == [f"pip install {wheel}", "pip install .[test]"], calls
    p, calls = _run_ci_with_fake_tools(tmp_path / "again", install_status=0, torch_installed=True)
    assert [ln for ln in calls.splitlines() if ln.startswith("pip install")] == ["pip install .[test]"]
