"""R15: title tables (seeds 000/002 and 003) and Game.titles."""

import daguai
import pytest
from daguai import TITLES, title

# seed 000's table: title n needs 50·(2^n − 1): 0, 50, 150, 350, ..., 26214350
R15_000 = [
    (-10, "科员"), (0, "科员"), (49, "科员"), (50, "助科"), (149, "助科"), (150, "副科"),
    (350, "科长"), (750, "助处"), (25549, "副局"), (25550, "局长"),
    (26214349, "省长"), (26214350, "皇帝"), (10**12, "皇帝"),
]
# seed 003's table: 山路 < 0 <= 小路 < 120 <= 大路 < 520 <= 村路 ..., last figure 3 x 92116440
R15_003 = [
    (-1, "山路"), (0, "小路"), (119, "小路"), (120, "大路"), (519, "大路"), (520, "村路"),
    (1560, "乡路"), (4680, "街道"), (14040, "人行道"), (42120, "城市道路"),
    (126360, "县道"), (379080, "省道"), (1137240, "国道"), (3411720, "高速公路"),
    (10235160, "铁路"), (30705480, "磁悬浮"), (92116440, "航空线路"),
    (276349319, "航空线路"), (276349320, "航天轨道"),
]


@pytest.mark.parametrize("score, name", R15_000)
def test_r15_table_000(score, name):
    assert title(score) == title(score, "000") == name


@pytest.mark.parametrize("score, name", R15_003)
def test_r15_table_003(score, name):
    assert title(score, "003") == name


def test_r15_table_000_formula():
    # title n needs 50 * (2^n - 1): 20 titles, 科员 ... 皇帝
    rows = TITLES["000"]
    assert len(rows) == 20 and rows[0][1] == "科员" and rows[-1][1] == "皇帝"
    assert [m for m, _ in rows] == [50 * (2 ** n - 1) for n in range(20)]
    assert rows[9] == (25550, "局长")   # the seed's table: 局长 at 25550


def test_r15_bad_input():
    with pytest.raises(ValueError, match="table"):
        title(0, "999")
    with pytest.raises(ValueError, match="score"):
        title("lots")


def test_r15_game_titles():
    g = daguai.Game(seed=1, rules=daguai.Rules(max_rounds=1))
    while not g.match_over:
        g.step(g.legal_actions()[0])
    assert g.titles() == [title(s) for s in g.scores]
    assert g.titles("003") == [title(s, "003") for s in g.scores]
