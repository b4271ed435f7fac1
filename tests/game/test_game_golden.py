"""Golden playthrough: one seeded match played to its end by a deterministic policy, its
record (docs/records.md) stored in tests/game/golden/playthrough_seed7.jsonl.

Any change to the deal (R17 generator), the legal-action order (docs/rules.md), the
state machine (R8-R14) or the record format shows up here as a changed line.  If the
change is intended, review the diff and regenerate:

    PYTHONPATH=python python tests/game/test_game_golden.py --regenerate

The header's "engine" (version) field is not compared: the version is not part of the game.
"""

from __future__ import annotations

import json
import os
import random
import sys

from daguai import Game, Rules, replay

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "playthrough_seed7.jsonl")
REGENERATE = "python tests/game/test_game_golden.py --regenerate"


def play_golden_match() -> Game:
    """Game(seed=7, Rules(final_level="3")), each decision drawn by random.Random(7)
    among legal_actions() (randrange over the list, which is in the documented order)."""
    g = Game(seed=7, rules=Rules(final_level="3"))
    rng = random.Random(7)
    while not g.match_over:
        actions = g.legal_actions()
        g.step(actions[rng.randrange(len(actions))])
    return g


def _comparable(line: str, lineno: int) -> str:
    if lineno == 1:
        head = json.loads(line)
        head.pop("engine", None)
        return json.dumps(head, ensure_ascii=False, sort_keys=True)
    return line


def test_golden_playthrough_record():
    assert os.path.exists(GOLDEN), f"missing {GOLDEN}: create it with `{REGENERATE}`"
    with open(GOLDEN, encoding="utf-8") as f:
        golden = f.read().splitlines()
    g = play_golden_match()
    now = g.to_record().splitlines()
    for n, (a, b) in enumerate(zip(golden, now, strict=False), 1):
        if _comparable(a, n) != _comparable(b, n):
            raise AssertionError(
                f"golden record changed at line {n}: review the diff and regenerate with "
                f"`{REGENERATE}`\n  golden: {a}\n  now:    {b}")
    assert len(golden) == len(now), (
        f"golden record changed at line {min(len(golden), len(now)) + 1} "
        f"(golden has {len(golden)} lines, now {len(now)}): review the diff and regenerate "
        f"with `{REGENERATE}`")


def test_golden_record_replays():
    with open(GOLDEN, encoding="utf-8") as f:
        text = f.read()
    g = replay(text)
    assert g.match_over
    assert g == play_golden_match()
    last = g.round_result
    assert last["match_over"] and last["match_winner"] in (0, 1)
    # the golden match is a real one: several rounds, tribute included
    events = {e[0] for e in g.state.events()}
    assert {"deal", "play", "pass", "round_end"} <= events
    assert g.n_results >= 2


def _regenerate() -> None:
    os.makedirs(os.path.dirname(GOLDEN), exist_ok=True)
    text = play_golden_match().to_record()
    with open(GOLDEN, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"wrote {GOLDEN} ({len(text.splitlines())} lines)")


if __name__ == "__main__":
    if "--regenerate" in sys.argv[1:]:
        _regenerate()
    else:
        print(f"usage: {REGENERATE}")
        sys.exit(2)
