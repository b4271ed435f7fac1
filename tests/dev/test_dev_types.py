"""Issue 19: the documented API type-checks under ``mypy --strict`` where users meet it: the
examples and a user script written from the docs (tests/typed_user_script.py). daguai is
checked as an installed package would be: its own modules are followed silently."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")
pytest.importorskip("gymnasium")
ROOT = Path(__file__).resolve().parents[2]
CONFIG = """[mypy]
strict = True
[mypy-daguai.*]
follow_imports = silent
"""


def _mypy(tmp_path: Path, *files: Path) -> subprocess.CompletedProcess[str]:
    import daguai

    cfg = tmp_path / "mypy.ini"
    cfg.write_text(CONFIG, encoding="utf-8")
    env = dict(os.environ)
    source = Path(daguai.__file__).resolve().parents[1]
    if "site-packages" not in source.parts:  # a source tree on PYTHONPATH; installed: found as is
        env["MYPYPATH"] = str(source)
    else:
        env.pop("MYPYPATH", None)
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(cfg),
                           "--cache-dir", str(tmp_path / "cache"), *map(str, files)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


# slow: one mypy --strict run, 16 s quiet; CI runs it
@pytest.mark.slow
def test_mypy_strict_accepts_the_examples_and_a_user_script(tmp_path):
    """`encode_observation`, `abstract_mask` and `action_from_abstract` take the Game the
    docs pass (they were typed GameState), `Game.phase` is a str (it was Any)."""
    files = [ROOT / "examples" / "reinforce.py", ROOT / "examples" / "remote_bot.py",
             ROOT / "examples" / "train_learned.py", ROOT / "tests" / "typed_user_script.py"]
    proc = _mypy(tmp_path, *files)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_user_script_runs():
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "typed_user_script.py")],
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert proc.returncode == 0, proc.stderr
