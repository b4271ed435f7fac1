"""``daguai rules``: the rules the package ships (docs/rules.md, docs/rules.zh.md), whole or one
rule, English or 中文; and ``daguai --help`` pointing where a pip user can read on."""

from __future__ import annotations

import io
import re

import pytest
from daguai import rules_text
from daguai.cli import main
from daguai.rulebook import RULE_IDS
from test_cli import run


def test_the_whole_rules_into_a_pipe_are_the_markdown_text():
    p = run("rules")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert p.stdout == rules_text()
    assert re.findall(r"^## (R\d+) ", p.stdout, re.M) == list(RULE_IDS)


@pytest.mark.parametrize(
    "args,rule,lang",
    [
        (["R11"], "R11", "en"),
        (["r4", "--lang", "zh"], "R4", "zh"),
        (["--lang", "zh", "18"], "R18", "zh"),
        (["variants"], "variants", "en"),
    ],
)
def test_one_rule(args, rule, lang):
    p = run("rules", *args)
    assert p.returncode == 0, p.stderr
    assert p.stdout == rules_text(rule, lang=lang)


@pytest.mark.parametrize("args", [["R19"], ["encodings"], ["R1", "R2"], ["--lang", "fr"]])
def test_a_bad_topic_or_language_is_one_line_and_exit_2(args):
    p = run("rules", *args)
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1 and p.stderr.startswith("daguai: error:"), p.stderr
    if args[0] == "R19":
        assert "R1, R2, R3" in p.stderr and "R18, variants" in p.stderr


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_rich_draws_the_markdown(monkeypatch):
    out = _Terminal()
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert main(["rules", "R9", "--lang", "zh"]) == 0
    text = out.getvalue()
    assert "R9 胜负" in text and "## R9" not in text  # a heading drawn, not Markdown source
    assert "\x1b[" in text and "─" in text  # styles and the drawn table
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    assert "甲 第一，乙 第六" in plain


def test_the_main_help_points_at_what_a_pip_install_has():
    """Found: `daguai --help` sent readers to docs/simulation.md, which a pip install lacks."""
    p = run("--help")
    assert p.returncode == 0
    assert "docs/" not in p.stdout
    assert "daguai rules" in p.stdout and "daguai COMMAND --help" in p.stdout
    assert re.search(r"^\s+rules\s+print the rules", p.stdout, re.M)
