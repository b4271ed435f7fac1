"""R15: titles (游戏等级) from a cumulative score, as data.

Two tables, from the seeds:

- ``"000"`` (seeds 000/002): title n (0 科员 … 19 皇帝) needs a score of at least
  50·(2ⁿ − 1).
- ``"003"`` (seed 003): 山路 below 0, then 小路 from 0, 大路 120, 村路 520, … each threshold
  three times the previous from 520 on. The seed's last figure is cut short ("27634932");
  docs/rules.md completes it as 276349320 (= 3 × 92116440), which is used here.
"""

from __future__ import annotations

__all__ = ["TITLES", "title"]

_NAMES_000 = ("科员 助科 副科 科长 助处 副处 处长 助局 副局 局长 "
              "助县 副县 县长 助市 副市 市长 助省 副省 省长 皇帝").split()

#: table name -> [(minimum score, title)] in increasing order of the minimum
TITLES: dict[str, list[tuple[float, str]]] = {
    "000": [(50 * (2 ** n - 1), name) for n, name in enumerate(_NAMES_000)],
    "003": [
        (float("-inf"), "山路"), (0, "小路"), (120, "大路"), (520, "村路"), (1560, "乡路"),
        (4680, "街道"), (14040, "人行道"), (42120, "城市道路"), (126360, "县道"),
        (379080, "省道"), (1137240, "国道"), (3411720, "高速公路"), (10235160, "铁路"),
        (30705480, "磁悬浮"), (92116440, "航空线路"), (276349320, "航天轨道"),
    ],
}


def title(score: int, table: str = "000") -> str:
    """The title (R15) a cumulative ``score`` earns in ``table`` ("000" or "003").

    Under table "000" a negative score keeps the lowest title, 科员.
    """
    if not isinstance(table, str) or table not in TITLES:
        raise ValueError(f"unknown title table {table!r}: expected one of {', '.join(TITLES)}")
    if isinstance(score, bool) or not isinstance(score, (int, float)):
        raise ValueError(f"score must be a number, got {score!r}")
    rows = TITLES[table]
    best = rows[0][1]
    for minimum, name in rows:
        if score >= minimum:
            best = name
    return best
