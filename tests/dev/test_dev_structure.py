"""The shape of the source tree: no package module over 450 lines, no module that only
re-exports another (one import path per module; ``daguai.env`` is PettingZoo's convention),
no issue numbers in comments or docstrings (history belongs to git, a comment says why), and
at most 25 files directly in tests/ (the tests live in folders that mirror the code).

The issue-number check covers cpp/, python/, tests/, benchmarks/, examples/ and
docs/development.md (:data:`HISTORY_FREE`)."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "python" / "daguai"

MAX_MODULE_LINES = 450
MAX_TOP_TEST_FILES = 25
#: The one alias module and what it aliases.
ALIASES = {"env.py": "daguai.learn.envs.pettingzoo_env"}
#: Where comments and docstrings must not narrate history (folders, or single files).
HISTORY_FREE = ["cpp", "python", "tests", "benchmarks", "examples", "docs/development.md"]
#: "issue 16", "Issues 8", "issue #3" in prose; "#12" only inside a comment.
ISSUE = re.compile(r"\bissues? #?\d+", re.IGNORECASE)
HASH_NUMBER = re.compile(r"(?<![\w&])#\d+\b")
SOURCE_SUFFIXES = {".py", ".pyi", ".js", ".html", ".css", ".md", ".toml", ".cpp", ".hpp", ".def"}


def package_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def too_long(paths: list[Path], limit: int = MAX_MODULE_LINES) -> list[str]:
    out = []
    for p in paths:
        n = len(p.read_text(encoding="utf-8").splitlines())
        if n > limit:
            out.append(f"{p.name}: {n} lines")
    return out


def is_reexport_shim(source: str) -> bool:
    """A module whose code only imports (another module's names, or puts another module in
    ``sys.modules``) and lists ``__all__``: a second import path for code that lives
    elsewhere. A package's ``__init__`` is not checked (it is a folder's face)."""
    body = ast.parse(source).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    if not body:
        return False
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id == "__all__":
                continue
            if (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute)
                    and target.value.attr == "modules"):
                continue
        return False
    return True


def shims(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(PACKAGE)) for p in paths
            if p.name != "__init__.py" and is_reexport_shim(p.read_text(encoding="utf-8"))
            and str(p.relative_to(PACKAGE)) not in ALIASES]


def _python_prose(text: str) -> list[tuple[int, str]]:
    """(line, text) of every comment and string of Python source."""
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in (tokenize.COMMENT, tokenize.STRING):
            out.append((tok.start[0], tok.string))
    return out


def issue_numbers(path: Path, text: str) -> list[str]:
    """Where ``text`` (the file ``path``) names an issue by number: in the comments and
    strings of Python, anywhere in other text."""
    if path.suffix in (".py", ".pyi"):
        pieces = _python_prose(text)
    else:
        pieces = [(i, line) for i, line in enumerate(text.splitlines(), 1)]
    out = []
    for line, piece in pieces:
        found = ISSUE.findall(piece)
        if path.suffix in (".py", ".pyi") and piece.startswith("#"):
            found += HASH_NUMBER.findall(piece)
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        out += [f"{where}:{line}: {f}" for f in found]
    return out


def history_files() -> list[Path]:
    out: list[Path] = []
    for entry in HISTORY_FREE:
        p = ROOT / entry
        if p.is_file():
            out.append(p)
        else:
            out += [f for f in sorted(p.rglob("*")) if f.is_file() and f.suffix in SOURCE_SUFFIXES
                    and "__pycache__" not in f.parts and f.resolve() != Path(__file__).resolve()]
    return out


def test_no_package_module_is_over_450_lines():
    assert too_long(package_modules()) == []


def test_no_module_only_re_exports_another():
    assert shims(package_modules()) == []
    alias = (PACKAGE / "env.py").read_text(encoding="utf-8")
    assert is_reexport_shim(alias) and ALIASES["env.py"] in alias


def test_no_issue_numbers_in_comments_or_docstrings():
    found = []
    for path in history_files():
        found += issue_numbers(path, path.read_text(encoding="utf-8"))
    assert found == []


def test_at_most_25_files_sit_directly_in_tests():
    top = sorted(p.name for p in (ROOT / "tests").iterdir() if p.is_file())
    assert len(top) <= MAX_TOP_TEST_FILES, top
    assert not [name for name in top if name.startswith("test_")], "tests go into a folder"


# ---- the checkers themselves --------------------------------------------------------------
@pytest.mark.parametrize("source, shim", [
    ('"""doc"""\nfrom .run.results import *  # noqa\n', True),
    ('import importlib, sys\nsys.modules[__name__] = importlib.import_module("x.y")\n', True),
    ('from .a import f, g\n__all__ = ["f", "g"]\n', True),
    ('from .a import f\n\n\ndef g():\n    return f()\n', False),
    ('"""only a docstring"""\n', False),
    ('X = 1\n', False),
])
def test_the_shim_check_tells_a_re_export_from_code(source, shim):
    assert is_reexport_shim(source) is shim


def test_the_checks_find_a_long_module_and_issue_numbers(tmp_path):
    long = tmp_path / "long.py"
    long.write_text("x = 1\n" * 451)
    short = tmp_path / "short.py"
    short.write_text("x = 1\n" * 450)
    assert too_long([long, short]) == ["long.py: 451 lines"]
    py = tmp_path / "a.py"
    text = ('"""Done in issue 16 item 2."""\n'
            'COLOR = "#123"  # not an issue: a string\n'
            'x = 1  # fixed in #42\n'
            'y = "Issue 7 was here"\n'
            'z = 2  # issues are history; R16 is a rule, 450 a limit\n')
    found = issue_numbers(py, text)
    assert [f.split(": ", 1)[1] for f in found] == ["issue 16", "#42", "Issue 7"]
    md = tmp_path / "a.md"
    assert len(issue_numbers(md, "## Files of issue 9\nno numbers here\n")) == 1
