"""The rules as text (docs/rules.md, docs/rules.zh.md, :func:`daguai.rules_text`): one text,
shipped in the package, with a section per rule id R1-R18 in both languages, every variant of
the engine's table described where its rule is, and no citation of a rules file outside the
repository."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import daguai
import pytest
from daguai import _core, rules_text
from daguai.rulebook import LANGS, RULE_IDS, TOPICS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SHIPPED = Path(daguai.__file__).resolve().parent / "docs"
ROWS = _core.core.RULE_VARIANTS
REGENERATE = os.environ.get("DAGUAI_REGENERATE") == "1"


def _page(lang: str) -> str:
    return (DOCS / LANGS[lang]).read_text(encoding="utf-8")


def _sections(lang: str) -> dict[str, str]:
    """Anchor id -> the text up to the next anchor."""
    text = _page(lang).split("<!-- end of the rules", 1)[0]
    marks = list(re.finditer(r'^<a id="([\w-]+)"></a>$', text, re.M))
    return {
        m.group(1): text[m.end() : (marks[i + 1].start() if i + 1 < len(marks) else len(text))]
        for i, m in enumerate(marks)
    }


@pytest.mark.parametrize("name", sorted(LANGS.values()))
def test_the_package_ships_the_rules_pages_unchanged(name):
    """One text: the package's copy is docs/NAME byte for byte (DAGUAI_REGENERATE=1 copies)."""
    if REGENERATE:
        shutil.copyfile(DOCS / name, SHIPPED / name)
    assert (SHIPPED / name).read_bytes() == (DOCS / name).read_bytes(), (
        f"python/daguai/docs/{name} differs from docs/{name}: "
        "DAGUAI_REGENERATE=1 pytest tests/core/test_rules_doc.py copies it"
    )


@pytest.mark.parametrize("lang", LANGS)
def test_every_rule_has_a_section_in_order(lang):
    sections = _sections(lang)
    ids = [k for k in sections if re.fullmatch(r"r\d+", k)]
    assert ids == [r.lower() for r in RULE_IDS], ids
    for rule in RULE_IDS:
        body = sections[rule.lower()].lstrip()
        assert body.startswith(f"## {rule} "), (lang, rule, body[:60])
        assert len(body.splitlines()) >= 3, (lang, rule)
    assert "variants" in sections


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("row", ROWS, ids=[r["name"] for r in ROWS])
def test_every_variant_is_described_under_its_rule(lang, row):
    """Each variant is named in the prose of (one of) its rules with each of its choices, so
    a newcomer reading R11 learns every way R11 is played."""
    sections = _sections(lang)
    texts = [sections[rule.lower()] for rule in row["rule"].split("/")]
    home = next((t for t in texts if f"`{row['name']}`" in t), None)
    assert home is not None, f"{lang}: `{row['name']}` is not described under {row['rule']}"
    if row["kind"] == "choice":
        for choice in row["choices"]:
            assert f"`{choice}`" in home, (lang, row["name"], choice)


def _zh_table() -> list[list[str]]:
    body = _sections("zh")["variants"]
    rows = [ln for ln in body.splitlines() if ln.startswith("| `")]
    return [[c.strip() for c in ln.strip("|").split("|")] for ln in rows]


def test_the_chinese_variant_table_matches_the_engine():
    """The English table is generated (test_rules_variants.py); the 中文 one is written by
    hand, so it is checked here: the names in order, each one's rule and default."""
    table = _zh_table()
    assert [r[0].strip("`") for r in table] == [row["name"] for row in ROWS]
    for cells, row in zip(table, ROWS, strict=True):
        assert cells[2].strip("`") == str(row["default"]), (row["name"], cells[2])
        assert cells[3] == row["rule"], (row["name"], cells[3])
        if row["kind"] == "choice":
            assert [c.strip(" `") for c in cells[1].split("/")] == list(row["choices"]), cells


def test_rules_text_gives_the_rules_without_the_programmers_part():
    whole = rules_text()
    heads = re.findall(r"^## (R\d+) ", whole, re.M)
    assert heads == list(RULE_IDS)
    assert "Part 2" not in whole.split("## R1 ", 1)[1] and "## Faces" not in whole
    assert "<a id=" not in whole and "<!--" not in whole
    assert "| `table` |" in whole  # the variant table is part of the rules
    zh = rules_text(lang="zh")
    assert re.findall(r"^## (R\d+) ", zh, re.M) == list(RULE_IDS) and "进贡" in zh


@pytest.mark.parametrize("lang", LANGS)
def test_rules_text_gives_one_topic(lang):
    for rule in RULE_IDS:
        text = rules_text(rule, lang=lang)
        assert text.startswith(f"## {rule} ") and text.endswith("\n")
        assert len(re.findall(r"^## ", text, re.M)) == 1, rule
        assert rules_text(rule.lower(), lang=lang) == text == rules_text(rule[1:], lang=lang)
    assert "| `wild` |" in rules_text("variants", lang=lang)
    assert "## R11 " in rules_text(lang=lang) and "## R12 " not in rules_text("R11", lang=lang)


@pytest.mark.parametrize("bad", ["R0", "R19", "encodings", "", "R1 R2", "x" * 1000])
def test_an_unknown_topic_names_the_valid_ones(bad):
    with pytest.raises(
        ValueError, match=r"unknown rule id .*: choose one of R1, R2, .* R18, variants"
    ) as info:
        rules_text(bad)
    assert len(str(info.value)) < 200  # a long argument is cut short
    assert TOPICS == (*RULE_IDS, "variants")


@pytest.mark.parametrize("kwargs", [{"rule_id": 11}, {"rule_id": ["R1"]}, {"lang": "fr"}, {"lang": None}])
def test_bad_arguments_are_value_errors(kwargs):
    with pytest.raises(ValueError, match=r"rule id|lang|language"):
        rules_text(**kwargs)


def test_nothing_cites_a_rules_file_outside_the_repository():
    """The rules were cited as RULES.md 'beside this project in ../shared/', in neither the
    repository nor the wheel: every citation is docs/rules.md (or `daguai rules`) now."""
    found = []
    here = Path(__file__).resolve()
    for folder in ("cpp", "python", "tests", "docs", "benchmarks", "examples"):
        for path in sorted((ROOT / folder).rglob("*")):
            if not path.is_file() or path.resolve() == here or path.suffix in (".so", ".dgn", ".png"):
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            for n, line in enumerate(text.splitlines(), 1):
                if "RULES.md" in line or "../shared" in line:
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found += [f"README.md: {ln.strip()[:100]}" for ln in readme.splitlines() if "RULES.md" in ln]
    assert not found, "\n".join(found)


def test_the_package_docstring_points_at_the_rules():
    assert "R1-R18" in daguai.__doc__ and "rules_text" in daguai.__doc__
    assert "RULES.md" not in daguai.__doc__ and "R1-R17" not in daguai.__doc__


def test_the_wheel_takes_the_package_folder_with_its_data():
    """The pages ship as data of the package folder, as schemas/ and models/ do: the wheel
    takes python/daguai whole and excludes nothing."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^wheel\.packages = \["python/daguai"\]', text, re.M)
    assert "exclude" not in text.split("[tool.scikit-build]", 1)[1].split("\n[", 1)[0]
    assert SHIPPED == ROOT / "python" / "daguai" / "docs" or (SHIPPED / "rules.md").is_file()


def test_the_rules_help_of_every_command_points_at_what_a_pip_install_has():
    from daguai.cli.options import rules_epilog

    assert "docs/" not in rules_epilog() and "daguai rules" in rules_epilog()
