"""Hidden information: views, determinized worlds.

A *view* (``Game.view(seat)``, C++ ``InfoState``) is what one seat may know (R16). The
sampler deals the cards the seat has not seen so that every world is consistent with
the view: known cards in place, tribute facts, refusals and forced passes honoured exactly
(rejection, then a swap chain).
See docs/search.md.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import _core, documents
from .bots import check_model_file, is_model_path
from .checks import check_int, check_model_rules, check_seed
from .errors import read_path, safe_json_loads
from .game import Game
from .positions import PositionError, fill_hidden_hands
from .progress import ProgressBar
from .rules import Rules
from .stats import Z95, wilson_interval

__all__ = ["Analysis", "Group", "analyze", "sample_worlds"]


#: Bounds of the search's arguments (docs/errors.md, docs/search.md).
MAX_WORLDS = 2**16          # sample_worlds(n=): each world is a whole Game
MAX_ROLLOUTS = 2**24        # analyze(rollouts=), the C++ kMaxRollouts
MAX_THREADS = 256           # analyze(threads=), the C++ kMaxThreads
MAX_SECONDS = 3600.0        # analyze(time=)
ANALYZE_ROLLOUTS = 150_000  # analyze's default budget


def sample_worlds(view: _core.game.InfoState, n: int, seed: int = 0) -> list[Game]:
    """``n`` complete games consistent with what ``view``'s seat knows.

    The hidden cards are dealt uniformly over their physical assignments (as a random deal
    would, given the view), restricted to the worlds the view's constraint model allows
    (tribute cards and caps, refusals, forced passes; docs/search.md): by rejection, and
    where rejection is too slow by a swap chain whose stationary distribution is that
    one, so sampling never fails. World ``k`` depends only on ``(view, seed, k)``
    (R17: ``Rng.stream(seed, 0, kSample, k)``). Worlds keep no log (``record=False``); their
    later rounds are dealt from ``(seed, game=k)``.

    Raises ``ValueError`` for ``n`` outside 1 .. ``MAX_WORLDS`` (65,536), a seed outside
    0 .. 2**64 - 1, a view that is not an ``InfoState`` or a finished match.
    """
    if not isinstance(view, _core.game.InfoState):
        raise ValueError(f"sample_worlds needs a view (Game.view(seat)), got {type(view).__name__}")
    n = check_int(n, "n", 1, MAX_WORLDS)
    seed = check_seed(seed)
    rules = Rules.from_dict(view.rules.to_dict())  # the view's CoreRules as a daguai.Rules
    out = []
    for state in _core.beliefs.sample_worlds(view, n, seed):
        out.append(Game._of(state, rules))
    return out


# ---------------------------------------------------------------------------------------
# analysis: the groups of equivalent plays of the seat to act, raced over sampled worlds



#: What analyze ranks by (docs/search.md "analyze").
MEASURE = ("points: the mean change of the seat's score in this round (R13) when the group's "
           "play is made and every seat then follows the rollout policy, with its 95% interval")


def _mean_sd(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var)


@dataclass(frozen=True)
class Group:
    """A group of equivalent plays (docs/search.md "Groups") and its estimate.

    ``plays`` are the actions' texts, the raced one first; ``rollouts`` the rollouts it got in
    the race, one sampled world each (0 when there was no search); ``points`` the mean score
    change of the seat in the round and ``points_ci`` its 95% interval (None below 2
    rollouts); ``round`` the last round of the race it ran in; ``best`` the race's winner;
    ``tie`` not separated from the best (their paired difference over the worlds both saw is
    not significant at 95%).
    """
    plays: tuple[str, ...]
    rollouts: int
    wins: int
    draws: int
    losses: int
    points: float
    points_ci: tuple[float, float] | None
    round: int
    best: bool = False
    tie: bool = False

    @property
    def name(self) -> str:
        """The plays joined by " / " (e.g. ``8h / 8c``), shortened to the first and a count."""
        text = " / ".join(self.plays)
        if len(text) <= 30 or len(self.plays) == 1:
            return text
        return f"{self.plays[0]} (+{len(self.plays) - 1})"

    @property
    def win(self) -> float:
        return self.wins / self.rollouts if self.rollouts else 0.0

    @property
    def draw(self) -> float:
        return self.draws / self.rollouts if self.rollouts else 0.0

    @property
    def lose(self) -> float:
        return self.losses / self.rollouts if self.rollouts else 0.0

    @property
    def win_ci(self) -> tuple[float, float]:
        """95% Wilson interval of :attr:`win`."""
        return wilson_interval(self.wins, self.rollouts)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (:func:`daguai.documents.group_to_json`)."""
        return documents.group_to_json(self)


@dataclass(frozen=True)
class Analysis:
    """Result of :func:`analyze`: the groups of equivalent actions, best first."""
    seat: int
    phase: str
    hand: str
    to_beat: str | None
    to_beat_seat: int | None
    policy: str
    seed: int
    legal: int
    rollouts: int
    budget: int
    rounds: int
    groups: list[Group] = field(default_factory=list)
    n_groups: int = 0
    measure: str = MEASURE

    @property
    def forced(self) -> bool:
        """A single legal action: nothing to search."""
        return self.legal == 1

    @property
    def best(self) -> Group:
        return self.groups[0]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (:func:`daguai.documents.analysis_to_json`; ``daguai analyze --json``)."""
        return documents.analysis_to_json(self)

    def lines(self, width: int = 80, top: int | None = 15) -> list[str]:
        """The analysis as plain text lines of at most ``width`` (>= 80) columns; ``top``
        rows of groups (None: all)."""
        import textwrap
        who = f"seat {self.seat} to act ({self.phase})"
        if self.forced:
            return [f"{who}: forced: {self.best.plays[0]} is the only legal action (no search)"]
        out = [f"{who} · rollouts by {self.policy} · seed {self.seed}"]
        out += textwrap.wrap(self.hand, width, initial_indent="hand: ", subsequent_indent="      ")
        out.append("you lead" if self.to_beat is None
                   else f"to beat: {self.to_beat} (seat {self.to_beat_seat})")
        out.append(f"{self.legal:,} legal actions in {self.n_groups:,} groups; {self.rollouts:,} rollouts "
                   f"in {self.rounds} round{'s' if self.rounds != 1 else ''} of the race")
        out += self._budget_note()
        if self.rounds == 0:
            played = sum(g.rollouts > 0 for g in self.groups)
            out.append(f"time ran out in the race's first round: {played:,} groups played (--time)")
        out.append("ranked by the race: the round a group reached (later first), then points")
        out.append(f"{'#':>4} {'play (equivalent plays)':<28} {'round':>5} {'worlds':>7} {'points':>7} "
                   f"{'[95% interval]':>16} {'win%':>6}")
        shown = self.groups if top is None else self.groups[:top]
        for i, g in enumerate(shown, 1):
            mark = "*" if g.best else ("≈" if g.tie else " ")
            ci = f"[{g.points_ci[0]:+.2f}, {g.points_ci[1]:+.2f}]" if g.points_ci else "[  n/a  ]"
            rnd = str(g.round + 1) if g.rollouts else "-"
            out.append(f"{i:>3}{mark} {g.name[:28]:<28} {rnd:>5} {g.rollouts:>7,} {g.points:>+7.2f} "
                       f"{ci:>16} {100 * g.win:>6.1f}")
        if len(shown) < len(self.groups):
            out.append(f"     ({len(self.groups) - len(shown):,} more groups: --all shows them)")
        ties = sum(g.tie for g in self.groups)
        out.append(f"*: best (the race's winner); ≈: not separated from it (paired, 95%): {ties:,}")
        out.append("points: mean change of your score this round (R13); worlds: its rollouts")
        return out

    def _budget_note(self) -> list[str]:
        """Why the rollouts played differ from the budget asked, when they do (docs/search.md
        "The race": every rollout played is counted, the budget is split in whole worlds)."""
        if self.rounds == 0 or self.rollouts == self.budget:
            return []
        if self.rollouts < self.budget:
            return [f"(of {self.budget:,} asked: the last round splits what is left evenly)"]
        return [f"(over the {self.budget:,} asked: each group plays one rollout a round at least)"]

    def __str__(self) -> str:
        return "\n".join(self.lines())


def _game_of(source: Any, upto: int | None) -> Game:
    source = read_path(source, PositionError, "analyze: file")  # a pathlib.Path: its file
    if isinstance(source, Game):
        if upto is not None:
            raise ValueError("upto is for a record, not a Game")
        return source
    if upto is not None:
        return Game.from_record(source, upto=upto)
    if isinstance(source, (str, bytes)):
        text = source.decode() if isinstance(source, bytes) else source
        first = text.lstrip()[:200]
        if first.startswith("{") and '"record"' in first.split("\n", 1)[0]:
            lines = len(text.strip().splitlines())
            raise ValueError(f"a record needs the line to analyze after: upto=N (--line N), "
                             f"N in 1..{lines}")
        source = safe_json_loads(text, lambda m: PositionError(f"inconsistent position: {m}"),
                                 "the position")  # deep nesting too
    if isinstance(source, Mapping):
        doc = dict(source)
        if isinstance(doc.get("hands"), list) and None in doc["hands"]:
            # a hand with a public history: the unknown hands are filled consistently (the
            # analysis re-deals them from the seat's view anyway)
            doc = fill_hidden_hands(doc)
        return Game.from_position(doc)
    raise ValueError(f"analyze needs a Game, a position (dict or JSON) or a record with upto=N, "
                     f"got {type(source).__name__}")


def _groups(rows: list[Any], best: int) -> list[Group]:
    """Groups from the rows of ``_core.catalog._search``, ranked: the later race round first, then
    the higher mean, then the search order."""
    best_values = rows[best][7]
    out = []
    for i, (members, n, w, d, lo, score, rnd, values) in enumerate(rows):
        ci = None
        if n >= 2:
            mean, sd = _mean_sd(values)
            h = Z95 * sd / math.sqrt(n)
            ci = (mean - h, mean + h)
        tie = False
        if i != best:
            m = min(n, len(best_values))
            if m < 2:
                tie = True
            else:
                diff, sd = _mean_sd([best_values[k] - values[k] for k in range(m)])
                tie = diff - Z95 * sd / math.sqrt(m) <= 0
        out.append((-rnd, -(score / n if n else 0.0), i,
                    Group(tuple(str(a) for a in members), n, w, d, lo, score / n if n else 0.0, ci, rnd,
                          best=i == best, tie=tie)))
    out.sort(key=lambda t: (not t[3].best, t[0], t[1], t[2]))
    return [t[3] for t in out]


#: The models of play a search may infer from (docs/search.md "Inference from play").
INFERENCES = ("none", "heuristic", "learned")
#: Uniform worlds drawn per world kept when inferring (cpp/engine/search/inference.hpp).
INFERENCE_WORLDS: int = _core.search.INFERENCE_WORLDS
#: analyze's default model of play (docs/search.md "Inference from play": "Default").
ANALYZE_INFERENCE = "none"


def check_inference(inference: Any) -> str:
    """``inference`` if it is one of :data:`INFERENCES`, else ``ValueError`` naming it."""
    if not isinstance(inference, str) or inference not in INFERENCES:
        raise ValueError(f"inference must be one of {', '.join(INFERENCES)}, got {inference!r}")
    return inference


def analyze(source: Any, *, upto: int | None = None, rollouts: int | None = None,
            time: float | None = None, policy: str = "heuristic", seed: int = 0, threads: int = 1,
            progress: Any = None, inference: str = ANALYZE_INFERENCE,
            model_rules: str = "same", plays: Sequence[Any] | None = None) -> Analysis:
    """Which play wins: the groups of equivalent actions of the seat to act, raced over
    sampled worlds and ranked by the seat's mean score change in the round (:data:`MEASURE`).

    Every world re-deals the hidden cards from the seat's view (R16: the true hands of the
    input do not matter); in a world a group's play is made, then every seat follows
    ``policy`` to the end of the round. The groups race (sequential halving, docs/search.md):
    the budget of ``rollouts`` (default :data:`ANALYZE_ROLLOUTS`) is split over rounds, the
    worse half stops after each, the last one running is the best.

    ``source``: a Game, a position (dict or JSON text, docs/records.md), or a record (text)
    with ``upto`` = a line number (required for a record); either may be a ``pathlib.Path``
    of its file (a ``str`` is always text: docs/errors.md "Paths"). A position may give only the
    acting seat's hand (the others ``null``): "a hand with a public history"
    (:func:`fill_hidden_hands`). ``time``: seconds; the race is rerun with doubled budgets
    (starting from ``rollouts``, default 1,000) until the time is spent, and the last race
    that finished is reported (then the result depends on the machine). Deterministic for a
    seed without ``time`` (any ``threads``). ``progress``: True for a progress bar on stderr,
    or a callable ``progress(done, total)``.

    Bounds: ``rollouts`` 1 .. 2**24, ``time`` (0, 3600], ``threads`` 1 .. 256, ``seed``
    0 .. 2**64 - 1. Raises ``ValueError`` on bad input.

    ``inference``: one of :data:`INFERENCES`. ``"none"`` (the default,
    :data:`ANALYZE_INFERENCE`: inference is stronger at the same rollouts but costs seven to
    thirteen times the CPU per rollout, docs/search.md) weighs every world consistent with
    the view alike; ``"heuristic"`` resamples each world from ``INFERENCE_WORLDS`` such
    worlds by the likelihood of the other seats' plays this round under the heuristic with a
    fitted noise rate, ``"learned"`` under the shipped learned
    network's softmax over its Q-values with a fitted temperature (``ValueError`` at a table
    without a learned model; docs/search.md "Inference from play"); both deterministic for a
    seed as well. Any other value raises ``ValueError`` naming it.

    ``model_rules``: a ``.dgn`` rollout ``policy`` trained for other rules than the game's is
    refused (``ModelError`` naming both) unless ``"any"``, as everywhere a model plays.

    ``plays``: race only the groups of these actions of the seat to act (each as
    :meth:`daguai.Game.step` reads it: an Action, action text, cards), every one of them, over
    the same worlds: which of these is better. A world gives a group the same value as in a
    race of all the groups with the same seed. A single group is not raced (no rollouts, as a
    forced move). An action that is not legal raises the error
    :meth:`daguai.Game.step` would raise (a ``ValueError``); more actions than the legal ones,
    or none, raise ``ValueError``; a string or anything but a sequence, ``TypeError``.
    """
    if time is not None:
        if isinstance(time, bool) or not isinstance(time, (int, float)) or not 0 < time <= MAX_SECONDS:
            raise ValueError(f"time must be a number of seconds in (0, {MAX_SECONDS:g}], got {time!r}")
    if rollouts is not None:
        rollouts = check_int(rollouts, "rollouts", 1, MAX_ROLLOUTS)
    budget = rollouts if rollouts is not None else (1000 if time is not None else ANALYZE_ROLLOUTS)
    threads = check_int(threads, "threads", 1, MAX_THREADS)
    seed = check_seed(seed)
    inference = check_inference(inference)
    # a search policy cannot roll out (the registry says which are: cpp/engine/players/policy.hpp)
    rollout_policies = [e["name"] for e in _core.catalog.policy_entries() if e["kind"] != "search"]
    # a model file rolls out too (loaded and checked here)
    if is_model_path(policy):
        check_model_file(policy)
    elif not isinstance(policy, str) or policy not in rollout_policies:
        raise ValueError(f"rollout policy must be one of {', '.join(rollout_policies)}, got {policy!r}")
    g = _game_of(source, upto)
    check_model_rules([policy], g.rules, model_rules)  # a 6p3d model at 4p2d (R18)
    if g.match_over:
        raise ValueError("the match is over: nothing to analyze")
    seat = g.current_player
    assert seat is not None
    ms = 1000.0 * time if time is not None else 0.0

    def search(report: Any) -> Any:
        return _core.catalog._search(g, budget, ms, threads, policy, seed, 0, -1, report, inference,
                                     plays=plays)

    if progress is True:  # the one progress display (daguai.progress), on stderr
        bar = ProgressBar("ms" if ms else "rollouts", label="analyzing")

        def report(done: float, total: float) -> bool:
            bar(int(done), int(total))
            return True

        try:
            res = search(report)
        finally:
            bar.close()
    else:
        # a callback even without a bar: between rounds the binding checks for Ctrl-C
        res = search(progress if callable(progress) else (lambda done, total: True))
    rows, best, _worlds, rounds, used, done_budget, n_groups = res
    top = g.top
    return Analysis(seat=seat, phase=g.phase, hand=str(g.hand(seat)),
                    to_beat=None if top is None else str(top), to_beat_seat=g.top_seat,
                    policy=policy, seed=seed, legal=len(g.legal_actions()), rollouts=used,
                    budget=done_budget, rounds=rounds, groups=_groups(rows, best), n_groups=n_groups)
