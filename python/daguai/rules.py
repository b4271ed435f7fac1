"""The rule variants of RULES.md as one immutable, hashable value."""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import _core

__all__ = ["Rules", "LEVELS"]

#: Level texts in rank order (R3).
LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")

_CHOICES: dict[str, tuple[str, ...]] = {
    "wild": ("auto", "high", "declare"),
    "joker_pair": ("tie", "pure_wins"),
    "lead_after_out": ("next", "partner"),
    "dealer": ("first_out", "stay"),
    "tribute_pairing": ("next", "previous", "finish_order"),
    "scoring": ("stake", "levels", "simple"),
    "table": ("6p3d", "4p2d"),
}

_BOOLS = ("wrap_straights", "anti_tribute", "joker_tribute_choice", "losers_pay")
# name: (lowest, highest); the upper bounds are the engine's (cpp/bindings CoreRules)
_INTS = {"max_rounds": (0, 2**30), "max_final_failures": (0, 2**30), "base": (1, 2**20),
         "min_rounds": (0, 2**30)}


@dataclass(frozen=True, repr=False, init=False)
class Rules:
    """Every rule variant of ``RULES.md`` (R5-R14), with the documented defaults.

    Immutable and hashable; ``Rules.from_dict(r.to_dict()) == r``. Unknown names or
    values raise ``ValueError``.

    Parameters
    ----------
    wild : {"auto", "high", "declare"}
        R6: how jokers are read in 2/3/5-card plays. ``auto``: highest kind, then lowest
        key (default); ``high``: highest kind, then highest key; ``declare``: the player
        chooses any interpretation.
    wrap_straights : bool
        R5 variant: sequences may wrap A→2 (QKA23); wrapped straights rank below A2345.
    joker_pair : {"tie", "pure_wins"}
        R7: whether SJ SJ beats SJ BJ.
    lead_after_out : {"next", "partner"}
        R8: who leads when the unbeaten last play emptied its player's hand.
    dealer : {"first_out", "stay"}
        R9/R10: the first player out deals next, or the dealer keeps the deal while his team
        wins (seed 001).
    tribute_pairing : {"next", "previous", "finish_order"}
        R11: how tributers are matched with receivers.
    anti_tribute : bool
        R11 option 抗贡: a tributer holding 3 or more jokers pays nothing.
    joker_tribute_choice : bool
        R11 option: a joker tribute is answered with 2 (SJ) or 3 (BJ) candidate cards.
    final_level : str
        R12: the match ends when the dealer's team wins a round at this level.
    max_rounds : int
        R12: stop after this many rounds (0 = no limit).
    max_final_failures : int
        R12: stop after this many failed rounds at the final level (0 = no limit).
    scoring : {"stake", "levels", "simple"}
        R13 scheme.
    base : int
        R13/R14 base stake b.
    losers_pay : bool
        R13 ``stake``: losers lose what winners gain (zero-sum).
    min_rounds : int
        R14: rounds before leaving stops counting as an early forfeit.
    table : {"6p3d", "4p2d"}
        R18: six players with three decks (default), or four players with two decks.
    """

    wild: str = "auto"
    wrap_straights: bool = False
    joker_pair: str = "tie"
    lead_after_out: str = "next"
    dealer: str = "first_out"
    tribute_pairing: str = "next"
    anti_tribute: bool = False
    joker_tribute_choice: bool = False
    final_level: str = "A"
    max_rounds: int = 0
    max_final_failures: int = 0
    scoring: str = "stake"
    base: int = 1
    losers_pay: bool = True
    min_rounds: int = 3
    table: str = "6p3d"
    _core: Any = field(init=False, repr=False, compare=False, hash=False)

    def __init__(self, *, wild: str = "auto", wrap_straights: bool = False, joker_pair: str = "tie",
                 lead_after_out: str = "next", dealer: str = "first_out",
                 tribute_pairing: str = "next", anti_tribute: bool = False,
                 joker_tribute_choice: bool = False, final_level: str = "A", max_rounds: int = 0,
                 max_final_failures: int = 0, scoring: str = "stake", base: int = 1,
                 losers_pay: bool = True, min_rounds: int = 3, table: str = "6p3d",
                 **unknown: Any) -> None:
        if unknown:
            raise ValueError(f"unknown rule name(s): {', '.join(sorted(unknown))} "
                             f"(known: {', '.join(self.names())})")
        values = dict(wild=wild, wrap_straights=wrap_straights, joker_pair=joker_pair,
                      lead_after_out=lead_after_out, dealer=dealer,
                      tribute_pairing=tribute_pairing, anti_tribute=anti_tribute,
                      joker_tribute_choice=joker_tribute_choice, final_level=final_level,
                      max_rounds=max_rounds, max_final_failures=max_final_failures,
                      scoring=scoring, base=base, losers_pay=losers_pay, min_rounds=min_rounds,
                      table=table)
        for name, value in values.items():
            object.__setattr__(self, name, value)
        self._validate()

    def _validate(self) -> None:
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if not isinstance(value, str) or value not in choices:
                raise ValueError(
                    f"Rules.{name}={value!r} is not one of {', '.join(map(repr, choices))}")
        for name in _BOOLS:
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"Rules.{name} must be True or False, got {getattr(self, name)!r}")
        for name, (lowest, highest) in _INTS.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not hasattr(type(value), "__index__"):
                raise ValueError(f"Rules.{name} must be an integer in [{lowest}, {highest}], "
                                 f"got {value!r}")
            value = operator.index(value)  # numpy integers too; stored as int
            if not lowest <= value <= highest:
                raise ValueError(f"Rules.{name} must be an integer in [{lowest}, {highest}], "
                                 f"got {value!r}")
            object.__setattr__(self, name, value)
        level = self.final_level
        if isinstance(level, str) and level == "10":
            object.__setattr__(self, "final_level", level := "T")
        if not isinstance(level, str) or level.upper() not in LEVELS:
            raise ValueError(f"Rules.final_level={level!r} is not a level ({' '.join(LEVELS)})")
        object.__setattr__(self, "final_level", level.upper())
        core = _core.CoreRules(
            wild=_CHOICES["wild"].index(self.wild),
            wrap_straights=self.wrap_straights,
            joker_pair=_CHOICES["joker_pair"].index(self.joker_pair),
            lead_after_out=_CHOICES["lead_after_out"].index(self.lead_after_out),
            dealer=_CHOICES["dealer"].index(self.dealer),
            tribute_pairing=_CHOICES["tribute_pairing"].index(self.tribute_pairing),
            anti_tribute=self.anti_tribute,
            joker_tribute_choice=self.joker_tribute_choice,
            final_level=LEVELS.index(self.final_level),
            max_rounds=self.max_rounds,
            max_final_failures=self.max_final_failures,
            scoring=_CHOICES["scoring"].index(self.scoring),
            base=self.base,
            losers_pay=self.losers_pay,
            min_rounds=self.min_rounds,
            table=_CHOICES["table"].index(self.table),
        )
        object.__setattr__(self, "_core", core)

    def __repr__(self) -> str:
        defaults = Rules.__dataclass_fields__
        changed = [f"{name}={getattr(self, name)!r}" for name in self.names()
                   if getattr(self, name) != defaults[name].default]
        return f"Rules({', '.join(changed)})"

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated like the constructor)."""
        return Rules(**{**self.to_dict(), **changes})

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The rule names, in declaration order."""
        return tuple(f.name for f in dataclasses.fields(cls) if f.init)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of every rule (JSON-serializable)."""
        return {name: getattr(self, name) for name in self.names()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`; missing names take their defaults."""
        if not isinstance(data, Mapping):
            raise ValueError(f"Rules.from_dict needs a mapping, got {type(data).__name__}")
        if not all(isinstance(k, str) for k in data):
            raise ValueError("Rules.from_dict: rule names must be strings")
        return cls(**dict(data))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rules_from_dict, (self.to_dict(),))


def _rules_from_dict(data: Mapping[str, Any]) -> Rules:
    return Rules.from_dict(data)
