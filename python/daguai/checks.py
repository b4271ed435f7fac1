"""The one argument-checking module: every public entry point and the command line check
their arguments here, so one kind of mistake gets one message everywhere.

Each check returns the value it accepted (normalised: a numpy integer becomes an ``int``,
a policy name is lower-cased) or raises ``ValueError`` naming the argument and what was
wrong (docs/errors.md). Nothing here changes any state.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any

from . import _core
from .bots import Bot, check_model_file, is_model_path, is_search_over_model, load, policy_names
from .codec import short_repr
from .dgn import MODEL_RULES, check_model_rules  # noqa: F401 - the checks' names of the model rules
from .rules import Rules

__all__ = ["SEED_MAX", "PolicyLike", "check_bool", "check_int", "check_seed", "check_rules", "check_policy",
           "seat_policies", "policy_name"]

#: The largest seed (seeds are unsigned 64-bit, R17); every entry point takes [0, SEED_MAX].
SEED_MAX = 2**64 - 1

#: A policy: a built-in name (``policy_names()``), a model path, ``package.module:policy``
#: or a callable ``policy(view, seat) -> action``.
PolicyLike = str | Callable[[Any, int], Any]


def check_int(value: Any, what: str, lo: int | None = None, hi: int | None = None) -> int:
    """``value`` as an ``int`` in ``[lo, hi]`` (a bound of ``None`` is open).

    Anything with ``__index__`` counts as an integer (Python and numpy integers), never a
    bool. The message names ``what`` and the accepted range."""
    if lo is not None and hi is not None:
        want = f"an integer in [{lo}, {hi}]"
    elif lo is not None:
        want = f"an integer >= {lo}"
    elif hi is not None:
        want = f"an integer <= {hi}"
    else:
        want = "an integer"
    if isinstance(value, bool) or type(value).__name__ == "bool_" or not hasattr(type(value), "__index__"):
        raise ValueError(f"{what} must be {want}, got {short_repr(value)}")
    try:
        v = operator.index(value)
    except TypeError:  # an __index__ that refuses (a numpy array of more than one element)
        raise ValueError(f"{what} must be {want}, got {short_repr(value)}") from None
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise ValueError(f"{what} must be {want}, got {short_repr(v)}")  # 10**400: cut short
    return v


def check_seed(value: Any, what: str = "seed") -> int:
    """A seed: an integer in ``[0, 2**64 - 1]`` (R17)."""
    return check_int(value, what, 0, SEED_MAX)


def check_rules(rules: Any, *, mappings: bool = True) -> Rules:
    """``None`` (the default rules), a :class:`~daguai.Rules` or, with ``mappings`` (the
    runners' default), a dict of rules. Entry points that take only a ``Rules`` (``Game``,
    ``BatchEnv``, the environments) pass ``mappings=False``."""
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    if not mappings:
        raise ValueError(f"rules must be a daguai.Rules, got {type(rules).__name__}")
    if isinstance(rules, Mapping):
        return Rules.from_dict(rules)
    raise ValueError(f"rules must be a daguai.Rules (or a dict of rules), got {type(rules).__name__}")


def policy_name(p: PolicyLike) -> str:
    """The name a policy is reported under: its name, else the callable's ``__name__``."""
    if isinstance(p, str):
        return p
    return getattr(p, "__name__", None) or type(p).__name__


def check_policy(p: Any) -> PolicyLike:
    """A policy as the runners take it: a built-in name (lower-cased), a model path, a
    callable (an import path ``package.module:policy`` is loaded), or a :class:`Bot`'s name."""
    names = policy_names()
    if isinstance(p, Bot):  # a public bot is its built-in policy: the C++ fast path
        return p.name
    if isinstance(p, str):
        if is_model_path(p):
            return check_model_file(p)
        if is_search_over_model(p):
            return p
        name = p.strip().lower()
        if ":" in name:  # "package.module:policy"
            return load(p)
        if name not in names:
            raise ValueError(f"unknown policy {p!r} (choose {', '.join(names)}, "
                             "a model file path.dgn, SEARCH@MODEL, an import path package.module:policy "
                             "or file.py:policy)")
        return name
    if callable(p):
        return p
    raise ValueError(f"a policy is a name ({', '.join(names)}) or a callable "
                     f"policy(view, seat) -> action, got {type(p).__name__}")


def seat_policies(policies: Any, seats: int | None = None) -> list[PolicyLike]:
    """One checked policy per seat from 2 (team A = even seats, team B = odd seats), one per
    seat (6, or 4 at the 4p2d table, R18) or 1 (all); ``seats`` defaults to the default
    table's."""
    if seats is None:
        seats = int(_core.core.table_info(Rules().table)["seats"])
    if isinstance(policies, str) or callable(policies):
        policies = [policies]
    try:
        seq = list(policies)
    except TypeError:
        raise ValueError(f"policies: give 2 (team A = even seats, team B = odd seats) or {seats} "
                         f"(one per seat), got {type(policies).__name__}") from None
    if len(seq) == 1:
        seq = seq * seats
    elif len(seq) == 2:
        seq = seq * (seats // 2)
    elif len(seq) != seats:
        raise ValueError(f"policies: give 2 (team A = even seats, team B = odd seats) or {seats} "
                         f"(one per seat), got {len(seq)}")
    return [check_policy(p) for p in seq]


def check_bool(value: Any, name: str) -> bool:
    """A flag: ``True`` / ``False`` (or a numpy bool), never a number or text taken for one
    (``matches=2`` was read as True)."""
    if isinstance(value, bool):
        return value
    try:
        import numpy as np

        if isinstance(value, np.bool_):
            return bool(value)
    except ImportError:  # pragma: no cover
        pass
    raise ValueError(f"{name} must be True or False, got {value!r}")
