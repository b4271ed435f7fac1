"""Game review: what each of one seat's decisions in a match record cost it.

For every decision of the seat with a choice, the engine's search (:func:`daguai.analyze`'s
race, docs/search.md) is run from that seat's view only (R16: every world re-deals the cards
the seat could not see, so the true hidden hands never enter the answer), with the seat's
actual choice as the *incumbent*: every group of equivalent plays challenges it, the
challengers are halved to one, and the last challenger and the actual choice are played on
the same worlds with what is left of the budget. The challenger is the preferred choice only
if its paired advantage is clear (positive and above two standard errors over at least 4
worlds, as the search policies decide); otherwise the search agrees with the seat and the
decision cost nothing. The cost is the preferred choice's advantage in the round's points
(R13, paired over the shared worlds, 95% interval) and in the chance that the seat's team
wins the round (Newcombe's interval for a difference of two proportions).

Deterministic for a seed (R17): decision ``i``'s search uses ``seed`` and its own decision
number only, so the answer does not depend on threads, on which rounds are reviewed or on
the order. docs/search.md "Game review".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from . import _core, codec, protocol
from .checks import check_int, check_seed
from .errors import ReplayError
from .game import Game
from .records import _read_lines, new_game
from .search import MAX_ROLLOUTS, MAX_THREADS, _mean_sd
from .stats import Z95, wilson_interval

__all__ = ["Review", "ReviewedDecision", "review", "REVIEW_ROLLOUTS", "REVIEW_FORMAT"]

#: Rollouts per reviewed decision (the budget of one search; docs/search.md "Game review").
REVIEW_ROLLOUTS = 256
#: Groups of equivalent plays raced at one decision, the actual choice's among them (the
#: search's selection picks the others, docs/search.md "Candidates"): the race gives every
#: group at least one rollout, so without a cap a leader's 1,000 readings of jokers under
#: ``wild="declare"`` would cost 1,000 rollouts whatever the budget.
REVIEW_GROUPS = 32
#: The version of :meth:`Review.to_dict`'s form.
REVIEW_FORMAT = 1

Progress = Callable[[float, float], Any]


def _diff_interval(a: int, na: int, b: int, nb: int) -> tuple[float, float]:
    """95% interval of ``a / na - b / nb`` (Newcombe's hybrid score interval from the two
    Wilson intervals). The two rates come from the same worlds with common random numbers,
    which correlates them positively: the interval is then wider than needed, not narrower."""
    p1, p2 = a / na, b / nb
    l1, u1 = wilson_interval(a, na)
    l2, u2 = wilson_interval(b, nb)
    d = p1 - p2
    return (d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


@dataclass(frozen=True)
class ReviewedDecision:
    """One decision of the reviewed seat and what it cost (all costs: preferred − actual).

    ``decision`` is its number in the match (0, 1, … across all seats, as the table server
    numbers them, docs/protocol.md); ``line`` the record line of its event (the header is
    line 1; ``daguai analyze RECORD --line line-1`` analyzes the same moment); ``round``
    0-based; ``level`` the rank played this round. ``hand`` and ``to_beat`` are the cards of
    that moment; ``choice`` the seat's
    action, ``best`` the preferred one (``choice`` itself when ``agrees``). ``worlds``:
    the worlds both were played in; ``points`` / ``points_ci``: the cost in the round's
    points; ``win`` / ``win_ci``: in the chance to win the round; ``choice_win`` and
    ``best_win``: those chances; ``played``: the rollouts the search played (bounded by the
    budget and :data:`REVIEW_GROUPS`).
    """

    decision: int
    line: int
    round: int
    seat: int
    phase: str
    level: str
    hand: str
    to_beat: str | None
    to_beat_seat: int | None
    choice: str
    best: str
    agrees: bool
    legal: int
    groups: int
    worlds: int
    points: float
    points_ci: tuple[float, float] | None
    win: float
    win_ci: tuple[float, float] | None
    choice_win: float
    best_win: float
    played: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (docs/search.md "Game review")."""
        d = dict(self.__dict__)
        for k in ("points_ci", "win_ci"):
            d[k] = None if d[k] is None else [round(x, 4) for x in d[k]]
        for k in ("points", "win", "choice_win", "best_win"):
            d[k] = round(d[k], 4)
        return d


@dataclass(frozen=True)
class Review:
    """The result of :func:`review`: ``decisions`` ranked by cost (the costliest first, ties
    in match order), ``forced`` the seat's decisions with nothing to choose (one legal
    action, or only equivalent plays), not searched."""

    seat: int
    seed: int
    rollouts: int
    policy: str
    rounds: tuple[int, ...]
    decisions: list[ReviewedDecision] = field(default_factory=list)
    forced: int = 0

    @property
    def costliest(self) -> ReviewedDecision | None:
        return self.decisions[0] if self.decisions else None

    def to_dict(self) -> dict[str, Any]:
        """The documented JSON form (``daguai review --json``, docs/search.md)."""
        return {
            "review": REVIEW_FORMAT,
            "seat": self.seat,
            "seed": self.seed,
            "rollouts": self.rollouts,
            "policy": self.policy,
            "rounds": list(self.rounds),
            "reviewed": len(self.decisions),
            "forced": self.forced,
            "decisions": [d.to_dict() for d in self.decisions],
        }

    def table(self, top: int | None = 10) -> Any:
        """A ``rich`` table of the ``top`` costliest decisions (None: all)."""
        from rich import box
        from rich.table import Table

        t = Table(
            box=box.SIMPLE_HEAD,
            pad_edge=False,
            title=f"seat {self.seat}: {len(self.decisions)} decisions reviewed "
            f"({self.rollouts} rollouts each, seed {self.seed})",
        )
        for name, just in (
            ("#", "right"),
            ("round", "right"),
            ("to beat", "left"),
            ("you played", "left"),
            ("better", "left"),
            ("cost (points)", "right"),
            ("95% interval", "right"),
            ("cost (win %)", "right"),
        ):
            t.add_column(
                name,
                justify=just,  # type: ignore[arg-type]
                overflow="fold",
                no_wrap=just == "right",
            )
        shown = self.decisions if top is None else self.decisions[:top]
        for d in shown:
            ci = "" if d.points_ci is None else f"[{d.points_ci[0]:+.2f}, {d.points_ci[1]:+.2f}]"
            t.add_row(
                str(d.decision),
                str(d.round + 1),
                d.to_beat or "(you lead)",
                d.choice,
                "= (agrees)" if d.agrees else d.best,
                f"{d.points:.2f}",
                ci,
                "" if d.agrees else f"{100 * d.win:+.1f}",
            )
        return t


def _action_text(d: list[Any]) -> str:
    """The action text (docs/protocol.md) of a record decision ``[seat, type, cards?, as?]``."""
    kind = str(d[1])
    if kind in ("pass", "anti_tribute"):
        return kind
    cards = d[2] if len(d) > 2 else ""
    if kind == "play":
        return f"{cards} as {d[3]}" if len(d) > 3 and d[3] else str(cards)
    return f"{kind} {cards}"


@dataclass
class _Moment:
    decision: int
    line: int
    seat: int
    game: Game
    index: int  # the actual action's index in game.legal_actions()


def _moments(record: Any, seat: int, rounds: set[int] | None) -> tuple[list[_Moment], int]:
    """The seat's decisions in the record (a copy of the game before each, and the index of
    the action it took); and how many of them had a single legal action."""
    numbered = list(enumerate(record, 1)) if isinstance(record, list) else _read_lines(record)
    if not numbered or not isinstance(numbered[0][1], dict) or numbered[0][1].get("record") != "daguai":
        raise ReplayError("not a daguai record: its first line is not a record header")
    g = new_game(Game, numbered[0][1])
    if not 0 <= seat < len(g.scores):
        raise ValueError(f"seat must be 0..{len(g.scores) - 1} at this table, got {seat}")
    out, forced, n, played = [], 0, 0, set()
    for line, e in numbered[1:]:
        d = codec.entry_decision(e)
        if d is None:
            continue
        played.add(g.round)
        if (
            d[1] != "auto_pass"
            and d[0] == seat
            and d[1] != "forfeit"
            and (rounds is None or g.round in rounds)
        ):
            legal = g.legal_actions()
            if len(legal) < 2:
                forced += 1
            else:
                a = protocol.parse_action(g, _action_text(d))
                out.append(_Moment(n, line, seat, g.clone(), list(legal).index(a)))
        protocol.apply_decision(g, d, f"line {line}")
        n += d[1] != "auto_pass"
    if rounds is not None and rounds - played:
        raise ValueError(
            f"the record has no round {min(rounds - played) + 1} (its rounds are 1..{max(played) + 1})"
        )
    return out, forced


def _judge(
    m: _Moment, rollouts: int, policy: str, seed: int, threads: int, report: Callable[[float, float], bool]
) -> ReviewedDecision | None:
    """One decision: the search with the actual choice as the incumbent (module docstring)."""
    g = m.game
    rows, best, _w, _rounds, used, _budget, n_groups = _core.catalog._search(
        g, rollouts, 0.0, threads, policy, (seed + m.decision) % 2**64, REVIEW_GROUPS, m.index, report,
        "none"
    )
    if n_groups < 2 or len(rows) < 2:
        return None
    mine = rows[0]
    seat = m.seat
    if best == 0:  # the finalist challenger only gives the paired worlds' count
        other = max(rows[1:], key=lambda r: (r[6], r[5] / r[1] if r[1] else -1e9))
    else:
        other = rows[best]
    m_worlds = min(mine[1], other[1])
    top = g.top
    agrees = best == 0
    points, points_ci, win, win_ci = 0.0, None, 0.0, None
    if not agrees:
        diffs = [float(other[7][k] - mine[7][k]) for k in range(m_worlds)]
        points, sd = _mean_sd(diffs)
        h = Z95 * sd / math.sqrt(m_worlds)
        points_ci = (points - h, points + h)
        win = other[2] / other[1] - mine[2] / mine[1]
        win_ci = _diff_interval(other[2], other[1], mine[2], mine[1])
    choice = str(rows[0][0][0])
    return ReviewedDecision(
        decision=m.decision,
        line=m.line,
        round=g.round,
        seat=seat,
        phase=g.phase,
        level=str(g.level),
        hand=str(g.hand(seat)),
        to_beat=None if top is None else str(top),
        to_beat_seat=g.top_seat,
        choice=choice,
        best=choice if agrees else str(other[0][0]),
        agrees=agrees,
        legal=len(g.legal_actions()),
        groups=n_groups,
        played=int(used),
        worlds=m_worlds,
        points=points,
        points_ci=points_ci,
        win=win,
        win_ci=win_ci,
        choice_win=mine[2] / mine[1] if mine[1] else 0.0,
        best_win=(mine if agrees else other)[2] / max(1, (mine if agrees else other)[1]),
    )


def review(
    record: str | Iterable[str] | list[dict[str, Any]],
    seat: int,
    *,
    rounds: Iterable[int] | None = None,
    rollouts: int = REVIEW_ROLLOUTS,
    policy: str = "heuristic",
    seed: int = 0,
    threads: int = 1,
    progress: Progress | None = None,
) -> Review:
    """Review ``seat``'s decisions in a match record: what each cost, the costliest first.

    Parameters
    ----------
    record : str, iterable of str, or list of dict
        A JSON Lines match record (docs/records.md), e.g. ``Game.to_record()`` or the
        server's ``GET /api/matches/{id}/record``.
    seat : int
        The reviewed seat (0-based).
    rounds : iterable of int, optional
        Only these rounds (0-based, as in the record); default every round.
    rollouts : int
        The search's budget per decision (1 .. 2**24; default :data:`REVIEW_ROLLOUTS`): the
        work is bounded by it times the seat's decisions.
    policy : str
        The rollout policy of every seat in the search (a non-search built-in policy).
    seed : int
        Seed of the worlds and rollouts; decision ``n`` searches with ``seed + n`` (mod
        2**64), so the same seed gives the same review (R17).
    threads : int
        Threads of each search (1 .. 256); the answer does not depend on it.
    progress : callable, optional
        ``progress(done, total)``: called with the decisions reviewed so far (fractional
        within a decision) and how many there are. Returning ``False`` stops the review
        (``KeyboardInterrupt``).

    Returns
    -------
    Review
        ``decisions`` ranked by the cost in points (then in win chance, then match order).

    Raises
    ------
    ReplayError
        The record does not replay (a ``ValueError``).
    ValueError
        A bad seat, round list, budget, policy, seed or thread count.

    Examples
    --------
    >>> r = review(game.to_record(), seat=0, rollouts=64)  # doctest: +SKIP
    >>> r.costliest.best  # doctest: +SKIP
    """
    seat = check_int(seat, "seat", 0, 5)
    rollouts = check_int(rollouts, "rollouts", 1, MAX_ROLLOUTS)
    threads = check_int(threads, "threads", 1, MAX_THREADS)
    seed = check_seed(seed)
    wanted = None if rounds is None else {check_int(r, "round", 0) for r in rounds}
    rollout_policies = [e["name"] for e in _core.catalog.policy_entries() if e["kind"] != "search"]
    if not isinstance(policy, str) or policy not in rollout_policies:
        raise ValueError(f"rollout policy must be one of {', '.join(rollout_policies)}, got {policy!r}")
    moments, forced = _moments(record, seat, wanted)
    out: list[ReviewedDecision] = []
    total = float(len(moments))
    for i, m in enumerate(moments):

        def report(done: float, planned: float, i: int = i) -> bool:
            if (
                progress is not None
                and progress(i + (min(1.0, done / planned) if planned else 0.0), total) is False
            ):
                raise KeyboardInterrupt("review stopped by its progress callback")
            return True

        r = _judge(m, rollouts, policy, seed, threads, report)
        if r is None:
            forced += 1
        else:
            out.append(r)
        if progress is not None and progress(float(i + 1), total) is False:
            raise KeyboardInterrupt("review stopped by its progress callback")
    out.sort(key=lambda d: (-d.points, -d.win, d.decision))
    seen = sorted(wanted) if wanted is not None else sorted({d.round for d in out})
    return Review(
        seat=seat,
        seed=seed,
        rollouts=rollouts,
        policy=policy,
        rounds=tuple(seen),
        decisions=out,
        forced=forced,
    )
