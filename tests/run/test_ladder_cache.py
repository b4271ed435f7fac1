"""The ladder's cache is never trusted: a tampered row is reported and played again (never
rated), and a file that is not a ladder cache is refused before any pairing is played, in
one line naming it (docs/ladder.md "The cache")."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time

import daguai
import pytest
from daguai.run import ladder as ladder_mod
from daguai.run import ladder_cache
from daguai.run.ladder import ladder
from daguai.run.ladder_cache import LadderCacheError

pytest.importorskip("statsmodels")

PAIR = ["random", "greedy"]
PKG_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(daguai.__file__)))


def run_ladder(db, notes=None):
    return ladder(PAIR, 4, seed=5, cache=db, threads=1, cross_play=(), notes=notes)


def tamper(db, sql):
    with sqlite3.connect(db) as con:
        con.execute(sql)


TAMPERED = [
    ("UPDATE pairings SET wins = 1000, deal_net = '[100.0,100.0]'", "wins + draws + losses"),
    ("UPDATE pairings SET deal_net = '[]'", "deal_net must be a list of 4"),
    ("UPDATE pairings SET deal_net = '[0.5, 0.5]'", "deal_net must be a list of 4"),
    ("UPDATE pairings SET deal_net = '[[1], 0, 0, 0]'", "per-deal net wins"),
    ("UPDATE pairings SET deal_net = '[NaN, 0, 0, 0]'", "per-deal net wins"),
    ("UPDATE pairings SET deal_net = '[2, -1, -1, 0]'", "per-deal net wins"),
    ("UPDATE pairings SET deal_net = 'not json'", "deal_net must be a list"),
    ("UPDATE pairings SET wins = -1, draws = draws + 1 + wins", "whole numbers >= 0"),
    (
        "UPDATE pairings SET wins = losses, losses = wins WHERE wins != losses",
        "add up to its wins minus losses",
    ),
    ("UPDATE pairings SET wins = wins + 1000000", "wins + draws + losses"),
    ("UPDATE pairings SET wins = 'many'", "whole numbers >= 0"),
    ("UPDATE pairings SET elapsed = -3", "seconds"),
    ("UPDATE pairings SET a = 'heuristic'", "not those of its key"),
    ("UPDATE pairings SET n_deals = 5", "not those of its key"),
    ('UPDATE pairings SET rules = \'{"table": "4p2d"}\'', "rules are not those of its key"),
]


@pytest.mark.parametrize(("sql", "problem"), TAMPERED)
def test_a_tampered_row_is_reported_and_played_again(tmp_path, sql, problem):
    db = tmp_path / "c.sqlite"
    fresh = run_ladder(db)
    tamper(db, sql)
    lines: list[str] = []
    again = run_ladder(db, lines.append)
    assert not again.pairings[0].cached
    assert again.figures()["ratings"] == fresh.figures()["ratings"]
    assert again.pairings[0].net_win_rate == fresh.pairings[0].net_win_rate
    bad = [line for line in lines if "playing it again" in line]
    assert len(bad) == 1 and str(db) in bad[0] and "random vs greedy" in bad[0] and problem in bad[0], lines
    # the row was replaced by the played one: a third run takes it from the cache
    assert run_ladder(db).pairings[0].cached


def _garbage(path):
    path.write_bytes(os.urandom(4096))


def _truncated(path):
    run_ladder(path)
    path.write_bytes(path.read_bytes()[:3000])


def _wrong_columns(path):
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE pairings (x, y)")


def _folder(path):
    path.mkdir()


def _fifo(path):
    os.mkfifo(path)


def _dev_zero(path):
    os.symlink("/dev/zero", path)


CORRUPT = [
    (_garbage, "not a ladder cache"),
    (_truncated, "not a ladder cache"),
    (_wrong_columns, "other columns"),
    (_folder, "is a folder"),
    (_fifo, "is a FIFO"),
    (_dev_zero, "character device"),
]


@pytest.mark.parametrize(("make", "message"), CORRUPT, ids=[m.__name__ for m, _ in CORRUPT])
def test_a_file_that_is_not_a_ladder_cache_is_refused_before_any_play(tmp_path, monkeypatch, make, message):
    path = tmp_path / "c.sqlite"
    make(path)

    def no_play(*args, **kw):
        raise AssertionError("a pairing was played")

    monkeypatch.setattr(ladder_mod, "evaluate", no_play)
    start = time.monotonic()
    with pytest.raises(LadderCacheError, match=message) as info:
        run_ladder(path)
    assert str(path) in str(info.value) and time.monotonic() - start < 10
    assert isinstance(info.value, ValueError)


def test_an_empty_cache_path_is_refused():
    with pytest.raises(LadderCacheError, match="empty"):
        run_ladder("")


def test_a_cache_that_cannot_be_created_is_refused(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(LadderCacheError, match="cannot open it"):
        run_ladder(tmp_path / "file" / "c.sqlite")  # its folder would be inside a file


def test_a_locked_cache_is_refused_after_a_bounded_wait(tmp_path, monkeypatch):
    db = tmp_path / "c.sqlite"
    run_ladder(db)
    monkeypatch.setattr(ladder_cache, "LOCK_TIMEOUT", 0.3)
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        start = time.monotonic()
        with pytest.raises(LadderCacheError, match="locked by another process"):
            run_ladder(db)
        assert time.monotonic() - start < 5
    finally:
        holder.close()


def cli(*args, cwd):
    env = dict(os.environ, COLUMNS="80")
    env["PYTHONPATH"] = os.pathsep.join([PKG_PARENT] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return subprocess.run(
        [sys.executable, "-m", "daguai", "ladder", *PAIR, "--deals", "2", "--no-cross-play", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.slow  # a process per case
@pytest.mark.parametrize(
    ("make", "message"), CORRUPT + [(None, "empty")], ids=[m.__name__ for m, _ in CORRUPT] + ["empty"]
)
def test_the_command_exits_2_with_one_line_on_a_corrupt_cache(tmp_path, make, message):
    path = tmp_path / "c.sqlite"
    if make is not None:
        make(path)
    p = cli("--cache", str(path) if make is not None else "", cwd=tmp_path)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert len(p.stderr.strip().splitlines()) == 1 and message in p.stderr
    assert "Traceback" not in p.stderr and p.stdout == ""


@pytest.mark.slow
def test_the_command_exits_2_on_a_locked_cache_within_its_timeout(tmp_path):
    db = tmp_path / "c.sqlite"
    run_ladder(db)
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        start = time.monotonic()
        p = cli("--cache", str(db), cwd=tmp_path)
        assert time.monotonic() - start < ladder_cache.LOCK_TIMEOUT + 30
    finally:
        holder.close()
    assert p.returncode == 2 and "locked" in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_rows_are_stored_with_their_key_fields(tmp_path):
    db = tmp_path / "c.sqlite"
    run_ladder(db)
    with sqlite3.connect(db) as con:
        ((a, b, n, seed, rules, net, wins, draws, losses),) = con.execute(
            "SELECT a, b, n_deals, seed, rules, deal_net, wins, draws, losses FROM pairings"
        )
    assert (a, b, n, seed) == ("random", "greedy", 4, 5)
    assert json.loads(rules) == daguai.Rules().to_dict()
    assert 2 * sum(json.loads(net)) == wins - losses and wins + draws + losses == 8


def test_no_interval_in_the_text_is_a_point_or_leaves_its_bounds(tmp_path):
    """At 4 deals a pair's W-L interval is never [-1.000, -1.000]; the anchor's rating is 0
    by definition and says so instead of showing [+0, +0]."""
    res = ladder(["random", "greedy", "heuristic"], 4, seed=5, cache=False, threads=1, cross_play=())
    text = res.summary(80)
    assert "[+0, +0]" not in text and "(anchor)" in text
    for p in res.pairings:
        lo, hi = p.net_win_ci
        assert -1 <= lo <= p.net_win_rate <= hi <= 1 and hi - lo > 0.1
        assert f"[{lo:+.3f}, {hi:+.3f}]" in text
