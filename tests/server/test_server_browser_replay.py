"""The replay viewer and the review in a real browser (headless Chromium, as
test_server_browser.py): the list shows date, players and winner; a match is stepped by
event, by trick and by round with the players' names and rounds from 1, in English and
中文; the review beside the moves shows the costliest decision that ``daguai.review`` finds
on the stored record; and at a live table the review of the round just played, opened as
the table page opens it (``daguaiReview.open``), equals ``daguai.review`` on the stored
record too."""

from __future__ import annotations

import time

import httpx  # noqa: E402
import pytest
from daguai.review import review  # noqa: E402
from daguai.server.reviews import record_of_checkpoint  # noqa: E402
from daguai.server.store import Store  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402
from server_helpers import ServerProcess
from test_server_browser import ENGINE_CARDS, make_browser, save_shot, wait_for  # skips without Chromium

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
DONE = "const p = document.getElementById('review-panel'); return p && p.dataset.state === 'done'"


@pytest.fixture
def browser():
    drv = make_browser()
    yield drv
    drv.quit()


def _finished_match(srv: ServerProcess) -> int:
    r = httpx.post(srv.base + "/api/tables", json={
        "rules": {"max_rounds": 2, "final_level": "3"}, "seed": 3, "bot_delay": 0,
        "seats": [{"kind": "bot", "policy": "greedy", "name": n} for n in NAMES]})
    assert r.status_code == 201
    end = time.monotonic() + 60
    while not httpx.get(srv.base + "/api/matches").json():
        assert time.monotonic() < end, "the bot table did not finish"
        time.sleep(0.1)
    return httpx.get(srv.base + "/api/matches").json()[0]["match"]


def _costliest(panel_root) -> str:
    items = panel_root.find_elements(By.CSS_SELECTOR, ".review-panel .review-item")
    return items[0].get_attribute("data-decision") if items else ""


def test_the_replay_list_steps_names_chinese_and_review(tmp_path, browser):
    srv = ServerProcess(str(tmp_path / "replay.sqlite3"))
    try:
        mid = _finished_match(srv)
        info = httpx.get(srv.base + "/api/matches").json()[0]
        drv = browser
        drv.get(srv.base + "/replay")
        drv.execute_script("localStorage.setItem('daguai-lang', 'en')")
        drv.get(srv.base + "/replay")
        row = wait_for("the match list",
                       lambda: drv.find_elements(By.CSS_SELECTOR, "#matches tr[data-match]"))[0]
        cells = [c.text for c in row.find_elements(By.TAG_NAME, "td")]
        assert "Ann" in cells[1] and "Flo" in cells[1] and cells[2] == str(info["rounds"])
        assert any(ch.isdigit() for ch in cells[0])  # a date
        winner = info["winner"]
        assert (cells[3] == "draw") if winner is None else (f"team {'AB'[winner]}" in cells[3])
        row.find_element(By.TAG_NAME, "a").click()
        wait_for("the viewer", lambda: drv.find_element(By.ID, "viewer").is_displayed())
        drv.find_element(By.ID, "next").click()
        assert "Round 1 dealt" in drv.find_element(By.ID, "event").text
        assert "Round 1" in drv.find_element(By.ID, "info").text
        names = [e.text.split(" ")[0] for e in drv.find_elements(By.CSS_SELECTOR, "#seats .name")]
        assert names == NAMES
        assert "seat " not in drv.find_element(By.ID, "seats").text
        # by trick: each step lands on a trick's first play
        drv.find_element(By.ID, "nexttrick").click()
        first = drv.execute_script("return pos")
        drv.find_element(By.ID, "nexttrick").click()
        second = drv.execute_script("return pos")
        assert second - first > 1 and drv.execute_script("return marks[pos].trickStart")
        assert "plays" in drv.find_element(By.ID, "event").text
        text = drv.find_element(By.ID, "event").text + drv.find_element(By.ID, "info").text
        assert not ENGINE_CARDS.search(text), text
        # by round
        drv.find_element(By.ID, "nextround").click()
        assert "Round 2" in drv.find_element(By.ID, "info").text
        assert drv.execute_script("return entries[pos].event") == "deal"
        # the review beside the moves: round 2 of seat 3 equals daguai.review on the record
        Select(drv.find_element(By.ID, "reviewseat")).select_by_value("3")
        drv.find_element(By.ID, "reviewgo").click()
        wait_for("the review", lambda: drv.execute_script(DONE), 120)
        record = httpx.get(f"{srv.base}/api/matches/{mid}/record").text
        want = review(record, 3, rounds=[1])
        costly = [d for d in want.decisions if not d.agrees]
        got = _costliest(drv)
        assert costly and got == str(costly[0].decision), (got, costly[:1])
        if costly:
            item = drv.find_element(By.CSS_SELECTOR, ".review-panel .review-item")
            assert item.get_attribute("data-best") == costly[0].best
            assert item.find_elements(By.CSS_SELECTOR, ".review-better .card") or costly[0].best == "pass"
        save_shot(drv, tmp_path, "replay-viewer.png")
        # a click on the decision shows the table at its moment: the seat to act holds the
        # decision's hand
        drv.find_element(By.CSS_SELECTOR, ".review-panel .review-item").click()
        assert drv.execute_script("return pos") == costly[0].line - 2
        assert drv.execute_script("return entries[pos + 1].seat") == 3
        # 中文
        drv.find_element(By.ID, "lang").click()
        wait_for("中文", lambda: "第" in drv.find_element(By.ID, "info").text)
        assert drv.find_element(By.ID, "nextround").text == "下一局 ▶▶"
        assert "复盘" in drv.find_element(By.ID, "reviewside").text
    finally:
        srv.stop()


def test_the_review_of_the_round_just_played_at_a_table(tmp_path, browser):
    """A person's seat with five instant bots: after round 1 (played by the test through the
    protocol, index 0 each time), the table page, joined with the seat's link, opens the
    review of round 1 in English and 中文; its costliest decision is daguai.review's on the
    stored record (the table's checkpoint in the server's database)."""
    import json

    from websockets.sync.client import connect

    db = str(tmp_path / "live.sqlite3")
    srv = ServerProcess(db)
    try:
        r = httpx.post(srv.base + "/api/play",
                       json={"seed": 4, "bot_delay": 0, "rules": {"final_level": "3"}})
        tid, token = r.json()["table"], r.json()["tokens"][0]
        with connect(srv.ws, max_size=4 << 20) as ws:
            ws.send(json.dumps({"type": "join", "table": tid, "token": token, "events": False}))
            while True:
                m = json.loads(ws.recv(timeout=30))
                if m["type"] == "decide":
                    if m["view"]["round"] >= 1:
                        break
                    ws.send(json.dumps({"type": "act", "decision": m["decision"], "index": 0}))
        drv = browser
        drv.get(srv.base + "/")
        for lang, word in (("en", "Review"), ("zh", "复盘")):
            # the table page itself, joined with the seat's link, opens the review as it does
            # at a round's end (review.js is loaded into it if the page does not load it yet)
            drv.execute_script(f"localStorage.setItem('daguai-lang', '{lang}')")
            drv.get(f"{srv.base}/?lang={lang}#join={tid}.{token}")  # a new page load each time
            wait_for("the seat", lambda: drv.execute_script("return state.view !== null && state.seat === 0"))
            drv.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "if (window.daguaiReview) { done(); return; }"
                "const s = document.createElement('script'); s.src = '/static/review.js';"
                "s.onload = () => done();"
                "document.head.appendChild(s);")
            drv.execute_script("document.body.appendChild(window.daguaiReview.button("
                               "{table: arguments[0], round: 0, seat: 0}))", tid)
            button = drv.find_element(By.CSS_SELECTOR, "button.review-open")
            assert button.text == word
            drv.execute_script("arguments[0].click()", button)
            wait_for("the review", lambda: drv.execute_script(DONE), 120)
            assert word in drv.find_element(By.ID, "review-panel").text
            got = _costliest(drv)
            save_shot(drv, tmp_path, f"web-table-review-{lang}.png")
            drv.find_element(By.ID, "review-close").click()
            assert not drv.find_elements(By.ID, "review-panel")
        store = Store(db)
        try:
            record = record_of_checkpoint(store.checkpoint(tid))
        finally:
            store.close()
        costly = [d for d in review(record, 0, rounds=[0]).decisions if not d.agrees]
        assert costly and got == str(costly[0].decision)
    finally:
        srv.stop()
