"""One run of mypy's stubtest over both hand-written stubs of the package (``daguai._core``
and ``daguai.rules``), shared by the tests of each (tests/dev/test_dev_stubs.py,
tests/core/test_rules_variants.py): stubtest analyses numpy and the package once per run, which
took about 27 s of CPU each time, so one run for both modules halves the cost and checks
the same things. Each test reads the lines of its own module (and every line that names
neither, such as a build error)."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import tempfile

MODULES = ("daguai._core", "daguai.rules")


@functools.cache
def stubtest() -> tuple[int, tuple[str, ...], str]:
    """(return code, non-empty stdout lines, stderr) of stubtest over :data:`MODULES`."""
    with tempfile.TemporaryDirectory() as cwd:  # its own mypy cache, nothing in the checkout
        p = subprocess.run(
            [sys.executable, "-m", "mypy.stubtest", *MODULES, "--concise",
             "--mypy-config-file", os.devnull],
            capture_output=True, text=True, cwd=cwd, timeout=600)
    return p.returncode, tuple(line for line in p.stdout.splitlines() if line.strip()), p.stderr


def lines_about(module: str) -> list[str]:
    """stubtest's report lines about ``module``: those that name it, and those that name no
    module of :data:`MODULES` (a report about the run itself)."""
    others = [m for m in MODULES if m != module]
    _, lines, _ = stubtest()
    return [ln for ln in lines if not any(ln.startswith(o + ".") or ln.startswith(o + " ") for o in others)]
