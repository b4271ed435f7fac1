"""daguai: a fast, exact engine for 大怪路子 (Da Guai Lu Zi).

The rules are ``RULES.md`` (ids R1-R17); the project's decisions and encodings are in
``docs/rules.md``. Hands are :class:`Hand` (multisets of faces), plays are :class:`Play`
(cards + kind + comparison key), and the C++ core enumerates every legal play.
"""

from __future__ import annotations

from typing import Any

try:
    from . import _core
except ImportError as exc:  # pragma: no cover - only without a built extension
    raise ImportError(
        "daguai's C++ extension (daguai._core) is missing: did you build it? "
        "Install with `pip install .` from the source tree."
    ) from exc

from pathlib import Path as _Path

# the shipped models behind the policy name "learned", one per table (R18): the name plays the
# model of the game's table (cpp/engine/learned/models.hpp; each read on first use); the policy
# names are read from the engine when asked (bots.policy_names), so no import order matters
if (_Path(__file__).parent / "models" / "learned.dgn").is_file():
    _core.learned._set_builtin_model(str(_Path(__file__).parent / "models" / "learned.dgn"), "6p3d")
if (_Path(__file__).parent / "models" / "learned_4p2d.dgn").is_file():
    _core.learned._set_builtin_model(str(_Path(__file__).parent / "models" / "learned_4p2d.dgn"), "4p2d")

from . import bots  # noqa: E402
from . import learn as learn  # noqa: E402  (daguai.learn: the learned player; torch only on demand)
from ._core.core import CardError, Hand, IllegalActionError
from ._core.game import Action, ActionList, PositionError
from ._core.plays import PLAY_DTYPE, IllegalPlayError, Kind, Play
from .analysis import min_plays
from .errors import CodecError
from .game import RECORD_FORMAT, Game, ReplayError, read_record, replay
from .learn.batch_env import BatchEnv
from .learn.tensors import (
    CAND_FEATURES,
    NUM_ABSTRACT,
    OBS_SIZE,
    OBS_VERSION,
    abstract_id,
    abstract_mask,
    action_from_abstract,
    encode_candidates,
    encode_observation,
    obs_meanings,
    obs_spec,
)
from .plays import (
    FAMILIES,
    LegalPlays,
    Rng,
    beats,
    beats_many,
    check_play,
    classify,
    classify_many,
    compare,
    count_plays,
    count_plays_by_family,
    interpretations,
    legal_plays,
    legal_plays_array,
    play_at,
    play_counts,
    plays_from_array,
    plays_to_array,
    sample_play,
)
from .rules import LEVELS, Rules
from .run import EvalResult, SimResult, evaluate, simulate
from .search import analyze, sample_worlds
from .titles import TITLES, title

__version__: str = _core.__version__


def pettingzoo_env(**kwargs: Any) -> Any:
    """The PettingZoo AEC environment (:func:`daguai.env.env`; keyword arguments of
    :class:`daguai.env.raw_env`). Needs ``pip install 'daguai[rl]'``; imported on first use,
    so ``import daguai`` does not need PettingZoo. See docs/learning.md."""
    from .learn.pettingzoo_env import env as _env

    return _env(**kwargs)


__all__ = [
    "BatchEnv",
    "pettingzoo_env",
    "CAND_FEATURES",
    "NUM_ABSTRACT",
    "OBS_SIZE",
    "OBS_VERSION",
    "abstract_id",
    "abstract_mask",
    "action_from_abstract",
    "encode_candidates",
    "encode_observation",
    "obs_meanings",
    "obs_spec",
    "Action",
    "ActionList",
    "CardError",
    "Game",
    "IllegalActionError",
    "PositionError",
    "CodecError",
    "analyze",
    "sample_worlds",
    "RECORD_FORMAT",
    "ReplayError",
    "read_record",
    "replay",
    "Hand",
    "IllegalPlayError",
    "Kind",
    "LEVELS",
    "PLAY_DTYPE",
    "Play",
    "Rules",
    "EvalResult",
    "TITLES",
    "title",
    "SimResult",
    "bots",
    "evaluate",
    "simulate",
    "beats",
    "beats_many",
    "check_play",
    "classify",
    "classify_many",
    "compare",
    "count_plays",
    "count_plays_by_family",
    "interpretations",
    "legal_plays",
    "legal_plays_array",
    "min_plays",
    "play_at",
    "play_counts",
    "plays_from_array",
    "plays_to_array",
    "sample_play",
    "FAMILIES",
    "LegalPlays",
    "Rng",
]

from .learn import _gym_ids  # noqa: E402

_gym_ids.install()  # Gymnasium ids on `import daguai`, without importing Gymnasium
