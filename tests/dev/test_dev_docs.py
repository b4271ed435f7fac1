"""Docs match behaviour: every ```python and ```bash block of README.md and docs/*.md runs.

Rules (docs/development.md "Tests"):

- python blocks of one page run in order in one namespace (a later block may use an
  earlier block's names), in a temporary folder; bash blocks run with ``bash -e`` there, the
  ``daguai`` command and ``python`` being this interpreter's;
- every integer literal of 1000 or more is replaced by 200 (small sizes: ``simulate(100_000)``
  and ``--rounds 10000000`` run 200 games);
- a block preceded by ``<!-- docs-test: skip REASON -->`` is not run (the reason is shown as
  the skip reason); ``<!-- docs-test: ray-cluster -->`` marks the cluster recipe, run by
  :func:`test_ray_cluster_recipe_on_loopback` against a head started on 127.0.0.1;
- the command synopses (plain ``` blocks whose lines start with ``daguai``) and the
  ``daguai`` commands of bash blocks marked skip name only options that ``daguai COMMAND
  --help`` lists.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import daguai
import pytest
from ray_helpers import free_port, loopback_head, ray_cli

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PKG_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(daguai.__file__)))
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")  # a long option named in a command line
MARK = re.compile(r"<!--\s*docs-test:\s*(\S+)\s*(.*?)\s*-->")
BIG_INT = re.compile(r"(?<![\w.:=/-])(\d{1,3}(?:_\d{3})+|\d{4,})(?![\w.])")


def blocks(page: Path) -> list[tuple[int, str, str, str, str]]:
    """(line, language, code, mark, reason) of every fenced block of ``page``."""
    out = []
    lines = page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        lang, start = m.group(1), i + 1
        j = start
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        k = i - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        mark = MARK.search(lines[k]) if k >= 0 else None
        out.append((start, lang, "\n".join(lines[start:j]), mark.group(1) if mark else "",
                    mark.group(2) if mark else ""))
        i = j + 1
    return out


def shrink(code: str) -> str:
    return BIG_INT.sub("200", code)


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PKG_PARENT] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", "")])
    env.pop("RAY_ADDRESS", None)
    env.update(extra)
    return env


def _cases(lang: str) -> list:
    cases = []
    for page in PAGES:
        found = [b for b in blocks(page) if b[1] == lang]
        if not found:
            continue
        cases.append(pytest.param(page, found, id=page.name))
    return cases


@pytest.mark.parametrize("page,found", _cases("python"))
def test_python_blocks(page, found, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__docs__"}
    ran = 0
    for line, _, code, mark, _reason in found:
        if mark == "skip":
            continue
        assert not mark, f"{page.name}:{line}: unknown docs-test mark {mark!r}"
        try:
            exec(compile(shrink(code), f"{page.name}:{line}", "exec"), namespace)
        except Exception as exc:
            raise AssertionError(f"{page.name}, block at line {line}: {type(exc).__name__}: {exc}") from exc
        ran += 1
    if not ran:
        pytest.skip("every python block is marked skip")


def _bash_cases() -> list:
    cases = []
    for page in PAGES:
        for line, lang, code, mark, reason in blocks(page):
            if lang != "bash":
                continue
            marks = []
            if mark == "skip":
                marks.append(pytest.mark.skip(reason=reason or "marked skip"))
            elif mark == "ray-cluster":
                marks.append(pytest.mark.skip(reason="the Ray cluster recipe: see "
                                                     "test_ray_cluster_recipe_on_loopback"))
            cases.append(pytest.param(code, id=f"{page.name}:{line}", marks=marks))
    return cases


@pytest.mark.parametrize("code", _bash_cases())
def test_bash_blocks(code, tmp_path):
    p = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", shrink(code)], cwd=tmp_path, env=_env(),
                       capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, f"{code}\n--- stdout\n{p.stdout[-3000:]}\n--- stderr\n{p.stderr[-3000:]}"


def _skipped_commands(code: str) -> list[tuple[str, str]]:
    """(command, option) of each ``daguai`` command line of a bash block that is not run, its
    ``\\`` continuation lines included and comments left out."""
    found, command, continued = [], None, False
    for text in code.splitlines():
        body = text.split(" #", 1)[0]
        m = re.match(r"\s*daguai\s+(\S+)", body)
        if m:
            command = "" if m.group(1).startswith("-") else m.group(1)
        elif not continued:
            command = None
        if command is not None:
            found += [(command, o) for o in OPTION.findall(body)]
        continued = body.rstrip().endswith("\\")
    return found


def _synopses() -> list:
    cases = []
    for page in PAGES:
        for line, lang, code, mark, _ in blocks(page):
            if lang == "bash" and mark == "skip":  # not run, so its options are checked here
                cases += [pytest.param(c, o, id=f"{page.name}:{line}:{c}{o}")
                          for c, o in _skipped_commands(code)]
                continue
            if lang not in ("", "text") or not code.lstrip().startswith("daguai "):
                continue
            command = None
            for text in code.splitlines():
                m = re.match(r"\s*daguai\s+(\S+)", text)
                if m:  # a new synopsis line: a command, or options of daguai itself
                    command = "" if m.group(1).startswith("-") else m.group(1)
                for option in OPTION.findall(text):
                    if command is not None:
                        cases.append(
                            pytest.param(command, option, id=f"{page.name}:{line}:{command}{option}")
                        )
    return cases


_HELP: dict[str, str] = {}


@pytest.mark.parametrize("command,option", _synopses())
def test_synopsis_options_exist(command, option):
    if command not in _HELP:
        p = subprocess.run(
            [sys.executable, "-m", "daguai", *([command] if command else []), "--help"],
            env=_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert p.returncode == 0, p.stderr
        _HELP[command] = p.stdout
    assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", _HELP[command]), (command, option)


def _cluster_block() -> str:
    for page in PAGES:
        for _, _lang, code, mark, _ in blocks(page):
            if mark == "ray-cluster":
                return code
    raise AssertionError("no block marked <!-- docs-test: ray-cluster -->")


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_ray_cluster_recipe_on_loopback(tmp_path):
    """The cluster recipe of docs/simulation.md, on one machine: a head on 127.0.0.1 (its
    own process group, stopped at the end) and the driver command of the recipe, as
    written but for HEAD_IP and the sizes."""
    pytest.importorskip("ray")
    code = _cluster_block()
    driver = [x.split("#")[0].strip() for x in code.splitlines() if "daguai " in x.split("#")[0]]
    assert len(driver) == 1, code
    port = free_port()
    head_line = next(x.split("#")[0].strip() for x in code.splitlines() if "--head" in x)
    # HOME in the test's folder: the token the recipe generates (~/.ray/auth_token) is read there
    # by the head and the driver, and the user's own home is not touched
    env = _env(HOME=str(tmp_path))
    # the environment the recipe asks for on every node and the driver
    for assignment in re.findall(r"\b(RAY_[A-Z_]+=\S+)", code):
        key, value = assignment.split("=", 1)
        env[key] = value
    head_args = shlex.split(head_line.replace("6379", str(port)))
    assert head_args[:3] == ["ray", "start", "--head"], head_line
    for line in code.splitlines():  # the recipe's other ray commands before the head (the token)
        words = shlex.split(line.split("#")[0].split(">")[0])
        if words[:2] == ["ray", "get-auth-token"]:
            ray_cli(tmp_path, env, *words[1:])
    with loopback_head(tmp_path, env, head_args[1:], port):
        cmd = shrink(
            re.sub(r"^(?:RAY_[A-Z_]+=\S+\s+)+", "", driver[0]).replace("HEAD_IP:6379", f"127.0.0.1:{port}")
        )
        args = shlex.split(cmd)
        assert args[0] == "daguai", cmd
        p = subprocess.run([sys.executable, "-m", "daguai", *args[1:], "-q", "--ray-timeout", "90"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr[-3000:]
        assert "Ray" in p.stdout
        if "--out results.npz" in cmd:
            assert daguai.SimResult.from_npz(tmp_path / "results.npz").n == 200
