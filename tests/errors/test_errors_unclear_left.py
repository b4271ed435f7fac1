"""The unclear errors that were left (docs/errors.md): a numpy array in a position's
``format``/``version``/``start`` (numpy's "truth value ... is ambiguous"), ``play_from_json``
with engine rules (an AttributeError), a bot seat of ``{"policy": ""}`` (silently the
heuristic), the server's bot policies against docs/server.md, a seed of 400 digits echoed
whole, and the model-name limit the docs gave twice differently."""

from __future__ import annotations

import re
from pathlib import Path

import daguai
import numpy as np
import pytest
from daguai import Game, Rules, _core, protocol
from daguai.checks import policy_names
from daguai.errors import CodecError
from daguai.positions import PositionError

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("field", ["format", "version", "start"])
@pytest.mark.parametrize("value", [np.array([1, 2]), np.array(["daguai-position"] * 2), np.int64(1)])
def test_a_numpy_value_in_a_position_field_is_a_position_error_naming_it(field, value):
    pos = Game(1).position()
    pos[field] = value
    with pytest.raises(PositionError, match=rf"inconsistent position: .*{field}"):
        Game.from_position(pos)
    with pytest.raises(PositionError, match=field):
        daguai.analyze(pos, rollouts=2)


def test_play_from_json_refuses_rules_that_are_not_a_rules_with_the_codec_error():
    with pytest.raises(CodecError, match="rules must be a daguai.Rules, got CoreRules"):
        protocol.play_from_json({"cards": "3s"}, "2", Rules()._core)
    with pytest.raises(CodecError, match="got NoneType"):
        protocol.play_from_json({"cards": "3s"}, "2", None)
    assert str(protocol.play_from_json({"cards": "3s"}, "2", Rules())) == "3s"


def test_the_model_name_limit_is_the_engines_in_both_docs():
    limit = f"{_core.learned.MAX_MODELS:,}"  # the engine's kMaxModels
    learning, errors = (DOCS / "learning.md").read_text(), (DOCS / "errors.md").read_text()
    assert re.findall(r"([\d,]+)\s+model\s+names\s+(?:per|in\s+one)\s+process", learning) == [limit]
    assert set(re.findall(r"([\d,]+)\s+model\s+names\s+(?:per|in\s+one)\s+process", errors)) == {limit}


def test_a_huge_seed_is_shown_cut_short():
    for call in (lambda: Game(10**400), lambda: daguai.simulate(1, seed=10**400)):
        with pytest.raises(ValueError, match=r"got 1000+\.\.\.0+$") as exc:
            call()
        assert len(str(exc.value)) < 120


# ---- the server ---------------------------------------------------------------------------
def _server_policies() -> list[str]:
    """The bot policies docs/server.md lists (its 'Tables and seats' sentence)."""
    text = (DOCS / "server.md").read_text()
    sentence = text[text.index("any of the engine's catalog"):text.index("(`heuristic` when")]
    return re.findall(r"`([a-z0-9_]+)`", sentence.split("):", 1)[1])


def test_the_documented_bot_policies_are_the_accepted_ones():
    assert _server_policies() == list(policy_names())


@pytest.fixture
def client():
    pytest.importorskip("starlette")
    from daguai.server import create_app
    from starlette.testclient import TestClient

    with TestClient(create_app(":memory:")) as c:
        yield c


def _create(client, seats, **extra):
    return client.post("/api/tables", json={"rules": {"max_rounds": 1}, "seats": seats, **extra})


@pytest.mark.parametrize("policy", policy_names())
def test_the_server_seats_every_documented_policy(client, policy):
    r = _create(client, [{"kind": "remote"}] + [{"kind": "bot", "policy": policy}] * 5)
    assert r.status_code == 201, r.text


@pytest.mark.parametrize("policy", ["", " heuristic", "nope", 7])
def test_the_server_refuses_an_empty_or_unknown_policy(client, policy):
    r = _create(client, [{"kind": "bot", "policy": policy}] + [{"kind": "remote"}] * 5)
    assert r.status_code == 400
    assert "policy" in r.json()["message"] or "schema" in r.json()["message"], r.text
    r = client.post("/api/play", json={"policy": policy})
    assert r.status_code == 400, r.text
    ok = _create(client, [{"kind": "bot"}] + [{"kind": "remote"}] * 5)  # left out: heuristic
    assert ok.status_code == 201
    assert client.get(f"/api/tables/{ok.json()['table']}").json()["seats"][0]["name"] == "heuristic"


def test_the_server_cuts_a_huge_seed_short(client):
    body = '{"seed": 1' + "0" * 400 + ', "seats": [' + ", ".join(['{"kind": "remote"}'] * 6) + "]}"
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and len(r.json()["message"]) < 160, r.text
    assert r.json()["message"].startswith("seed: ") and "0" * 30 not in r.json()["message"]
