"""The codec's documents (issue 16 item 2): positions, evaluation results, analyses and the
server's summaries are written by ``daguai.codec`` and each validates against its entry in
the shipped ``documents-v1.schema.json``; the schema refuses what the documents never hold."""

from __future__ import annotations

import json
import random

import jsonschema
import pytest
from daguai import Game, Rules, analyze, documents
from daguai.run import evaluate

SCHEMA = documents.documents_schema()


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({**SCHEMA, "$ref": f"#/$defs/{name}"})


def test_the_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert set(SCHEMA["$defs"]) >= {"position", "evaluation", "analysis", "group", "table_summary",
                                    "match_summary"}


@pytest.mark.parametrize("rules", [Rules(final_level="3"), Rules(final_level="3", table="4p2d"),
                                   Rules(anti_tribute=True, joker_tribute_choice=True, wild="declare")])
def test_positions_validate_and_come_from_the_codec(rules):
    v = validator("position")
    rng = random.Random(7)
    for seed in range(6):
        g = Game(seed, rules, start="random" if seed % 2 else "fresh")
        for _ in range(rng.randrange(0, 400)):
            if g.match_over:
                break
            g.step(rng.choice(list(g.legal_actions())))
        if g.match_over:
            continue
        doc = g.position()
        v.validate(doc)
        assert doc == documents.position_to_json(g)
        v.validate(documents.position_to_json(g, at_deal=True))
    with pytest.raises(jsonschema.ValidationError):
        v.validate({**Game(1).position(), "to_act": 6})


def test_an_evaluation_validates():
    r = evaluate("random", "heuristic", 2, seed=3, rules=Rules(final_level="3"))
    doc = json.loads(r.to_json())
    validator("evaluation").validate(doc)
    assert r.to_json() == documents.evaluation_to_json(r.figures())
    with pytest.raises(jsonschema.ValidationError):
        validator("evaluation").validate({**doc, "wins": -1})


def test_an_analysis_validates():
    g = Game(4)
    for _ in range(10):
        g.step(g.legal_actions()[0])
    a = analyze(g, rollouts=40, seed=1)
    doc = a.to_dict()
    validator("analysis").validate(doc)
    assert doc == documents.analysis_to_json(a)
    assert json.loads(json.dumps(doc)) == doc


def test_server_summaries_validate():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from daguai.server import create_app
    from starlette.testclient import TestClient

    with TestClient(create_app(":memory:")) as c:
        r = c.post("/api/tables", json={"rules": {"final_level": "3"}, "seed": 5,
                                        "seats": [{"kind": "bot", "policy": "random"}] * 6})
        assert r.status_code == 201, r.text
        listed = c.get("/api/tables").json()
        assert listed
        for t in listed:
            validator("table_summary").validate(t)
    validator("match_summary").validate(documents.match_summary(levels=("3", "2"), scores=[1, -1, 0, 0, 0, 0],
                                                            seats=["random"] * 6, decisions=9))
