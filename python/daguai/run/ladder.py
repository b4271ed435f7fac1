"""The ladder: a round-robin of duplicate matches among a pool of players, rated together
(docs/ladder.md).

Every pair of players meets in a duplicate evaluation (:func:`daguai.evaluate`: each deal
played twice with the teams swapped) on the same deals (one seed for the whole ladder, so
every pairing sees the same cards). The ratings are a Bradley-Terry model fitted to all
pairings at once by :mod:`statsmodels` (a binomial GLM with the logit link: the log-odds that
A takes a round from B is ``r_A - r_B``), shown on the Elo scale (400 / ln 10 per unit of
log-odds) with 95% intervals from the model's covariance, and anchored at ``heuristic`` = 0
when it is in the pool (else at the first player).

Results are cached per pairing in SQLite: the key is the two players' identities (a built-in
name with the engine's build, :mod:`daguai.run.identity`; a model file by the SHA-256 of its
bytes), the deals, the seed, the rules and ``auto_pass``, so adding a player to a ladder plays
only its own pairs (:mod:`daguai.run.ladder_cache`: every row is checked when read).
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import _core
from ..checks import check_int, check_model_rules, check_policy, check_rules, policy_name
from ..documents import nan_to_none
from ..errors import require
from ..progress import ProgressBar, ProgressLike, progress_callback
from ..rules import Rules
from ..stats import bounded_mean_interval
from ..table import seats_of
from .evaluation import evaluate
from .ladder_cache import LadderCache, default_cache_path
from .results import render_text
from .simulation import simulate

__all__ = ["ladder", "LadderResult", "Pairing", "Rating", "DEFAULT_POOL", "default_cache_path"]

#: The pool ``daguai ladder`` rates when no players are named: the built-in players of every
#: kind (the search at its default budget). ``expert`` joins when the engine has it.
DEFAULT_POOL: tuple[str, ...] = ("random", "greedy", "heuristic", "heuristic_exact", "pimc", "learned",
                                 "expert")

#: Elo points per unit of log-odds: a 200-point gap is a 76% share of the rounds.
ELO_PER_LOGIT = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class Pairing:
    """One duplicate match of the ladder: ``a`` against ``b`` (from ``a``'s side), or a
    cross-play row (``a`` with partners ``b`` against a team of ``b``; ``cross=True``)."""

    a: str
    b: str
    n_deals: int
    wins: int
    draws: int
    losses: int
    net_win_rate: float
    net_win_ci: tuple[float, float]
    elapsed: float
    cached: bool
    cross: bool = False

    @property
    def games(self) -> int:
        return 2 * self.n_deals

    def flipped(self) -> Pairing:
        """The same pairing from ``b``'s side."""
        lo, hi = self.net_win_ci
        return Pairing(self.b, self.a, self.n_deals, self.losses, self.draws, self.wins,
                       -self.net_win_rate, (-hi, -lo), self.elapsed, self.cached, self.cross)


@dataclass(frozen=True)
class Rating:
    """A player's Bradley-Terry rating on the Elo scale with its 95% interval."""

    name: str
    elo: float
    lo: float
    hi: float
    games: int


@dataclass(frozen=True, eq=False)
class LadderResult:
    """Result of :func:`ladder`: ratings (best first), every pairing and the cross-play rows."""

    players: tuple[str, ...]
    n_deals: int
    seed: int
    rules: Rules
    anchor: str
    ratings: tuple[Rating, ...]
    pairings: tuple[Pairing, ...]
    cross: tuple[Pairing, ...] = field(default=())
    elapsed: float = 0.0

    def figures(self) -> dict[str, Any]:
        """Every figure as plain JSON values."""
        def pair(p: Pairing) -> dict[str, Any]:
            return {"a": p.a, "b": p.b, "n_deals": p.n_deals, "wins": p.wins, "draws": p.draws,
                    "losses": p.losses, "net_win_rate": p.net_win_rate,
                    "net_win_ci": list(p.net_win_ci), "elapsed": p.elapsed, "cached": p.cached}

        return {
            "format": "daguai-ladder", "version": 1, "players": list(self.players),
            "n_deals": self.n_deals, "seed": self.seed, "rules": self.rules.to_dict(),
            "anchor": self.anchor,
            "model": "Bradley-Terry (statsmodels binomial GLM, logit link), Elo scale, 95% intervals",
            "ratings": [{"name": r.name, "elo": r.elo, "lo": r.lo, "hi": r.hi, "games": r.games}
                        for r in self.ratings],
            "pairings": [pair(p) for p in self.pairings],
            "cross_play": [pair(p) for p in self.cross], "elapsed": self.elapsed,
        }

    def to_json(self) -> str:
        return json.dumps(nan_to_none(self.figures()))

    def renderables(self) -> list[Any]:
        """The ladder as ``rich`` renderables (what ``daguai ladder`` prints)."""
        from rich import box
        from rich.table import Table

        rules = "default rules" if self.rules == Rules() else repr(self.rules)
        head = (f"daguai ladder: {len(self.players)} players, {self.n_deals:,} deals x 2 seatings "
                f"per pair, seed {self.seed}, {rules}")
        t = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        for name, justify in (("#", "right"), ("player", "left"), ("Elo", "right"),
                              ("95% CI", "right"), ("rounds", "right")):
            t.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
        for i, r in enumerate(self.ratings, 1):
            # the anchor is 0 by definition, not by measurement: no interval to show
            ci = "(anchor)" if r.name == self.anchor else f"[{r.lo:+.0f}, {r.hi:+.0f}]"
            t.add_row(str(i), r.name, f"{r.elo:+.0f}", ci, f"{r.games:,}")
        m = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        for name, justify in (("A", "left"), ("B", "left"), ("W-L per round", "right"),
                              ("95% CI", "right")):
            m.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
        for p in self.pairings:
            lo, hi = p.net_win_ci
            m.add_row(p.a, p.b, f"{p.net_win_rate:+.3f}", f"[{lo:+.3f}, {hi:+.3f}]")
        out: list[Any] = [head, t, f"(Bradley-Terry on the rounds, Elo scale, {self.anchor} = 0)", m]
        if self.cross:
            c = Table(box=box.SIMPLE_HEAD, pad_edge=False)
            for name, justify in (("cross-play: one of", "left"), ("partners, opponents", "left"),
                                  ("W-L per round", "right"), ("95% CI", "right")):
                c.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
            for p in self.cross:
                lo, hi = p.net_win_ci
                c.add_row(p.a, p.b, f"{p.net_win_rate:+.3f}", f"[{lo:+.3f}, {hi:+.3f}]")
            out.append(c)
        out.append(f"time: {self.elapsed:.1f} s")
        return out

    def summary(self, width: int | None = None) -> str:
        """The ladder as text, ``width`` columns (default: the terminal's, else 80)."""
        return render_text(self.renderables(), width)

    def plot(self, path: str | os.PathLike[str]) -> None:
        """Draw the ratings with their intervals to an image file (matplotlib)."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        names = [r.name for r in self.ratings][::-1]
        elo = np.array([r.elo for r in self.ratings][::-1])
        lo = np.array([r.lo for r in self.ratings][::-1])
        hi = np.array([r.hi for r in self.ratings][::-1])
        fig, ax = plt.subplots(figsize=(6.4, 0.5 * len(names) + 1.5))
        ax.errorbar(elo, range(len(names)), xerr=[elo - lo, hi - elo], fmt="o", capsize=4)
        ax.set_yticks(range(len(names)), names)
        ax.axvline(0.0, color="grey", lw=0.8)
        ax.set_xlabel(f"Elo (Bradley-Terry, {self.anchor} = 0, 95% interval)")
        # over the figure, not the axes: long player names push the axes right of centre
        fig.suptitle(f"daguai ladder: {self.n_deals:,} deals per pair, seed {self.seed}")
        fig.tight_layout()
        fig.savefig(path)
        plt.close(fig)


# ---- pairings ------------------------------------------------------------------------------

def _pairing(a: str, b: str, net: np.ndarray, wins: int, draws: int, losses: int, elapsed: float,
             cached: bool, cross: bool = False) -> Pairing:
    mean, lo, hi = bounded_mean_interval(net)  # W-L per round, in [-1, 1]
    return Pairing(a, b, len(net), wins, draws, losses, mean, (lo, hi), elapsed, cached, cross)


def _play(kind: str, a: str, b: str, n_deals: int, seed: int, rules: Rules, threads: int | None,
          auto_pass: bool) -> tuple[np.ndarray, int, int, int, float]:
    """Play one pairing ("pair": a duplicate evaluation; "cross": a cross-play row)."""
    if kind == "cross":
        return _cross_play(a, b, n_deals, seed, rules, threads, auto_pass)
    r = evaluate(a, b, n_deals, seed=seed, rules=rules, threads=threads, auto_pass=auto_pass,
                 model_rules="any")  # the pool's models were checked before
    return r.deal_net_win, r.wins, r.draws, r.losses, r.elapsed


def _cross_play(x: str, partner: str, n_deals: int, seed: int, rules: Rules, threads: int | None,
                auto_pass: bool) -> tuple[np.ndarray, int, int, int, float]:
    """``x`` at one seat of a team whose other seats play ``partner``, against a whole team of
    ``partner``; each deal twice with the teams swapped (x at seat 0, then at seat 1)."""
    seats = seats_of(rules)
    first = [partner] * seats
    first[0] = x
    second = [partner] * seats
    second[1] = x
    start = time.perf_counter()
    kw: dict[str, Any] = dict(seed=seed, rules=rules, threads=threads, auto_pass=auto_pass,
                              model_rules="any")  # the ladder checked its pool's models
    r1 = simulate(n_deals, first, **kw)
    r2 = simulate(n_deals, second, **kw)
    w1, w2 = r1["winner"].astype(np.int64), r2["winner"].astype(np.int64)
    net = ((w1 == 0).astype(np.float64) - (w1 == 1) + (w2 == 1) - (w2 == 0)) / 2
    wins = int((w1 == 0).sum() + (w2 == 1).sum())
    losses = int((w1 == 1).sum() + (w2 == 0).sum())
    return net, wins, 2 * n_deals - wins - losses, losses, time.perf_counter() - start


# ---- the ratings ----------------------------------------------------------------------------

def fit_ratings(players: Sequence[str], pairings: Sequence[Pairing], anchor: str) -> tuple[Rating, ...]:
    """Bradley-Terry ratings of ``players`` from their pairings, best first.

    Each pairing contributes its rounds: A's score is its wins plus half its draws out of
    ``2 * n_deals``, and one drawn round is added to every pairing (half a win each way) so a
    clean sweep keeps a finite rating. The model is a binomial GLM (statsmodels) with the
    logit link and one column per player but the anchor (rating 0). Treating the two
    seatings of a deal as independent rounds overstates their variance (duplicate play
    cancels much of the deal's luck), so the intervals are conservative.
    """
    require("the ladder's ratings", "ladder", "statsmodels")
    import statsmodels.api as sm  # type: ignore[import-untyped]

    index = {p: i for i, p in enumerate(players)}
    free = [p for p in players if p != anchor]
    col = {p: j for j, p in enumerate(free)}
    if not free:
        return (Rating(anchor, 0.0, 0.0, 0.0, 0),)
    X = np.zeros((len(pairings), len(free)))
    y = np.zeros((len(pairings), 2))
    games = dict.fromkeys(players, 0)
    for i, p in enumerate(pairings):
        if p.a not in index or p.b not in index:
            raise ValueError(f"pairing {p.a} vs {p.b} names a player outside the pool")
        if p.a in col:
            X[i, col[p.a]] += 1.0
        if p.b in col:
            X[i, col[p.b]] -= 1.0
        score = p.wins + 0.5 * p.draws + 0.5
        y[i] = (score, p.games + 1.0 - score)
        games[p.a] += p.games
        games[p.b] += p.games
    # Newton on the likelihood from 0 (no IRLS start: IRLS estimates a least-squares scale it
    # then discards, which is 0 / 0 when there are as many pairings as free ratings)
    fit = sm.GLM(y, X, family=sm.families.Binomial()).fit(
        method="newton", start_params=np.zeros(len(free)), maxiter=200, tol=1e-12, disp=False)
    params = np.asarray(fit.params, dtype=np.float64)
    ci = np.asarray(fit.conf_int(0.05), dtype=np.float64)
    out = [Rating(anchor, 0.0, 0.0, 0.0, games[anchor])]
    for name, j in col.items():
        out.append(Rating(name, params[j] * ELO_PER_LOGIT, ci[j, 0] * ELO_PER_LOGIT,
                          ci[j, 1] * ELO_PER_LOGIT, games[name]))
    return tuple(sorted(out, key=lambda r: -r.elo))


# ---- the run --------------------------------------------------------------------------------

def ladder(players: Sequence[str] | None = None, n_deals: int = 200, *, seed: int = 0,
           rules: Rules | None = None, cache: str | os.PathLike[str] | None | bool = True,
           threads: int | None = None, cross_play: Sequence[str] | None = None,
           partner: str = "heuristic", auto_pass: bool = False,
           progress: ProgressLike = None, model_rules: str = "same",
           notes: Callable[[str], None] | None = None) -> LadderResult:
    """Play a round-robin of duplicate matches among ``players`` and rate them together.

    Parameters
    ----------
    players : sequence of str, optional
        Built-in policy names and ``.dgn`` model paths (default :data:`DEFAULT_POOL`, the
        built-ins this engine has). At least two, no repeats.
    n_deals : int
        Deals per pairing; each is played twice with the teams swapped.
    seed : int
        The deals' seed, the same for every pairing.
    rules : Rules, optional
        The table and variants (default ``Rules()``).
    cache : path, True, False or None
        The SQLite file of cached pairings (True: :func:`default_cache_path`; False / None:
        no cache). A pairing found there is not played again; a row that does not agree
        with its key or itself is played again (``notes`` says so). A file that is not a
        ladder cache raises :class:`~daguai.run.ladder_cache.LadderCacheError` (a
        ``ValueError``) before any pairing is played.
    cross_play : sequence of str, optional
        Players to also seat with ``partner`` team-mates against a team of ``partner``
        (default: every player of the pool but ``partner``; ``()`` for none).
    progress : None, True or callable
        ``progress(done, total)`` over the pairings (cached ones included), or True for a
        bar on stderr (:mod:`daguai.progress`).
    notes : callable, optional
        Called with a line of text before each pairing is played and for each bad cache row.
    model_rules : {"same", "any"}
        As in :func:`daguai.simulate`: a ``.dgn`` model trained for other rules is refused
        before any pairing is played, unless ``"any"``.
    """
    names = _core.catalog.policy_names()
    pool = [p for p in DEFAULT_POOL if p in names] if players is None else list(players)
    if isinstance(players, str):
        raise TypeError("players must be a sequence of names or .dgn paths, not one string")
    checked: list[str] = []
    for p in pool:
        if not isinstance(p, str):
            raise TypeError(f"ladder players are names or .dgn paths, got {type(p).__name__}")
        c = check_policy(p)
        if not isinstance(c, str):
            raise ValueError(f"ladder players are built-in names or .dgn paths, not callables: "
                             f"{policy_name(c)!r}")
        checked.append(c)
    if len(checked) < 2:
        raise ValueError(f"a ladder needs at least two players, got {len(checked)}")
    if len(set(checked)) != len(checked):
        twice = next(p for p in checked if checked.count(p) > 1)
        raise ValueError(f"a ladder's players must differ: {twice} is named more than once")
    n_deals = check_int(n_deals, "n_deals", 2, 2**31 - 1)
    seed = check_int(seed, "seed", 0, 2**64 - 1)
    rules = check_rules(rules)
    partner = check_policy(partner)  # type: ignore[assignment]
    if not isinstance(partner, str):
        raise ValueError("the cross-play partner is a built-in name or a .dgn path")
    check_model_rules([*checked, partner], rules, model_rules)
    crossers = [p for p in checked if p != partner] if cross_play is None else list(cross_play)
    for p in crossers:
        if p not in checked:
            raise ValueError(f"cross-play player {p!r} is not in the pool")
    # fail before any pairing is played: the ratings' package, then the cache file
    require("the ladder's ratings", "ladder", "statsmodels")
    path = default_cache_path() if cache is True else (None if cache in (False, None) else cache)
    store = LadderCache(path, notes)  # type: ignore[arg-type]
    jobs = [("pair", a, b) for i, a in enumerate(checked) for b in checked[i + 1:]]
    jobs += [("cross", x, partner) for x in crossers]
    report = progress_callback(progress, "pairings")
    start = time.perf_counter()
    pairings: list[Pairing] = []
    cross: list[Pairing] = []
    try:
        if report is not None:
            report(0, len(jobs))
        for done, (kind, a, b) in enumerate(jobs, 1):
            key = store.key(kind, a, b, n_deals, seed, rules, auto_pass)
            hit = store.get(key, a, b, n_deals, seed, rules)
            cached = hit is not None
            if hit is None:
                if notes is not None:
                    notes(f"{a} vs {b}: {n_deals:,} deals" if kind == "pair" else
                          f"cross-play: {a} with {b} partners: {n_deals:,} deals")
                hit = _play(kind, a, b, n_deals, seed, rules, threads, auto_pass)
                store.put(key, a, b, n_deals, seed, rules, *hit)
            (pairings if kind == "pair" else cross).append(
                _pairing(a, b, *hit, cached=cached, cross=kind == "cross"))
            if report is not None:
                report(done, len(jobs))
    finally:
        store.close()
        if isinstance(report, ProgressBar):
            report.close()
    anchor = "heuristic" if "heuristic" in checked else checked[0]
    ratings = fit_ratings(checked, pairings, anchor)
    return LadderResult(tuple(checked), n_deals, seed, rules, anchor, ratings, tuple(pairings),
                        tuple(cross), time.perf_counter() - start)
