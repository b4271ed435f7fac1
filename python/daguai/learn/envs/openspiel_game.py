"""大怪路子 as an OpenSpiel game, for OpenSpiel's algorithms (docs/learning.md "OpenSpiel").

Needs the optional package ``open_spiel`` (``pip install 'daguai[openspiel]'``). Importing
this module registers the Python game ``"python_daguai"`` with :func:`pyspiel.register_game`:

>>> import pyspiel
>>> import daguai.learn.envs.openspiel_game
>>> game = pyspiel.load_game("python_daguai")
>>> state = game.new_initial_state()          # a chance node: the deal

Conventions (decisions)
-----------------------
Episode
    **One round** (small enough for OpenSpiel's tests and tree tools to run in seconds):
    ``Game(seed, Rules(max_rounds=1), start=start)``, default rules, so the stake scores
    (R13) are zero-sum.
Chance nodes (the deal)
    The first 8 moves are chance nodes, each with 256 equally likely outcomes: the 8 bytes
    (most significant first) of the 64-bit seed of the deal. The deal and the first dealer
    (and, with ``start="random"``, the levels and tribute) are then the engine's for that
    seed (R17), so the chance nodes give exactly the distribution of the engine's deals over
    uniformly random seeds. A chance model over single cards needs games built from given
    hands (issue "Positions"); until then the seed is the chance outcome.
Players and actions
    Players 0..5 are seats (teams: even / odd seats, R1); ``"python_daguai_4p2d"`` is the
    4-player, 2-deck table (R18: players 0..3, stakes ±1 or ±3, the same actions and
    observation shape). Actions are the 444 abstract ids of
    docs/learning.md (``legal_actions()`` = the ids set in :func:`daguai.learn.abstract_mask`); an
    id plays its canonical action.
Observations
    ``observation_tensor(player)``: the 633-float observation of that seat
    (:func:`daguai.learn.encode_observation`, R16: what the seat may know; zeros before the deal).
    ``observation_string(player)``: the table with only that seat's hand. No information
    state (perfect recall) tensor or string is provided.
Returns
    0 until the end; then each seat's score change for the round (stake scheme, base 1:
    ±1, ±3 or ±6 for the winners / losers, 0 for a draw; partners equal).
Parameters
    ``start``: ``"fresh"`` (default: level 2, no tribute) or ``"random"`` (start states:
    random levels and tribute, docs/learning.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as _exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "daguai.learn.envs.openspiel_game needs the optional package open_spiel: "
        f"pip install 'daguai[openspiel]' (or: pip install open_spiel). ({_exc})") from _exc

from ... import _core
from ...game import Game
from ...rules import Rules
from ...table import table_info
from ..tensors import NUM_ABSTRACT, OBS_SIZE, action_from_abstract

__all__ = ["DaGuaiGame", "DaGuaiGame4p2d", "DaGuaiState", "GAME_NAME", "GAME_NAME_4P2D"]

GAME_NAME = "python_daguai"
GAME_NAME_4P2D = "python_daguai_4p2d"  # R18
_SEED_BYTES = 8


def _type_and_info(table: str, short_name: str, long_name: str) -> tuple[Any, Any]:
    """The OpenSpiel GameType and GameInfo of a table (engine/core/table.hpp, R18)."""
    t = table_info(table)
    players = t["seats"]
    # A round's decisions: at most one play per card, each followed by at most seats - 1
    # passes, plus the tribute exchange.
    max_decisions = 54 * t["decks"] * players + 4 * t["max_tributers"]
    top = float(t["stake"][t["max_tributers"]])  # R13 stake, base 1
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"start": "fresh"},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=NUM_ABSTRACT,
        max_chance_outcomes=256,
        num_players=players,
        min_utility=-top,
        max_utility=top,
        utility_sum=0.0,
        max_game_length=_SEED_BYTES + max_decisions,
    )
    return game_type, info


_GAME_TYPE, _GAME_INFO = _type_and_info("6p3d", GAME_NAME, "Da Guai Lu Zi (daguai, one round)")
_GAME_TYPE_4P2D, _GAME_INFO_4P2D = _type_and_info(
    "4p2d", GAME_NAME_4P2D, "Da Guai Lu Zi, 4 players / 2 decks (daguai, one round)")


class _Table:
    """The daguai Game of a state, copied cheaply (the C++ copy constructor, no replay)
    when OpenSpiel clones the state."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict) -> _Table:
        return _Table(self.game.clone())


class DaGuaiGame(pyspiel.Game):
    """The OpenSpiel game ``"python_daguai"`` (module docstring: the conventions)."""

    _table = "6p3d"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        if self._table == "6p3d":
            super().__init__(_GAME_TYPE, _GAME_INFO, params)
        else:
            super().__init__(_GAME_TYPE_4P2D, _GAME_INFO_4P2D, params)
        self.rules = Rules(max_rounds=1, table=self._table)
        start = params.get("start", "fresh")
        if start not in ("fresh", "random"):
            raise ValueError(f"start must be 'fresh' or 'random', got {start!r}")
        self.start = start

    def new_initial_state(self) -> DaGuaiState:
        return DaGuaiState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> DaGuaiObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params!r}")
        return DaGuaiObserver()


class DaGuaiGame4p2d(DaGuaiGame):
    """The OpenSpiel game ``"python_daguai_4p2d"``: the 4-player, 2-deck table (R18)."""

    _table = "4p2d"


class DaGuaiState(pyspiel.State):
    """A state of ``"python_daguai"``: the seed bytes drawn so far, then the daguai Game."""

    def __init__(self, game: DaGuaiGame) -> None:
        super().__init__(game)
        self._start = game.start
        self._rules = game.rules
        self._players = game.num_players()
        self._seed_bytes: list[int] = []
        self._table: _Table | None = None

    @property
    def game(self) -> Game | None:
        """The daguai Game once dealt (None during the chance nodes). Read it, do not step it."""
        return None if self._table is None else self._table.game

    def current_player(self) -> int:
        g = self.game
        if g is None:
            return int(pyspiel.PlayerId.CHANCE)
        if g.match_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(g.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        g = self.game
        if g is None or g.match_over or player != g.current_player:
            return []
        return np.flatnonzero(_core.io.abstract_mask(g)[0]).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.is_chance_node()
        return [(b, 1.0 / 256) for b in range(256)]

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            self._seed_bytes.append(int(action))
            if len(self._seed_bytes) == _SEED_BYTES:
                seed = int.from_bytes(bytes(self._seed_bytes), "big")
                self._table = _Table(Game(seed, self._rules, start=self._start))
            return
        g = self.game
        g.step(action_from_abstract(g, int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        g = self.game
        if g is not None and not g.match_over and player == g.current_player:
            mask = _core.io.abstract_mask(g)[0]
            if 0 <= action < NUM_ABSTRACT and mask[action]:
                return f"{action}:{action_from_abstract(g, int(action))!r}"
        return f"abstract {action}"

    def is_terminal(self) -> bool:
        g = self.game
        return g is not None and g.match_over

    def returns(self) -> list[float]:
        g = self.game
        if g is None or not g.match_over:
            return [0.0] * self._players
        return [float(v) for v in g.round_result["scores"]]

    def __str__(self) -> str:
        g = self.game
        if g is None:
            return f"dealing: seed bytes {self._seed_bytes}"
        return g.render()


class DaGuaiObserver:
    """OpenSpiel observer (PyObserver interface): the observation tensor of a seat."""

    def __init__(self) -> None:
        self.tensor = np.zeros(OBS_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: DaGuaiState, player: int) -> None:
        g = state.game
        if g is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = _core.io.encode_observation(g, player)

    def string_from(self, state: DaGuaiState, player: int) -> str:
        g = state.game
        if g is None:
            return f"p{player} dealing ({len(state._seed_bytes)}/{_SEED_BYTES} seed bytes)"
        return f"p{player}\n" + g.render(seat=player)


pyspiel.register_game(_GAME_TYPE, DaGuaiGame)
pyspiel.register_game(_GAME_TYPE_4P2D, DaGuaiGame4p2d)
