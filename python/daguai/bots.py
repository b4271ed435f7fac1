"""The built-in policies as Python policies, and policies loaded from an import path.

``daguai.bots.random``, ``daguai.bots.greedy`` and ``daguai.bots.heuristic`` are callables
``bot(view, seat) -> Action`` (or ``bot(game, seat)``) backed by the C++ policies
(cpp/engine/players/policy.hpp): usable
wherever a policy is (``simulate``, ``evaluate``, your own loop over a :class:`~daguai.Game`).
Given to ``simulate`` / ``evaluate`` they run on the C++ fast path, exactly as the name.

Each bot keeps one C++ runner per game and seat, with the stream ``(seed, game, policy,
seat)`` of the built-in policy (docs/game.md "Randomness"): asked for every decision of a
seat from the deal on, it decides exactly as ``simulate`` does.

:func:`load` turns a built-in name (:func:`policy_names`), a model file or an import path
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

__all__ = ["Bot", "check_model_file", "get", "greedy", "heuristic", "is_model_path", "load", "policy_names",
           "random"]


def policy_names() -> tuple[str, ...]:
    """The built-in policies by name: the C++ catalog (cpp/engine/catalog/policies.def), then
    ``learned`` when a shipped model is registered. The one list of policy names: read from
    the engine when asked, so it does not depend on the order of imports."""
    return tuple(_core.catalog.policy_names())


def is_model_path(text: Any) -> bool:
    """True if ``text`` names a model file (``*.dgn``, docs/learning.md). Only the name is
    looked at: :func:`check_model_file` reads the file."""
    return isinstance(text, str) and text.endswith(".dgn") and "@" not in text


def check_model_file(path: str) -> str:
    """``path`` after its model is loaded and checked (``ModelError``, a ValueError, if the file
    is missing or not a valid model)."""
    _load_checked(path, path)
    return path


def _load_checked(path: str, policy: str) -> None:
    """The model file ``path`` checked, then ``policy`` (the file, or a search over it) looked
    up once by the engine, which loads the file."""
    from .dgn import read_model_file

    # the bytes are checked here first (a FIFO, /dev/zero or a huge file is refused by its
    # stat and header before anything is read to the end), then the engine loads the file
    read_model_file(path)
    _core.catalog.policy_id(policy)


def is_search_over_model(text: Any) -> bool:
    """True if ``text`` is ``"SEARCH@MODEL"``, a search policy over a model (docs/search.md "A
    search over any model": ``"expert@gen4.dgn"``): its model is loaded and checked, and an
    unknown search or model raises the engine's error naming it."""
    if not isinstance(text, str) or "@" not in text:
        return False
    model = text.partition("@")[2]
    if is_model_path(model):
        _load_checked(model, text)  # the file's checks first (FIFO, size, header), as for a model
    else:
        _core.catalog.policy_id(text)
    return True


class Bot:
    """A built-in policy as a Python policy ``bot(view, seat) -> Action``; ``bot(game, seat)``
    works too.

    Given a :class:`~daguai.Game` it decides with the seat's own stream ``(seed, game, policy,
    seat)``, exactly as ``simulate`` does. Given a view (``Game.view(seat)``, which carries no
    seed) it decides with the stream of seed 0 and the view's game index; as a seat's policy in
    ``simulate`` / ``evaluate`` it runs in C++ under its name either way.

    ``name`` may be a model file ``path.dgn``; a model trained for other rules than the
    game's is refused when called (``ModelError`` naming both) unless ``model_rules="any"``.
    """

    _VIEW_RUNNERS = 64  # runners kept for views (a match's seats), the oldest dropped first

    def __init__(self, name: str, model_rules: str = "same") -> None:
        from .dgn import MODEL_RULES

        if not isinstance(model_rules, str) or model_rules not in MODEL_RULES:
            raise ValueError(f"model_rules must be 'same' or 'any', got {model_rules!r:.80}")
        self.model_rules = model_rules
        self._rules_ok: Any = None  # the rules a model file was last checked against
        if is_model_path(name):  # a model file: loaded and checked now
            self.name = check_model_file(name)
        elif is_search_over_model(name):  # SEARCH@MODEL: its model loaded and checked now
            self.name = name
        elif not isinstance(name, str) or name.strip().lower() not in policy_names():
            raise ValueError(f"unknown built-in policy {name!r} (choose {', '.join(policy_names())} "
                             "or a model file path.dgn)")
        else:
            self.name = name.strip().lower()
        self.__name__ = self.name
        self._lock = threading.Lock()
        # id(game) -> (weak reference to the game, one runner per seat); keyed by id because a
        # Game is mutable and so not hashable; the entry goes when the game does
        self._runners: dict[int, tuple[Any, dict[tuple[int, int, int], Any]]] = {}
        self._view_runners: dict[tuple[int, int], Any] = {}  # (game index, seat) -> runner

    def _runner(self, game: Any, seat: int) -> Any:
        key = (game.seed, game.game_index, seat)
        with self._lock:
            entry = self._runners.get(id(game))
            if entry is None or entry[0]() is not game:
                try:
                    game_id = id(game)
                    ref = weakref.ref(game, lambda _, k=game_id: self._runners.pop(k, None))
                except TypeError:  # not weak-referenceable: a fresh runner each call
                    return _core.run.PolicyRunner(self.name, key[0], key[1], seat)
                entry = self._runners[id(game)] = (ref, {})
            runner = entry[1].get(key)
            if runner is None:
                runner = entry[1][key] = _core.run.PolicyRunner(self.name, key[0], key[1], seat)
            return runner

    def _view_runner(self, view: Any, seat: int) -> Any:
        key = (view.game_index, seat)
        with self._lock:
            runner = self._view_runners.get(key)
            if runner is None:
                if len(self._view_runners) >= self._VIEW_RUNNERS:
                    del self._view_runners[next(iter(self._view_runners))]
                runner = self._view_runners[key] = _core.run.PolicyRunner(self.name, 0, key[0], seat)
            return runner

    def __call__(self, game: Any, seat: int) -> Any:
        """The decision of this policy for ``seat``, the player to act in ``game`` (a Game or
        the seat's view)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < _core.core.MAX_SEATS:
            raise ValueError(f"seat must be 0..{_core.core.MAX_SEATS - 1}, got {seat!r}")
        if seat != game.current_player:
            raise ValueError(f"{self.name}: seat {seat} is not the player to act "
                             f"(seat {game.current_player} is)")
        if self.name.endswith(".dgn"):  # a model of other rules (also SEARCH@MODEL's) is refused
            rules = game.rules  # a Rules (Game) or the engine's CoreRules (a view): both to_dict
            if rules.to_dict() != self._rules_ok:
                from .dgn import check_model_rules

                check_model_rules([self.name], rules, self.model_rules)
                self._rules_ok = rules.to_dict()
        if isinstance(game, _core.game.InfoState):
            if game.seat != seat:
                raise ValueError(f"{self.name}: the view is seat {game.seat}'s, not seat {seat}'s")
            return self._view_runner(game, seat).act(game)
        return self._runner(game, seat).act(game)

    def __repr__(self) -> str:
        return f"daguai.bots.{self.name}"

    def __reduce__(self) -> tuple[Any, ...]:
        return (get, (self.name,)) if self.name in _BY_NAME else (Bot, (self.name, self.model_rules))


random = Bot("random")
greedy = Bot("greedy")
heuristic = Bot("heuristic")
_BY_NAME = {"random": random, "greedy": greedy, "heuristic": heuristic}
_BY_NAME_LOCK = threading.Lock()


def get(name: str) -> Bot:
    """The bot of a built-in policy (any of :func:`policy_names`, one object per name) or of a
    model file."""
    key = name.strip().lower() if isinstance(name, str) and not is_model_path(name) else name
    with _BY_NAME_LOCK:
        bot = _BY_NAME.get(key) if isinstance(key, str) else None
        if bot is None:
            if not is_model_path(key) and (not isinstance(key, str) or key not in policy_names()):
                raise ValueError(f"unknown built-in policy {name!r} (choose {', '.join(policy_names())})")
            bot = _BY_NAME[key] = Bot(key)
        return bot


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
    attribute must be callable, ``policy(view, seat) -> action``. Raises ``ValueError``
    naming what failed.
    """
    if not isinstance(spec, str):
        raise ValueError(f"a policy spec is text, got {type(spec).__name__}")
    text = spec.strip()
    if text.lower() in policy_names() or is_model_path(text):
        return get(text)
    module_name, sep, attr = text.rpartition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"unknown policy {spec!r} (choose {', '.join(policy_names())}, "
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
