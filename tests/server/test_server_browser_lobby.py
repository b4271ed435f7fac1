"""The lobby, the set-up and the hand's help in headless Chromium (as test_server_browser.py):
the set-up shows no Play / Pass / Clear / Hint and offers the 4-player table (R18), bot
speed and a time per move beside a rules summary and the open tables; the 4-seat ring puts
the partner straight across with a time bar on the seat to act; another browser finds the
table in the lobby and watches it without a hand or buttons; chat reaches the other seat
as text. The hand sorts by suit, marks the engine's combinations, selects a whole rank on
a double click, answers the keyboard, marks the cards a tribute may give (R11), and the
words count right ("1 card", "(1 tributer)", 中文 without "1张单张"); motion stops under
prefers-reduced-motion."""

from __future__ import annotations

import time
from typing import Any

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select
from server_helpers import ServerProcess
from test_server_browser import click, make_browser, shown, wait_for
from test_server_browser_ring import check_ring, open_page, shot


def visible(drv: Any, element_id: str) -> bool:
    return bool(drv.execute_script(f"return document.getElementById('{element_id}').offsetParent !== null"))


def test_lobby_four_seats_time_bar_spectator_and_chat(tmp_path):
    srv = ServerProcess(str(tmp_path / "lobby.sqlite3"))
    host, other = make_browser(), make_browser()
    try:
        open_page(host, srv.base + "/?seed=4", "en", (1280, 800))
        assert shown(host, "setup") and not visible(host, "buttons")  # no Play / Pass at the set-up
        text = wait_for(
            "the rules summary",
            lambda: host.execute_script("return document.getElementById('rulestext').textContent"),
            10,
        )
        assert "大怪路子" in text and "three decks" in text, text
        assert [o.get_attribute("value") for o in Select(host.find_element(By.ID, "speed")).options] == [
            "slow",
            "normal",
            "fast",
            "instant",
        ]
        Select(host.find_element(By.ID, "tablekind")).select_by_value("4p2d")
        assert len(host.find_elements(By.CSS_SELECTOR, "#seatplan .seatchoice")) == 4
        Select(host.find_element(By.ID, "speed")).select_by_value("fast")
        Select(host.find_element(By.ID, "timelimit")).select_by_value("90")
        Select(host.find_element(By.ID, "plan2")).select_by_value("friend")
        host.execute_script("document.querySelector('#rulesbox').open = true")
        shot(host, tmp_path, "lobby-desktop.png")
        click(host, host.find_element(By.ID, "start"))
        wait_for("the invites", lambda: shown(host, "invites"), 10)
        click(host, host.find_element(By.ID, "invites-close"))
        # the 4-seat ring: the partner (seat 2) straight across, the opponents left and right
        check_ring(host, [2])
        seats = host.execute_script("""return [...document.querySelectorAll('#seats .seat')].map(d =>
          [d.style.gridArea.split(' ')[0], (r => r.left + r.width / 2)(d.getBoundingClientRect())])""")
        assert [a for a, _ in seats] == ["p0", "p1", "p3", "p5"] and abs(seats[0][1] - seats[2][1]) < 5, seats
        # the seat to act with a time limit has a running bar (the host's own seats have 90 s)
        wait_for("the host's turn", lambda: host.execute_script("return !!state.decide"), 30)
        bar = host.execute_script("""const b = document.querySelector('#seats .seat.me .timebar');
          return {hidden: b.hidden, anim: getComputedStyle(b.firstChild).animationName}""")
        assert not bar["hidden"] and bar["anim"] == "timebar", bar
        # another browser: the lobby lists the open table; Watch shows it without a hand
        open_page(other, srv.base + "/", "zh", (390, 844))
        row = wait_for("the open table", lambda: other.find_elements(By.CSS_SELECTOR, "#tablelist li"), 10)[0]
        assert "1个空位" in row.text and "四人两副牌" in row.text, row.text
        shot(other, tmp_path, "lobby-phone.png")
        click(other, row.find_element(By.CSS_SELECTOR, "button.watch"))
        wait_for("watching", lambda: "观战" in other.find_element(By.ID, "status").text, 10)
        wait_for("the spectator's ring", lambda: other.find_elements(By.CSS_SELECTOR, "#seats .seat"), 10)
        assert (
            not visible(other, "buttons") and not visible(other, "hand") and not visible(other, "handtools")
        )
        # chat: text, never markup, on both screens
        host.find_element(By.ID, "chattext").send_keys("<b>hi</b> 你好")
        click(host, host.find_element(By.ID, "chatsend"))
        wait_for("the chat line", lambda: "<b>hi</b> 你好" in other.find_element(By.ID, "chatlog").text, 10)
        assert not other.find_elements(By.CSS_SELECTOR, "#chatlog b b")
        bubble = host.find_element(By.CSS_SELECTOR, "#seats .seat.me .bubble")  # fades in: read its text
        wait_for("the bubble", lambda: "on" in bubble.get_attribute("class"), 10)
        assert bubble.get_attribute("textContent") == "<b>hi</b> 你好"
    finally:
        host.quit()
        other.quit()
        srv.stop()


def test_hand_help_keyboard_tribute_words_and_motion(tmp_path):
    srv = ServerProcess(str(tmp_path / "hand.sqlite3"))
    drv = make_browser()
    try:
        open_page(drv, srv.base + "/?bot_delay=0.3&seed=1", "en", (1280, 800))
        click(drv, drv.find_element(By.ID, "start"))
        wait_for("the first decision", lambda: drv.execute_script("return !!state.decide"), 30)
        # hold the server's messages: the test drives the page's own state from here on
        drv.execute_script(
            "window.held = []; window.handler = state.ws.onmessage;"
            "state.ws.onmessage = (m) => window.held.push(m);"
        )
        def hand() -> list[str]:
            return [e.get_attribute("data-card") for e in drv.find_elements(By.CSS_SELECTOR, "#hand .card")]

        click(drv, drv.find_element(By.ID, "sort"))
        suits = [c[1] for c in hand() if c not in ("SJ", "BJ")]
        assert suits == sorted(suits, key="shdc".index), suits
        assert drv.find_element(By.ID, "sort").text == "Sort: by suit"
        click(drv, drv.find_element(By.ID, "sort"))
        # the engine's combinations: marked cards and a button per kind that selects one
        combos = drv.find_elements(By.CSS_SELECTOR, "#combos .combo-btn")
        assert combos and drv.find_elements(By.CSS_SELECTOR, "#hand .card.combo")
        click(drv, combos[0])
        assert drv.execute_script("return state.selected.size") == 5
        # a double click on a card selects its whole rank
        click(drv, drv.find_element(By.ID, "clear"))
        cards = hand()
        rank = next(c[0] for c in cards if c not in ("SJ", "BJ") and sum(x[0] == c[0] for x in cards) >= 2)
        el = next(
            e
            for e in drv.find_elements(By.CSS_SELECTOR, "#hand .card")
            if e.get_attribute("data-card")[0] == rank
        )
        ActionChains(drv).double_click(el).perform()
        picked = drv.execute_script("return [...state.selected].map(i => handCards()[i])")
        assert sorted(picked) == sorted(c for c in cards if c[0] == rank), (picked, rank)
        # the keyboard: c clears, arrows move, space selects, h asks for a hint
        body = drv.find_element(By.TAG_NAME, "body")
        body.send_keys("c")
        assert drv.execute_script("return state.selected.size") == 0
        drv.execute_script("state.cursor = undefined")  # the keyboard's cursor starts at the first card
        body.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.SPACE)
        assert drv.execute_script("return [...state.selected]") == [1]
        assert drv.find_elements(By.CSS_SELECTOR, "#hand .card.cursor.sel")
        sent = drv.execute_script(
            "state.sent = []; const s0 = state.ws.send.bind(state.ws);"
            "state.ws.send = (t) => { state.sent.push(t); s0(t); }; return true"
        )
        assert sent
        body.send_keys("h")
        assert any('"hint"' in t for t in drv.execute_script("return state.sent"))
        # a tribute: the cards it may give are marked, the others dimmed
        got = drv.execute_script("""
          const v = JSON.parse(JSON.stringify(state.view));
          v.phase = 'tribute'; v.current_player = state.seat;
          const card = v.hand[0];
          state.ws.send = () => {};
          onMessage({type: 'decide', decision: 10 ** 6, seat: state.seat, phase: 'tribute', time_limit: null,
                     legal: ['tribute ' + card, 'tribute ' + card], view: v});
          return {eligible: [...document.querySelectorAll('#hand .card.eligible')].map(c => c.dataset.card),
                  dim: document.querySelectorAll('#hand .card.dim').length, card};""")
        assert set(got["eligible"]) == {got["card"]} and got["dim"] > 0, got
        # words: one card, one tributer; 中文 without "1张单张"
        got = drv.execute_script("""
          const v = JSON.parse(JSON.stringify(state.view));
          v.phase = 'play'; v.current_player = state.seat;
          v.top = {seat: (state.seat + 1) % 6, cards: v.hand[0], kind: 'single', key: 3};
          v.cards_left[1] = 1;
          onMessage({type: 'decide', decision: 10 ** 6 + 1, seat: state.seat, phase: 'play', time_limit: null,
                     legal: ['pass'], view: v});
          const en = {prompt: document.getElementById('prompt').textContent,
                      seat1: document.querySelector('#seats .seat[data-seat="1"] .meta').textContent,
                      stake: T('why_stake', {w: 1, l: 1, n: 1})};
          setLang('zh'); render();
          return {en, zh: document.getElementById('prompt').textContent};""")
        assert got["en"]["prompt"] == "Your turn: beat the single with a higher single (1 card), or pass.", (
            got
        )
        assert "1 card ·" in got["en"]["seat1"] and "(1 tributer)" in got["en"]["stake"], got
        assert got["zh"] == "轮到你：出更大的单张压过，或者不要。", got
        # p passes (the decision above has only "pass")
        drv.execute_script("state.sent = []; state.ws.send = (t) => state.sent.push(t);")
        body.send_keys("p")
        assert drv.execute_script("return state.sent.map(t => JSON.parse(t))") == [
            {"type": "act", "decision": 10**6 + 1, "index": 0}
        ]
        # motion, and none under prefers-reduced-motion
        glow = "return getComputedStyle(document.querySelector('#seats .seat.turn')).animationName"
        assert drv.execute_script(glow) == "glow"
        drv.execute_cdp_cmd(
            "Emulation.setEmulatedMedia",
            {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]},
        )
        time.sleep(0.1)
        assert drv.execute_script(glow) == "none"
        # the mute button is remembered
        click(drv, drv.find_element(By.ID, "mute"))
        assert drv.execute_script("return [state.muted, localStorage.getItem('daguai-muted')]") == [True, "1"]
    finally:
        drv.quit()
        srv.stop()
