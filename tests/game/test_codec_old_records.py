"""Records and game documents of 4p2d matches written before plays carried their copy limit
(bit 7 of the Play level byte, R18) still replay: their ``as`` may name a face three times
(the three-deck reading of the same play). The old files are made here from today's by
writing each play's ``as`` as the three-deck rules read it, which is what the older engine
wrote."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from daguai import Game, ReplayError, Rules, _core, protocol


def _three_deck_reading(entry: dict, level: str, rules: Rules) -> str | None:
    """The ``as`` an older engine wrote: the same cards read at three decks (R2), when it
    differs from today's, names a face three times and keeps the kind and key."""
    three = Rules.from_dict({**rules.to_dict(), "table": "6p3d"})
    # under "declare" the player's reading (today's text names the same ranks), else the rules'
    old = _core.plays.classify(entry["cards"], level, three._core,
                         entry.get("as") if rules.wild == "declare" else None)
    if old is None or (old.kind.name.lower(), old.key) != (entry["kind"], entry["key"]):
        return None
    text = " ".join(old.jokers_as)
    faces = Counter(entry["cards"].split() + text.split())
    if text == entry.get("as") or max(faces.values()) <= 2:
        return None
    return text


def _old_record(g: Game) -> tuple[list[str], int]:
    """``g``'s record as the older engine wrote it, and how many lines differ."""
    lines = g.to_record().splitlines()
    out, changed, level = [lines[0]], 0, None
    for line in lines[1:]:
        e = json.loads(line)
        if e["event"] == "deal":
            level = e["levels"][e["dealer"] % 2]
        if e["event"] == "play" and "as" in e:
            old = _three_deck_reading(e, level, g.rules)
            if old is not None:
                e = {**e, "as": old}
                changed += 1
                line = json.dumps(e, ensure_ascii=False, separators=(",", ":"))
        out.append(line)
    return out, changed


@pytest.mark.parametrize("wild", ["auto", "declare"])
def test_r18_old_4p2d_records_replay(wild):
    rules = Rules(table="4p2d", wild=wild, final_level="5")
    total = 0
    for seed in range(6):
        rng = random.Random(seed)
        g = Game(seed, rules)
        while not g.match_over:
            g.step(rng.choice(list(g.legal_actions())))
        old, changed = _old_record(g)
        total += changed
        if not changed:
            continue
        assert any(max(Counter(json.loads(x)["cards"].split() + json.loads(x)["as"].split()).values()) == 3
                   for x in old[1:] if '"as"' in x)
        r = Game.from_record("\n".join(old) + "\n")
        assert r.to_record() == g.to_record()  # replayed to today's form, the same game
        # the game document of the older engine: its decisions carry the same readings
        doc = json.loads(g.to_json())
        plays = iter(json.loads(x) for x in old[1:] if json.loads(x)["event"] == "play")
        doc["actions"] = [[*a[:3], next(plays).get("as")][:len(a)] if a[1] == "play" else a
                          for a in doc["actions"]]
        assert Game.from_json(json.dumps(doc)) == g
    assert total > 0  # the test made old files


@pytest.mark.parametrize("cards, level, text, table, want", [
    ("7h Ks Kd SJ SJ", "2", "Ks Ks", "4p2d", "Ks Kh"),  # the older engine's reading: today's
    ("7h Ks Kd SJ SJ", "2", "Kd Kd", "4p2d", None),     # Kd three times, not the old reading
    ("7h Ks Kd SJ SJ", "2", "Ks Kh", "4p2d", None),     # today's reading: nothing to translate
    ("7h Ks Kd SJ SJ", "2", "Ks Ks", "6p3d", None),     # three decks: Ks Ks is legal as it is
    ("9s 9s 9d 9c SJ", "4", "9s", "4p2d", "9h"),
    ("9s 9s 9d 9c SJ", "4", "8s", "4p2d", None),        # another rank: another play
])
def test_r18_old_reading_table(cards, level, text, table, want):
    assert protocol.old_reading(cards, text, level, Rules(table=table)) == want


def test_r18_a_three_copy_reading_that_is_not_the_old_one_is_refused():
    """Only the exact reading of the older engine passes; another face three times fails."""
    rules = Rules(table="4p2d", final_level="5")
    for seed in range(20):
        rng = random.Random(seed)
        g = Game(seed, rules)
        while not g.match_over:
            g.step(rng.choice(list(g.legal_actions())))
        old, changed = _old_record(g)
        for i, line in enumerate(old[1:], 1):
            e = json.loads(line)
            if e["event"] != "play" or "as" not in e or len(e["as"].split()) != 1:
                continue
            held = Counter(e["cards"].split())
            if held[e["as"]] != 2:
                continue
            rank = e["as"][0]
            other = next((rank + s for s in "shdc" if held[rank + s] == 2 and rank + s != e["as"]), None)
            if other is None:
                continue
            bad = list(old)
            bad[i] = json.dumps({**e, "as": other}, separators=(",", ":"))  # a third copy, not the old one
            with pytest.raises(ReplayError, match=f"line {i + 1}"):
                Game.from_record("\n".join(bad) + "\n")
            return
    pytest.skip("no old reading with a second doubled face of its rank in these games")
