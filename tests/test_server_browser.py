"""The web table in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``, driven by Selenium) plays a whole round through the page against five
bots, by clicking cards and buttons only, and takes screenshots: into the test's temporary
folder, or into docs/ (the README's pictures) with ``DAGUAI_SCREENSHOTS=docs pytest
tests/test_server_browser.py``, so a plain test run leaves the checkout as it was."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import ROOT, ServerProcess

CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser", shutil.which("chromium") or "")
                 if p and Path(p).exists()), None)
DRIVER = next((p for p in ("/usr/bin/chromedriver", shutil.which("chromedriver") or "")
               if p and Path(p).exists()), None)

if CHROMIUM is None or DRIVER is None:
    pytest.skip("no Chromium found (install Debian's chromium and chromium-driver: "
                "apt-get install chromium chromium-driver); the browser test is skipped",
                allow_module_level=True)
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
from selenium.webdriver.common.by import By  # noqa: E402

DEADLINE = 240.0


def save_shot(drv: Any, tmp_path: Path, name: str) -> None:
    """Save a screenshot and check it is a PNG image."""
    folder = ROOT / "docs" if os.environ.get("DAGUAI_SCREENSHOTS") == "docs" else tmp_path
    path = folder / name
    drv.save_screenshot(str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name


@pytest.fixture
def browser():
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
              "--window-size=1100,1000", "--lang=en"):
        opts.add_argument(a)
    service = webdriver.ChromeService(executable_path=DRIVER)
    drv = webdriver.Chrome(options=opts, service=service)
    drv.set_page_load_timeout(30)
    yield drv
    drv.quit()


def decide(drv: Any) -> Any:
    return drv.execute_script("return state.decide && {legal: state.decide.legal, "
                              "decision: state.decide.decision, phase: state.decide.phase}")


def click_cards(drv: Any, wanted: list[str]) -> None:
    """Select exactly ``wanted`` (a multiset) by clicking cards of the hand."""
    drv.find_element(By.ID, "clear").click()
    need = list(wanted)
    i = 0
    while need:
        cards = drv.find_elements(By.CSS_SELECTOR, "#hand .card")
        el = cards[i]
        i += 1
        if el.get_attribute("data-card") in need and "sel" not in (el.get_attribute("class") or ""):
            need.remove(el.get_attribute("data-card"))
            el.click()


def test_a_round_through_the_page(tmp_path, browser):
    srv = ServerProcess(str(tmp_path / "web.sqlite3"))
    try:
        drv = browser
        drv.get(srv.base + "/?bot_delay=0.02")
        drv.execute_script("localStorage.clear()")
        drv.find_element(By.ID, "new").click()
        end = time.monotonic() + DEADLINE
        moves, shot, seen_phases = 0, False, set()
        while time.monotonic() < end:
            view = drv.execute_script("return state.view && {results: state.view.last_result, "
                                      "round: state.view.round, phase: state.view.phase}")
            d = decide(drv)
            if view and view["results"] is not None and d:
                break  # the first round is over and the page asks for the next decision
            if not d:
                time.sleep(0.05)
                continue
            seen_phases.add(d["phase"])
            legal = d["legal"]
            if "pass" in legal and moves % 3 != 0:
                drv.find_element(By.ID, "pass").click()
            else:
                # the play with the most cards (the round ends sooner; the screenshot shows more)
                text = max((t for t in legal if t != "pass"), key=lambda t: len(t.split(" as ")[0]))
                words = text.split()
                if words[0] in ("tribute", "return", "offer", "take"):
                    words = words[1:]
                if "as" in words:
                    words = words[:words.index("as")]
                click_cards(drv, words)
                submit = drv.find_element(By.ID, "submit")
                assert submit.is_enabled(), (text, drv.find_element(By.ID, "choices").text)
                if not shot and moves >= 3 and d["phase"] == "play":
                    save_shot(drv, tmp_path, "web-table-play.png")  # cards selected
                    shot = True
                submit.click()
            moves += 1
            # wait for the server's acknowledgement (the decision closes)
            t0 = time.monotonic()
            while time.monotonic() - t0 < 10:
                now = decide(drv)
                if not now or now["decision"] != d["decision"]:
                    break
                time.sleep(0.02)
            else:
                raise AssertionError(f"decision {d['decision']} was not accepted: "
                                     f"{drv.find_element(By.ID, 'prompt').text}")
        else:
            raise AssertionError(f"no round result within {DEADLINE} s after {moves} moves")
        assert moves > 0 and "play" in seen_phases
        result = drv.find_element(By.ID, "result").text
        assert "round 0" in result and ("wins" in result or "draw" in result)
        assert len(drv.find_elements(By.CSS_SELECTOR, "#seats .seat")) == 6
        save_shot(drv, tmp_path, "web-table.png")
        drv.set_window_size(390, 844)  # a phone
        time.sleep(0.3)
        save_shot(drv, tmp_path, "web-table-phone.png")
        assert drv.execute_script("return document.documentElement.scrollWidth") <= 400
    finally:
        srv.stop()


def test_the_replay_viewer_steps_through_a_stored_match(tmp_path, browser):
    import httpx

    srv = ServerProcess(str(tmp_path / "replay.sqlite3"))
    try:
        r = httpx.post(srv.base + "/api/tables", json={
            "rules": {"max_rounds": 1}, "seed": 3, "seats": [{"kind": "bot", "policy": "greedy"}] * 6})
        assert r.status_code == 201
        end = time.monotonic() + 60
        while not httpx.get(srv.base + "/api/matches").json():
            assert time.monotonic() < end, "the bot table did not finish"
            time.sleep(0.1)
        drv = browser
        drv.set_window_size(1100, 1000)
        drv.get(srv.base + "/replay")
        link = drv.find_element(By.CSS_SELECTOR, "#list a")
        link.click()
        drv.find_element(By.ID, "next").click()
        assert "dealt" in drv.find_element(By.ID, "event").text
        counts = [e.text for e in drv.find_elements(By.CSS_SELECTOR, "#seats .meta")]
        assert counts == ["27 cards"] * 6
        for _ in range(20):
            drv.find_element(By.ID, "next").click()
        assert (
            "plays" in drv.find_element(By.ID, "event").text
            or "passes" in drv.find_element(By.ID, "event").text
        )
        save_shot(drv, tmp_path, "replay-viewer.png")
        drv.find_element(By.ID, "last").click()
        assert "round 0" in drv.find_element(By.ID, "event").text  # the round's result
    finally:
        srv.stop()
