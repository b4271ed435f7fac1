"""Every section a text cites exists: a citation written as ``docs/<page>.md "Section"`` in any
source or documentation file of the tree (the files test_dev_paths.py reads) names a heading of
that page, or a bold run-in label (``**Section**``) of it, so that a reader who follows it finds
the place. The quoted words may be the start or a part of the heading (``"Labels from the
search"`` for "Labels from the search, and a policy and a value head (begun)"); case, backticks
and asterisks do not count. A renamed heading leaves no stale citation behind: the failure
lists each with its file and line."""

from __future__ import annotations

import re
from pathlib import Path

from test_dev_paths import ROOT, scanned_files

#: ``docs/<page>.md "Section"`` (also with a ``#`` or a space between).
CITATION = re.compile(r'docs/([\w\-]+\.md)[\s#]*"([^"\n]+)"')


def _plain(text: str) -> str:
    return re.sub(r"[`*]", "", text).strip().lower()


def _targets(page: Path) -> tuple[list[str], str]:
    """The page's headings and its text, both plain."""
    text = page.read_text(encoding="utf-8")
    headings = [_plain(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")]
    return headings, text.lower()


def citations() -> list[tuple[str, int, str, str]]:
    """Every citation of a section in the tree: (file, line, page, quoted words)."""
    out = []
    for path in scanned_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for m in CITATION.finditer(line):
                out.append((str(path.relative_to(ROOT)), number, m.group(1), m.group(2)))
    return out


def test_the_tree_cites_sections():
    # the check below is not vacuous: the tree cites many sections of many pages
    found = citations()
    assert len(found) > 100 and len({page for _, _, page, _ in found}) > 5


def test_every_cited_section_exists():
    pages: dict[str, tuple[list[str], str]] = {}
    stale = []
    for where, line, page, words in citations():
        path = ROOT / "docs" / page
        if not path.is_file():
            stale.append(f"{where}:{line}: docs/{page} does not exist")
            continue
        if page not in pages:
            pages[page] = _targets(path)
        headings, text = pages[page]
        plain = _plain(words)
        if not any(plain in h for h in headings) and f"**{words.lower()}" not in text:
            stale.append(f'{where}:{line}: docs/{page} has no section "{words}"')
    assert not stale, "cited sections that do not exist:\n" + "\n".join(stale)


def test_a_stale_citation_is_found(tmp_path, monkeypatch):
    import test_dev_doc_sections as me

    page = tmp_path / "docs" / "page.md"
    page.parent.mkdir()
    page.write_text("# Title\n\n## The `simulate` call\n\n- **Columns**: ...\n")
    source = tmp_path / "a.py"
    cite = ("docs" + "/page.md").join  # made here, so this file itself cites no such page
    source.write_text(cite(["# ", ' "simulate", ', ' "Columns", ', ' "Gone", ', ' "simulate call"\n']))
    monkeypatch.setattr(me, "ROOT", tmp_path)
    monkeypatch.setattr(me, "scanned_files", lambda: [source])
    try:
        me.test_every_cited_section_exists()
    except AssertionError as exc:
        stale = [line.strip() for line in str(exc).splitlines()[1:] if line.startswith("  a.py")]
        assert stale == ["a.py:1: docs" + '/page.md has no section "Gone"']
    else:
        raise AssertionError("the stale citation was not found")
