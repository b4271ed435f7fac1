// The web table: one human seat against five bots over the daguai protocol (docs/protocol.md).
"use strict";
const $ = (id) => document.getElementById(id);
const state = { ws: null, table: null, token: null, seat: null, seats: [], view: null, decide: null,
                selected: new Set(), choice: null };

function status(text) { $("status").textContent = text; }

async function newTable() {
  const rules = { wild: $("wild").value };
  if ($("final").value !== "A") rules.final_level = $("final").value;
  const req = { rules, policy: $("policy").value };
  const delay = new URLSearchParams(location.search).get("bot_delay");  // seconds per bot move
  if (delay !== null) req.bot_delay = Number(delay);
  const r = await fetch("/api/play", { method: "POST", headers: { "content-type": "application/json" },
                                       body: JSON.stringify(req) });
  const body = await r.json();
  if (!r.ok) { status("error: " + body.message); return; }
  localStorage.setItem("daguai-table", JSON.stringify({ table: body.table, token: body.tokens[0] }));
  connect(body.table, body.tokens[0]);
}

function connect(table, token) {
  if (state.ws) state.ws.close();
  Object.assign(state, { table, token, decide: null, view: null });
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  state.ws = ws;
  ws.onopen = () => { status("joining table " + table); ws.send(JSON.stringify({ type: "join", table, token, views: true })); };
  ws.onclose = () => { if (state.ws === ws) status("disconnected — reload to reconnect"); };
  ws.onmessage = (m) => onMessage(JSON.parse(m.data));
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      state.seat = msg.seat; state.seats = msg.seats;
      status(`table ${msg.table} — you are seat ${msg.seat} (team ${TEAM[msg.seat % 2]})`);
      break;
    case "view": state.view = msg.view; render(); break;
    case "decide": state.decide = msg; state.view = msg.view; state.selected.clear(); state.choice = null; render(); break;
    case "ack": if (state.decide && msg.decision === state.decide.decision) state.decide = null; render(); break;
    case "event": break;  // the views pushed after every decision carry the news
    case "match_over": $("result").style.display = "block";
      $("result").innerHTML = "<b>Match over.</b> " + msg.results.map(resultText).join("<br>") +
        ` <a href="/replay?match=${msg.match}">replay</a>`; break;
    case "error": $("prompt").textContent = "⚠ " + msg.message; if (msg.code === "unknown_table" || msg.code === "bad_token") localStorage.removeItem("daguai-table"); break;
  }
}

// The legal actions whose cards are exactly the selection (several only under wild=declare).
function matching() {
  if (!state.decide) return [];
  const hand = sortHand(state.view.hand, state.view.level);
  const sel = [...state.selected].map(i => hand[i]);
  const out = [];
  state.decide.legal.forEach((text, index) => {
    const a = splitAction(text);
    if (a.verb !== "pass" && a.verb !== "anti_tribute" && sameCards(a.cards, sel)) out.push({ index, text, ...a });
  });
  return out;
}

function act(index) {
  if (!state.decide) return;
  state.ws.send(JSON.stringify({ type: "act", decision: state.decide.decision, index }));
  state.selected.clear();
}

function renderSeats(v) {
  const box = $("seats");
  box.innerHTML = "";
  // each seat's last play or pass this round; the top play is outlined, passes since it
  // are shown, older plays are dimmed
  const lastPlay = {};
  for (const e of v.history) if (e.event === "play" || e.event === "pass") lastPlay[e.seat] = e;
  for (let s = 0; s < 6; s++) {
    const d = document.createElement("div");
    d.className = "seat" + (s === v.current_player ? " turn" : "") + (s === state.seat ? " me" : "");
    const info = state.seats[s] || { name: "seat " + s };
    const pos = v.finish_order.indexOf(s);
    d.innerHTML = `<div class="name">${s === state.seat ? "You" : info.name} <span class="tag team${s % 2}">${TEAM[s % 2]}</span>` +
      (s === v.dealer ? '<span class="tag">dealer</span>' : "") + (pos >= 0 ? `<span class="tag">out #${pos + 1}</span>` : "") + "</div>" +
      `<div class="meta">seat ${s} · ${v.cards_left[s]} cards · score ${v.scores[s]}</div>`;
    const last = document.createElement("div");
    const e = lastPlay[s];
    const current = v.top !== null && (s === v.top.seat || v.passed.includes(s));
    last.className = "last" + (current ? (s === v.top.seat ? " top" : "") : " old");
    if (e && e.event === "play") { last.appendChild(cardsRow(e.cards, v.level)); if (e.as) last.append(" as " + e.as); }
    else if (e) last.textContent = "pass";
    d.appendChild(last);
    box.appendChild(d);
  }
}

function render() {
  const v = state.view;
  if (!v) return;
  $("info").textContent = `round ${v.round} · level ${v.level} · A ${v.levels[0]} / B ${v.levels[1]} · dealer seat ${v.dealer} · phase ${v.phase}`;
  renderSeats(v);
  $("trick").textContent = v.top ? `to beat: seat ${v.top.seat}'s ${v.top.kind.replace(/_/g, " ")} ${v.top.cards}` +
    (v.top.as ? ` (jokers as ${v.top.as})` : "") : (v.phase === "play" ? "new trick" : "");
  if (v.last_result && !(state.decide === null && v.phase === "over")) {
    $("result").style.display = "block";
    $("result").textContent = "Last round: " + resultText(v.last_result);
  }
  $("history").innerHTML = "";
  for (const e of v.history) { const li = document.createElement("li"); li.textContent = describeEvent(e); $("history").appendChild(li); }
  $("history").scrollTop = 1e9;
  // the hand, sorted by power, with the selection
  const hand = sortHand(v.hand, v.level);
  const hb = $("hand");
  hb.innerHTML = "";
  hand.forEach((c, i) => {
    const el = cardElement(c, v.level, false);
    if (state.selected.has(i)) el.classList.add("sel");
    el.onclick = () => { state.selected.has(i) ? state.selected.delete(i) : state.selected.add(i); state.choice = null; render(); };
    hb.appendChild(el);
  });
  renderDecision();
}

function renderDecision() {
  const d = state.decide;
  const ch = $("choices");
  ch.innerHTML = "";
  $("pass").disabled = true;
  $("submit").disabled = true;
  if (!d) { $("prompt").textContent = state.view.phase === "over" ? "The match is over." : "Waiting for the others…"; return; }
  const verbs = { play: "Your turn: select cards to play", tribute: "Pay tribute: select your highest card",
                  return: "Return a card to the player who paid you", offer: "Offer cards for the joker tribute",
                  take: "Take one of the offered cards" };
  $("prompt").textContent = verbs[d.phase] || "Your decision";
  $("submit").textContent = d.phase === "play" ? "Play" : d.phase[0].toUpperCase() + d.phase.slice(1);
  const passIndex = d.legal.indexOf("pass");
  if (passIndex >= 0) { $("pass").disabled = false; $("pass").onclick = () => act(passIndex); }
  const anti = d.legal.indexOf("anti_tribute");
  if (anti >= 0) { const b = document.createElement("button"); b.textContent = "Refuse tribute (show jokers)"; b.onclick = () => act(anti); ch.appendChild(b); }
  const m = matching();
  if (m.length === 0) { if (state.selected.size) ch.append("not a legal play"); return; }
  if (m.length === 1) {
    state.choice = m[0].index;
    if (m[0].as) ch.append("jokers will be read as " + m[0].as);
  } else {
    ch.append("Jokers stand for: ");
    for (const a of m) {
      const l = document.createElement("label");
      const r = document.createElement("input");
      r.type = "radio"; r.name = "reading"; r.checked = state.choice === a.index;
      r.onchange = () => { state.choice = a.index; renderDecision(); };
      l.append(r, " " + a.as);
      ch.appendChild(l);
    }
  }
  $("submit").disabled = state.choice === null || !m.some(a => a.index === state.choice);
  $("submit").onclick = () => act(state.choice);
}

$("new").onclick = newTable;
$("clear").onclick = () => { state.selected.clear(); state.choice = null; render(); };
const saved = localStorage.getItem("daguai-table");
if (saved) { const s = JSON.parse(saved); connect(s.table, s.token); } else status("start a new table");
