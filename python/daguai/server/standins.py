"""The built-in bots at a table: a bot seat's move, and the stand-in that plays a person's
or remote program's seat once it has had no connection for its ``bot_after`` seconds
(docs/server.md "Friends at one table"). Both call :func:`policy_action`, the one place bots
are asked for a decision."""

from __future__ import annotations

import asyncio
import time

from .. import _core
from ..game import Game
from .seats import SeatPlan


def policy_action(policy: str, game: Game, seed: int, decision: int) -> _core.game.Action:
    """The built-in ``policy``'s decision for the seat to act: the one place bots are called.

    Its random stream depends on (table seed, decision number, seat) only, so a table
    restarted from its checkpoint makes the same bot decisions as an uninterrupted one (R17).
    """
    seat = game.current_player
    assert seat is not None
    return _core.run.PolicyRunner(policy, seed, decision, seat).act(game)


class BotSeats:
    """The bots' part of a :class:`daguai.server.tables.Table` (its base class): the
    attributes below are the table's."""

    game: Game
    seed: int
    seats: list[SeatPlan]
    bot_delay: float
    n_decisions: int
    away_since: list[float | None]
    _standin: asyncio.TimerHandle | None

    def commit(self, action: _core.game.Action, timeout: bool = False, standin: bool = False) -> None:
        raise NotImplementedError

    def _connected(self, seat: int) -> bool:
        raise NotImplementedError

    def standing_in(self, seat: int) -> bool:
        """Whether a built-in bot plays this person's or remote seat now: it has had no
        connection for its ``bot_after`` seconds (docs/server.md "Friends at one table")."""
        p, away = self.seats[seat], self.away_since[seat]
        return (not self.game.match_over and p.kind != "bot" and p.bot_after is not None
                and away is not None
                and time.monotonic() - away >= p.bot_after)

    def _schedule_standin(self, seat: int) -> None:
        plan, away = self.seats[seat], self.away_since[seat]
        if plan.kind == "bot" or plan.bot_after is None or away is None:
            return
        if self._standin is not None:
            self._standin.cancel()
        delay = max(self.bot_delay, away + plan.bot_after - time.monotonic())  # bots' pace
        self._standin = asyncio.get_running_loop().call_later(delay, self._standin_move,
                                                              self.n_decisions)

    def _standin_move(self, decision: int) -> None:
        """A seat empty for its ``bot_after`` seconds: the heuristic bot decides for it."""
        self._standin = None
        if decision != self.n_decisions or self.game.match_over:
            return
        seat = self.game.current_player
        assert seat is not None
        if self._connected(seat):
            return
        self.commit(policy_action("heuristic", self.game, self.seed, decision), standin=True)

    def _bot_move(self, decision: int) -> None:
        if decision != self.n_decisions or self.game.match_over:
            return
        seat = self.game.current_player
        assert seat is not None  # the match is not over
        policy = self.seats[seat].policy or "heuristic"
        self.commit(policy_action(policy, self.game, self.seed, decision))
