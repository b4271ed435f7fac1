"""Results of :func:`daguai.simulate`: :class:`SimResult` (numpy columns), its files and plots
(docs/simulation.md "Columns")."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any, Iterator, Sequence, Union

import numpy as np

from . import _core
from .rules import Rules

__all__ = ["SimResult"]


def _flat_columns(columns: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """One 1-D column per field: 2-D columns become name_0, name_1, ..."""
    out: dict[str, np.ndarray] = {}
    for name, a in columns.items():
        if a.ndim == 1:
            out[name] = a
        else:
            for j in range(a.shape[1]):
                out[f"{name}_{j}"] = a[:, j]
    return out


def _pct(k: float, n: float) -> str:
    return f"{100.0 * k / n:5.1f}%" if n else "    -"


class SimResult(Mapping):
    """Results of :func:`simulate`: a read-only mapping of column name -> numpy array.

    One row per game (index ``game``); see docs/simulation.md for every column. Attributes:
    ``seed``, ``rules``, ``policies`` (6 names, callables by ``__name__``), ``matches``,
    ``elapsed`` (seconds), ``threads``, ``backend``, ``auto_pass``, ``n`` (games).
    """

    def __init__(self, columns: Mapping[str, np.ndarray], *, seed: int, rules: Rules,
                 policies: Sequence[str], matches: bool, elapsed: float = 0.0, threads: int = 1,
                 backend: str = "local", auto_pass: bool = False) -> None:
        self._columns = dict(columns)
        for a in self._columns.values():
            a.flags.writeable = False
        self.seed = seed
        self.rules = rules
        self.policies = tuple(policies)
        self.matches = matches
        self.elapsed = float(elapsed)
        self.threads = threads
        self.backend = backend
        self.auto_pass = auto_pass

    # Mapping
    def __getitem__(self, key: str) -> np.ndarray:
        return self._columns[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._columns)

    def __len__(self) -> int:
        return len(self._columns)

    @property
    def n(self) -> int:
        """Number of games (rows)."""
        return len(self._columns["game"])

    @property
    def unit(self) -> str:
        return "matches" if self.matches else "rounds"

    def __repr__(self) -> str:
        return (f"<SimResult {self.n:,} {self.unit}, {self._matchup()}, seed {self.seed}, "
                f"{self.elapsed:.2f} s>")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimResult):
            return NotImplemented
        return (list(self) == list(other) and all(np.array_equal(self[k], other[k]) for k in self)
                and self.seed == other.seed and self.rules == other.rules
                and self.policies == other.policies and self.matches == other.matches)

    __hash__ = None  # type: ignore[assignment]

    def _matchup(self) -> str:
        a, b = self.team_policies()
        return f"{a} vs {b}"

    def team_policies(self) -> tuple[str, str]:
        """The policy names of team A and team B ('x+y' when a team mixes policies)."""
        out = []
        for t in (0, 1):
            names: list[str] = []
            for p in self.policies[t::2]:
                if p not in names:
                    names.append(p)
            out.append("+".join(names))
        return out[0], out[1]

    def positions(self) -> np.ndarray:
        """(n, 6) int8: the finishing position (1..6) of each seat (last round of a match)."""
        return (np.argsort(self["order"], axis=1, kind="stable") + 1).astype(np.int8)

    def meta(self) -> dict[str, Any]:
        return {"seed": self.seed, "rules": self.rules.to_dict(), "policies": list(self.policies),
                "matches": self.matches, "auto_pass": self.auto_pass, "engine": _core.__version__,
                "elapsed": self.elapsed}

    # ---- summary ----------------------------------------------------------------------
    def summary(self) -> str:
        """A readable table: win/draw rates per team and policy, finishing positions,
        plays and passes per round, speed."""
        n = self.n
        rounds = int(self["rounds"].sum())
        lines = []
        rules = "default rules" if self.rules == Rules() else repr(self.rules)
        speed = rounds / self.elapsed if self.elapsed > 0 else float("nan")
        head = f"{n:,} {self.unit}"
        if self.matches:
            head += f" ({rounds:,} rounds, {rounds / n if n else 0:.1f} per match)"
        backend = f"{self.threads} thread{'s' if self.threads != 1 else ''}"
        if self.backend == "ray":
            backend = f"Ray, {backend} per task"
        lines.append(f"daguai simulate: {head}, seed {self.seed}, {rules}, {backend}")
        lines.append("")
        winner = self["winner"]
        wins = [int((winner == t).sum()) for t in (0, 1)]
        draws = int((winner == -1).sum())
        pa, pb = self.team_policies()
        width = max(6, len(pa), len(pb))
        what = "match " if self.matches else ""
        lines.append(f"team  seats  {'policy':{width}s}  {what + 'wins':>10s}{'':7s}  {what + 'draws':>10s}{'':7s}  "
                     f"{what + 'losses':>10s}{'':7s}  score/seat")
        scores = self["scores"]
        for t, name in ((0, pa), (1, pb)):
            seats = " ".join(str(s) for s in range(t, 6, 2))
            score = float(scores[:, t::2].mean()) if n else 0.0
            lines.append(f"{'AB'[t]:4s}  {seats:5s}  {name:{width}s}  {wins[t]:>10,} {_pct(wins[t], n)}  "
                         f"{draws:>10,} {_pct(draws, n)}  {wins[1 - t]:>10,} {_pct(wins[1 - t], n)}  "
                         f"{score:+10.3f}")
        names = list(dict.fromkeys(self.policies))
        if pa not in names or pb not in names:  # a team mixes policies: per policy as well
            lines.append("")
            lines.append(f"{'policy':{width}s}  seats        {what + 'wins':>10s}{'':7s}  {what + 'draws':>10s}")
            for name in names:
                seats = [s for s in range(6) if self.policies[s] == name]
                won = sum(int((winner == s % 2).sum()) for s in seats)
                lines.append(f"{name:{width}s}  {' '.join(map(str, seats)):11s}  {won:>10,} "
                             f"{_pct(won, n * len(seats))}  {draws * len(seats):>10,} {_pct(draws, n)}")
        if self.matches:
            rw = self["wins"].sum(axis=0)
            rd = int(self["draws"].sum())
            lines.append("")
            lines.append(f"rounds won: A {int(rw[0]):,} {_pct(rw[0], rounds)}, B {int(rw[1]):,} "
                         f"{_pct(rw[1], rounds)}, drawn {rd:,} {_pct(rd, rounds)}")
            lv = self["levels"]
            if n:
                lines.append(f"final levels (mean rank, 0 = '2' .. 12 = 'A'): A {lv[:, 0].mean():.2f}, "
                             f"B {lv[:, 1].mean():.2f}")
        lines.append("")
        pos = self.positions()
        label = "finishing position, % (last round)" if self.matches else "finishing position, %"
        lw = max(width, len(label))
        lines.append(f"{label:{lw}s}" + "".join(f"{k:>7d}" for k in range(1, 7)))
        for name in names:
            seats = [s for s in range(6) if self.policies[s] == name]
            p = pos[:, seats].ravel()
            total = len(p)
            row = "".join(f"{(100.0 * (p == k).sum() / total if total else 0.0):7.1f}" for k in range(1, 7))
            lines.append(f"{name:{lw}s}{row}")
        lines.append("")
        if rounds:
            lines.append(f"per round: {self['plays'].sum() / rounds:.1f} plays, "
                         f"{self['passes'].sum() / rounds:.1f} passes"
                         + ("" if self.matches else f", {self['n_tributers'].mean():.2f} tributers"))
        lines.append(f"time: {self.elapsed:.2f} s, {speed:,.0f} rounds/s"
                     + (f", {n / self.elapsed:,.1f} matches/s" if self.matches and self.elapsed > 0 else ""))
        return "\n".join(lines)

    # ---- files ------------------------------------------------------------------------
    def to_npz(self, path: Union[str, os.PathLike]) -> None:
        """Compressed numpy archive: every column, plus ``_meta`` (a JSON string)."""
        np.savez_compressed(path, **self._columns, _meta=np.array(json.dumps(self.meta())))

    @classmethod
    def from_npz(cls, path: Union[str, os.PathLike]) -> "SimResult":
        """Read back a file written by :meth:`to_npz`."""
        with np.load(path, allow_pickle=False) as f:
            cols = {k: f[k] for k in f.files if k != "_meta"}
            meta = json.loads(str(f["_meta"])) if "_meta" in f.files else {}
        return cls(cols, seed=meta.get("seed", 0), rules=Rules.from_dict(meta.get("rules", {})),
                   policies=meta.get("policies", ["?"] * 6), matches=meta.get("matches", "draws" in cols),
                   elapsed=meta.get("elapsed", 0.0), auto_pass=meta.get("auto_pass", False))

    def to_csv(self, path: Union[str, os.PathLike]) -> None:
        """CSV with a header, one row per game; 2-D columns flattened (order_0 .. order_5)."""
        flat = _flat_columns(self._columns)
        names = list(flat)
        big = any(a.dtype == np.uint64 and len(a) and int(a.max()) >= 2**63 for a in flat.values())
        if big:
            mat = np.empty((self.n, len(names)), dtype=object)
            for j, a in enumerate(flat.values()):
                mat[:, j] = [int(x) for x in a]
        else:
            mat = np.column_stack([a.astype(np.int64) for a in flat.values()]) if self.n else \
                np.zeros((0, len(names)), np.int64)
        np.savetxt(path, mat, fmt="%d", delimiter=",", header=",".join(names), comments="")

    def to_parquet(self, path: Union[str, os.PathLike]) -> None:
        """Parquet (needs pyarrow): flattened columns as in :meth:`to_csv`, metadata in
        the schema under ``daguai``."""
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise ImportError("to_parquet needs pyarrow: pip install 'daguai[parquet]' "
                              "(or pip install pyarrow)") from None
        table = pa.table({k: pa.array(v) for k, v in _flat_columns(self._columns).items()})
        table = table.replace_schema_metadata({"daguai": json.dumps(self.meta())})
        pq.write_table(table, path)

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Write by extension: .npz, .csv or .parquet."""
        ext = os.path.splitext(os.fspath(path))[1].lower()
        if ext == ".npz":
            self.to_npz(path)
        elif ext == ".csv":
            self.to_csv(path)
        elif ext in (".parquet", ".pq"):
            self.to_parquet(path)
        else:
            raise ValueError(f"unknown output format {ext or os.fspath(path)!r} (use .npz, .csv or .parquet)")

    def plot(self, path: Union[str, os.PathLike]) -> None:
        """Save a figure (needs matplotlib): finishing-position histogram per policy and
        win / draw / loss bars per team."""
        try:
            from matplotlib.figure import Figure
        except ImportError:
            raise ImportError("plot needs matplotlib: pip install 'daguai[plot]' "
                              "(or pip install matplotlib)") from None
        fig = Figure(figsize=(10, 4), layout="constrained")
        ax1, ax2 = fig.subplots(1, 2, width_ratios=[3, 2])
        pos = self.positions()
        names = list(dict.fromkeys(self.policies))
        width = 0.8 / max(1, len(names))
        ks = np.arange(1, 7)
        for j, name in enumerate(names):
            seats = [s for s in range(6) if self.policies[s] == name]
            p = pos[:, seats].ravel()
            share = [100.0 * (p == k).mean() if len(p) else 0.0 for k in ks]
            ax1.bar(ks + (j - (len(names) - 1) / 2) * width, share, width, label=name)
        ax1.set_xticks(ks)
        ax1.set_xlabel("finishing position" + (" (last round)" if self.matches else ""))
        ax1.set_ylabel("% of seats")
        ax1.legend()
        ax1.set_title("finishing positions per policy")
        winner = self["winner"]
        n = max(1, self.n)
        pa, pb = self.team_policies()
        labels = [f"A ({pa})", f"B ({pb})"]
        win = np.array([(winner == t).sum() for t in (0, 1)]) * 100.0 / n
        draw = np.full(2, (winner == -1).sum() * 100.0 / n)
        loss = 100.0 - win - draw
        ax2.bar(labels, win, label="win", color="tab:green")
        ax2.bar(labels, draw, bottom=win, label="draw", color="tab:gray")
        ax2.bar(labels, loss, bottom=win + draw, label="loss", color="tab:red")
        ax2.set_ylabel(f"% of {self.unit}")
        ax2.set_ylim(0, 100)
        ax2.legend()
        ax2.set_title(f"{self.n:,} {self.unit}, seed {self.seed}")
        fig.savefig(path)


