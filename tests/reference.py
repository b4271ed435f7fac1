"""Slow, obviously-correct pure-Python reference (test oracle) for daguai.

Authority: docs/rules.md (the rules, ids R1..R18, then its part 2: decisions and the
exact encodings shared with the C++ engine).  Standard library only; nothing here
imports ``daguai``.  Nothing here is meant to be fast: every function follows the rule
text as literally as practical, so that the engine can be checked against it.

Encodings (docs/rules.md):
  face id   natural: rank * 4 + suit, rank 0..12 = 2 3 4 5 6 7 8 9 T J Q K A,
            suit 0..3 = s h d c (♠♥♦♣); 52 = SJ, 53 = BJ.
  level     a rank index 0..12 (the level rank L of R3).
  power     R4: the natural ladder without L numbered 0..11, level cards 12, SJ 13, BJ 14.
  kind      single 0, pair 1, triple 2, straight 3, flush 4, full_house 5,
            four_plus_one 6, straight_flush 7, five_of_a_kind 8.
  key       single / pair / triple: power << 1 (joker-only per R6; SJ SJ pair with
            joker_pair="pure_wins": (13 << 1) | 1).
            five cards: (kind - 3) << 20 | sub (see natural_kind_key).
"""

from collections import Counter
from functools import cache
from itertools import combinations_with_replacement, product

# ---------------------------------------------------------------------------
# Faces (R2)
# ---------------------------------------------------------------------------

RANK_CHARS = "23456789TJQKA"  # rank index 0..12
SUIT_CHARS = "shdc"  # suit index 0..3
SUIT_SYMBOLS = "♠♥♦♣"  # same order as SUIT_CHARS
SJ = 52
BJ = 53
JOKERS = (SJ, BJ)
NUM_FACES = 54
COPIES = 3  # R2: three decks, each face exists exactly 3 times
# R18: the copies of each face (= decks) per table; every public function below takes
# `copies` (default 3), the limit on how often a face may occur in a hand or a wildcard
# reading (R6: "a wildcard interpretation may not use a face more than twice" at 4p2d).
TABLE_COPIES = {"6p3d": 3, "4p2d": 2}

SINGLE, PAIR, TRIPLE = 0, 1, 2
STRAIGHT, FLUSH, FULL_HOUSE, FOUR_PLUS_ONE, STRAIGHT_FLUSH, FIVE_OF_A_KIND = 3, 4, 5, 6, 7, 8
KIND_NAMES = {
    SINGLE: "single", PAIR: "pair", TRIPLE: "triple", STRAIGHT: "straight",
    FLUSH: "flush", FULL_HOUSE: "full_house", FOUR_PLUS_ONE: "four_plus_one",
    STRAIGHT_FLUSH: "straight_flush", FIVE_OF_A_KIND: "five_of_a_kind",
}

WILD_MODES = ("auto", "high", "declare")
JOKER_PAIR_MODES = ("tie", "pure_wins")


def face_of(rank, suit):
    return rank * 4 + suit


def is_joker(face):
    return face in JOKERS


def rank_of(face):
    if not 0 <= face < 52:
        raise ValueError(f"face {face!r} is not a natural face")
    return face // 4


def suit_of(face):
    if not 0 <= face < 52:
        raise ValueError(f"face {face!r} is not a natural face")
    return face % 4


def _parse_token(token):
    up = token.upper()
    if up == "SJ":
        return SJ
    if up == "BJ":
        return BJ
    if len(token) < 2:
        raise ValueError(f"bad card token {token!r}")
    rank_text, suit_text = up[:-1], up[-1]
    if rank_text == "10":
        rank = RANK_CHARS.index("T")
    elif len(rank_text) == 1 and rank_text in RANK_CHARS:
        rank = RANK_CHARS.index(rank_text)
    else:
        raise ValueError(f"bad rank in card token {token!r}")
    if suit_text in SUIT_CHARS.upper():
        suit = SUIT_CHARS.upper().index(suit_text)
    elif suit_text in SUIT_SYMBOLS:
        suit = SUIT_SYMBOLS.index(suit_text)
    else:
        raise ValueError(f"bad suit in card token {token!r}")
    return face_of(rank, suit)


def parse(text):
    """Card list text -> sorted tuple of face ids (R2, docs/rules.md "Faces").

    Tokens are separated by white space and/or commas; ranks 23456789TJQKA or 10,
    suits shdc or ♠♥♦♣, any case; jokers SJ / BJ.  Raises ValueError on a bad token.
    """
    if not isinstance(text, str):
        raise ValueError("parse() takes a string")
    tokens = text.replace(",", " ").split()
    return tuple(sorted(_parse_token(t) for t in tokens))


def face_text(face):
    if face == SJ:
        return "SJ"
    if face == BJ:
        return "BJ"
    return RANK_CHARS[rank_of(face)] + SUIT_CHARS[suit_of(face)]


def fmt(faces):
    """Canonical text: faces in id order, space separated (docs/rules.md "Faces")."""
    return " ".join(face_text(f) for f in sorted(faces))


def _check_level(level):
    if not (isinstance(level, int) and 0 <= level <= 12):
        raise ValueError(f"level must be a rank index 0..12, got {level!r}")


def _check_faces(faces, copies=COPIES):
    faces = tuple(faces)
    if copies not in TABLE_COPIES.values():
        raise ValueError(f"copies must be one of {sorted(TABLE_COPIES.values())}, got {copies!r}")
    for f in faces:
        if not (isinstance(f, int) and 0 <= f < NUM_FACES):
            raise ValueError(f"bad face id {f!r}")
    for f, n in Counter(faces).items():
        if n > copies:
            raise ValueError(f"{n} copies of {face_text(f)}: a face exists only {copies} times")
    return faces


# ---------------------------------------------------------------------------
# Power (R4)
# ---------------------------------------------------------------------------

def power(face_or_rank, level):
    """R4 power of a natural RANK index 0..12, or of a joker FACE id (SJ=52, BJ=53).

    (Natural face ids 0..51 overlap rank indices, so they go through face_power.)
    Ladder 2 < 3 < ... < A with the level rank L taken out, numbered 0..11 from 2 up;
    the level rank is 12; SJ 13; BJ 14.
    """
    _check_level(level)
    x = face_or_rank
    if x == SJ:
        return 13
    if x == BJ:
        return 14
    if not (isinstance(x, int) and 0 <= x <= 12):
        raise ValueError(f"power() takes a rank index 0..12 or SJ/BJ, got {x!r}")
    if x == level:
        return 12
    ladder = [r for r in range(13) if r != level]  # 2..A without L, low to high
    return ladder.index(x)


def face_power(face, level):
    """R4 power of a face id 0..53."""
    if is_joker(face):
        return power(face, level)
    return power(rank_of(face), level)


# ---------------------------------------------------------------------------
# Natural five-card sets (R5, R7)
# ---------------------------------------------------------------------------

# R5 + docs/rules.md "Straights": the sequences, each with its key = rank index of its
# top (last) card.  A2345 lowest (key 3), TJQKA highest (key 12).
STRAIGHT_WINDOWS = ["A2345", "23456", "34567", "45678", "56789", "6789T",
                    "789TJ", "89TJQ", "9TJQK", "TJQKA"]
# wrap_straights variant: sequences running on from A to 2, ranked below A2345.
WRAP_WINDOWS = ["JQKA2", "QKA23", "KA234"]


def _windows(wrap):
    names = STRAIGHT_WINDOWS + (WRAP_WINDOWS if wrap else [])
    return [(frozenset(RANK_CHARS.index(c) for c in name), RANK_CHARS.index(name[-1]))
            for name in names]


def straight_top(ranks, wrap=False):
    """Key (rank index of the top card) if the five ranks are five consecutive ranks, else None."""
    ranks = list(ranks)
    if len(ranks) != 5 or len(set(ranks)) != 5:
        return None
    for window, top in _windows(wrap):
        if set(ranks) == window:
            return top
    return None


def five_key(kind, sub):
    """docs/rules.md: five-card key = (kind - STRAIGHT) << 20 | sub."""
    return ((kind - STRAIGHT) << 20) | sub


def flush_sub(powers):
    """Five powers sorted high to low, 4 bits each: p0<<16 | p1<<12 | p2<<8 | p3<<4 | p4."""
    p = sorted(powers, reverse=True)
    assert len(p) == 5 and all(0 <= x <= 15 for x in p)
    return (p[0] << 16) | (p[1] << 12) | (p[2] << 8) | (p[3] << 4) | p[4]


def natural_kind_key(five_faces, level, wrap=False):
    """(kind, key) of five NATURAL faces under R5/R7, the highest type it fits; or None.

    Note (used by the joker reduction below): the result depends only on the multiset
    of ranks and on whether all five suits are equal -- nothing else is read.
    """
    _check_level(level)
    faces = list(five_faces)
    if len(faces) != 5 or any(not (isinstance(f, int) and 0 <= f < 52) for f in faces):
        raise ValueError("natural_kind_key takes exactly five natural faces")
    ranks = [rank_of(f) for f in faces]
    one_suit = len({suit_of(f) for f in faces}) == 1
    count_shape = sorted(Counter(ranks).values(), reverse=True)
    top = straight_top(ranks, wrap)

    fits = []  # every type of R5 this set fits, as (kind, key)
    if count_shape == [5]:  # five of a kind: power of the rank
        fits.append((FIVE_OF_A_KIND, five_key(FIVE_OF_A_KIND, power(ranks[0], level))))
    if top is not None and one_suit:  # straight flush: top rank of the sequence
        fits.append((STRAIGHT_FLUSH, five_key(STRAIGHT_FLUSH, top)))
    if count_shape == [4, 1]:  # four-plus-one: power of the four's rank
        four = [r for r, n in Counter(ranks).items() if n == 4][0]
        fits.append((FOUR_PLUS_ONE, five_key(FOUR_PLUS_ONE, power(four, level))))
    if count_shape == [3, 2]:  # full house: power of the triple's rank
        three = [r for r, n in Counter(ranks).items() if n == 3][0]
        fits.append((FULL_HOUSE, five_key(FULL_HOUSE, power(three, level))))
    if one_suit and top is None:  # flush: one suit, not a straight; powers high to low
        fits.append((FLUSH, five_key(FLUSH, flush_sub([power(r, level) for r in ranks]))))
    if top is not None and not one_suit:  # straight: consecutive, not all one suit
        fits.append((STRAIGHT, five_key(STRAIGHT, top)))
    if not fits:
        return None
    # R5: "A five-card set that fits several types is the highest type it fits".
    # Each kind appears at most once in `fits`, so max() is the highest kind.
    return max(fits)


# ---------------------------------------------------------------------------
# Interpretations with jokers (R5, R6, R7)
# ---------------------------------------------------------------------------

def _joker_only_power(jokers):
    """R6: a joker-only combination has the power of BJ if every card is BJ, else SJ."""
    return 14 if all(j == BJ for j in jokers) else 13


def _valid_copies(faces, copies=COPIES):
    return all(n <= copies for n in Counter(faces).values())


def _group_interpretations(naturals, j, level, copies):
    """Pair / triple with at least one natural card and j jokers: brute force over all
    52**j face assignments (j <= 2 here), keep the ones that are "n cards of one rank"
    with no face more than `copies` times."""
    kind = PAIR if len(naturals) + j == 2 else TRIPLE
    out = set()
    for assigned in product(range(52), repeat=j):
        faces = list(naturals) + list(assigned)
        if not _valid_copies(faces, copies):
            continue
        ranks = {rank_of(f) for f in faces}
        if len(ranks) == 1:
            out.add((kind, power(ranks.pop(), level) << 1))
    return out


# --- The reduction for five-card sets with jokers ---------------------------------
#
# Definition (docs/rules.md): the interpretations of a set of naturals N plus j jokers
# are the (kind, key) = natural_kind_key(N + A) over every assignment A of natural faces
# to the jokers such that no face occurs more than 3 times in N + A.  Enumerating all
# 52**j assignments is too slow for j = 3, 4, so instead:
#
# (a) natural_kind_key reads only the rank multiset of its five faces and the flag
#     "all five suits equal" (see its code).  So two assignments with the same joker
#     RANK multiset and the same flag give the same (kind, key); it is enough to visit,
#     for each joker rank multiset R (combinations_with_replacement(range(13), j)) and
#     each flag value, ONE valid assignment if any exists.
# (b) flag True ("all in the naturals' common suit"): possible only if all naturals
#     share one suit s, and then every joker must be suit s too.  All faces are then
#     (rank, s), so a face's count equals its rank's count: valid iff every rank count
#     of N + R is <= 3.  We build exactly that assignment.
# (c) flag False ("not all one suit"): a valid assignment always exists when j >= 1 or
#     N is mixed.  For each joker (rank r) take the first suit whose face (r, suit) has
#     fewer than 3 copies so far -- one exists, because rank r has at most 5 cards in
#     the set and 4 suits x 3 copies = 12 > 5 (R18, 2 copies: 4 x 2 = 8 > 5).  If this
#     left all five suits equal (= s), move the last joker (rank r) to another suit s':
#     the face (r, s') had 0 copies (every card was suit s), so it now has 1 <= 3, and
#     the suits are no longer all equal.  If j == 0 the set is N itself and the flag is whatever N has.
#     R18: "3" in (b) and (c) is `copies` throughout (3, or 2 at the 4p2d table).
#     The code asserts validity of every assignment it builds, so (b)/(c) are checked
#     at run time, and tests/core/test_rules_reference_selfcheck.py compares the whole reduction
#     with the 52**j brute force (interpretations_bruteforce) for j <= 2 (and some j=3).
# Every valid assignment has some R and some flag value, so every interpretation is
# found, and every (kind, key) returned comes from an actual valid assignment.

def _mixed_assignment(naturals, joker_ranks, copies):
    """Flag-False representative of (c): concrete faces for the jokers."""
    counts = Counter(naturals)
    assigned = []
    for r in joker_ranks:
        for s in range(4):
            if counts[face_of(r, s)] < copies:
                counts[face_of(r, s)] += 1
                assigned.append(face_of(r, s))
                break
        else:  # pragma: no cover - impossible, see (c)
            raise AssertionError("no free suit")
    faces = list(naturals) + assigned
    if assigned and len({suit_of(f) for f in faces}) == 1:
        s = suit_of(faces[0])
        last = assigned.pop()
        assigned.append(face_of(rank_of(last), (s + 1) % 4))
    return assigned


def _five_interpretations(naturals, j, level, wrap, copies):
    out = set()
    nat_suits = {suit_of(f) for f in naturals}
    for joker_ranks in combinations_with_replacement(range(13), j):
        rank_counts = Counter([rank_of(f) for f in naturals] + list(joker_ranks))
        # (b) all five in the naturals' common suit
        if len(nat_suits) == 1 and max(rank_counts.values()) <= copies:
            s = next(iter(nat_suits))
            faces = list(naturals) + [face_of(r, s) for r in joker_ranks]
            assert _valid_copies(faces, copies) and len({suit_of(f) for f in faces}) == 1
            kk = natural_kind_key(faces, level, wrap)
            if kk is not None:
                out.add(kk)
        # (c) not all one suit
        if j >= 1 or len(nat_suits) >= 2:
            faces = list(naturals) + _mixed_assignment(naturals, joker_ranks, copies)
            assert _valid_copies(faces, copies) and len({suit_of(f) for f in faces}) >= 2
            assert sorted(rank_of(f) for f in faces) == sorted(rank_counts.elements())
            kk = natural_kind_key(faces, level, wrap)
            if kk is not None:
                out.add(kk)
    return out


@cache
def _interpretations_cached(naturals, jokers_key, level, wrap, joker_pair, copies=COPIES):
    """naturals: sorted tuple of natural faces; jokers_key: the number of jokers if there
    are naturals (SJ vs BJ is irrelevant when they are wild), else the sorted tuple of
    the jokers themselves (joker-only plays and joker singles stand for themselves)."""
    if naturals:
        j = jokers_key
        jokers = None
    else:
        jokers = jokers_key
        j = len(jokers)
    n = len(naturals) + j

    if n == 1:
        # R5/R6: a single is any one card; a joker single is its own power, never wild.
        if naturals:
            return frozenset({(SINGLE, power(rank_of(naturals[0]), level) << 1)})
        return frozenset({(SINGLE, power(jokers[0], level) << 1)})

    if n in (2, 3, 5) and not naturals:
        # R6: a joker-only combination stands for itself.
        p = _joker_only_power(jokers)
        if n == 2:
            key = p << 1
            if joker_pair == "pure_wins" and jokers == (SJ, SJ):
                key = (13 << 1) | 1  # docs/rules.md: SJ SJ beats SJ BJ, loses to BJ BJ
            return frozenset({(PAIR, key)})
        if n == 3:
            return frozenset({(TRIPLE, p << 1)})
        return frozenset({(FIVE_OF_A_KIND, five_key(FIVE_OF_A_KIND, p))})

    if n in (2, 3):
        return frozenset(_group_interpretations(naturals, j, level, copies))

    if n == 5:
        if j == 0:
            kk = natural_kind_key(naturals, level, wrap)
            return frozenset({kk} if kk is not None else set())
        return frozenset(_five_interpretations(naturals, j, level, wrap, copies))

    return frozenset()  # R5: only plays of 1, 2, 3 or 5 cards exist


def _check_options(wild="auto", joker_pair="tie"):
    if wild not in WILD_MODES:
        raise ValueError(f"wild must be one of {WILD_MODES}, got {wild!r}")
    if joker_pair not in JOKER_PAIR_MODES:
        raise ValueError(f"joker_pair must be one of {JOKER_PAIR_MODES}, got {joker_pair!r}")


def _split(faces):
    naturals = tuple(sorted(f for f in faces if not is_joker(f)))
    jokers = tuple(sorted(f for f in faces if is_joker(f)))
    jokers_key = len(jokers) if naturals else jokers
    return naturals, jokers_key


def interpretations(faces, level, wrap=False, joker_pair="tie", copies=COPIES):
    """Set of (kind, key) a play of these faces can stand for (R5, R6, docs/rules.md).

    Empty set if the faces are not a play (including sizes 0, 4 and > 5).
    Raises ValueError on bad face ids or more than `copies` copies of a face (3; R18: 2
    at the 4p2d table, where a wildcard reading also uses a face at most twice).
    """
    _check_level(level)
    _check_options(joker_pair=joker_pair)
    faces = _check_faces(faces, copies)
    naturals, jokers_key = _split(faces)
    return set(_interpretations_cached(naturals, jokers_key, level, bool(wrap), joker_pair,
                                       copies))


def interpretations_bruteforce(faces, level, wrap=False, joker_pair="tie", copies=COPIES):
    """The definition, literally: every assignment of one of the 52 natural faces to each
    joker (52**j of them), keep those with no face > `copies` times.  Only for checking the
    oracle itself (practical for j <= 2, slow for j = 3)."""
    faces = _check_faces(faces, copies)
    naturals = [f for f in faces if not is_joker(f)]
    n = len(faces)
    if n == 1 or not naturals:
        return interpretations(faces, level, wrap, joker_pair, copies)  # not wild (R6)
    out = set()
    for assigned in valid_assignments(faces, copies):
        full = naturals + list(assigned)
        if n == 5:
            kk = natural_kind_key(full, level, wrap)
            if kk is not None:
                out.add(kk)
        elif n in (2, 3):
            ranks = {rank_of(f) for f in full}
            if len(ranks) == 1:
                out.add((PAIR if n == 2 else TRIPLE, power(ranks.pop(), level) << 1))
    return out


def valid_assignments(faces, copies=COPIES):
    """Every tuple of natural faces for the jokers (in face order of the jokers) such that
    no face occurs more than `copies` times in the resulting set."""
    faces = _check_faces(faces, copies)
    naturals = [f for f in faces if not is_joker(f)]
    j = len(faces) - len(naturals)
    for assigned in product(range(52), repeat=j):
        if _valid_copies(naturals + list(assigned), copies):
            yield assigned


def _pick(interps, wild):
    if not interps:
        return None
    top_kind = max(kind for kind, _ in interps)
    keys = [key for kind, key in interps if kind == top_kind]
    if wild == "auto":  # R6: highest type, then the lowest key
        return (top_kind, min(keys))
    # "high": highest type, then the highest key.  "declare" without an explicit
    # declaration: the pick of "high" (docs/rules.md).
    return (top_kind, max(keys))


def classify(faces, level, wild="auto", wrap=False, joker_pair="tie", copies=COPIES):
    """(kind, key) of a play under the wild mode, or None if the faces are not a play."""
    _check_options(wild, joker_pair)
    return _pick(interpretations(faces, level, wrap, joker_pair, copies), wild)


# ---------------------------------------------------------------------------
# Comparison (R7)
# ---------------------------------------------------------------------------

def _size_key(play):
    play = tuple(play)
    if len(play) == 3:
        size, _kind, key = play
    elif len(play) == 2:
        size, key = play
    else:
        raise ValueError("a play is (size, kind, key) or (size, key)")
    return size, key


def beats(a, b):
    """R7: a beats b iff same number of cards and strictly higher key.

    a, b: (size, kind, key) or (size, key).  False when the sizes differ."""
    sa, ka = _size_key(a)
    sb, kb = _size_key(b)
    return sa == sb and ka > kb


# ---------------------------------------------------------------------------
# Legal plays (R8 with R5-R7)
# ---------------------------------------------------------------------------

def _sub_multisets(items, size):
    """Every sub-multiset of `size` cards from items = [(face, available), ...] (sorted),
    each exactly once, as a sorted tuple of faces."""
    if size == 0:
        yield ()
        return
    if not items:
        return
    face, avail = items[0]
    for take in range(min(avail, size), -1, -1):
        for rest in _sub_multisets(items[1:], size - take):
            yield (face,) * take + rest


def legal_plays(hand_faces, level, top=None, wild="auto", wrap=False, joker_pair="tie",
                copies=COPIES):
    """Set of (faces_tuple, kind, key) the hand can play.

    Every distinct sub-multiset of the hand of 1, 2, 3 or 5 cards that is a play.
    wild="declare": one entry per interpretation; otherwise one entry per sub-multiset
    with its classify() result.  top=(size, key) (or (size, kind, key)): keep only plays
    of that size with a key strictly greater (R7, R8 following).  copies: R18 (2 at 4p2d).
    """
    _check_level(level)
    _check_options(wild, joker_pair)
    hand = _check_faces(hand_faces, copies)
    items = sorted(Counter(hand).items())
    if top is not None:
        top_size, top_key = _size_key(top)
        sizes = (top_size,) if top_size in (1, 2, 3, 5) else ()
    else:
        top_key = None
        sizes = (1, 2, 3, 5)
    out = set()
    for size in sizes:
        for sub in _sub_multisets(items, size):
            naturals, jokers_key = _split(sub)
            interps = _interpretations_cached(naturals, jokers_key, level, bool(wrap), joker_pair,
                                              copies)
            if wild == "declare":
                chosen = set(interps)
            else:
                pick = _pick(interps, wild)
                chosen = {pick} if pick is not None else set()
            for kind, key in chosen:
                if top_key is None or key > top_key:
                    out.add((sub, kind, key))
    return out
