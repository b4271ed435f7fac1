"""Results of :func:`daguai.simulate`: :class:`SimResult` (numpy columns), its files and plots
(docs/simulation.md "Columns")."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from .. import _core
from ..records import STARTS
from ..rules import Rules
from ..stats import mean_interval, wilson_interval

__all__ = ["SimResult", "COLUMNS", "column_names", "mean_interval", "render_text", "wilson_interval"]

#: Every result column: ``(name, dtype, width, matches_only)``; width 0 = a 1-D column, k = an
#: (n, k) column. Read from the engine's column table (cpp/engine/run/columns.cpp, the one place a
#: column is declared: ``_core.run.result_columns()``), which the C++ rollouts and the Python slow
#: path fill. Widths are those of the 6p3d table; at 4p2d (R18) "order" and "scores" are 4
#: wide and "tributers" 2 (``_core.run.result_columns(rules)``).
COLUMNS: tuple[tuple[str, str, int, bool], ...] = tuple(
    (c["name"], c["dtype"], c["width"], c["matches_only"]) for c in _core.run.result_columns())


def column_names(matches: bool) -> list[str]:
    """The columns of a round-mode (``matches=False``) or a match-mode result, in order."""
    return [name for name, _, _, only_matches in COLUMNS if matches or not only_matches]


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


def _ci_text(ci: tuple[float, float] | list[float] | None, scale: float = 100.0, digits: int = 1) -> str:
    if ci is None or any(v is None or v != v for v in ci):
        return ""
    return f"[{scale * ci[0]:.{digits}f}, {scale * ci[1]:.{digits}f}]"


def render_text(items: Sequence[Any], width: int | None = None) -> str:
    """Plain text of rich renderables (str or tables), ``width`` columns (default: the
    terminal's, ``COLUMNS`` if set, else 80)."""
    import io
    import shutil

    from rich.console import Console  # a dependency: summaries work on a plain install

    if width is None:
        width = shutil.get_terminal_size((80, 24)).columns
    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, force_terminal=False,
                      soft_wrap=False, highlight=False, markup=False, emoji=False)
    for item in items:
        console.print(item)
    return "\n".join(line.rstrip() for line in buf.getvalue().rstrip("\n").splitlines())


class SimResult(Mapping):
    """Results of :func:`simulate`: a read-only mapping of column name -> numpy array.

    One row per game (index ``game``); see docs/simulation.md for every column. Attributes:
    ``seed``, ``rules``, ``policies`` (a name per seat, callables by ``__name__``), ``matches``,
    ``elapsed`` (seconds), ``threads``, ``backend``, ``auto_pass``, ``start`` (``"fresh"``, or
    ``"random"``: games began at ``Game(start="random")``'s start states), ``n`` (games).
    """

    def __init__(self, columns: Mapping[str, np.ndarray], *, seed: int, rules: Rules,
                 policies: Sequence[str], matches: bool, elapsed: float = 0.0, threads: int = 1,
                 backend: str = "local", auto_pass: bool = False, start: str = "fresh") -> None:
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
        if start not in STARTS:
            raise ValueError(f"start must be one of {STARTS}, got {start!r:.40}")
        self.start = start

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
    def seats(self) -> int:
        """Seats of the table (6, or 4 at 4p2d: R18)."""
        return len(self.policies)

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
        """(n, seats) int8: the finishing position (1..seats) of each seat (last round of a
        match)."""
        return (np.argsort(self["order"], axis=1, kind="stable") + 1).astype(np.int8)

    def meta(self) -> dict[str, Any]:
        return {"seed": self.seed, "rules": self.rules.to_dict(), "policies": list(self.policies),
                "matches": self.matches, "auto_pass": self.auto_pass, "start": self.start,
                "engine": _core.__version__,
                "elapsed": self.elapsed, "threads": self.threads, "backend": self.backend}

    # ---- summary ----------------------------------------------------------------------
    def figures(self) -> dict[str, Any]:
        """The summary as plain values (``daguai simulate --json``): run settings, wins /
        draws / losses and mean score per seat per team, per-policy finishing positions
        (% of positions 1..6), plays and passes per round, time and speed."""
        n = self.n
        rounds = int(self["rounds"].sum())
        winner = self["winner"]
        wins = [int((winner == t).sum()) for t in (0, 1)]
        draws = int((winner == -1).sum())
        scores = self["scores"]
        teams = []
        def ci(pair: tuple[float, float]) -> list[float] | None:
            return None if pair[0] != pair[0] else [pair[0], pair[1]]

        for t, name in zip((0, 1), self.team_policies(), strict=False):
            per_game = scores[:, t::2].mean(axis=1) if n else np.zeros(0)
            teams.append({"team": "AB"[t], "seats": list(range(t, self.seats, 2)), "policy": name,
                          "wins": wins[t], "draws": draws, "losses": wins[1 - t],
                          "win_rate": wins[t] / n if n else None,
                          "draw_rate": draws / n if n else None,
                          "loss_rate": wins[1 - t] / n if n else None,
                          # 95% intervals: Wilson for the shares, Student-t for the mean score
                          "win_ci": ci(wilson_interval(wins[t], n)),
                          "draw_ci": ci(wilson_interval(draws, n)),
                          "loss_ci": ci(wilson_interval(wins[1 - t], n)),
                          "score_per_seat": float(per_game.mean()) if n else None,
                          "score_per_seat_ci": ci(mean_interval(per_game))})
        pos = self.positions()
        policies = []
        for name in dict.fromkeys(self.policies):
            seats = [s for s in range(self.seats) if self.policies[s] == name]
            p = pos[:, seats].ravel()
            won = sum(int((winner == s % 2).sum()) for s in seats)
            policies.append({"policy": name, "seats": seats, "wins": won,
                             "positions_pct": [100.0 * float((p == k).mean()) if len(p) else 0.0
                                               for k in range(1, self.seats + 1)]})
        out: dict[str, Any] = {
            "n": n, "unit": self.unit, "rounds": rounds, "seed": self.seed,
            "rules": self.rules.to_dict(), "policies": list(self.policies),
            "threads": self.threads, "backend": self.backend, "auto_pass": self.auto_pass,
            "start": self.start, "engine": _core.__version__, "teams": teams, "per_policy": policies,
            "plays_per_round": float(self["plays"].sum() / rounds) if rounds else None,
            "passes_per_round": float(self["passes"].sum() / rounds) if rounds else None,
            "elapsed": self.elapsed,
            "rounds_per_second": rounds / self.elapsed if self.elapsed > 0 else None,
        }
        if not self.matches:
            out["tributers_per_round"] = float(self["n_tributers"].mean()) if n else None
        else:
            rw = self["wins"].sum(axis=0)
            out["rounds_won"] = [int(rw[0]), int(rw[1])]
            out["rounds_drawn"] = int(self["draws"].sum())
            lv = self["levels"]
            out["final_level_mean"] = [float(lv[:, 0].mean()), float(lv[:, 1].mean())] if n else None
        return out

    def renderables(self) -> list[Any]:
        """The summary as ``rich`` renderables (a title line, tables, notes): what
        ``daguai simulate`` prints, sized by rich to the terminal."""
        from rich import box
        from rich.table import Table

        f = self.figures()
        n, rounds = self.n, f["rounds"]
        rules = "default rules" if self.rules == Rules() else repr(self.rules)
        head = f"{n:,} {self.unit}"
        if self.matches:
            head += f" ({rounds:,} rounds, {rounds / n if n else 0:.1f} per match)"
        backend = f"{self.threads} thread{'s' if self.threads != 1 else ''}"
        if self.backend == "ray":
            backend = f"Ray, {backend} per task"
        out: list[Any] = [f"daguai simulate: {head}, seed {self.seed}, {rules}, {backend}"]
        what = "match " if self.matches else ""
        # Fits 80 columns with short policy names (a long one folds inside its own column,
        # never another cell): shares with their 95% intervals here, counts in the line below
        teams = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        for title, justify in (("team seats", "left"), ("policy", "left"),
                               ("wins, 95% interval", "right"), ("draws", "right"),
                               ("losses", "right"), ("score/seat", "right")):
            teams.add_column(title, justify=justify,  # type: ignore[arg-type]
                             overflow="fold" if title == "policy" else "ellipsis",
                             no_wrap=title != "policy")
        for t in f["teams"]:
            score = "-" if t["score_per_seat"] is None else f"{t['score_per_seat']:+.2f}"
            sci = t["score_per_seat_ci"]
            if sci is not None:
                score += f" ±{(sci[1] - sci[0]) / 2:.2f}"
            teams.add_row(f"{t['team']}  {' '.join(map(str, t['seats']))}", t["policy"],
                          f"{_pct(t['wins'], n).strip()} {_ci_text(t['win_ci'])}".strip(),
                          _pct(t["draws"], n).strip(), _pct(t["losses"], n).strip(), score)
        out.append(teams)
        if n:
            a, b = f["teams"]
            out.append(f"{what}wins: A {a['wins']:,}, B {b['wins']:,}; drawn {a['draws']:,} of {n:,} "
                       f"{self.unit}\n95% intervals: Wilson (shares), Student-t (score/seat)\n")
        pa, pb = self.team_policies()
        names = [p["policy"] for p in f["per_policy"]]
        draws = f["teams"][0]["draws"]
        if pa not in names or pb not in names:  # a team mixes policies: per policy as well
            per = Table(box=box.SIMPLE_HEAD, pad_edge=False)
            for title in ("policy", "seats", what + "wins", what + "draws"):
                per.add_column(title, justify="left" if title in ("policy", "seats") else "right")
            for p in f["per_policy"]:
                k = len(p["seats"])
                per.add_row(p["policy"], " ".join(map(str, p["seats"])),
                            f"{p['wins']:,} {_pct(p['wins'], n * k)}", f"{draws * k:,} {_pct(draws, n)}")
            out.append(per)
        if self.matches:
            rw, rd = f["rounds_won"], f["rounds_drawn"]
            out.append(f"rounds won: A {rw[0]:,} {_pct(rw[0], rounds).strip()}, B {rw[1]:,} "
                       f"{_pct(rw[1], rounds).strip()}, drawn {rd:,} {_pct(rd, rounds).strip()}")
            if n:
                lv = f["final_level_mean"]
                out.append(f"final levels (mean rank, 0 = '2' .. 12 = 'A'): A {lv[0]:.2f}, B {lv[1]:.2f}")
        label = "finishing position, % (last round)" if self.matches else "finishing position, %"
        pos = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=label, title_justify="left")
        pos.add_column("policy")
        for k in range(1, self.seats + 1):
            pos.add_column(str(k), justify="right")
        for p in f["per_policy"]:
            pos.add_row(p["policy"], *(f"{x:.1f}" for x in p["positions_pct"]))
        out.append(pos)
        if rounds:
            out.append(f"per round: {f['plays_per_round']:.1f} plays, {f['passes_per_round']:.1f} passes"
                       + ("" if self.matches else f", {f['tributers_per_round']:.2f} tributers"))
        speed = rounds / self.elapsed if self.elapsed > 0 else float("nan")
        out.append(f"time: {self.elapsed:.2f} s, {speed:,.0f} rounds/s"
                   + (f", {n / self.elapsed:,.1f} matches/s" if self.matches and self.elapsed > 0 else ""))
        return out

    def summary(self, width: int | None = None) -> str:
        """A readable table: win/draw rates per team and policy, finishing positions,
        plays and passes per round, speed. ``width``: columns (default: the terminal's,
        ``COLUMNS`` if set, else 80)."""
        return render_text(self.renderables(), width)

    # ---- tables -------------------------------------------------------------------------
    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame``, one row per game; 2-D columns flattened (``order_0`` ..
        ``order_5``). ``attrs["daguai"]`` holds :meth:`meta`. Needs pandas."""
        from ..errors import require

        require("SimResult.to_pandas", "pandas", "pandas")
        import pandas as pd
        df = pd.DataFrame(_flat_columns(self._columns), copy=True)
        df.attrs["daguai"] = self.meta()
        return df

    def to_arrow(self) -> Any:
        """A ``pyarrow.Table`` of the flattened columns, :meth:`meta` as JSON in the schema
        metadata under ``daguai``. Needs pyarrow."""
        from ..errors import require

        require("SimResult.to_arrow", "parquet", "pyarrow")
        import pyarrow as pa
        table = pa.table({k: pa.array(v) for k, v in _flat_columns(self._columns).items()})
        return table.replace_schema_metadata({"daguai": json.dumps(self.meta())})

    # ---- files ------------------------------------------------------------------------
    def to_npz(self, path: str | os.PathLike) -> None:
        """Compressed numpy archive: every column, plus ``_meta`` (a JSON string)."""
        np.savez_compressed(path, **self._columns, _meta=np.array(json.dumps(self.meta())))

    @classmethod
    def from_npz(cls, path: str | os.PathLike) -> SimResult:
        """Read back a file written by :meth:`to_npz`."""
        with np.load(path, allow_pickle=False) as f:
            cols = {k: f[k] for k in f.files if k != "_meta"}
            meta = json.loads(str(f["_meta"])) if "_meta" in f.files else {}
        return cls(cols, seed=meta.get("seed", 0), rules=Rules.from_dict(meta.get("rules", {})),
                   policies=meta.get("policies", ["?"] * 6), matches=meta.get("matches", "draws" in cols),
                   elapsed=meta.get("elapsed", 0.0), auto_pass=meta.get("auto_pass", False),
                   threads=meta.get("threads", 1), backend=meta.get("backend", "local"),
                   start=meta.get("start", "fresh"))

    def to_csv(self, path: str | os.PathLike) -> None:
        """CSV with a header, one row per game: :meth:`to_pandas` written by pandas."""
        from ..errors import require

        require("SimResult.to_csv", "pandas", "pandas")
        self.to_pandas().to_csv(path, index=False)

    def to_parquet(self, path: str | os.PathLike) -> None:
        """Parquet: :meth:`to_arrow` written by pyarrow (metadata in the schema under
        ``daguai``). Needs pyarrow."""
        from ..errors import require

        require("SimResult.to_parquet", "parquet", "pyarrow")
        table = self.to_arrow()
        import pyarrow.parquet as pq

        pq.write_table(table, path)

    def save(self, path: str | os.PathLike) -> None:
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

    def plot(self, path: str | os.PathLike) -> None:
        """Save a figure (needs matplotlib): finishing-position histogram per policy and
        win / draw / loss bars per team."""
        from ..errors import require

        require("SimResult.plot", "plot", "matplotlib")
        from matplotlib.figure import Figure
        fig = Figure(figsize=(10, 4), layout="constrained")
        ax1, ax2 = fig.subplots(1, 2, width_ratios=[3, 2])
        pos = self.positions()
        names = list(dict.fromkeys(self.policies))
        width = 0.8 / max(1, len(names))
        ks = np.arange(1, self.seats + 1)
        for j, name in enumerate(names):
            seats = [s for s in range(self.seats) if self.policies[s] == name]
            p = pos[:, seats].ravel()
            share = [100.0 * (p == k).mean() if len(p) else 0.0 for k in ks]
            ax1.bar(ks + (j - (len(names) - 1) / 2) * width, share, width, label=name)
        ax1.set_xticks(ks)
        ax1.set_xlabel("finishing position" + (" (last round)" if self.matches else ""))
        ax1.set_ylabel("% of seats")
        ax1.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))  # beside the bars, never on them
        ax1.set_title("finishing positions per policy")
        winner = self["winner"]
        n = max(1, self.n)
        pa, pb = self.team_policies()
        labels = [f"A ({pa})", f"B ({pb})"]
        win = np.array([(winner == t).sum() for t in (0, 1)]) * 100.0 / n
        draw = np.full(2, (winner == -1).sum() * 100.0 / n)
        loss = 100.0 - win - draw
        # the win share's 95% Wilson interval as an error bar on top of each team's win bar
        cis = [wilson_interval(int((winner == t).sum()), self.n) for t in (0, 1)]
        yerr = np.array([[max(0.0, win[t] - 100 * lo), max(0.0, 100 * hi - win[t])] if lo == lo else [0, 0]
                         for t, (lo, hi) in enumerate(cis)]).T
        ax2.bar(labels, win, label="win", color="tab:green", yerr=yerr, capsize=6,
                error_kw={"elinewidth": 1.2, "ecolor": "black"})
        ax2.bar(labels, draw, bottom=win, label="draw", color="tab:gray")
        ax2.bar(labels, loss, bottom=win + draw, label="loss", color="tab:red")
        ax2.set_ylabel(f"% of {self.unit}")
        ax2.set_ylim(0, 100)
        ax2.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
        ax2.set_title(f"{self.n:,} {self.unit}, seed {self.seed} (bars: 95% interval of the win share)",
                      fontsize="medium")
        fig.savefig(path)


