"""Running games in bulk: :func:`simulate` (``simulation.py``), duplicate :func:`evaluate`
(``evaluation.py``), their result objects (``results.py``) and Ray (``cluster.py``).
Everything here builds on the face of the package (``daguai.game``, ``daguai.rules``,
``daguai.checks``) and never on the learners or the server."""

from __future__ import annotations

from .cluster import RAY_TIMEOUT, RayConnectionError
from .evaluation import EvalResult, evaluate
from .results import COLUMNS, SimResult
from .simulation import play_game, simulate

__all__ = ["simulate", "evaluate", "play_game", "SimResult", "EvalResult", "COLUMNS",
           "RAY_TIMEOUT", "RayConnectionError"]
