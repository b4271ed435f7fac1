"""The logs of a GameState (core/shared_log.hpp: events, deals, results, forced passes) are
fixed-size chunks shared by copies, the chunk being filled included: a copy reads the
elements it was made with and takes a chunk of its own when it first appends, while the
state it was copied from goes on appending in place.

Against the slow reference, a state that was never copied: random matches (auto_pass on, so
the forced-pass log fills too) are split into a tree of copies (copies of copies, copies taken
at and around the event log's chunk boundaries, originals dropped while their copies live),
each copy goes on with its own random decisions, and at the end every state's log, results,
events and view equal those of a fresh state replaying the same decisions.
"""

from __future__ import annotations

import random

from daguai import Game, Rules
from daguai._core.game import GameState, information_state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CHUNK = 64  # SharedLog<Event, 64>: the event log's chunk (state.hpp EventLog)


def record(g: GameState) -> tuple:
    """Everything the logs show: the events, results, and each seat's view (forced passes)."""
    views = [] if g.match_over else [
        (v.forced, v.history) for v in (information_state(g, s) for s in range(g.seats))]
    return g.events(), g.results, g.n_events, g.n_results, g.round_events_start, views


def fresh(rules: Rules, seed: int, actions: list) -> GameState:
    g = Game(seed, rules, auto_pass=True)._state
    for a in actions:
        g.apply(a)
    return g


def play_tree(rules: Rules, seed: int, steps: int) -> tuple[int, int, int]:
    """(copies made, the longest log, forced passes in it) of a tree of copies, each of whose
    final states is checked against a fresh replay."""
    pick = random.Random(seed)
    root = Game(seed, rules, auto_pass=True)._state
    live: list[tuple[GameState, list]] = [(root, [])]
    copies = 0
    for _ in range(steps):
        nxt = []
        for i, (g, actions) in enumerate(live):
            if g.match_over:
                nxt.append((g, actions))
                continue
            n = g.n_events % CHUNK
            if (n in (0, 1, CHUNK - 1) and pick.random() < 0.5) or pick.random() < 0.02:
                nxt.append((GameState(g), list(actions)))  # a copy, at or near a chunk's end
                copies += 1
            if i > 0 and pick.random() < 0.01:
                continue  # drop this state (never the first: one lives on): its copies keep their chunks
            legal = g.legal_actions()
            a = legal[pick.randrange(len(legal))]
            g.apply(a)
            actions.append(a)
            nxt.append((g, actions))
        live = nxt[:12]
    for g, actions in live:
        assert record(g) == record(fresh(rules, seed, actions)), (seed, len(actions))
    longest = max(live, key=lambda x: x[0].n_events)[0]
    return copies, longest.n_events, sum(e[3] for e in longest.events() if e[0] == "pass")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), table=st.sampled_from(["6p3d", "4p2d"]))
def test_copies_share_their_logs_and_append_independently(seed: int, table: str) -> None:
    copies, events, forced = play_tree(Rules(final_level="3", table=table), seed, 700)
    assert copies > 0 and events > 4 * CHUNK and forced > 0


def test_a_copy_of_a_copy_at_a_chunk_boundary() -> None:
    # a copy made exactly when the tail is full-less-one, then both append past the boundary
    rules = Rules(final_level="3")
    g = Game(5, rules, auto_pass=True)._state
    pick = random.Random(5)
    actions: list = []
    while g.n_events % CHUNK != CHUNK - 1:
        legal = g.legal_actions()
        actions.append(legal[pick.randrange(len(legal))])
        g.apply(actions[-1])
    c = GameState(g)
    cc = GameState(c)
    runs = {id(g): list(actions), id(c): list(actions), id(cc): list(actions)}
    for s in (c, g, cc):  # the copy appends first, then the original, then the copy's copy
        for _ in range(3):
            legal = s.legal_actions()
            a = legal[pick.randrange(len(legal))]
            s.apply(a)
            runs[id(s)].append(a)
    for s in (g, c, cc):
        assert record(s) == record(fresh(rules, 5, runs[id(s)]))
    assert len({str(s.events()[-1]) for s in (g, c, cc)}) > 1  # they went separate ways
