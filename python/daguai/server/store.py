"""SQLite persistence of the table server (stdlib sqlite3, docs/server.md).

Three tables: ``tables`` (rules, seed, seat plan with token hashes, status), ``decisions``
(every decision of an unfinished table, appended and committed one by one as it is made: the
checkpoint replayed on start) and ``matches`` (every finished match as its JSON Lines record,
written in the same transaction that marks its table finished, so none is ever lost).
WAL journal: a killed process (``kill -9``) loses nothing already committed.
"""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
  id TEXT PRIMARY KEY, created REAL NOT NULL, rules TEXT NOT NULL, seed INTEGER NOT NULL,
  auto_pass INTEGER NOT NULL, seats TEXT NOT NULL, status TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS decisions (
  table_id TEXT NOT NULL, n INTEGER NOT NULL, decision TEXT NOT NULL,
  PRIMARY KEY (table_id, n));
CREATE TABLE IF NOT EXISTS matches (
  id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT NOT NULL UNIQUE, finished REAL NOT NULL,
  rounds INTEGER NOT NULL, summary TEXT NOT NULL, record TEXT NOT NULL);
"""


def _match_winner(tail: str) -> int | None:
    """The winning team (0 / 1) of a match from the end of its record (its last round's
    ``match_winner``), or None for a drawn match."""
    for line in reversed(tail.splitlines()):
        if '"match_winner"' in line:
            try:
                w = json.loads(line).get("match_winner")
            except ValueError:  # the tail cut the line: look further up
                continue
            return w if w in (0, 1) else None
    return None


class Store:
    """The server's database at ``path`` (``":memory:"`` for a throwaway one)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        self.db.close()

    # ---- tables ---------------------------------------------------------------------
    def add_table(self, table_id: str, rules: dict[str, Any], seed: int, auto_pass: bool,
                  seats: list[dict[str, Any]]) -> None:
        self.db.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, 'open')",
                        (table_id, time.time(), json.dumps(rules), seed, int(auto_pass), json.dumps(seats)))

    def open_tables(self) -> list[dict[str, Any]]:
        """Unfinished tables with their decisions so far, oldest first."""
        out = []
        for tid, rules, seed, auto, seats in self.db.execute(
            "SELECT id, rules, seed, auto_pass, seats FROM tables WHERE status = 'open' ORDER BY created"
        ):
            decs = [json.loads(d) for (d,) in self.db.execute(
                "SELECT decision FROM decisions WHERE table_id = ? ORDER BY n", (tid,))]
            out.append({"id": tid, "rules": json.loads(rules), "seed": seed, "auto_pass": bool(auto),
                        "seats": json.loads(seats), "decisions": decs})
        return out

    def finished_tables(self) -> list[dict[str, Any]]:
        """Every finished table, oldest first, as ``GET /api/tables`` lists it: the seat
        kinds and names (never a token hash), the final levels and scores, its match."""
        out = []
        for tid, rules, seats, mid, rounds, summary in self.db.execute(
            "SELECT t.id, t.rules, t.seats, m.id, m.rounds, m.summary FROM tables t "
            "JOIN matches m ON m.table_id = t.id WHERE t.status = 'finished' ORDER BY t.created"
        ):
            s = json.loads(summary)
            plan = json.loads(seats)
            out.append({"table": tid, "status": "finished", "rules": json.loads(rules),
                        "seats": [{"seat": i, "kind": p["kind"], "name": p["name"], "connected": False,
                                   "bot_playing": False}
                                  for i, p in enumerate(plan)],
                        "round": rounds, "levels": s["levels"], "scores": s["scores"],
                        "decisions": s.get("decisions"), "match": mid, "spectators": 0})
        return out

    def checkpoint(self, table_id: str) -> dict[str, Any] | None:
        """One table as stored: rules, seed, auto_pass, seat plans (with token hashes),
        status and its checkpointed decisions (none once finished); None if unknown."""
        row = self.db.execute("SELECT rules, seed, auto_pass, seats, status FROM tables WHERE id = ?",
                              (table_id,)).fetchone()
        if row is None:
            return None
        decs = [json.loads(d) for (d,) in self.db.execute(
            "SELECT decision FROM decisions WHERE table_id = ? ORDER BY n", (table_id,))]
        return {"id": table_id, "rules": json.loads(row[0]), "seed": row[1], "auto_pass": bool(row[2]),
                "seats": json.loads(row[3]), "status": row[4], "decisions": decs}

    def table_order(self) -> list[str]:
        """The id of every table, oldest first."""
        return [tid for (tid,) in self.db.execute("SELECT id FROM tables ORDER BY created, rowid")]

    def append(self, table_id: str, first: int, decisions: list[Any]) -> None:
        """Checkpoint: the decisions numbered ``first``, ``first + 1``, ... (committed now)."""
        if decisions:
            self.db.executemany("INSERT INTO decisions VALUES (?, ?, ?)",
                                [(table_id, first + i, json.dumps(d)) for i, d in enumerate(decisions)])

    def finish(self, table_id: str, rounds: int, summary: dict[str, Any], record: str) -> int:
        """Store the finished match and close its table in one transaction; its id."""
        with self.db:
            self.db.execute("BEGIN")
            cur = self.db.execute("INSERT INTO matches (table_id, finished, rounds, summary, record) "
                                  "VALUES (?, ?, ?, ?, ?)",
                                  (table_id, time.time(), rounds, json.dumps(summary), record))
            self.db.execute("UPDATE tables SET status = 'finished' WHERE id = ?", (table_id,))
            self.db.execute("DELETE FROM decisions WHERE table_id = ?", (table_id,))
        return int(cur.lastrowid or 0)

    # ---- matches --------------------------------------------------------------------
    def matches(self) -> list[dict[str, Any]]:
        """``GET /api/matches``: every finished match, oldest first (docs/server.md)."""
        out = []
        for mid, tid, fin, rounds, summary, tail in self.db.execute(
                "SELECT id, table_id, finished, rounds, summary, substr(record, -4000) "
                "FROM matches ORDER BY id"):
            s = json.loads(summary)
            out.append({"match": mid, "table": tid, "finished": fin, "rounds": rounds,
                        "levels": s["levels"], "scores": s["scores"], "seats": s["seats"],
                        "decisions": s.get("decisions"),  # null for matches stored before it was kept
                        "winner": _match_winner(tail)})
        return out

    def match_of_table(self, table_id: str) -> int | None:
        row = self.db.execute("SELECT id FROM matches WHERE table_id = ?", (table_id,)).fetchone()
        return None if row is None else int(row[0])

    def record(self, match_id: int) -> str | None:
        row = self.db.execute("SELECT record FROM matches WHERE id = ?", (match_id,)).fetchone()
        return None if row is None else str(row[0])
