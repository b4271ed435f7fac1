"""The hand-written stubs (python/daguai/_core/__init__.pyi) agree with the compiled module: mypy's
stubtest compares every name, signature and property of daguai._core with the stubs.

Three kinds of report are artefacts of pybind11 itself, not differences between the stubs and
the module, and only those are set aside (by their exact message, never by name):
- every bound class has pybind11's metaclass, which a .pyi cannot name;
- a class without a Python constructor has pybind11's generic ``(*args, **kwargs)`` __init__
  that raises TypeError, while the stub declares it without arguments;
- ``py::native_enum`` stores a ``__pybind11_native_enum__`` capsule on the enum class.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("mypy")
from stubtest_helpers import lines_about, stubtest  # noqa: E402

ARTEFACTS = (
    re.compile(r"^daguai\._core\.\w+ is inconsistent, metaclass differs$"),
    re.compile(r"^daguai\._core\.\w+\.__init__ is inconsistent, stub does not have \*args "
               r"parameter \"args\"$"),
    re.compile(r"^daguai\._core\.\w+\.__pybind11_native_enum__ is not present in stub$"),
)


# slow: the shared stubtest run, 30 s quiet; CI runs it
@pytest.mark.slow
def test_core_stubs_match_the_module():
    code, _, stderr = stubtest()  # one run for _core and rules (tests/stubtest_helpers.py)
    lines = lines_about("daguai._core")
    errors = [line for line in lines if not any(a.match(line) for a in ARTEFACTS)]
    assert code in (0, 1), stderr[-3000:]
    assert errors == [], "\n".join(errors)
