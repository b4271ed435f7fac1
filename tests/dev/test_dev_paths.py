"""Every repository path a comment, docstring or doc names exists: a path written as
``cpp/...``, ``python/...``, ``tests/...``, ``docs/...``, ``benchmarks/...``, ``training/...``
or ``examples/...``, or inside cpp/ as ``engine/...`` or ``bindings/...`` (a ``*`` in it is a
glob: at least one file must match) in any source or documentation file of the tree. A file
that moves leaves no stale word behind: the failure lists every stale path with its file and
line.

Not paths: a placeholder (``<run>``, ``NAME``, ``{a,b}``, ``...``), a path under a folder the
text makes at run time (:data:`MADE`), and a path that follows a ``/`` or a word (a path
inside another, such as ``build/cpp``)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The folders a repository path starts with.
TOP = ("cpp", "python", "tests", "docs", "benchmarks", "training", "examples")
#: The folders of cpp/ a path may start with (``engine/game/state.hpp``).
IN_CPP = ("engine", "bindings")
#: What is read: the folders (recursively) and the top-level files.
SCANNED = [*TOP, "README.md", "CMakeLists.txt", "pyproject.toml", ".ci", ".github"]
SUFFIXES = {
    ".py",
    ".pyi",
    ".cpp",
    ".hpp",
    ".def",
    ".md",
    ".txt",
    ".toml",
    ".cfg",
    ".js",
    ".html",
    ".css",
    ".cmake",
    ".in",
    ".yml",
    ".yaml",
    ".sh",
    "",
}
#: Folders not read: generated or third-party files.
SKIPPED = {"__pycache__", ".git", "node_modules", ".pytest_cache", ".mypy_cache", ".ruff_cache"}
#: Paths a text names but the tree does not hold: written at run time or by a build (their
#: docs say so).
MADE = (
    "python/daguai/_core.cpython",  # the built native module (python/daguai/_core.cpython-*.so)
    "training/<",
    "examples/reinforce_weights.npz",  # written by examples/reinforce.py
    "cpp/bindings/odd",  # the misnamed folder test_dev_layers.py makes in a temporary tree
)
#: A repository path: a top folder, then path characters; not inside another path or a word.
PATH = re.compile(r"(?<![\w./\-~$])(?:" + "|".join(TOP + IN_CPP) + r")/[\w./*\-]*")
PLACEHOLDER = re.compile(r"[<>{}]|\.\.\.|\bNAME\b|\bFILE\b|\bRUN\b|XX|\bxx\b")


def scanned_files() -> list[Path]:
    out: list[Path] = []
    for name in SCANNED:
        p = ROOT / name
        if p.is_file():
            out.append(p)
        elif p.is_dir():
            out.extend(
                f
                for f in p.rglob("*")
                if f.is_file()
                and f.suffix in SUFFIXES
                and not SKIPPED & set(f.parts)
                and f.stat().st_size < 2_000_000
            )
    return sorted(out)


def named_paths(text: str) -> list[tuple[int, str]]:
    """(line, path) of every repository path the text names."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        for m in PATH.finditer(line):
            path = m.group(0).rstrip(".-/")
            end = m.end()
            if end < len(line) and line[end] in "<{":  # cpp/engine/<layer>/...
                continue
            if PLACEHOLDER.search(path) or path.startswith(MADE) or path.count("/") == 0 \
                    or re.fullmatch(r"python/daguai/_core\*?\.so", path):
                continue
            out.append((n, "cpp/" + path if path.startswith(IN_CPP) else path))
    return out


def exists(path: str) -> bool:
    if "*" in path:
        try:
            return next(ROOT.glob(path), None) is not None
        except ValueError:  # a pattern pathlib cannot read ("a**"): the glob module can
            import glob

            return bool(glob.glob(str(ROOT / path), recursive=True))
    return (ROOT / path).exists()


def stale_paths() -> list[str]:
    stale = []
    for f in scanned_files():
        if f == Path(__file__).resolve():  # its examples of stale paths
            continue
        try:
            text = f.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for line, path in named_paths(text):
            if not exists(path):
                stale.append(f"{f.relative_to(ROOT)}:{line}: {path}")
    return stale


def test_every_named_path_exists():
    stale = stale_paths()
    assert not stale, f"{len(stale)} paths named in comments or docs do not exist:\n" + "\n".join(stale)


def test_the_check_finds_a_stale_path():
    assert named_paths("see cpp/engine/state.cpp and `docs/game.md` (engine/table.hpp)") == [
        (1, "cpp/engine/state.cpp"),
        (1, "docs/game.md"),
        (1, "cpp/engine/table.hpp"),
    ]
    assert not exists("cpp/engine/state.cpp") and exists("docs/game.md")
    assert exists("cpp/engine/game/state.*") and not exists("cpp/engine/nowhere.*")
    # placeholders, folders made at run time and paths inside other paths are not checked
    assert (
        named_paths(
            "cpp/engine/<layer>/ build/cpp training/<run>/log cpp/engine/NAME.cpp python/daguai/_core.so"
        )
        == []
    )


#: A test that puts its own folder (or tests/) on sys.path: pyproject's pythonpath lists every
#: test folder, so a test imports a helper by name, and a child process gets PYTHONPATH.
OWN_FOLDER = re.compile(r"sys\.path\.(?:insert|append)\(.*(?:__file__|[\"']tests)")


def test_no_test_puts_its_folder_on_sys_path():
    found = [
        f"{f.relative_to(ROOT)}:{n}"
        for f in sorted((ROOT / "tests").rglob("*.py"))
        if f != Path(__file__).resolve()
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
        if OWN_FOLDER.search(line)
    ]
    assert not found, "tests that put a folder on sys.path:\n" + "\n".join(found)
