"""The built-in policies as Python policies, and policies loaded from an import path.

``daguai.bots.random``, ``daguai.bots.greedy`` and ``daguai.bots.heuristic`` are callables
``bot(game, seat) -> Action`` backed by the C++ policies (cpp/engine/players/policy.hpp): usable
wherever a policy is (``simulate``, ``evaluate``, your own loop over a :class:`~daguai.Game`).
Given to ``simulate`` / ``evaluate`` they run on the C++ fast path, exactly as the name.

Each bot keeps one C++ runner per game and seat, with the stream ``(seed, game, policy,
seat)`` of the built-in policy (docs/game.md "Randomness"): asked for every decision of a
seat from the deal on, it decides exactly as ``simulate`` does.

:func:`load` turns ``"random"``/``"greedy"``/``"heuristic"`` or an import path
``"package.module:attribute"`` into a policy (the command line's ``daguai evaluate
pkg.module:policy heuristic``).
"""

from __future__ import annotations

import importlib
import threading
import weakref
from collections.abc import Callable
from typing import Any

from . import _core

__all__ = ["BOTS", "Bot", "get", "greedy", "heuristic", "load", "random"]

#: The names of the built-in policies (the C++ catalog, cpp/engine/catalog/policies.def).
BOTS = tuple(_core.policy_names())


def is_model_path(text: Any) -> bool:
    """True if ``text`` names a model file (``*.dgn``, docs/learning.md): its model is loaded
    and checked (``ModelError``, a ValueError, if the file is missing or not a valid model)."""
    if not isinstance(text, str) or not text.endswith(".dgn"):
        return False
    from .dgn import read_model_file

    # the bytes are checked here first (a FIFO, /dev/zero or a huge file is refused by its
    # stat and header before anything is read to the end), then the engine loads the file
    read_model_file(text)
    _core.policy_id(text)
    return True


class Bot:
    """A built-in policy as a Python callable ``bot(game, seat) -> Action``.

    ``name`` may be a model file ``path.dgn``; a model trained for other rules than the
    game's is refused when called (``ModelError`` naming both) unless ``model_rules="any"``.
    """

    def __init__(self, name: str, model_rules: str = "same") -> None:
        from .dgn import MODEL_RULES

        if not isinstance(model_rules, str) or model_rules not in MODEL_RULES:
            raise ValueError(f"model_rules must be 'same' or 'any', got {model_rules!r:.80}")
        self.model_rules = model_rules
        self._rules_ok: Any = None  # the rules a model file was last checked against
        if is_model_path(name):  # a model file: loaded and checked now
            self.name = name
        elif not isinstance(name, str) or name.strip().lower() not in BOTS:
            raise ValueError(f"unknown built-in policy {name!r} (choose {', '.join(BOTS)} "
                             "or a model file path.dgn)")
        else:
            self.name = name.strip().lower()
        self.__name__ = self.name
        self._lock = threading.Lock()
        # id(game) -> (weak reference to the game, one runner per seat); keyed by id because a
        # Game is mutable and so not hashable; the entry goes when the game does
        self._runners: dict[int, tuple[Any, dict[tuple[int, int, int], Any]]] = {}

    def _runner(self, game: Any, seat: int) -> Any:
        key = (game.seed, game.game_index, seat)
        with self._lock:
            entry = self._runners.get(id(game))
            if entry is None or entry[0]() is not game:
                try:
                    game_id = id(game)
                    ref = weakref.ref(game, lambda _, k=game_id: self._runners.pop(k, None))
                except TypeError:  # not weak-referenceable: a fresh runner each call
                    return _core.PolicyRunner(self.name, key[0], key[1], seat)
                entry = self._runners[id(game)] = (ref, {})
            runner = entry[1].get(key)
            if runner is None:
                runner = entry[1][key] = _core.PolicyRunner(self.name, key[0], key[1], seat)
            return runner

    def __call__(self, game: Any, seat: int) -> Any:
        """The decision of this policy for ``seat``, the player to act in ``game``."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 6:
            raise ValueError(f"seat must be 0..5, got {seat!r}")
        if isinstance(game, _core.InfoState):
            raise ValueError(
                f"daguai.bots.{self.name} needs the Game, not a view: a view carries no seed, so "
                "the bot cannot take its built-in random stream. Give the bot itself (or its "
                "name) as the seat's policy to simulate/evaluate, where it runs in C++.")
        if seat != game.current_player:
            raise ValueError(f"{self.name}: seat {seat} is not the player to act "
                             f"(seat {game.current_player} is)")
        if self.name.endswith(".dgn") and game.rules != self._rules_ok:  # a model of other rules
            from .dgn import check_model_rules

            check_model_rules([self.name], game.rules, self.model_rules)
            self._rules_ok = game.rules
        return self._runner(game, seat).act(game)

    def __repr__(self) -> str:
        return f"daguai.bots.{self.name}"

    def __reduce__(self) -> tuple[Any, ...]:
        return (get, (self.name,)) if self.name in _BY_NAME else (Bot, (self.name, self.model_rules))


random = Bot("random")
greedy = Bot("greedy")
heuristic = Bot("heuristic")
_BY_NAME = {"random": random, "greedy": greedy, "heuristic": heuristic}


def get(name: str) -> Bot:
    """The bot called ``name`` (``"random"``, ``"greedy"`` or ``"heuristic"``)."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in _BY_NAME:
        raise ValueError(f"unknown built-in policy {name!r} (choose {', '.join(BOTS)})")
    return _BY_NAME[key]


def _import_file(path: str) -> Any:
    """The module of a ``.py`` file, imported once under a name derived from its full path
    (so two files of the same name do not collide)."""
    import hashlib
    import importlib.util
    import os
    import sys

    full = os.path.abspath(path)
    if not os.path.isfile(full):
        raise ImportError(f"no file {full}")
    name = "_daguai_policy_" + hashlib.sha256(full.encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, full)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {full}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def load(spec: str) -> Callable[..., Any]:
    """A policy from text: a built-in name, ``"package.module:attribute"`` or
    ``"path/to/file.py:attribute"``.

    The attribute may be dotted (``"pkg.mod:Class.method"``). With ``"pkg.mod:name"`` the
    module is imported as by ``import pkg.mod`` (from ``sys.path``, which includes the
    current directory for ``python -m`` and the console script), so it works where the
    package is importable; a file path (ending in ``.py``, relative to the current
    directory or absolute) works from anywhere: ``"examples/reinforce.py:policy"``. The
    attribute must be callable, ``policy(game, seat) -> action``. Raises ``ValueError``
    naming what failed.
    """
    if not isinstance(spec, str):
        raise ValueError(f"a policy spec is text, got {type(spec).__name__}")
    text = spec.strip()
    if text.lower() in _BY_NAME:
        return _BY_NAME[text.lower()]
    module_name, sep, attr = text.rpartition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"unknown policy {spec!r} (choose {', '.join(BOTS)}, "
                         "or an import path package.module:policy or file.py:policy)")
    try:
        obj: Any = (_import_file(module_name) if module_name.endswith(".py")
                    else importlib.import_module(module_name))
    except ImportError as exc:
        raise ValueError(f"policy {spec!r}: cannot import module {module_name!r} ({exc})") from None
    except (OSError, SyntaxError) as exc:
        raise ValueError(f"policy {spec!r}: cannot load {module_name!r} ({exc})") from None
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"policy {spec!r}: {module_name!r} has no attribute {attr!r}") from None
    if not callable(obj):
        raise ValueError(f"policy {spec!r} is not callable ({type(obj).__name__}); a policy is "
                         "policy(game, seat) -> action")
    return obj
