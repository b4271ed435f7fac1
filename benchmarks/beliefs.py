"""How much the sampled worlds know: belief quality at decision points of held-back rounds.

Run:  python benchmarks/beliefs.py [--deals 30] [--seed 910001] [--worlds 200] [--table 6p3d]
                                   [--every 9] [--json] [--inference heuristic]
                                   [--inference-worlds 8] [--players heuristic]

Heuristic players play the first ``--rounds`` rounds of each deal's match (``Game(seed,
game=d)``, deals 0 .. n-1 of a seed no other figure uses), so tribute rounds (R11) are among
them. At every ``--every``-th play and at every decision of the
tribute phases the seat to act is the viewer: its view (R16) is
sampled ``--worlds`` times (``_core._testing.sample_hands_array``, the sampler that ``pimc``,
``analyze`` and the hint use) and the worlds are scored against the true hands:

- **log-likelihood per hidden card**: each card the viewer cannot see is a copy of a face
  ``f`` held by some other seat ``s``; its belief is ``p_s(f)``, the sampled worlds' mean
  share of the unseen copies of ``f`` at ``s``, mixed with one pseudo-world of the *count
  baseline* (``s``'s share of all hidden cards) so that no probability is 0. The figure is
  the mean of ``ln p_s(f)`` over every hidden card, next to the same figure for the count
  baseline alone, which knows the card counts and nothing else (docs/search.md);
- **top-1 accuracy** of the location of each hidden joker, level card and A: the share of
  those cards held by the seat the beliefs rank first (the baseline ranks the seat with the
  most hidden cards first);
- **cost per world**: the sampler's time divided by the worlds drawn (one thread).

``--inference heuristic`` or ``learned`` scores the worlds a search with inference from play
draws instead (``_core._testing.inferred_hands_array``: each world resampled from
``--inference-worlds`` uniform consistent ones by the likelihood of the other seats' plays
this round under that model of play, docs/search.md "Inference from play"); ``--players`` is
the policy every seat plays (each model is most favourable to players of its own kind). The
strength of pimc with inference is ``benchmarks/inference_strength.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from daguai import Game, Rules, _core  # noqa: E402
from daguai.search import INFERENCE_WORLDS, INFERENCES  # noqa: E402

JOKERS = (_core.core.SJ, _core.core.BJ)
ACE = 12  # rank index of A (face = 4 * rank + suit)


@dataclass
class Scores:
    """Running sums of one group of decision points (a phase, or all)."""

    points: int = 0
    cards: int = 0
    loglik: float = 0.0
    loglik_base: float = 0.0
    top1: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0]))
    us_per_world: list[float] = field(default_factory=list)

    def add(self, other: PointScore) -> None:
        self.points += 1
        self.cards += other.cards
        self.loglik += other.loglik
        self.loglik_base += other.loglik_base
        for k, (n, hit, hit_base) in other.top1.items():
            t = self.top1[k]
            t[0] += n
            t[1] += hit
            t[2] += hit_base


@dataclass
class PointScore:
    """One decision point's figures: sums over its hidden cards."""

    cards: int
    loglik: float
    loglik_base: float
    top1: dict[str, tuple[int, int, int]]  # kind -> (cards, hits, baseline hits)


def beliefs(worlds: np.ndarray, known: np.ndarray, unseen: np.ndarray, hidden: np.ndarray
            ) -> np.ndarray:
    """(seats, 54) beliefs: ``p[s, f]`` is the probability that an unseen copy of face ``f``
    is at seat ``s`` (0 where nothing of ``f`` is unseen).

    ``worlds`` is (W, seats, 54) sampled hands, ``known`` (seats, 54) the cards the viewer
    sees in others' hands (their hidden part is the world minus these), ``unseen`` (54,)
    the unseen copies, ``hidden`` (seats,) each seat's hidden card count (0 at the viewer).
    The worlds' mean is mixed with one pseudo-world of the count baseline (weight
    ``1 / (W + 1)``), so every seat with hidden cards keeps a probability above 0."""
    w = worlds.shape[0]
    hid = np.clip(worlds.astype(np.float64) - known[None].astype(np.float64), 0, None)
    hid[:, hidden == 0, :] = 0  # the viewer's own hand and empty hands hold nothing unseen
    mean = hid.mean(axis=0)  # (seats, 54): expected unseen copies of f at s
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(unseen[None] > 0, mean / np.maximum(unseen[None], 1), 0.0)
    return (w * share + count_baseline(unseen, hidden)) / (w + 1)


def count_baseline(unseen: np.ndarray, hidden: np.ndarray) -> np.ndarray:
    """(seats, 54): an unseen copy is at ``s`` with ``s``'s share of all hidden cards."""
    total = max(int(hidden.sum()), 1)
    return np.outer(hidden / total, (unseen > 0).astype(np.float64))


def score_point(p: np.ndarray, truth: np.ndarray, unseen: np.ndarray, hidden: np.ndarray,
                level_rank: int) -> PointScore:
    """The figures of one decision point: ``p`` from :func:`beliefs`, ``truth`` (seats, 54)
    the true hidden copies of each face at each seat (true hand minus what the viewer
    sees)."""
    base = count_baseline(unseen, hidden)
    held = truth > 0
    loglik = float((truth[held] * np.log(p[held])).sum())
    loglik_base = float((truth[held] * np.log(base[held])).sum())
    kinds = {"joker": list(JOKERS), "level card": [4 * level_rank + s for s in range(4)]}
    if level_rank != ACE:
        kinds["A"] = [4 * ACE + s for s in range(4)]
    top_base = int(np.argmax(hidden))
    top1 = {}
    for kind, faces in kinds.items():
        n = hit = hit_base = 0
        for f in faces:
            if unseen[f] == 0:
                continue
            n += int(truth[:, f].sum())
            hit += int(truth[int(np.argmax(p[:, f])), f])
            hit_base += int(truth[top_base, f])
        top1[kind] = (n, hit, hit_base)
    return PointScore(int(truth.sum()), loglik, loglik_base, top1)


def decision_points(seed: int, deal: int, rules: Rules, rounds: int, every: int,
                    players: str = "heuristic"):
    """(game, seat to act) at every decision of the tribute phases and every ``every``-th
    play of the first ``rounds`` rounds of deal ``deal``, heuristic players on every seat."""
    g = Game(seed, rules, game=deal)
    runners = [_core.run.PolicyRunner(players, seed, deal, s) for s in range(g.seats)]
    k = 0
    while not g.match_over and g.n_results < rounds:
        seat = int(g.current_player)
        if str(g.phase) != "play":
            yield g, seat
        elif k % every == every - 1:
            yield g, seat
        if str(g.phase) == "play":
            k += 1
        g.step(runners[seat].act(g))


def measure(args: argparse.Namespace) -> dict[str, Scores]:
    rules = Rules(table=args.table)
    groups: dict[str, Scores] = defaultdict(Scores)
    players = getattr(args, "players", "heuristic")
    inference = getattr(args, "inference", "none")
    for deal in range(args.deals):
        points = decision_points(args.seed, deal, rules, args.rounds, args.every, players)
        for j, (g, seat) in enumerate(points):
            v = _core.game.information_state(g.state, seat, True)  # with this round's history
            seats = g.seats
            known = np.stack([v.known[s].counts() for s in range(seats)]).astype(np.int64)
            unseen = v.unseen.counts().astype(np.int64)
            hidden = np.array(v.hidden_counts, dtype=np.int64)
            if unseen.sum() == 0:
                continue
            t = time.perf_counter()
            world_seed = args.seed * 1000 + deal * 7919 + j
            if inference == "none":
                worlds = _core._testing.sample_hands_array(v, args.worlds, world_seed, 0)
            else:
                worlds = _core._testing.inferred_hands_array(v, args.worlds, world_seed, inference,
                                                     getattr(args, "inference_worlds", INFERENCE_WORLDS))
            spent = time.perf_counter() - t
            truth = np.stack([g.hand(s).counts() for s in range(seats)]).astype(np.int64) - known
            truth[seat] = 0
            p = beliefs(worlds, known, unseen, hidden)
            score = score_point(p, truth, unseen, hidden, _core.core.parse_level(v.level))
            for key in ("all", str(v.phase)):
                groups[key].add(score)
                groups[key].us_per_world.append(spent / args.worlds * 1e6)
    return groups


def report(groups: dict[str, Scores]) -> list[dict[str, object]]:
    rows = []
    for key in ["all"] + sorted(k for k in groups if k != "all"):
        s = groups[key]
        row: dict[str, object] = {
            "phase": key, "points": s.points, "hidden cards": s.cards,
            "loglik per card": s.loglik / max(s.cards, 1),
            "count baseline": s.loglik_base / max(s.cards, 1),
            "µs per world (median)": statistics.median(s.us_per_world) if s.us_per_world else math.nan,
        }
        for kind, (n, hit, hit_base) in sorted(s.top1.items()):
            row[f"top-1 {kind}"] = hit / n if n else math.nan
            row[f"top-1 {kind} (baseline)"] = hit_base / n if n else math.nan
            row[f"{kind} cards"] = n
        rows.append(row)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=910001, help="a seed no other figure uses")
    ap.add_argument("--rounds", type=int, default=2, help="rounds of each deal's match (2: one with tribute)")
    ap.add_argument("--every", type=int, default=9, help="every k-th decision is a point")
    ap.add_argument("--worlds", type=int, default=1000)
    ap.add_argument("--table", default="6p3d", choices=["6p3d", "4p2d"])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--inference", default="none", choices=INFERENCES)
    ap.add_argument("--inference-worlds", type=int, default=INFERENCE_WORLDS,
                    help=f"m: uniform worlds per kept world (default {INFERENCE_WORLDS}, the search's)")
    ap.add_argument("--players", default="heuristic", help="the policy of every seat")
    args = ap.parse_args()
    rows = report(measure(args))
    if args.json:
        print(json.dumps({"args": vars(args), "rows": rows}, indent=1, default=float))
        return
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"beliefs: {args.deals} deals of seed {args.seed}, {args.table}, "
                    f"{args.worlds} worlds per point, {args.players} players, inference "
                    f"{args.inference}" + (f" (m = {args.inference_worlds})" if args.inference != "none"
                                           else " (uniform consistent sampler)"))
    t.add_column("figure")
    for r in rows:
        t.add_column(str(r["phase"]), justify="right")
    for c in list(rows[0])[1:]:
        t.add_row(c, *(f"{r.get(c, math.nan):.3f}" if isinstance(r.get(c), float) else str(r.get(c, ""))
                       for r in rows))
    Console().print(t)


if __name__ == "__main__":
    main()
