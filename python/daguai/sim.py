"""``daguai.sim``, the import path of the simulation's names before the package layout of issue 16:
the names live in ``daguai.run`` (``simulation.py``, ``evaluation.py``, ``results.py``,
``cluster.py``) and ``daguai.progress``; this module re-exports the public ones."""

from __future__ import annotations

from .progress import ProgressBar
from .run.cluster import RAY_TIMEOUT, RayConnectionError
from .run.evaluation import EvalResult, evaluate
from .run.results import SimResult
from .run.simulation import CHUNK_SECONDS, MAX_ROUNDS_PER_MATCH, POLICIES, play_game, simulate

__all__ = ["simulate", "evaluate", "play_game", "SimResult", "EvalResult", "POLICIES",
           "MAX_ROUNDS_PER_MATCH", "CHUNK_SECONDS", "RAY_TIMEOUT", "RayConnectionError", "ProgressBar"]
