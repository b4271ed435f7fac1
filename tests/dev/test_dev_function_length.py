"""No function in cpp/ is longer than 120 lines (the engine, the bindings, the tools): a long
function hides several steps that each deserve a name and a test.

The scan is a brace matcher, not a C++ parser: comments, string and character literals are
blanked; a block is a function body when the text before its ``{`` (since the previous
``;``, ``{`` or ``}``) ends like a function header - ``)`` then qualifiers, a trailing return
type or a constructor's initializer list - and does not start with a control keyword; only
blocks at namespace or class scope count (a lambda is part of the function around it).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CPP = ROOT / "cpp"
MAX_LINES = 120
# Reasoned exceptions only: (file relative to cpp/, function name) -> why.
EXCEPTIONS: dict[tuple[str, str], str] = {}

_LITERAL = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_HEADER_END = re.compile(
    r"\)\s*(?:const|noexcept|override|final|mutable|&|\s)*(?:->\s*[\w:<>,\s*&]+)?\s*$"
    r"|\)\s*:\s*[\w:]+\s*[({].*$", re.S)
_CONTROL = re.compile(r"^\s*(?:if|for|while|switch|catch|do|else|return)\b")
_NAME = re.compile(r"([~\w:]+)\s*\($")


def _blank(text: str) -> str:
    """Comments and literals replaced by spaces (newlines kept, so line numbers hold)."""
    return _LITERAL.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def function_lengths(text: str) -> list[tuple[str, int, int]]:
    """(name, first line, lines) of every function body at namespace or class scope."""
    code = _blank(text)
    out = []
    stack: list[tuple[bool, int, str]] = []  # (is a function, start offset, name)
    last = 0  # where the current header starts
    for i, c in enumerate(code):
        if c == "{":
            header = code[last:i]
            in_function = any(f for f, _, _ in stack)
            # its name: the word before the header's first "(" (the argument list)
            is_fn = (not in_function and bool(_HEADER_END.search(header))
                     and not _CONTROL.match(header) and "=" not in header.split("(")[0])
            m = _NAME.search(header[: header.find("(") + 1]) if is_fn else None
            name = m.group(1) if m else ""
            stack.append((is_fn, i, name))
            last = i + 1
        elif c == "}":
            if stack:
                is_fn, start, name = stack.pop()
                if is_fn:
                    first = code.count("\n", 0, start) + 1
                    lines = code.count("\n", start, i) + 1
                    out.append((name, first, lines))
            last = i + 1
        elif c == ";":
            last = i + 1
    return out


def long_functions(root: Path) -> list[str]:
    bad = []
    for f in sorted(root.rglob("*")):
        if f.suffix not in {".cpp", ".hpp"}:
            continue
        rel = f.relative_to(root).as_posix()
        for name, first, lines in function_lengths(f.read_text(encoding="utf-8")):
            if lines > MAX_LINES and (rel, name) not in EXCEPTIONS:
                bad.append(f"{rel}:{first}: {name} is {lines} lines")
    return bad


def test_no_function_in_cpp_is_over_120_lines():
    assert long_functions(CPP) == []


def test_the_exceptions_are_still_long():
    """An exception whose function got short is dropped from the list."""
    for (rel, name), why in EXCEPTIONS.items():
        found = [n for n, _, lines in function_lengths((CPP / rel).read_text(encoding="utf-8"))
                 if n == name and lines > MAX_LINES]
        assert found, f"{rel} {name} ({why}) is no longer over {MAX_LINES} lines: drop it"


def test_the_scan_measures_functions_and_skips_blocks_inside_them():
    text = (
        "namespace a {\n"
        "struct S {\n"
        "  int f(int x) const {\n"            # line 3: 4 lines
        "    if (x) { return 1; }\n"
        "    return [](int y) { return y; }(x);\n"
        "  }\n"
        "};\n"
        'const char* s = "{ not a block }";\n'
        "S::S(int v) : v_(v), w_(v) {\n"      # line 9: a constructor, 3 lines
        "  // } a comment\n"
        "}\n"
        "auto g() -> int { return 0; }\n"     # line 12: 1 line
        "}\n"
    )
    assert function_lengths(text) == [("f", 3, 4), ("S::S", 9, 3), ("g", 12, 1)]
