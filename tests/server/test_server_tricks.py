"""The views the server sends carry the round's history by trick (``trick_starts``) and the
last trick that is over (``last_trick``), as daguai.tricks computes them (R7, R8)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
from daguai import tricks  # noqa: E402
from daguai.server import create_app  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from test_server import recv  # noqa: E402


def test_views_carry_tricks_and_the_last_trick():
    with TestClient(create_app(":memory:")) as c:
        r = c.post("/api/play", json={"seed": 2, "bot_delay": 0, "rules": {"final_level": "3"}})
        tid, token = r.json()["table"], r.json()["tokens"][0]
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": tid, "token": token, "views": True})
            seen_last = 0
            for _ in range(12):
                d = recv(ws, "decide")
                v = d["view"]
                assert v["trick_starts"] == tricks.trick_starts(v["history"], v["cards_left"])
                assert v["last_trick"] == tricks.last_trick(v["history"], v["cards_left"])
                seen_last += v["last_trick"] is not None
                pas = "pass" in d["legal"]
                ws.send_json({"type": "act", "decision": d["decision"],
                              "index": d["legal"].index("pass") if pas else 0})
            assert seen_last > 0
        spectator = c.get(f"/api/tables/{tid}").json()["view"]
        assert "trick_starts" in spectator and "last_trick" in spectator


def test_tricks_js_agrees_with_python():
    """static/tricks.js (run by Node.js) groups a history as daguai.tricks does."""
    import json
    import shutil
    import subprocess
    from pathlib import Path

    from daguai import _core, protocol
    from daguai.game import Game
    from daguai.rules import Rules

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    g = Game(6, Rules.from_dict({"final_level": "3"}), auto_pass=True)
    views = []
    for n in range(400):
        if g.match_over:
            break
        if g.phase == "play" and n % 7 == 0:
            v = protocol.view_to_json(g, 1)
            views.append({"history": v["history"], "cards_left": v["cards_left"]})
        g.step(_core.run.PolicyRunner("heuristic", 6, n, g.current_player).act(g))
    js = (Path(tricks.__file__).parent / "server" / "static" / "tricks.js").read_text()
    script = ("const window = {};\n" + js
              + "\nconst views = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
              "const T = window.daguaiTricks;\n"
              "console.log(JSON.stringify(views.map(v => [T.starts(v.history, v.cards_left), "
              "T.lastTrick(v), T.group(v).length])));")
    out = subprocess.run([node, "-e", script], input=json.dumps(views), capture_output=True, text=True,
                         timeout=60, check=True)
    got = json.loads(out.stdout)
    want = []
    for v in views:
        st = tricks.trick_starts(v["history"], v["cards_left"])
        want.append([st, tricks.last_trick(v["history"], v["cards_left"]), len(st)])
    assert got == want and len(views) > 20
