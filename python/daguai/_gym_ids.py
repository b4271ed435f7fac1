"""daguai's Gymnasium ids, registered as soon as both daguai and Gymnasium are imported.

``import daguai`` calls :func:`install`: when Gymnasium is already imported the ids are
registered at once; otherwise (Gymnasium installed, not yet imported) a one-shot import
hook registers them right after ``import gymnasium`` finishes, so ``import daguai`` never
pays for importing Gymnasium. Either way ``gymnasium.make("daguai/DaGuai-v0")`` works after
``import daguai`` and ``import gymnasium`` in any order. The entry points are strings:
:mod:`daguai.learn.envs.gym_env` is imported by the first ``make``.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Any

#: Versioned Gymnasium ids (bumped when an environment's behaviour changes).
ENV_ID = "daguai/DaGuai-v0"
SELF_PLAY_ID = "daguai/DaGuaiSelfPlay-v0"


def register(gymnasium: ModuleType) -> None:
    """Register both ids with ``gymnasium`` (idempotent)."""
    registry = gymnasium.envs.registry
    if ENV_ID not in registry:
        gymnasium.register(id=ENV_ID, entry_point="daguai.learn.envs.gym_env:DaGuaiEnv")
    if SELF_PLAY_ID not in registry:
        gymnasium.register(id=SELF_PLAY_ID, vector_entry_point="daguai.learn.envs.gym_vector:DaGuaiVectorEnv")


class _Loader(importlib.abc.Loader):
    """Gymnasium's own loader, then :func:`register`."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.inner.create_module(spec)  # type: ignore[no-any-return]

    def exec_module(self, module: ModuleType) -> None:
        self.inner.exec_module(module)
        register(module)
        for f in [f for f in sys.meta_path if isinstance(f, _Hook)]:
            sys.meta_path.remove(f)  # done: Gymnasium is imported once

    def __getattr__(self, name: str) -> Any:  # resource readers and the like
        return getattr(self.inner, name)


class _Hook(importlib.abc.MetaPathFinder):
    """Finds ``gymnasium`` and wraps its loader; it leaves ``sys.meta_path`` once Gymnasium
    is imported (a mere ``importlib.util.find_spec("gymnasium")`` leaves it in place)."""

    def find_spec(self, name: str, path: Any = None,
                  target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name != "gymnasium":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _Loader(spec.loader)
        return spec


def install() -> None:
    """Register now if Gymnasium is imported, else when it is (if it is installed)."""
    gym = sys.modules.get("gymnasium")
    if gym is not None:
        if hasattr(gym, "register"):  # not while gymnasium itself is being imported
            register(gym)
        return
    if any(isinstance(f, _Hook) for f in sys.meta_path):
        return
    if importlib.util.find_spec("gymnasium") is not None:
        sys.meta_path.insert(0, _Hook())
