"""The hand-written stubs (python/daguai/_core/*.pyi, one per submodule) agree with the compiled
module: mypy's stubtest compares every name, signature and property of daguai._core with the
stubs, and a fast check compares every stub signature with the binding's docstring.

Three kinds of report are artefacts of pybind11 itself, not differences between the stubs and
the module, and only those are set aside (by their exact message, never by name):
- every bound class has pybind11's metaclass, which a .pyi cannot name;
- a class without a Python constructor has pybind11's generic ``(*args, **kwargs)`` __init__
  that raises TypeError, while the stub declares it without arguments;
- ``py::native_enum`` stores a ``__pybind11_native_enum__`` capsule on the enum class.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

ARTEFACTS = (
    re.compile(r"^daguai\._core(\.\w+)+ is inconsistent, metaclass differs$"),
    re.compile(r"^daguai\._core(\.\w+)+\.__init__ is inconsistent, stub does not have \*args "
               r"parameter \"args\"$"),
    re.compile(r"^daguai\._core(\.\w+)+\.__pybind11_native_enum__ is not present in stub$"),
)


# slow: the shared stubtest run, 30 s quiet; CI runs it
@pytest.mark.slow
def test_core_stubs_match_the_module():
    pytest.importorskip("mypy")
    from stubtest_helpers import lines_about, stubtest

    code, _, stderr = stubtest()  # one run for _core and rules (tests/stubtest_helpers.py)
    lines = lines_about("daguai._core")
    errors = [line for line in lines if not any(a.match(line) for a in ARTEFACTS)]
    assert code in (0, 1), stderr[-3000:]
    assert errors == [], "\n".join(errors)


# ---- stubs against the bindings' own signatures (fast; no mypy) ------------------------------
# pybind11 writes every bound function's signature as the first line of its docstring
# (``name(a: T, b: T = default) -> R``; an overloaded one lists each as ``1. name(...)``). The
# stubs must name the same parameters in the same order, with a default exactly where the
# binding has one, for every function and method they declare, in every submodule.

CORE_DIR = Path(__file__).resolve().parents[2] / "python" / "daguai" / "_core"
SUBMODULES = sorted(p.stem for p in CORE_DIR.glob("*.pyi") if p.stem != "__init__")


def _split_top(text: str) -> list[str]:
    """``text`` split at the commas outside brackets and quotes."""
    parts, depth, quote, cur = [], 0, "", ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
            continue
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


Signature = tuple[tuple[str, bool], ...]  # (name, has a default) per parameter, self left out


def _param(text: str) -> tuple[str, bool]:
    name = text.split("=", 1)[0].split(":", 1)[0].strip()
    if name.startswith("**"):
        return ("**", False)
    if name.startswith("*"):
        return ("*" if name == "*" else "*args", False)
    return (name, "=" in text)


def binding_signatures(obj: object, name: str) -> set[Signature]:
    """The signatures pybind11 wrote at the top of ``obj``'s docstring."""
    doc = getattr(obj, "__doc__", None) or ""
    found = set()
    for m in re.finditer(rf"^(?:\d+\. )?{re.escape(name)}\((.*)\) ->", doc, re.M):
        params = [_param(p) for p in _split_top(m.group(1))]
        found.add(tuple(p for p in params if p[0] != "self"))
    return found


def stub_signature(fn: ast.FunctionDef) -> Signature:
    a = fn.args
    pos = a.posonlyargs + a.args
    defaults = [False] * (len(pos) - len(a.defaults)) + [True] * len(a.defaults)
    out = [(p.arg, d) for p, d in zip(pos, defaults, strict=True)]
    if a.vararg:
        out.append(("*args", False))
    elif a.kwonlyargs:
        out.append(("*", False))
    out += [(p.arg, d is not None) for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True)]
    if a.kwarg:
        out.append(("**", False))
    return tuple(p for p in out if p[0] != "self")


def _is_property(fn: ast.FunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "property" for d in fn.decorator_list)


def stub_functions(tree: ast.Module) -> dict[str, set[Signature]]:
    """``name`` or ``Class.name`` -> the stub's signatures (one per overload)."""
    out: dict[str, set[Signature]] = {}

    def add(key: str, fn: ast.FunctionDef) -> None:
        if not _is_property(fn) and not (fn.name.startswith("__") and fn.name != "__init__"):
            out.setdefault(key, set()).add(stub_signature(fn))

    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            add(node.name, node)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    add(f"{node.name}.{item.name}", item)
    return out


def _resolve(module: object, key: str) -> object:
    obj = module
    for part in key.split("."):
        obj = getattr(obj, part, None)
    return obj


def signature_mismatches(module: object, stubs: dict[str, set[Signature]]) -> list[str]:
    bad = []
    for key, want in sorted(stubs.items()):
        obj = _resolve(module, key)
        if obj is None:
            bad.append(f"{key}: in the stub, not in the module")
            continue
        got = binding_signatures(obj, key.rsplit(".", 1)[-1])
        if not got:  # a Python-level function or an enum: stubtest's business
            continue
        if got != want:
            bad.append(f"{key}: stub {sorted(want)} != binding {sorted(got)}")
    return bad


@pytest.mark.parametrize("sub", SUBMODULES)
def test_stub_signatures_match_the_binding_docstrings(sub):
    import importlib

    module = importlib.import_module(f"daguai._core.{sub}")
    stubs = stub_functions(ast.parse((CORE_DIR / f"{sub}.pyi").read_text(encoding="utf-8")))
    assert signature_mismatches(module, stubs) == []
    compared = [k for k in stubs if binding_signatures(_resolve(module, k), k.rsplit(".", 1)[-1])]
    assert len(compared) >= len(stubs) // 2, f"{sub}: few stub functions have a binding signature"


def test_every_submodule_has_its_stub_and_no_name_is_left_at_the_top():
    from daguai import _core

    subs = {n for n in dir(_core) if not n.startswith("__") and inspect.ismodule(getattr(_core, n))}
    assert subs == set(SUBMODULES), "one stub per submodule of _core (cpp/bindings/<layer>/)"
    assert {n for n in dir(_core) if not n.startswith("__")} == subs, "_core holds only submodules"


def test_the_signature_check_finds_a_missing_parameter():
    """The _search stub once lacked inference_temperature: the check names such a stub."""
    from daguai import _core

    tree = ast.parse("def _search(game, rollouts, ms, threads, rollout, seed, max_candidates=...,"
                     " incumbent=..., progress=..., inference=..., inference_worlds=...,"
                     " inference_noise=...): ...")
    bad = signature_mismatches(_core.catalog, stub_functions(tree))
    assert len(bad) == 1 and bad[0].startswith("_search: stub") and "inference_temperature" in bad[0]
