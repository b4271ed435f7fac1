"""A search over any model: ``SEARCH@MODEL`` (docs/search.md "A search over any model").

``expert@gen4.dgn`` is the expert's search with that file's network as its model, so an earlier
expert plays from its network's file. Checked against the catalog's own expert (the same
network under another name must decide the same, decision for decision), against another
network (it must matter), and for every refusal.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import daguai
import pytest
from daguai import _core
from daguai.run.identity import identity

SHIPPED = Path(daguai.__file__).parent / "models" / "learned.dgn"
OTHER = Path(daguai.__file__).parent / "models" / "learned_4p2d.dgn"


def _points(n: int, every: int = 7):
    g = daguai.Game(seed=31_337)
    k = 0
    while len(out := getattr(_points, "_acc", [])) < n and not g.match_over:
        if k % every == 0:
            out.append((g.clone(), g.current_player))
            _points._acc = out
        k += 1
        g.step(daguai.bots.heuristic(g, g.current_player))
    _points._acc = []
    return out


def _act(name: str, g, seat) -> str:
    return str(_core.run.PolicyRunner(name, 99, 0, seat).act(g.state))


@pytest.fixture(scope="module")
def points():
    return _points(14)


def test_expert_over_the_shipped_file_is_the_expert(points, tmp_path):
    copy = tmp_path / "copy of learned.dgn"
    shutil.copyfile(SHIPPED, copy)
    for g, seat in points:
        expected = _act("expert", g, seat)
        assert _act("expert@learned", g, seat) == expected
        assert _act(f"expert@{copy}", g, seat) == expected


def test_the_model_after_the_at_is_the_one_searched_over(points):
    # another network as the expert's model changes some decision (its incumbent and ranking)
    differ = [1 for g, seat in points if _act(f"expert@{OTHER}", g, seat) != _act("expert", g, seat)]
    assert differ


def test_a_plain_search_takes_the_model_as_its_incumbent(points):
    # pimc24's incumbent is the heuristic's choice; over the learned network it is the network's
    differ = [1 for g, seat in points if _act("pimc24@learned", g, seat) != _act("pimc24", g, seat)]
    assert differ
    assert _core.run.PolicyRunner("pimc24@learned", 1, 0, 0).name == "pimc24@learned"


@pytest.mark.parametrize(
    "name, words",
    [
        ("heuristic@learned", "'heuristic' is not a search policy"),
        ("learned@learned", "'learned' is not a search policy"),
        ("expert@nope", "'nope' is not a model"),
        ("expert@", "'' is not a model"),
        ("@learned", "'' is not a search policy"),
        ("expert@missing.dgn", "missing.dgn"),
    ],
)
def test_a_bad_search_over_model_names_what_is_wrong(name, words):
    with pytest.raises(ValueError, match=words.replace("'", ".")):
        daguai.evaluate(name, "heuristic", 1, seed=1)
    with pytest.raises(ValueError, match=words.replace("'", ".")):
        daguai.bots.Bot(name)


def test_a_fifo_as_the_model_is_refused_before_reading(tmp_path):
    fifo = tmp_path / "m.dgn"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="regular file|not a|FIFO"):
        daguai.bots.Bot(f"expert@{fifo}")


def test_identity_names_the_search_and_the_models_bytes(tmp_path):
    copy = tmp_path / "m.dgn"
    shutil.copyfile(OTHER, copy)
    ident = identity(f"expert@{copy}")
    assert ident.startswith(identity("expert")) and identity(str(copy)) in ident
    assert identity("expert@learned") != identity("expert")


def test_simulate_plays_and_reports_a_search_over_model():
    res = daguai.simulate(1, policies=["pimc24@learned", "heuristic"], seed=5)
    assert res.policies[0] == "pimc24@learned" and res.n == 1


def test_a_model_of_other_rules_is_refused_through_the_search_too():
    # the 4p2d model under a 6p3d game: refused by name like the model itself (model_rules)
    g = daguai.Game(seed=3)
    with pytest.raises(ValueError, match="trained for"):
        daguai.bots.Bot(f"pimc24@{OTHER}")(g, g.current_player)
    with pytest.raises(ValueError, match="trained for"):
        daguai.simulate(1, policies=[f"pimc24@{OTHER}", "heuristic"], seed=5)
    assert daguai.bots.Bot(f"pimc24@{OTHER}", model_rules="any")(g, g.current_player) is not None
