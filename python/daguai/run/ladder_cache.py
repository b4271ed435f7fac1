"""The ladder's cache of played pairings: one SQLite file (docs/ladder.md "The cache").

A row is keyed by everything its result depends on (:meth:`LadderCache.key`). Nothing read
back is trusted: a row must agree with its key (players, deals, seed, rules) and with
itself (counts that add up to the rounds, one finite per-deal value in [-1, 1] per deal,
whose sum is wins minus losses); a row that does not is reported and played again. A file
that is not a ladder cache (not a regular file, not SQLite, damaged, other columns, locked
by another process for longer than :data:`LOCK_TIMEOUT`) raises :class:`LadderCacheError`
before any pairing is played, naming the file.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..rules import Rules
from .identity import identity

__all__ = ["LadderCache", "LadderCacheError", "LOCK_TIMEOUT", "default_cache_path"]

_FORMAT = 1
#: Seconds to wait for another process's lock on the cache before giving up.
LOCK_TIMEOUT = 5.0
COLUMNS = ("key", "a", "b", "n_deals", "seed", "rules", "deal_net", "wins", "draws", "losses", "elapsed")
_CREATE = (
    "CREATE TABLE IF NOT EXISTS pairings (key TEXT PRIMARY KEY, a TEXT, b TEXT, "
    "n_deals INTEGER, seed INTEGER, rules TEXT, deal_net TEXT, wins INTEGER, "
    "draws INTEGER, losses INTEGER, elapsed REAL)"
)

Hit = tuple[np.ndarray, int, int, int, float]


class LadderCacheError(ValueError):
    """A ``--cache`` file that cannot be used as the ladder's cache (the message names it)."""


def default_cache_path() -> Path:
    """Where pairings are cached: ``$DAGUAI_CACHE/ladder.sqlite``, else the XDG cache folder
    (``$XDG_CACHE_HOME``, else ``~/.cache``) ``/daguai/ladder.sqlite``."""
    base = os.environ.get("DAGUAI_CACHE")
    if base:
        return Path(base) / "ladder.sqlite"
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "daguai" / "ladder.sqlite"


def _kind_of(mode: int) -> str | None:
    """What a file that is not a regular file is, or None for a regular file."""
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return None if stat.S_ISREG(mode) else "not a regular file"


def row_problem(row: tuple[Any, ...], a: str, b: str, n_deals: int, seed: int, rules: Rules) -> str | None:
    """What is wrong with a cached row (its columns :data:`COLUMNS` but the key) for the
    pairing it is keyed by, or None when it is sound."""
    ra, rb, rn, rseed, rrules, net_text, wins, draws, losses, elapsed = row
    if (ra, rb, rn, rseed) != (a, b, n_deals, seed):
        return "its players, deals or seed are not those of its key"
    try:
        same_rules = isinstance(rrules, str) and json.loads(rrules) == rules.to_dict()
    except (ValueError, RecursionError):
        same_rules = False
    if not same_rules:
        return "its rules are not those of its key"
    counts = (wins, draws, losses)
    if not all(type(c) is int and c >= 0 for c in counts):
        return f"wins, draws and losses must be whole numbers >= 0, got {counts}"
    if sum(counts) != 2 * n_deals:
        return f"wins + draws + losses = {sum(counts):,}, not the {2 * n_deals:,} rounds of {n_deals:,} deals"
    if type(elapsed) not in (int, float) or not math.isfinite(elapsed) or elapsed < 0:
        return "its time is not a number of seconds >= 0"
    try:
        net = json.loads(net_text) if isinstance(net_text, str) else None
    except (ValueError, RecursionError):
        net = None
    if not isinstance(net, list) or len(net) != n_deals:
        return f"deal_net must be a list of {n_deals:,} numbers (one per deal)"
    if not all(
        type(v) in (int, float) and math.isfinite(v) and -1 <= v <= 1 and 2 * v == int(2 * v) for v in net
    ):
        return "deal_net must hold per-deal net wins -1, -1/2, 0, 1/2 or 1"
    if 2 * sum(net) != wins - losses:
        return "deal_net does not add up to its wins minus losses"
    return None


class LadderCache:
    """Pairing results in SQLite, keyed by everything the result depends on; ``path`` None
    for no cache. ``warn`` gets a line for each bad row (which is then played again)."""

    def __init__(self, path: Path | str | None, warn: Callable[[str], None] | None = None):
        self.db: sqlite3.Connection | None = None
        self.path = path
        self.warn = warn
        if path is None:
            return
        text = os.fspath(path)
        if not text.strip():
            raise LadderCacheError("the ladder cache path is empty: give a file name")
        try:
            kind = _kind_of(os.stat(text).st_mode)
        except FileNotFoundError:
            kind = None
        except OSError as exc:
            raise LadderCacheError(f"ladder cache {text}: cannot open it ({exc.strerror or exc})") from None
        if kind is not None:  # before any open: a FIFO would block, a device read forever
            raise LadderCacheError(f"ladder cache {text} is {kind}, not a SQLite file")
        try:
            try:
                Path(text).parent.mkdir(parents=True, exist_ok=True)
                self.db = sqlite3.connect(text, timeout=LOCK_TIMEOUT)
                self.db.execute(f"PRAGMA busy_timeout = {int(LOCK_TIMEOUT * 1000)}")
            except (OSError, sqlite3.Error) as exc:  # no folder, no permission
                why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
                raise LadderCacheError(f"ladder cache {text}: cannot open it ({why})") from None
            self._check(text)
        except BaseException:
            self.close()
            raise

    def _check(self, text: str) -> None:
        assert self.db is not None
        try:
            found = self.db.execute("PRAGMA quick_check").fetchone()
            if found is None or found[0] != "ok":
                raise sqlite3.DatabaseError("database disk image is malformed")
            self.db.execute(_CREATE)
            self.db.commit()
            columns = tuple(r[1] for r in self.db.execute("PRAGMA table_info(pairings)"))
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise LadderCacheError(
                    f"ladder cache {text} is locked by another process (waited {LOCK_TIMEOUT:g} s)"
                ) from None
            raise LadderCacheError(f"ladder cache {text}: {exc}") from None
        except (sqlite3.DatabaseError, OSError) as exc:
            raise LadderCacheError(
                f"ladder cache {text} is not a ladder cache ({exc}); delete it or give another file"
            ) from None
        if columns != COLUMNS:
            raise LadderCacheError(
                f"ladder cache {text} has a pairings table with other columns "
                f"({', '.join(columns)}); delete it or give another file"
            )

    def _do(self, sql: str, args: tuple[Any, ...]) -> list[Any]:
        assert self.db is not None
        try:
            rows = self.db.execute(sql, args).fetchall()
            self.db.commit()
            return rows
        except sqlite3.Error as exc:
            raise LadderCacheError(f"ladder cache {os.fspath(self.path or '')}: {exc}") from None

    @staticmethod
    def key(kind: str, a: str, b: str, n_deals: int, seed: int, rules: Rules, auto_pass: bool) -> str:
        doc = {
            "format": _FORMAT,
            "kind": kind,
            "a": identity(a),
            "b": identity(b),
            "n_deals": n_deals,
            "seed": seed,
            "rules": rules.to_dict(),
            "auto_pass": auto_pass,
        }
        return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()

    def get(self, key: str, a: str, b: str, n_deals: int, seed: int, rules: Rules) -> Hit | None:
        """The cached result of the pairing ``key`` names, or None (not cached, or a bad row:
        then ``warn`` says what was wrong and the pairing is played again)."""
        if self.db is None:
            return None
        rows = self._do(f"SELECT {', '.join(COLUMNS[1:])} FROM pairings WHERE key = ?", (key,))
        if not rows:
            return None
        row = rows[0]
        problem = row_problem(row, a, b, n_deals, seed, rules)
        if problem is not None:
            if self.warn is not None:
                self.warn(
                    f"ladder cache {os.fspath(self.path or '')}: row {a} vs {b} (key "
                    f"{key[:12]}): {problem}; playing it again"
                )
            return None
        net = np.asarray(json.loads(row[5]), dtype=np.float64)
        return net, row[6], row[7], row[8], float(row[9])

    def put(
        self,
        key: str,
        a: str,
        b: str,
        n_deals: int,
        seed: int,
        rules: Rules,
        net: np.ndarray,
        wins: int,
        draws: int,
        losses: int,
        elapsed: float,
    ) -> None:
        if self.db is None:
            return
        self._do(
            f"INSERT OR REPLACE INTO pairings VALUES ({','.join('?' * len(COLUMNS))})",
            (
                key,
                a,
                b,
                n_deals,
                seed,
                json.dumps(rules.to_dict()),
                json.dumps(net.tolist()),
                int(wins),
                int(draws),
                int(losses),
                float(elapsed),
            ),
        )

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None
