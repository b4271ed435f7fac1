"""The package's import graph: no circle between modules, no module that imports a
name from a package's ``__init__``, and the layers of docs/development.md "The package's
folders": the face (``daguai/*.py``) imports only the face; ``daguai.run`` the face and
itself; ``daguai.learn`` the face, ``run`` and itself; ``daguai.server`` the face, ``run`` and
itself; the command line (``daguai/cli/``) anything.

The graph counts every import statement, also those inside functions (a lazy import still
ties two modules together), and none of the implicit parent-package imports.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parents[2] / "python" / "daguai"

#: The one alias module: ``daguai.env`` is ``daguai.learn.envs.pettingzoo_env`` (PettingZoo's convention).
SHIMS = {"daguai.env"}

#: The tools on top of every layer: the command line (the ``daguai.cli`` folder) and the
#: benchmark rows of ``daguai bench``.
TOP = {"daguai.cli", "daguai.bench", "daguai.__main__"}


def _on_top(module: str) -> bool:
    return module in TOP or module.startswith("daguai.cli.")

#: Circles not yet broken, each with the work that removes it. The test fails on any other.
KNOWN_CIRCLES: list[list[str]] = []

#: What each layer may import (the first dotted part after ``daguai``; "" is the face).
LAYERS = {"": {""}, "run": {"", "run"}, "learn": {"", "run", "learn"},
          "server": {"", "run", "server"}}


def module_files(root: Path, package: str) -> dict[str, Path]:
    """Module name -> file for every ``.py`` under ``root`` (a package named ``package``);
    extension modules (``.so`` / ``.pyi``) count as modules without imports."""
    out: dict[str, Path] = {}
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".py", ".pyi", ".so") or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(root)
        stem = rel.name.split(".")[0]
        parts = [package, *rel.parts[:-1]] + ([] if stem == "__init__" else [stem])
        name = ".".join(parts)
        if path.suffix == ".py" or name not in out:
            out[name] = path
    return out


def _is_package(name: str, files: dict[str, Path]) -> bool:
    return files[name].name == "__init__.py"


def imports_of(name: str, files: dict[str, Path]) -> list[tuple[str, str | None, int]]:
    """(target module, name imported from a package's ``__init__`` or None, line) for every
    import of a module of the package in ``name``'s file."""
    path = files[name]
    if path.suffix != ".py":
        return []
    root = name.split(".")[0]
    here = name if _is_package(name, files) else name.rpartition(".")[0]
    out: list[tuple[str, str | None, int]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == root or alias.name.startswith(root + "."):
                    out.append((alias.name, None, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base[:len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod != root and not mod.startswith(root + "."):
                continue
            for alias in node.names:
                sub = f"{mod}.{alias.name}"
                if sub in files:
                    out.append((sub, None, node.lineno))
                elif mod in files and _is_package(mod, files):
                    out.append((mod, alias.name, node.lineno))
                else:
                    out.append((mod, None, node.lineno))
    return out


def graph(files: dict[str, Path]) -> dict[str, set[str]]:
    return {m: {t for t, _, _ in imports_of(m, files) if t in files and t != m} for m in files}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(found)


def _layer(name: str, files: dict[str, Path]) -> str:
    """The folder a module lives in ("" for the package's own folder)."""
    rel = files[name].relative_to(PACKAGE_DIR)
    # _core/ holds the extension's stubs (__init__.pyi, _testing.pyi): the extension is the face's
    return rel.parts[0] if len(rel.parts) > 1 and rel.parts[0] != "_core" else ""


@pytest.fixture(scope="module")
def files() -> dict[str, Path]:
    return module_files(PACKAGE_DIR, "daguai")


def test_the_import_graph_has_no_circle(files):
    assert cycles(graph(files)) == KNOWN_CIRCLES


def test_no_module_imports_a_name_from_a_package_init(files):
    """Names come from the module that defines them: never from ``daguai/__init__`` (whose
    names are for users), nor from the ``__init__`` of a module's own folder. Only the tools
    on top use a folder's ``__init__`` (``daguai.run``'s public names)."""
    bad = []
    for m, path in files.items():
        if m == "daguai":
            continue
        for target, name, line in imports_of(m, files):
            own = target == m.rpartition(".")[0] or path.name == "__init__.py" and target == m
            if name is not None and (target == "daguai" or own or not _on_top(m)):
                where = path.relative_to(PACKAGE_DIR)
                bad.append(f"{where}:{line} imports {name!r} from {target}'s __init__")
    assert bad == []


def test_each_folder_imports_only_its_layers(files):
    bad = []
    for m, path in files.items():
        if m in SHIMS or _on_top(m) or m == "daguai":
            continue
        layer = _layer(m, files)
        allowed = LAYERS.get(layer)
        assert allowed is not None, f"{m}: a folder without a layer in LAYERS"
        for target, _, line in imports_of(m, files):
            if target in files and _layer(target, files) not in allowed:
                bad.append(f"{path.relative_to(PACKAGE_DIR)}:{line} ({layer or 'face'}) imports {target}")
    assert bad == []


def test_the_checks_find_a_circle_a_package_init_import_and_a_lazy_import(tmp_path):
    """The checker itself: a two-module circle closed by an import inside a function, and a
    name taken from the package's __init__."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .a import f\nVERSION = 1\n")
    (pkg / "a.py").write_text("from .sub import b\n\ndef f():\n    return b\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("def g():\n    from ..a import f\n    from .. import VERSION\n"
                                      "    return f, VERSION\n")
    fs = module_files(pkg, "pkg")
    assert set(fs) == {"pkg", "pkg.a", "pkg.sub", "pkg.sub.b"}
    assert cycles(graph(fs)) == [["pkg", "pkg.a", "pkg.sub.b"]]  # pkg/__init__ imports a
    assert [(t, n) for t, n, _ in imports_of("pkg.sub.b", fs)] == [("pkg.a", None), ("pkg", "VERSION")]
    (pkg / "sub" / "b.py").write_text("def g():\n    return 1\n")
    assert cycles(graph(module_files(pkg, "pkg"))) == []


def test_the_public_face_is_small_sorted_and_does_not_import_learn():
    """``daguai.__all__`` is what a README user needs (at most 30 names, sorted); the learning
    names live in ``daguai.learn``, which ``import daguai`` does not import (it loads on first
    use: ``daguai.learn.BatchEnv``)."""
    import subprocess
    import sys

    code = ("import sys, daguai\n"
            "print(sorted(m for m in sys.modules if m.startswith('daguai.learn')))\n"
            "print(len(daguai.__all__), daguai.__all__ == sorted(daguai.__all__))\n"
            "print(daguai.learn.BatchEnv.__module__, 'BatchEnv' in daguai.__all__)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    before, face, lazy = p.stdout.splitlines()
    assert before == "[]"
    n, ordered = face.split()
    assert int(n) <= 30 and ordered == "True"
    assert lazy == "daguai.learn.envs.batch_env False"
