"""The C++ engine's layers (cpp/engine/<layer>/): every include points down, and the build
enforces it.

The layers and what each may see are declared once, in CMakeLists.txt
(``daguai_layer(NAME SOURCES ... BELOW ...)``); this test reads them from there, builds the
include graph of cpp/engine from every ``#include`` line, and fails on an include of a layer
that is not below (or equal to) the including file's own, on a circle between layers, and on an
engine header included any other way than ``<daguai/LAYER/NAME.hpp>``. A second test configures
the project with CMake and checks that the include roots it makes really hide the layers above:
an upward include does not compile.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from cmake_helpers import cmake_exe

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "cpp" / "engine"
SOURCE_SUFFIXES = {".cpp", ".hpp"}
MAX_SOURCES_PER_FOLDER = 14

LAYER_CALL = re.compile(r"^daguai_layer\((\w+)(.*?)\)", re.M | re.S)
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def declared_layers(cmake_text: str) -> dict[str, set[str]]:
    """{layer: the layers directly below it}, from the daguai_layer(...) calls."""
    layers: dict[str, set[str]] = {}
    for m in LAYER_CALL.finditer(cmake_text):
        words = m.group(2).split()
        below = words[words.index("BELOW") + 1 :] if "BELOW" in words else []
        layers[m.group(1)] = set(below)
    return layers


def below_closure(layers: dict[str, set[str]]) -> dict[str, set[str]]:
    """{layer: every layer it may include, itself too}; raises on a circle."""
    done: dict[str, set[str]] = {}

    def visit(name: str, path: tuple[str, ...]) -> set[str]:
        if name in path:
            raise AssertionError("circle between layers: " + " -> ".join((*path, name)))
        if name not in done:
            seen = {name}
            for b in layers[name]:
                assert b in layers, f"layer {name} is declared above {b!r}, which is not a layer"
                seen |= visit(b, (*path, name))
            done[name] = seen
        return done[name]

    for name in layers:
        visit(name, ())
    return done


def include_edges(engine: Path) -> list[tuple[str, str, str, str]]:
    """(file relative to engine/, its layer, the included path, the quote) for every include of
    an engine header."""
    edges = []
    for f in sorted(engine.rglob("*")):
        if f.suffix not in SOURCE_SUFFIXES:
            continue
        rel = f.relative_to(engine).as_posix()
        layer = rel.split("/")[0]
        for quote, target in INCLUDE.findall(f.read_text(encoding="utf-8")):
            if quote == '"' or target.startswith("daguai/"):
                edges.append((rel, layer, target, quote))
    return edges


def upward_includes(engine: Path, layers: dict[str, set[str]]) -> list[str]:
    """Every include that breaks the layering, as a readable line."""
    may = below_closure(layers)
    bad = []
    for rel, layer, target, quote in include_edges(engine):
        if layer not in layers:
            bad.append(f"{rel}: is in {layer!r}, which CMakeLists.txt does not declare as a layer")
            continue
        if quote == '"':
            bad.append(f'{rel}: #include "{target}": engine headers are included as <daguai/LAYER/NAME.hpp>')
            continue
        to = target.split("/")[1]
        if to not in may[layer]:
            bad.append(f"{rel} ({layer}) includes <{target}> ({to}): not a layer below {layer}")
    return bad


def cmake_text() -> str:
    return (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")


def test_the_declared_layers_form_a_chain_without_circles():
    layers = declared_layers(cmake_text())
    assert {"core", "game", "players", "run"} <= set(layers), layers
    may = below_closure(layers)
    assert may["core"] == {"core"}, "the core layer sees nothing above it"
    assert set(layers) <= may["run"], "run is the top: it sees every layer"


def test_every_engine_include_points_down():
    layers = declared_layers(cmake_text())
    assert include_edges(ENGINE), "no includes found: is cpp/engine where this test looks?"
    assert upward_includes(ENGINE, layers) == []


def test_every_engine_folder_is_a_layer_of_at_most_14_sources():
    layers = declared_layers(cmake_text())
    for folder in sorted({p.parent for p in ENGINE.rglob("*") if p.suffix in SOURCE_SUFFIXES}):
        rel = folder.relative_to(ENGINE).as_posix()
        assert rel != ".", "no source sits directly in cpp/engine: each belongs to a layer folder"
        assert rel.split("/")[0] in layers, f"cpp/engine/{rel} is not under a declared layer"
        n = sum(1 for p in folder.iterdir() if p.suffix in SOURCE_SUFFIXES)
        assert n <= MAX_SOURCES_PER_FOLDER, f"cpp/engine/{rel} holds {n} sources"


def test_no_folder_of_cpp_holds_more_than_14_sources():
    """The bindings, the tools and the testing target too: a folder that grows past 14 files
    is split by area, as cpp/bindings/ is."""
    cpp = ROOT / "cpp"
    folders = sorted({p.parent for p in cpp.rglob("*") if p.suffix in SOURCE_SUFFIXES})
    assert len(folders) > len(declared_layers(cmake_text())), folders
    for folder in folders:
        n = sum(1 for p in folder.iterdir() if p.suffix in SOURCE_SUFFIXES)
        assert n <= MAX_SOURCES_PER_FOLDER, f"{folder.relative_to(ROOT)} holds {n} sources"


def test_the_engine_does_not_include_the_bindings_or_the_testing_target():
    """cpp/engine is below everything else in cpp/: no include circle between the folders."""
    for rel, _layer, target, _quote in include_edges(ENGINE):
        assert not target.startswith(("daguai/testing/", "daguai/bindings/")), (rel, target)
    for f in sorted((ROOT / "cpp" / "testing").glob("*.[ch]pp")):
        for _quote, target in INCLUDE.findall(f.read_text(encoding="utf-8")):
            assert "bindings" not in target, (f.name, target)


def test_the_checker_finds_an_upward_include_and_a_circle(tmp_path):
    # the checker itself, on a synthetic engine: one upward include, one quoted include
    (tmp_path / "low").mkdir()
    (tmp_path / "high").mkdir()
    (tmp_path / "low" / "a.hpp").write_text("#include <daguai/high/b.hpp>\n#include <vector>\n")
    (tmp_path / "high" / "b.hpp").write_text('#include <daguai/low/a.hpp>\n#include "c.hpp"\n')
    layers = {"low": set(), "high": {"low"}}
    bad = sorted(upward_includes(tmp_path, layers))
    assert len(bad) == 2, bad
    assert 'high/b.hpp: #include "c.hpp"' in bad[0]
    assert "low/a.hpp (low) includes <daguai/high/b.hpp>" in bad[1]
    with pytest.raises(AssertionError, match="circle between layers"):
        below_closure({"low": {"high"}, "high": {"low"}})
    text = "daguai_layer(low SOURCES a.cpp)\ndaguai_layer(high SOURCES b.cpp\n  BELOW low)\n"
    assert declared_layers(text) == layers


def test_the_build_hides_the_layers_above(tmp_path):
    """Configure the project: each layer's include root holds only that layer, so a file that
    sees the roots of game and below cannot include a players header."""
    cmake = cmake_exe("the layer probe")
    cxx = shutil.which("c++") or shutil.which("g++")
    if cxx is None:
        pytest.skip("no C++ compiler")
    build = tmp_path / "build"
    p = subprocess.run([cmake, "-S", str(ROOT), "-B", str(build)], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    layers = declared_layers(cmake_text())
    for name in layers:
        root = build / "layers" / name / "daguai"
        assert sorted(x.name for x in root.iterdir()) == [name], f"{root} holds only its layer"
    game_roots = [f"-I{build / 'layers' / n}" for n in sorted(below_closure(layers)["game"])]

    def compiles(code: str) -> subprocess.CompletedProcess[str]:
        src = tmp_path / "probe.cpp"
        src.write_text(code)
        return subprocess.run([cxx, "-std=c++20", "-fsyntax-only", *game_roots, str(src)],
                              capture_output=True, text=True, timeout=300)

    ok = compiles("#include <daguai/game/state.hpp>\nint main() {}\n")
    assert ok.returncode == 0, ok.stderr[-2000:]
    up = compiles("#include <daguai/players/policy.hpp>\nint main() {}\n")
    assert up.returncode != 0
    assert "daguai/players/policy.hpp" in up.stderr


# ---- the bindings mirror the layers (cpp/bindings/<layer>/ binds _core.<layer>) -------------
BINDINGS = ROOT / "cpp" / "bindings"
#: Folders of cpp/bindings that are not an engine layer, with the layers they may see: the
#: shared conversions at the top are the core layer's; the test hooks see everything.
BINDING_FOLDERS = {".": {"core"}, "testing": None}


def binding_include_problems(bindings: Path, layers: dict[str, set[str]]) -> list[str]:
    """Every include of a binding file that reaches above its folder's layer: an engine header
    (<daguai/LAYER/...>) or another folder's binding header ("LAYER/...")."""
    may = below_closure(layers)
    bad = []
    for f in sorted(p for p in bindings.rglob("*") if p.suffix in SOURCE_SUFFIXES):
        rel = f.relative_to(bindings)
        folder = rel.parent.as_posix()
        if folder in BINDING_FOLDERS:
            allowed = BINDING_FOLDERS[folder]
            if allowed is None:
                continue
            seen: set[str] = set().union(*(may[x] for x in allowed))
        elif folder in layers:
            seen = may[folder]
        else:
            bad.append(f"{rel}: cpp/bindings/{folder} is not named after an engine layer")
            continue
        for quote, target in INCLUDE.findall(f.read_text(encoding="utf-8")):
            parts = target.split("/")
            if quote == "<" and parts[0] == "daguai" and len(parts) > 2:
                layer = parts[1]
            elif quote == '"' and len(parts) > 1:
                layer = parts[0]
            else:
                continue
            if layer not in seen:
                bad.append(f"{rel} ({folder}) includes {target}: not its layer or one below it")
    return bad


def test_every_binding_includes_only_its_layer_and_those_below():
    layers = declared_layers(cmake_text())
    folders = {p.name for p in BINDINGS.iterdir() if p.is_dir()}
    assert folders - {"testing"} <= set(layers), folders
    assert binding_include_problems(BINDINGS, layers) == []


def test_each_binding_folder_makes_its_submodule():
    """cpp/bindings/<layer>/ holds bind_<layer>.cpp, which makes _core.<layer>, and module.cpp
    only calls the bind_<layer> functions."""
    module = (BINDINGS / "module.cpp").read_text(encoding="utf-8")
    for folder in sorted(p for p in BINDINGS.iterdir() if p.is_dir()):
        name = folder.name
        entry = folder / f"bind_{name}.cpp"
        assert entry.is_file(), f"{folder.relative_to(ROOT)} has no bind_{name}.cpp"
        text = entry.read_text(encoding="utf-8")
        sub = "_testing" if name == "testing" else name
        assert re.search(rf'layer_module\(\s*core,\s*"{sub}"', text), f"{entry.name} makes _core.{sub}"
        assert f"daguai::bind::bind_{name}(m);" in module
    body = module[module.index("PYBIND11_MODULE"):]
    calls = re.findall(r"^\s+(\S.*);$", body, re.M)
    allowed = ("daguai::bind::bind_", "m.doc()", 'm.attr("__version__")')
    assert all(c.startswith(allowed) for c in calls), calls


def test_the_binding_checker_finds_an_upward_include(tmp_path):
    (tmp_path / "low").mkdir()
    (tmp_path / "high").mkdir()
    (tmp_path / "convert.hpp").write_text("#include <daguai/low/a.hpp>\n")
    (tmp_path / "low" / "bind_low.cpp").write_text(
        '#include "convert.hpp"\n#include "high/args.hpp"\n#include <daguai/high/b.hpp>\n')
    (tmp_path / "high" / "bind_high.cpp").write_text('#include "low/x.hpp"\n#include <daguai/low/a.hpp>\n')
    (tmp_path / "odd").mkdir()
    (tmp_path / "odd" / "bind_odd.cpp").write_text("\n")
    bad = binding_include_problems(tmp_path, {"core": set(), "low": {"core"}, "high": {"low"}})
    assert len(bad) == 4, bad
    assert any("convert.hpp (.) includes daguai/low/a.hpp" in b for b in bad)
    assert any("bind_low.cpp (low) includes high/args.hpp" in b for b in bad)
    assert any("bind_low.cpp (low) includes daguai/high/b.hpp" in b for b in bad)
    assert any("cpp/bindings/odd is not named after an engine layer" in b for b in bad)


# ---- the Python folders and the _core submodules they use ----------------------------------
PACKAGE = ROOT / "python" / "daguai"
ENGINE_SUBMODULES = {"core", "plays", "game", "io", "beliefs", "search", "learned", "catalog", "run"}
#: The _core submodules each folder of the package may use ("" is the face, daguai/*.py); the
#: test hooks (_core._testing) only the tools on top (the command line and daguai.bench).
PYTHON_CORE_USE = {
    "": ENGINE_SUBMODULES,
    "run": {"core", "plays", "game", "beliefs", "search", "catalog", "run"},
    "learn": ENGINE_SUBMODULES,
    "server": {"core", "plays", "game", "catalog", "run"},
}
TOP_MODULES = {"cli", "bench.py", "__main__.py"}
CORE_USE = re.compile(r"\b_core\.(\w+)|from \.+_core\.(\w+) import|from \.+_core import ([\w, ]+)")


def core_submodules_used(text: str) -> set[str]:
    found: set[str] = set()
    for attr, sub, names in CORE_USE.findall(text):
        found |= {attr or sub} if attr or sub else {n.strip().split(" ")[0] for n in names.split(",")}
    return found - {"__version__", "__file__", ""}


def python_core_problems(package: Path) -> list[str]:
    bad = []
    for f in sorted(package.rglob("*.py")):
        rel = f.relative_to(package)
        if rel.parts[0] in TOP_MODULES:
            continue
        folder = rel.parts[0] if len(rel.parts) > 1 else ""
        allowed = PYTHON_CORE_USE.get(folder, ENGINE_SUBMODULES)
        for sub in sorted(core_submodules_used(f.read_text(encoding="utf-8")) - allowed):
            bad.append(f"{rel.as_posix()} uses _core.{sub}: not a submodule its folder stands on")
    return bad


def test_each_python_folder_uses_only_its_core_submodules():
    assert python_core_problems(PACKAGE) == []


def test_the_python_checker_finds_a_test_hook_and_an_upward_use(tmp_path):
    (tmp_path / "server").mkdir()
    (tmp_path / "face.py").write_text("from ._core import _testing\n")
    (tmp_path / "server" / "x.py").write_text("from .. import _core\n_core.learned.Network\n")
    (tmp_path / "bench.py").write_text("from ._core import _testing\n")
    bad = python_core_problems(tmp_path)
    assert bad == ["face.py uses _core._testing: not a submodule its folder stands on",
                   "server/x.py uses _core.learned: not a submodule its folder stands on"]
