"""Who sits at a table: a seat's plan (person, bot or remote program, its time limit and
stand-in delay) and the hash its token is checked against."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ..bots import policy_names
from ..codec import short_repr

SEAT_KINDS = ("human", "bot", "remote")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class SeatPlan:
    kind: str
    name: str
    policy: str | None = None
    time_limit: float | None = None
    token_hash: str | None = None
    #: seconds without a connection after which a built-in bot plays the seat (None: never)
    bot_after: float | None = None

    @staticmethod
    def read(d: Any, seat: int) -> SeatPlan:
        """A seat of a create-table request (schema ``seat_plan``); ValueError if bad."""
        if not isinstance(d, dict) or d.get("kind") not in SEAT_KINDS:
            raise ValueError(f"seat {seat}: an object with 'kind' in {SEAT_KINDS}, got {d!r}")
        extra = set(d) - {"kind", "policy", "name", "time_limit", "bot_after"}
        if extra:
            raise ValueError(f"seat {seat}: unknown field(s) {sorted(extra)}")
        kind = d["kind"]
        policy = d.get("policy")
        if kind == "bot":
            if policy is None:  # omitted: the heuristic; "" is a name like any other (refused)
                policy = "heuristic"
            if not isinstance(policy, str) or policy not in policy_names():
                raise ValueError(f"seat {seat}: unknown policy {short_repr(policy)} "
                                 f"(choose {', '.join(policy_names())})")
        elif policy is not None:
            raise ValueError(f"seat {seat}: only bots have a policy")
        name = d.get("name", policy if kind == "bot" else f"{kind} {seat}")
        if not isinstance(name, str) or len(name) > 40:
            raise ValueError(f"seat {seat}: name must be text of at most 40 characters")
        limit = d.get("time_limit")
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, float))
                                  or not 0 < limit <= 86400):
            raise ValueError(f"seat {seat}: time_limit must be seconds in (0, 86400] or null")
        if kind == "bot" and limit is not None:
            raise ValueError(f"seat {seat}: bots have no time limit")
        after = d.get("bot_after")
        if kind == "bot" and after is not None:
            raise ValueError(f"seat {seat}: a bot needs no stand-in (bot_after)")
        return SeatPlan(kind, name, policy, None if limit is None else float(limit),
                        bot_after=None if after is None else float(after))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "policy": self.policy,
                "time_limit": self.time_limit, "token_hash": self.token_hash,
                "bot_after": self.bot_after}
