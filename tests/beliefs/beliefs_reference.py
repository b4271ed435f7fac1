"""A slow, obvious reference for the worlds a seat's knowledge allows, written from docs/rules.md
alone (not from the engine's constraint model): used to enumerate every consistent deal of
small positions and to judge sampled worlds.

A world is the hands now. It is consistent with the view of seat v when some history of the
exchange the seat did not see explains it:
- R16: every other hand has its public count and holds what v knows it holds (the sampler
  deals exactly the unseen cards on top of `known`, so the enumeration starts there);
- R11 anti_tribute: a refuser's jokers (held + played) are exactly the jokers it showed;
- R11 tribute x paid by t to r: there is a returned (or taken) card y -- the one v saw, if v
  is in the pair; any card otherwise; none before the return -- such that t's dealt hand
  (held + played - y + x) has x among its highest powers (R4; R18 4p2d: natural cards
  only) and r's dealt hand (held + played + y - x) is a hand (r held x or got it back);
- R8 auto_pass: at each automatic pass the seat's hand then (held + played since) had no
  play beating the top, and a seat left to act over a top holds a play beating it.
The weight of an assignment is that of a uniform deal of the unseen physical cards:
prod c_f! / prod n_{s,f}! (what the sampler targets, docs/search.md).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator

from daguai import Hand, _core

SJ, BJ = 52, 53


def power(face: int, level: int) -> int:
    """R4: BJ > SJ > level cards > A > ... > 2, the natural ladder skipping the level rank."""
    if face == BJ:
        return 14
    if face == SJ:
        return 13
    r = face // 4
    return 12 if r == level else (r if r < level else r - 1)


def faces(h) -> Counter:
    return h if isinstance(h, Counter) else Counter(h.faces())


def _pair_ok(dealt_t: Counter, dealt_r: Counter, x: int, level: int, natural_only: bool) -> bool:
    if any(n < 0 for n in dealt_t.values()) or any(n < 0 for n in dealt_r.values()):
        return False
    pool = [f for f, n in dealt_t.items() if n > 0 and (f < 52 or not natural_only)]
    return dealt_t[x] > 0 and max(power(f, level) for f in pool) == power(x, level)


def consistent(v, hands: list[Counter], rules) -> bool:
    """Whether `hands` (a Counter of face ids per seat) is a world v's seat cannot rule out."""
    level = "23456789TJQKA".index(str(v.level).replace("10", "T"))
    natural_only = v.rules.table == "4p2d"
    played = [faces(p) for p in v.played]
    since = [hands[s] + played[s] for s in range(len(hands))]
    history = v.history
    for name, seat, _other, _flags, payload in history:
        if name == "anti_tribute":
            shown = faces(payload)
            if since[seat][SJ] != shown[SJ] or since[seat][BJ] != shown[BJ]:
                return False
    for pair in v.tributes:
        if pair["card"] is None:
            continue
        t, r, x = pair["from"], pair["to"], Hand(pair["card"]).faces()[0]
        back = [e for e in history if e[0] in ("return", "take") and e[1] in (t, r)]
        if not back:
            ys = [None]
        elif pair["returned"] is not None:
            ys = [Hand(pair["returned"]).faces()[0]]
        else:
            ys = list(range(54))
        ok = False
        for y in ys:
            dt, dr = Counter(since[t]), Counter(since[r])
            dt[x] += 1
            dr[x] -= 1
            if y is not None:
                dt[y] -= 1
                dr[y] += 1
            if _pair_ok(dt, dr, x, level, natural_only):
                ok = True
                break
        if not ok:
            return False
    for seat, top, since_pass in v.forced:
        if seat == v.seat:
            continue
        then = hands[seat] + faces(since_pass)
        if _core.plays.count_plays(Hand.from_faces(sorted(then.elements())), v.level, top,
                                   v.rules)[0] > 0:
            return False
    cur = v.current_player
    if v.auto_pass and v.phase == "play" and v.top is not None and cur is not None and cur != v.seat:
        if _core.plays.count_plays(Hand.from_faces(sorted(hands[cur].elements())), v.level, v.top,
                                   v.rules)[0] == 0:
            return False
    return True


def submultisets(pool: Counter, k: int, fs: list) -> Iterator[Counter]:
    """Every sub-multiset of ``pool`` with ``k`` cards drawn from the faces ``fs``."""
    if k == 0:
        yield Counter()
        return
    if not fs:
        return
    f, rest = fs[0], fs[1:]
    for c in range(min(pool[f], k), -1, -1):
        for sub in submultisets(pool, k - c, rest):
            if c:
                sub = sub + Counter({f: c})
            yield sub


def assignments(v) -> tuple[list[int], Iterator[tuple[list[Counter], int]]]:
    """The other seats with hidden cards, and every assignment of the unseen cards to them
    with its weight under a uniform physical deal (before any constraint)."""
    pool = Counter(v.unseen.faces())
    seats = [s for s in range(len(v.cards_left)) if s != v.seat and v.hidden_counts[s] > 0]
    base = math.prod(math.factorial(n) for n in pool.values())

    def rec(i, left, acc):
        if i == len(seats) - 1:
            yield acc + [left]
            return
        for sub in submultisets(left, v.hidden_counts[seats[i]], sorted(left)):
            yield from rec(i + 1, left - sub, acc + [sub])

    def gen():
        if not seats:
            return
        for parts in rec(0, pool, []):
            w = base
            for p in parts:
                w //= math.prod(math.factorial(n) for n in p.values())
            yield parts, w

    return seats, gen()


def hands_of(v, seats: list[int], parts: list[Counter]) -> list[Counter]:
    out = []
    for s in range(len(v.cards_left)):
        h = faces(v.hand) if s == v.seat else faces(v.known[s])
        if s in seats:
            h = h + parts[seats.index(s)]
        out.append(h)
    return out


def exact(v, rules) -> tuple[list[int], dict[tuple, float], int]:
    """Every consistent assignment (key: the hidden cards per seat) with its probability,
    and how many assignments there were before the constraints."""
    seats, gen = assignments(v)
    out: dict[tuple, int] = {}
    total = 0
    for parts, w in gen:
        total += 1
        if consistent(v, hands_of(v, seats, parts), rules):
            out[tuple(tuple(sorted(p.items())) for p in parts)] = w
    z = sum(out.values())
    return seats, {k: w / z for k, w in out.items()}, total
