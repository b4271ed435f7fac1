"""The table players come back to, in headless Chromium (as test_server_browser.py): two
people at one table, one reading English on a 1280 x 800 screen and the other 中文 on a
phone (390 x 844), each sees themself at the bottom of the ring and their partner across,
the seat to act unmistakable (the arrow, the glow; the beep, the title and the icon on
one's own turn), the hint's plain first line, the standings, and a round end after a Leave
that says who left (never "a draw" with "? ? ?"); a dismissed round end does not come back
after a rejoin, an open one comes back with its last trick. Then the lobby and set-up (the
4-player table with a time bar, bot speed, the rules panel, a spectator without buttons)
and the hand's help (sort by suit, the engine's combinations, a whole rank on a double
click, the keyboard, the marked tribute cards, words with "1 card"). The review of the round
just played, opened from the round end, shows daguai.review's costliest decision on the
stored record."""

from __future__ import annotations

import os
import re
import time
from typing import Any

import httpx
import pytest
from daguai.review import review
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from server_helpers import ROOT, ServerProcess
from test_server_browser import click, decide, make_browser, play_one, shown, wait_for

DEADLINE = 120.0
#: The review panel (static/review.js) has its answer.
REVIEW_DONE = "const p = document.getElementById('review-panel'); return p && p.dataset.state === 'done'"


def shot(drv: Any, tmp_path: Any, name: str) -> None:
    """A screenshot into the test's folder, or docs/img/ with DAGUAI_SCREENSHOTS=docs."""
    folder = ROOT / "docs" / "img" if os.environ.get("DAGUAI_SCREENSHOTS") == "docs" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    drv.save_screenshot(str(folder / name))


def open_page(drv: Any, url: str, lang: str, size: tuple[int, int]) -> None:
    drv.set_window_size(*size)
    drv.get(url.split("/#")[0].split("/?")[0] + "/replay")  # the origin's storage, then a full load
    drv.execute_script(f"localStorage.clear(); localStorage.setItem('daguai-lang', '{lang}')")
    drv.get(url)


def ring(drv: Any) -> dict[str, Any]:
    """Each seat box's grid area, centre and classes, and the reader's seat."""
    return drv.execute_script("""
      const out = {};
      for (const d of document.querySelectorAll('#seats .seat')) {
        const r = d.getBoundingClientRect();
        out[d.dataset.seat] = {area: d.style.gridArea.split(' ')[0], x: r.left + r.width / 2,
                               y: r.top + r.height / 2, cls: d.className,
                               tags: [...d.querySelectorAll('.tag')].map(t => t.textContent),
                               mark: d.querySelector('.turnmark').textContent};
      }
      return {seats: out, me: state.seat};""")


def check_ring(drv: Any, partners: list[int]) -> None:
    """The reader at the bottom (area p0, lowest box), partners marked as partners (a tag,
    not only the team letter) and above the reader (across the table)."""
    zh = drv.execute_script("return LANG") == "zh"
    got = wait_for("the ring", lambda: (lambda g: g if len(g["seats"]) in (4, 6) else None)(ring(drv)))
    seats, me = got["seats"], str(got["me"])
    assert seats[me]["area"] == "p0" and "me" in seats[me]["cls"], seats[me]
    assert seats[me]["y"] > max(s["y"] for k, s in seats.items() if k != me), seats
    for p in partners:
        s = seats[str(p)]
        assert "partner" in s["cls"] and ("队友" if zh else "partner") in s["tags"], s
        assert s["y"] < seats[me]["y"], (p, s)
    for k, s in seats.items():
        if k != me and int(k) not in partners:
            assert "partner" not in s["cls"], (k, s)


def check_turn(drv: Any, seat: int) -> None:
    """``seat`` is marked as the one to act: its box has the turn class and the arrow."""
    zh = drv.execute_script("return LANG") == "zh"
    wait_for(
        f"seat {seat} marked to act",
        lambda: (lambda s: "turn" in s["cls"] and ("出牌中" if zh else "to act") in s["mark"])(
            ring(drv)["seats"][str(seat)]
        ),
        15,
    )
    assert drv.execute_script("return document.querySelectorAll('#seats .seat.turn').length") == 1


def check_own_turn_signal(drv: Any) -> None:
    """On one's own turn: a beep (counted even when muted), the title and the icon change."""
    got = drv.execute_script(
        "return {title: document.title, beeps: state.beeps,"
        " icon: document.querySelector('link[rel=icon]').href}"
    )
    assert got["title"].startswith("●") and got["beeps"] >= 1 and got["icon"].startswith("data:image/png"), (
        got
    )


def check_hint_first_line(drv: Any, phone: bool) -> None:
    """The hint opens with one plain suggestion; its list stays the same elements (nothing is
    redrawn under the pointer) while the page goes on; on a phone its rows are one line and
    it sits above the hand."""
    zh = drv.execute_script("return LANG") == "zh"
    click(drv, drv.find_element(By.ID, "hint"))
    first = wait_for("the hint's first line", lambda: drv.find_elements(By.ID, "hint-first"), 60)[0].text
    want = (
        ("建议：", ("出牌", "不要", "进贡", "还贡"))
        if zh
        else ("Suggestion:", ("Play", "Pass", "Pay tribute", "Return"))
    )
    assert first.startswith(want[0]) and any(w in first for w in want[1]), first
    assert not re.search(r"95%|interval|区间|Engine's estimate", first), first
    drv.execute_script("window.firstRow = document.querySelector('#hintbox .cand');")
    rows = drv.execute_script(
        "return [...document.querySelectorAll('#hintbox .cand')].map(r => r.dataset.family)"
    )
    assert len(rows) == len(set(rows)), rows  # one row per family
    numbers = drv.find_elements(By.CSS_SELECTOR, "#hintbox .cand .numbers")
    assert numbers and not any(n.is_displayed() for n in numbers)  # behind "details"
    click(drv, drv.find_element(By.ID, "hint-toggle"))
    assert all(n.is_displayed() for n in numbers[:1] if not phone) or phone
    assert re.search(
        r"\d+ deals|\d+局",
        drv.find_element(By.CSS_SELECTOR, "#hintbox .cand .numbers").get_attribute("textContent"),
    )
    click(drv, drv.find_element(By.ID, "hint-toggle"))
    time.sleep(1.0)  # views, checks and bots' moves arrive meanwhile
    assert drv.execute_script("return window.firstRow.isConnected"), "the hint's rows were redrawn"
    if phone:
        m = drv.execute_script("""const r = (q) => document.querySelector(q).getBoundingClientRect();
          const rows = [...document.querySelectorAll('#hintbox .cand')];
          return {rows: rows.map(e => e.getBoundingClientRect().height),
                  hint: r('#hintbox').bottom, hand: r('#hand').top};""")
        assert max(m["rows"]) <= 48 and m["hint"] <= m["hand"], m


def check_standings(drv: Any) -> None:
    zh = drv.execute_script("return LANG") == "zh"
    text = drv.find_element(By.ID, "standings").text
    if zh:
        assert "甲队：打2" in text and "乙队：打2" in text and "要赢" in text, text
    else:
        assert "Team A: level 2" in text and "Team B: level 2" in text and "to win" in text, text


def continue_in_sight(drv: Any) -> None:
    m = drv.execute_script("""const r = document.getElementById('roundend-ok').getBoundingClientRect();
      return {top: r.top, bottom: r.bottom, inner: window.innerHeight};""")
    assert 0 <= m["top"] and m["bottom"] <= m["inner"], m


def check_leave_end(drv: Any, leaver: str) -> None:
    """After a Leave: who left, the match won by forfeit, no "draw", no "?" order."""
    zh = drv.execute_script("return LANG") == "zh"
    wait_for(
        "the round end after the Leave",
        lambda: shown(drv, "roundend") and drv.find_elements(By.ID, "re-match"),
        30,
    )
    title = drv.find_element(By.ID, "re-title").text
    body = drv.find_element(By.ID, "re-body").text
    assert title == (f"{leaver}离开了比赛。" if zh else f"{leaver} left the match."), title
    assert "?" not in body and "draw" not in (title + body).lower() and "平局" not in title, body
    match = drv.find_element(By.ID, "re-match").text
    assert ("有人逃跑" in match) if zh else ("by forfeit" in match), match
    continue_in_sight(drv)


@pytest.mark.slow  # about 30 s
def test_two_people_ring_turn_hint_standings_and_a_leave(tmp_path):
    srv = ServerProcess(str(tmp_path / "ring.sqlite3"))
    host, friend = make_browser(), make_browser()
    try:
        open_page(host, srv.base + "/?bot_delay=0.05&seed=3", "en", (1280, 800))
        Select(host.find_element(By.ID, "plan2")).select_by_value("friend")  # the host's partner
        click(host, host.find_element(By.ID, "start"))
        link = wait_for(
            "the invite link", lambda: host.find_elements(By.CSS_SELECTOR, "#invitelist a[data-seat='2']")
        )
        href = link[0].get_attribute("href")
        click(host, host.find_element(By.ID, "invites-close"))
        # the invited friend who has not joined has a badge, gone once they are here
        wait_for(
            "the invited badge", lambda: "invited · not here yet" in ring(host)["seats"]["2"]["tags"], 10
        )
        open_page(friend, href, "zh", (390, 844))
        wait_for("the friend's seat", lambda: "2号位" in friend.find_element(By.ID, "status").text)
        wait_for(
            "the badge gone", lambda: "invited · not here yet" not in ring(host)["seats"]["2"]["tags"], 10
        )
        check_ring(host, [2, 4])
        check_ring(friend, [0, 4])
        for drv in (host, friend):
            check_standings(drv)
        end = time.monotonic() + DEADLINE
        moves, log, checked = {0: 0, 2: 0}, {"declared": 0}, set()
        while checked != {0, 2}:
            assert time.monotonic() < end, f"no decision for both within {DEADLINE} s: {moves}"
            acted = False
            for seat, drv, other in ((0, host, friend), (2, friend, host)):
                d = None if shown(drv, "roundend") else decide(drv)
                if not d:
                    continue
                if seat not in checked and d["phase"] == "play" and len(d["legal"]) > 2:
                    check_turn(drv, seat)
                    check_turn(other, seat)
                    check_own_turn_signal(drv)
                    drv.execute_script("window.scrollTo(0, 0)")
                    shot(drv, tmp_path, f"ring-{'desktop' if drv is host else 'phone'}.png")
                    check_hint_first_line(drv, phone=drv is friend)
                    drv.execute_script("document.getElementById('hintbox').scrollIntoView({block: 'end'})")
                    shot(drv, tmp_path, f"hint-{'desktop' if drv is host else 'phone'}.png")
                    checked.add(seat)
                play_one(drv, d, moves[seat], log)
                moves[seat] += 1
                acted = True
            if not acted:
                time.sleep(0.05)
        wait_for(
            "a play in this round",
            lambda: host.execute_script("return state.log.some(e => e.event === 'play')"),
            15,
        )
        # motion: a play landed in its seat (the class stays after its animation)
        landed = "#seats .seat .last.landed"
        wait_for("a play landing", lambda: host.find_elements(By.CSS_SELECTOR, landed), 15)
        for drv in (host, friend):
            if shown(drv, "roundend"):
                click(drv, drv.find_element(By.ID, "roundend-ok"))
        click(host, host.find_element(By.ID, "leave"))
        click(host, host.find_element(By.ID, "confirm-yes"))
        check_leave_end(host, "You")
        check_leave_end(friend, "房主")
        shot(friend, tmp_path, "leave-phone.png")
        # the review of the round just played, in the page (review.js): its costliest decision
        # is daguai.review's on the stored record of the finished match
        assert host.find_elements(By.ID, "re-review")
        table_id = friend.execute_script("return state.table")
        click(friend, friend.find_element(By.ID, "re-review"))
        wait_for("the review", lambda: friend.execute_script(REVIEW_DONE), 180)
        items = friend.find_elements(By.CSS_SELECTOR, ".review-panel .review-item")
        got = items[0].get_attribute("data-decision") if items else ""
        mid = next(m["match"] for m in httpx.get(srv.base + "/api/matches").json() if m["table"] == table_id)
        record = httpx.get(f"{srv.base}/api/matches/{mid}/record").text
        costly = [d for d in review(record, 2, rounds=[0]).decisions if not d.agrees]
        assert got == (str(costly[0].decision) if costly else ""), (got, costly[:1])
        click(friend, friend.find_element(By.ID, "review-close"))
        # a rejoin: the dismissed screen stays away; the open one comes back with its last trick
        click(friend, friend.find_element(By.ID, "roundend-ok"))
        friend.refresh()
        wait_for("the friend back", lambda: friend.execute_script("return !!state.matchOver"), 15)
        time.sleep(0.3)
        assert not shown(friend, "roundend")
        host.refresh()
        wait_for("the host's round end again", lambda: shown(host, "roundend"), 15)
        assert host.find_elements(By.CSS_SELECTOR, "#re-trick li .card"), host.find_element(
            By.ID, "re-body"
        ).text
        check_leave_end(host, "You")
        host.execute_script("document.getElementById('lang').click()")  # the other language, the same facts
        check_leave_end(host, "你")
    finally:
        host.quit()
        friend.quit()
        srv.stop()
