"""daguai: a fast, exact engine for 大怪路子 (Da Guai Lu Zi).

The rules of the game, R1-R18 with every variant, are :func:`rules_text` (``daguai rules`` on
the command line; docs/rules.md, 中文 docs/rules.zh.md); the project's decisions and
encodings are the second part of docs/rules.md. Hands are :class:`Hand` (multisets of
faces), plays are :class:`Play` (cards + kind + comparison key), and the C++ core
enumerates every legal play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

try:
    from . import _core
except ImportError as exc:  # pragma: no cover - only without a built extension
    raise ImportError(
        "daguai's C++ extension (daguai._core) is missing: did you build it? "
        "Install with `pip install .` from the source tree."
    ) from exc

from .dgn import SHIPPED_MODELS as _SHIPPED_MODELS  # noqa: E402

# the shipped models behind the policy name "learned", one per table (R18): the name plays the
# model of the game's table (cpp/engine/learned/models.hpp; each read on first use); the policy
# names are read from the engine when asked (bots.policy_names), so no import order matters
for _table, _path in _SHIPPED_MODELS.items():
    if _path.is_file():
        _core.learned._set_builtin_model(str(_path), _table)
del _table, _path

from . import bots  # noqa: E402
from ._core.core import CardError, Hand, IllegalActionError  # noqa: E402
from ._core.game import Action, PositionError  # noqa: E402
from ._core.plays import IllegalPlayError, Kind, Play  # noqa: E402
from .analysis import min_plays  # noqa: E402
from .errors import CodecError  # noqa: E402
from .game import Game, ReplayError, read_record, replay  # noqa: E402
from .plays import beats, classify, compare, count_plays, legal_plays  # noqa: E402
from .review import review  # noqa: E402  (the function; its module is daguai.review's home)
from .rulebook import rules_text  # noqa: E402
from .rules import LEVELS, Rules  # noqa: E402
from .run import EvalResult, SimResult, evaluate, simulate  # noqa: E402
from .search import analyze, sample_worlds  # noqa: E402

# isort: split
# Reachable here too, outside __all__: the rest of daguai.plays, and a few names of their modules.
from ._core.game import ActionList as ActionList  # noqa: E402
from ._core.plays import PLAY_DTYPE as PLAY_DTYPE  # noqa: E402
from .game import RECORD_FORMAT as RECORD_FORMAT  # noqa: E402
from .plays import FAMILIES as FAMILIES  # noqa: E402
from .plays import LegalPlays as LegalPlays  # noqa: E402
from .plays import Rng as Rng  # noqa: E402
from .plays import beats_many as beats_many  # noqa: E402
from .plays import check_play as check_play  # noqa: E402
from .plays import classify_many as classify_many  # noqa: E402
from .plays import count_plays_by_family as count_plays_by_family  # noqa: E402
from .plays import interpretations as interpretations  # noqa: E402
from .plays import legal_plays_array as legal_plays_array  # noqa: E402
from .plays import play_at as play_at  # noqa: E402
from .plays import play_counts as play_counts  # noqa: E402
from .plays import plays_from_array as plays_from_array  # noqa: E402
from .plays import plays_to_array as plays_to_array  # noqa: E402
from .plays import sample_play as sample_play  # noqa: E402
from .titles import TITLES as TITLES  # noqa: E402
from .titles import title as title  # noqa: E402

__version__: str = _core.__version__

# What a user of the README needs. The rest of the plays API is daguai.plays (also reachable
# here), the learning API daguai.learn, imported on first use (it is not imported by
# `import daguai`).
__all__ = [
    "Action",
    "CardError",
    "CodecError",
    "EvalResult",
    "Game",
    "Hand",
    "IllegalActionError",
    "IllegalPlayError",
    "Kind",
    "LEVELS",
    "Play",
    "PositionError",
    "ReplayError",
    "Rules",
    "SimResult",
    "analyze",
    "beats",
    "bots",
    "classify",
    "compare",
    "count_plays",
    "evaluate",
    "legal_plays",
    "min_plays",
    "read_record",
    "replay",
    "review",
    "rules_text",
    "sample_worlds",
    "simulate",
]

_LAZY = {"learn", "env"}  # subpackages imported when first named (daguai.learn.BatchEnv)
if TYPE_CHECKING:  # type checkers see the lazy subpackages as what they are, not as Any
    from . import env as env
    from . import learn as learn


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


from . import _gym_ids  # noqa: E402  (stdlib only: no import of daguai.learn)

_gym_ids.install()  # Gymnasium ids once Gymnasium is imported too, without importing it
