"""The rule-variant table (cpp/engine/core/rules.cpp, ``_core.core.RULE_VARIANTS``) is the one source
of the variants: the engine's CoreRules, Python's ``Rules``, the native enums, the CLI's help
and the docs all agree with it."""

from __future__ import annotations

import dataclasses
import inspect
import os
import pickle
import re
from pathlib import Path

import pytest
from daguai import CardError, Rules, _core
from daguai.cli import build_parser
from daguai.rules import LEVELS, VARIANTS

ROOT = Path(__file__).resolve().parents[2]
ROWS = _core.core.RULE_VARIANTS
NAMES = [row["name"] for row in ROWS]
DOCS_BEGIN = ("<!-- rule-variants: generated from _core.core.RULE_VARIANTS; "
              "tests/core/test_rules_variants.py -->")
DOCS_END = "<!-- /rule-variants -->"
STUB = ROOT / "python" / "daguai" / "rules.pyi"
# DAGUAI_REGENERATE=1 pytest tests/core/test_rules_variants.py rewrites the generated texts below
REGENERATE = os.environ.get("DAGUAI_REGENERATE") == "1"


def _other_value(row):
    """A valid value of the variant that is not its default."""
    if row["kind"] in ("choice", "level"):
        return next(c for c in row["choices"] if c != row["default"])
    if row["kind"] == "bool":
        return not row["default"]
    return row["hi"] if row["default"] != row["hi"] else row["lo"]


def _values(row):
    """Every value to try: all choices, both bools, the int bounds and default."""
    if row["kind"] in ("choice", "level"):
        return list(row["choices"])
    if row["kind"] == "bool":
        return [False, True]
    return sorted({row["lo"], row["default"], row["hi"]})


def test_rows_are_complete_and_unique():
    assert len(NAMES) == len(set(NAMES)) >= 16
    # the rules' prose (not the generated table, which would prove nothing)
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    rules_md = page[:page.index(DOCS_BEGIN)] + page[page.index(DOCS_END):]
    for row in ROWS:
        assert row["doc"].strip() and "\n" not in row["doc"], row["name"]
        assert re.fullmatch(r"R\d+(/R\d+)*", row["rule"]), row
        for rule in row["rule"].split("/"):
            assert re.search(rf"\b{rule}\b", rules_md), f"{row['name']}: {rule} not in docs/rules.md"
        assert row["kind"] in ("choice", "bool", "int", "level")
        if row["kind"] == "choice":
            assert len(row["choices"]) == row["hi"] + 1 >= 2 and row["lo"] == 0
            assert row["default"] in row["choices"] and row["enum"]
        else:
            assert row["enum"] is None
        if row["kind"] == "level":
            assert row["choices"] == LEVELS and row["default"] in LEVELS
        if row["kind"] == "bool":
            assert isinstance(row["default"], bool) and row["choices"] == ()
        if row["kind"] == "int":
            assert type(row["default"]) is int and row["lo"] <= row["default"] <= row["hi"]


def test_python_rules_fields_come_from_the_table():
    fields = [f for f in dataclasses.fields(Rules) if f.init]
    assert [f.name for f in fields] == NAMES == list(Rules.names()) == list(VARIANTS)
    assert {f.name: f.default for f in fields} == {r["name"]: r["default"] for r in ROWS}
    assert Rules().to_dict() == {r["name"]: r["default"] for r in ROWS}
    assert repr(Rules()) == "Rules()"


def test_rules_signature_is_keyword_only_with_real_names():
    params = inspect.signature(Rules).parameters
    assert list(params) == NAMES
    for row in ROWS:
        p = params[row["name"]]
        assert p.kind is inspect.Parameter.KEYWORD_ONLY and p.default == row["default"]


def test_rules_docstring_lists_every_variant():
    doc = Rules.__doc__
    assert "Parameters\n----------" in doc
    for row in ROWS:
        assert re.search(rf"^{row['name']} : ", doc, re.M), row["name"]
        assert f"{row['rule']}: {row['doc']}" in " ".join(doc.split())  # wrapped lines


@pytest.mark.parametrize("row", ROWS, ids=NAMES)
def test_every_value_round_trips_through_core_rules(row):
    name = row["name"]
    for value in _values(row):
        core = _core.core.CoreRules(**{name: value})
        assert getattr(core, name) == value and type(getattr(core, name)) is type(value)
        assert core.to_dict() == {**Rules().to_dict(), name: value}
        r = Rules(**{name: value})
        assert getattr(r, name) == value and r._core.to_dict() == r.to_dict()
        assert Rules.from_dict(r.to_dict()) == r and pickle.loads(pickle.dumps(r)) == r
        assert (r == Rules()) == (value == row["default"])
        assert repr(r) == ("Rules()" if value == row["default"] else f"Rules({name}={value!r})")


@pytest.mark.parametrize("row", ROWS, ids=NAMES)
def test_out_of_table_values_are_refused_by_both(row):
    name = row["name"]
    bad = {"choice": "sideways", "level": "Z", "bool": 1, "int": row["hi"] + 1}[row["kind"]]
    with pytest.raises(ValueError, match=rf"Rules\.{name}"):
        Rules(**{name: bad})
    with pytest.raises(CardError, match=rf"Rules\.{name}"):
        _core.core.CoreRules(**{name: bad})
    if row["kind"] == "int":
        with pytest.raises(ValueError, match=rf"Rules\.{name} must be an integer in "
                                             rf"\[{row['lo']}, {row['hi']}\]"):
            Rules(**{name: row["lo"] - 1})
        with pytest.raises(CardError, match=rf"Rules\.{name} must be in"):
            _core.core.CoreRules(**{name: row["lo"] - 1})


def test_core_rules_refuses_unknown_names_and_defaults_the_rest():
    with pytest.raises(CardError, match=r"unknown rule name\(s\): nope, zzz \(known: wild "):
        _core.core.CoreRules(zzz=1, nope=2)
    assert _core.core.CoreRules().to_dict() == Rules().to_dict()
    changed = {row["name"]: _other_value(row) for row in ROWS}
    assert _core.core.CoreRules(**changed).to_dict() == {**Rules().to_dict(), **changed}
    assert Rules(**changed).to_dict() == {**Rules().to_dict(), **changed}


def test_choice_enums_match_the_table():
    for row in ROWS:
        if row["kind"] != "choice":
            continue
        enum = getattr(_core.core, row["enum"])
        assert [m.value for m in enum] == list(range(len(row["choices"])))
        for member, choice in zip(enum, row["choices"], strict=True):
            assert member.name in (choice.upper(), f"{row['name']}_{choice}".upper())
            # a member is accepted where the choice name is, and reads back as the name
            assert getattr(_core.core.CoreRules(**{row["name"]: member}), row["name"]) == choice


def test_engine_enums_spell_the_strings_the_game_uses():
    assert [m.name.lower() for m in _core.game.Phase] == [
        "tribute", "return", "take", "play", "match_over"]
    assert [m.name.lower() for m in _core.game.ActionType] == [
        "play", "pass", "tribute", "anti_tribute", "return", "offer", "take"]
    assert [m.name.lower() for m in _core.game.EventType] == [
        "deal", "tribute", "anti_tribute", "return", "offer", "take", "play", "pass",
        "round_end", "forfeit", "auto_pass"]
    from daguai import Game

    g = Game(seed=3)
    assert _core.game.Phase[g.phase.upper()] is _core.game.Phase.PLAY
    assert all(a.type.upper() in _core.game.ActionType.__members__ for a in g.legal_actions())
    g.step(g.legal_actions()[0])
    assert all(e[0].upper() in _core.game.EventType.__members__ for e in g.state.events())


def test_cli_rule_help_lists_every_variant(capsys):
    """``--rule help`` lists every variant (the help of a command ends with one line
    pointing to it and to docs/rules.md instead of the whole list)."""
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert len(sub.choices["simulate"].epilog.splitlines()) <= 3
    with pytest.raises(SystemExit) as exit_:
        parser.parse_args(["evaluate", "--rule", "help"])
    assert exit_.value.code == 0
    epilog = capsys.readouterr().out
    for row in ROWS:
        line = next(ln for ln in epilog.splitlines() if ln.split()[:1] == [row["name"]])
        if row["kind"] in ("choice", "level"):
            assert all(c in line.split() for c in row["choices"]), line
        shown = str(row["default"]).lower() if row["kind"] == "bool" else str(row["default"])
        assert f"(default {shown})" in line
        assert row["doc"].split()[0] in epilog


def docs_table() -> str:
    """The variant table of docs/rules.md, as generated from the engine's table."""
    lines = [DOCS_BEGIN, "", "| variant | values | default | rule | meaning |",
             "|---|---|---|---|---|"]
    for row in ROWS:
        if row["kind"] in ("choice", "level"):
            values = " / ".join(f"`{c}`" for c in row["choices"])
        elif row["kind"] == "bool":
            values = "`True` / `False`"
        else:
            values = f"{row['lo']} .. {row['hi']}"
        lines.append(f"| `{row['name']}` | {values} | `{row['default']!r}` | {row['rule']} | "
                     f"{row['doc']} |")
    return "\n".join([*lines, "", DOCS_END])


def test_docs_variant_table_is_generated_from_the_table():
    page = ROOT / "docs" / "rules.md"
    text = page.read_text(encoding="utf-8")
    assert DOCS_BEGIN in text and DOCS_END in text
    begin, end = text.index(DOCS_BEGIN), text.index(DOCS_END) + len(DOCS_END)
    if REGENERATE:
        page.write_text(text[:begin] + docs_table() + text[end:], encoding="utf-8")
        text = page.read_text(encoding="utf-8")
    assert text[begin:end] == docs_table(), (
        "docs/rules.md is stale: DAGUAI_REGENERATE=1 pytest tests/core/test_rules_variants.py")


def stub_text() -> str:
    """python/daguai/rules.pyi: the static face of the Rules built at import time."""
    types = {"choice": "str", "bool": "bool", "int": "int", "level": "str"}
    fields = [f"    {row['name']}: {types[row['kind']]}" for row in ROWS]
    params = [f"        {row['name']}: {types[row['kind']]} = ...," for row in ROWS]
    return "\n".join([
        '"""Static face of daguai.rules (its Rules is built from _core.core.RULE_VARIANTS at import).',
        "",
        "Generated by tests/core/test_rules_variants.py (DAGUAI_REGENERATE=1 rewrites it); do not edit.",
        '"""',
        "",
        "from collections.abc import Mapping",
        "from typing import Any",
        "",
        '__all__ = ["Rules", "LEVELS", "VARIANTS"]',
        "",
        "VARIANTS: Mapping[str, Mapping[str, Any]]",
        "LEVELS: tuple[str, ...]",
        "",
        "class Rules:",
        *fields,
        "    __match_args__ = (",
        *[f'        "{name}",' for name in NAMES],
        "    )",
        "    def __init__(",
        "        self,",
        "        *,",
        *params,
        "    ) -> None: ...",
        "    def replace(self, **changes: Any) -> Rules: ...",
        "    @classmethod",
        "    def names(cls) -> tuple[str, ...]: ...",
        "    def to_dict(self) -> dict[str, Any]: ...",
        "    @classmethod",
        "    def from_dict(cls, data: Mapping[str, Any]) -> Rules: ...",
        "    def __hash__(self) -> int: ...",
        "",
    ])


def test_rules_stub_is_generated_from_the_table():
    if REGENERATE:
        STUB.write_text(stub_text(), encoding="utf-8")
    assert STUB.read_text(encoding="utf-8") == stub_text(), (
        "python/daguai/rules.pyi is stale: DAGUAI_REGENERATE=1 pytest tests/core/test_rules_variants.py")


# slow: shares test_dev_stubs' stubtest run; CI runs both
@pytest.mark.slow
def test_rules_stub_matches_the_module():
    pytest.importorskip("mypy")
    from stubtest_helpers import lines_about, stubtest  # one run for rules and _core

    code, _, stderr = stubtest()
    assert code in (0, 1), stderr[-3000:]
    assert "\n".join(lines_about("daguai.rules")).strip() == "", lines_about("daguai.rules")


def test_docs_errors_bounds_match_the_table():
    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")

    def shown(n):
        return f"2^{n.bit_length() - 1}" if n > 1 and n & (n - 1) == 0 else str(n)

    for row in ROWS:
        if row["kind"] != "int":
            continue
        line = next(ln for ln in text.splitlines()
                    if ln.startswith("| `Rules(") and f"{row['name']}=" in ln)
        assert f"| {shown(row['lo'])} .. {shown(row['hi'])} |" in line, (row["name"], line)
