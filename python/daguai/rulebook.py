"""The rules of the game as text: the shipped copies of docs/rules.md (English) and
docs/rules.zh.md (中文), whole or one rule at a time (``daguai rules [R11] [--lang zh]``).

Two pages, one per language, rather than one page with both languages in every section: a
reader reads one language from top to bottom, each page keeps the Markdown of its own
language (tables included), and a topic is the same section of either. The package carries
the two pages in ``python/daguai/docs/``; tests/core/test_rules_doc.py checks that
they equal the repository's docs/ pages byte for byte, so there is one text. The English page
goes on with a part for programmers (decisions and encodings) after the rules: only the rules
are returned here.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

__all__ = ["LANGS", "RULE_IDS", "TOPICS", "rules_text"]

#: The rule ids, in order (R18: the four-player table).
RULE_IDS: tuple[str, ...] = tuple(f"R{i}" for i in range(1, 19))
#: What ``rules_text`` takes as a topic: a rule id or the table of every variant.
TOPICS: tuple[str, ...] = (*RULE_IDS, "variants")
#: The languages of the rules, each a page of the package.
LANGS: dict[str, str] = {"en": "rules.md", "zh": "rules.zh.md"}

_END = "<!-- end of the rules"
_ANCHOR = re.compile(r'^<a id="([\w-]+)"></a>\s*$', re.M)
_COMMENT = re.compile(r"^<!--.*?-->\s*\n", re.M)


@cache
def _page(lang: str) -> str:
    text = resources.files(__package__).joinpath("docs", LANGS[lang]).read_text(encoding="utf-8")
    return text.split(_END, 1)[0]


def _topic(rule_id: object) -> str:
    if not isinstance(rule_id, str):
        raise ValueError(f"rule_id must be a rule id such as 'R11' (a str), got {type(rule_id).__name__}")
    key = rule_id.strip()
    if re.fullmatch(r"[Rr]?\d+", key):
        key = "R" + key.lstrip("Rr")
    for topic in TOPICS:
        if topic.lower() == key.lower():
            return topic
    shown = rule_id if len(rule_id) <= 20 else rule_id[:20] + "…"
    raise ValueError(f"unknown rule id {shown!r}: choose one of {', '.join(TOPICS)}")


def _clean(text: str) -> str:
    """The page without its anchors and generator comments (noise in a terminal)."""
    text = _COMMENT.sub("", _ANCHOR.sub("", text))
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def rules_text(rule_id: str | None = None, lang: str = "en") -> str:
    """The rules of 大怪路子 as daguai plays them, as Markdown text.

    Parameters
    ----------
    rule_id : str, optional
        One rule: ``"R1"`` … ``"R18"`` (``"r11"`` and ``"11"`` are read as ``"R11"``), or
        ``"variants"`` for the table of every rule variant. ``None`` (the default) gives every
        rule.
    lang : {"en", "zh"}
        English (docs/rules.md) or 中文 (docs/rules.zh.md).

    Returns
    -------
    str
        The text, ending with a newline.

    Raises
    ------
    ValueError
        An unknown rule id or language, or one that is not a str (the message lists the
        valid ones).
    """
    if not isinstance(lang, str):
        raise ValueError(f"lang must be one of {', '.join(LANGS)} (a str), got {type(lang).__name__}")
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang[:20]!r}: choose one of {', '.join(LANGS)}")
    page = _page(lang)
    if rule_id is None:
        return _clean(page)
    anchor = _topic(rule_id).lower()
    marks = list(_ANCHOR.finditer(page))
    for i, mark in enumerate(marks):
        if mark.group(1) == anchor:
            end = marks[i + 1].start() if i + 1 < len(marks) else len(page)
            return _clean(page[mark.end() : end])
    raise AssertionError(f"docs/{LANGS[lang]} has no section {anchor!r}")  # pragma: no cover
