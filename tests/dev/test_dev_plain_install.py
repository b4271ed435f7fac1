"""A plain `pip install .` (no extras) works: rich is a dependency, so the command line and
`SimResult.summary()` need nothing more; an optional feature whose packages are missing
raises `daguai.errors.MissingExtraError` (an ImportError) naming the extra that brings them.
A missing package is simulated in a subprocess by a meta-path finder that refuses it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

BLOCK = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, Block())
"""


def _run(blocked: set[str], code: str) -> subprocess.CompletedProcess[str]:
    script = BLOCK.format(blocked=blocked) + textwrap.dedent(code)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          cwd=ROOT.parent)


def test_rich_is_a_dependency():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = [d.split(">")[0].split("=")[0].split("<")[0].strip() for d in project["dependencies"]]
    assert "rich" in names and "numpy" in names


@pytest.mark.parametrize("code,extra,what", [
    ("import daguai.server", "serve", "daguai.server"),
    ("from daguai.server import create_app", "serve", "daguai.server"),
])
def test_the_server_names_its_extra(code, extra, what):
    p = _run({"starlette"}, f"""
        from daguai.errors import MissingExtraError
        try:
            {code}
        except MissingExtraError as exc:
            assert isinstance(exc, ImportError) and exc.extra == {extra!r} and exc.name == "starlette"
            print(exc)
        else:
            raise SystemExit("imported without starlette")
    """)
    assert p.returncode == 0, p.stderr
    assert f"pip install 'daguai[{extra}]'" in p.stdout and what in p.stdout


@pytest.mark.parametrize("method,extra", [("to_csv('x.csv')", "pandas"), ("to_pandas()", "pandas"),
                                          ("to_parquet('x.parquet')", "parquet"), ("plot('x.png')", "plot")])
def test_results_name_their_extra(method, extra, tmp_path):
    module = {"pandas": "pandas", "parquet": "pyarrow", "plot": "matplotlib"}[extra]
    p = _run({module}, f"""
        import os
        os.chdir({str(tmp_path)!r})
        import daguai
        from daguai.errors import MissingExtraError
        r = daguai.simulate(3, ("random", "random"))
        print(r.summary(width=80))  # rich is always there
        try:
            r.{method}
        except MissingExtraError as exc:
            print(exc)
        else:
            raise SystemExit("no error")
    """)
    assert p.returncode == 0, p.stderr
    assert f"pip install 'daguai[{extra}]'" in p.stdout and method.split("(")[0] in p.stdout
    assert "wins" in p.stdout


def test_evaluate_to_pandas_names_its_extra():
    p = _run({"pandas"}, """
        import daguai
        from daguai.errors import MissingExtraError
        e = daguai.evaluate("random", "greedy", 2)
        print(e.summary(width=80))
        try:
            e.to_pandas()
        except MissingExtraError as exc:
            print(exc)
    """)
    assert p.returncode == 0, p.stderr
    assert "pip install 'daguai[pandas]'" in p.stdout and "EvalResult.to_pandas" in p.stdout
