// The web table over the daguai protocol (docs/protocol.md, docs/server.md): one seat of a
// table of people and bots, or a spectator. The server decides everything; this page shows
// the seat's view, asks the server why a selection is (not) legal (`check`), for the
// engine's advice (`hint`), and explains each round's end (R9, R11, R13).
"use strict";
const $ = (id) => document.getElementById(id);
const state = {
  ws: null, table: null, token: null, seat: null, seats: [], rules: {}, view: null, decide: null,
  selected: new Set(), check: null, choice: null, hint: null, hintPending: false, matchOver: null,
  shownRound: -1, onConfirm: null, showEmpty: false, kinds: {}, log: [], ended: null, notice: "",
};

function status(text) { $("status").textContent = text; }
function seatName(s) {
  if (s === null || s === undefined) return "?";
  if (s === state.seat) return T("you");
  return displayName(state.seats[s], s);
}
// The names the set-up gives (host, bot n, friend n, remote bot n) are shown in the reader's
// language, whichever language the host used; a name someone typed is shown as typed.
const DEFAULT_NAMES = [["human", "name_host"], ["human", "name_friend"], ["bot", "name_bot"], ["remote", "name_remote"]];
function displayName(info, s) {
  if (!info || !info.name) return T("seat", { n: s });
  for (const [kind, key] of DEFAULT_NAMES) {
    if (info.kind === kind && Object.keys(TEXT).some((lang) => TL(lang, key, { n: s }) === info.name)) return T(key, { n: s });
  }
  return info.name;
}
function pct(p) { return Math.round(100 * p) + "%"; }
function interval(ci) { return `[${Math.round(100 * ci[0])}–${Math.round(100 * ci[1])}]`; }
function inMatch() { return state.seat !== null && state.view && !state.matchOver && state.view.phase !== "match_over"; }
function seenKey() { return "daguai-seen-" + state.table; }

// ---- tables --------------------------------------------------------------------------
function showSetup() {
  $("setup").hidden = false;
  const box = $("seatplan");
  box.innerHTML = "";
  for (let s = 0; s < 6; s++) {
    const l = document.createElement("label");
    l.className = "seatchoice";
    const name = document.createElement("span");
    name.textContent = T("seat_n", { n: s }) + " ";
    l.appendChild(name);
    if (s === 0) {
      const me = document.createElement("b");
      me.textContent = T("me") + " · " + T("my_name");
      const input = document.createElement("input");
      input.id = "myname"; input.maxLength = 40; input.placeholder = T("name_host");
      input.value = localStorage.getItem("daguai-name") || "";
      l.append(me, " ", input);
    } else {
      const sel = document.createElement("select");
      sel.id = "plan" + s;
      for (const v of ["bot", "friend", "remote"]) {
        const o = document.createElement("option");
        o.value = v; o.textContent = T(v);
        sel.appendChild(o);
      }
      l.appendChild(sel);
    }
    box.appendChild(l);
  }
  status(T("start_hint"));
}

async function startTable() {
  const rules = { wild: $("wild").value };
  if ($("final").value !== "A") rules.final_level = $("final").value;
  const policy = $("policy").value;
  // the host's own name is what the friends see at this seat ("You" is only ever the reader)
  const typed = $("myname").value.trim().slice(0, 40);
  if (typed) localStorage.setItem("daguai-name", typed); else localStorage.removeItem("daguai-name");
  const seats = [{ kind: "human", name: typed || T("name_host"), bot_after: 60 }];
  for (let s = 1; s < 6; s++) {
    const choice = $("plan" + s).value;
    seats.push(choice === "friend" ? { kind: "human", name: T("name_friend", { n: s }), bot_after: 60 }
      : choice === "remote" ? { kind: "remote", name: T("name_remote", { n: s }), bot_after: 60 }
      : { kind: "bot", policy, name: T("name_bot", { n: s }) });
  }
  const req = { rules, seats };
  const query = new URLSearchParams(location.search);
  const delay = query.get("bot_delay");  // seconds per bot move
  req.bot_delay = delay !== null ? Number(delay) : 0.6;
  if (query.get("seed") !== null) req.seed = Number(query.get("seed"));  // a chosen deal (tests)
  const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" },
                                         body: JSON.stringify(req) });
  const body = await r.json();
  if (!r.ok) { status("⚠ " + body.message); return; }
  $("setup").hidden = true;
  showInvites(body.table, body.tokens, seats);
  localStorage.setItem("daguai-table", JSON.stringify({ table: body.table, token: body.tokens[0] }));
  connect(body.table, body.tokens[0]);
}

function showInvites(table, tokens, seats) {
  const list = $("invitelist");
  list.innerHTML = "";
  const add = (label, href, seat) => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = href; a.textContent = href; a.target = "_blank";
    if (seat !== null) a.dataset.seat = seat; else a.dataset.watch = "1";
    const b = document.createElement("button");
    b.className = "small-btn"; b.type = "button"; b.textContent = T("copy");
    b.onclick = () => { if (navigator.clipboard) navigator.clipboard.writeText(href).catch(() => {}); };
    li.append(label + ": ", a, " ", b);
    list.appendChild(li);
  };
  let friends = 0;
  seats.forEach((p, s) => {
    if (s > 0 && p.kind === "human") { friends++; add(T("invite_seat", { n: s }), `${location.origin}/#join=${table}.${tokens[s]}`, s); }
    if (p.kind === "remote") {  // a bot program of yours takes this seat (docs/protocol.md)
      friends++;
      const li = document.createElement("li");
      const code = document.createElement("code");
      code.dataset.remote = s;
      code.textContent = `python -m daguai.bot "${location.origin}/#join=${table}.${tokens[s]}"`;
      li.append(T("remote_seat", { n: s }) + ": ", code);
      list.appendChild(li);
    }
  });
  if (!friends) { $("invites").hidden = true; return; }
  add(T("spectators"), `${location.origin}/#watch=${table}`, null);
  $("invites").hidden = false;
}

function connect(table, token) {
  if (state.ws) { const old = state.ws; state.ws = null; old.close(); }
  Object.assign(state, { table, token, decide: null, view: null, check: null, hint: null, hintPending: false,
                         matchOver: null, selected: new Set(), kinds: {}, log: [], ended: null, notice: "" });
  state.shownRound = Number(localStorage.getItem("daguai-seen-" + table) || -1);
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  state.ws = ws;
  ws.onopen = () => {
    status(T("connecting"));
    const msg = { type: "join", table, views: true };
    if (token) msg.token = token;
    ws.send(JSON.stringify(msg));
  };
  ws.onclose = () => { if (state.ws === ws) status(T("disconnected")); };
  ws.onmessage = (m) => onMessage(JSON.parse(m.data));
}

function send(msg) { if (state.ws && state.ws.readyState === 1) state.ws.send(JSON.stringify(msg)); }

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      state.seat = msg.seat; state.seats = msg.seats; state.rules = msg.rules;
      // kept as a function: the language button redraws it in the other language
      state.statusText = () => msg.seat === null ? T("watching", { table: msg.table })
        : T("you_are", { table: msg.table, seat: msg.seat, team: teamName(msg.seat % 2) });
      status(state.statusText());
      $("leave").hidden = msg.seat === null;
      break;
    case "view": setView(msg.view); maybeRoundEnd(); render(); break;
    case "decide":
      state.decide = msg; setView(msg.view); state.selected.clear(); state.check = null;
      state.choice = null; state.hint = null; state.showEmpty = false; maybeRoundEnd();
      if (forcedTribute(msg)) break;
      render(); sendCheck(); break;
    case "ack": if (state.decide && msg.decision === state.decide.decision) { state.decide = null; state.hint = null; } render(); break;
    case "checked":
      if (msg.cards in state.kinds) for (const r of msg.readings) state.kinds[msg.cards][r.text] = r.kind;
      if (msg.cards === selectionText()) { state.check = msg; state.choice = msg.readings.length ? msg.readings[0].index : null; }
      renderDecision(); break;
    case "hint":
      state.hintPending = false;
      if (state.decide && msg.decision === state.decide.decision) { state.hint = msg; askKinds(msg); }
      renderDecision(); break;
    case "event": onEvent(msg.event); break;
    case "match_over": state.matchOver = msg; state.decide = null; showRoundEnd(msg.results[msg.results.length - 1], msg); render(); break;
    case "error":
      if (msg.code === "rate_limited" || msg.code === "unavailable") state.hintPending = false;
      $("explain").textContent = "⚠ " + prettyCards(msg.message);
      if (msg.code === "unknown_table" || msg.code === "bad_token") localStorage.removeItem("daguai-table");
      renderButtons();
      break;
  }
}

// ---- the round so far: its events, kept so the round-end screen can show how it ended -----
// The view pushed after a decision is already the next round's when that decision ended a
// round (its history is empty then), so the page keeps the round's events itself: the
// last view's history plus the events pushed after it (events come before their view).
function nCards(e) { return e.cards ? e.cards.split(" ").length : 0; }
function setView(v) {
  state.view = v;
  state.log = v.history.slice();
  // each hand's size when the round's play began: what it holds now plus what it played
  state.startLeft = v.cards_left.map((n, s) => n + v.history.filter((e) => e.event === "play" && e.seat === s)
    .reduce((k, e) => k + nCards(e), 0));
}
function onEvent(e) {
  if (e.event === "round_end" && state.view) {
    const t = lastTrick(state.log, state.startLeft || state.view.cards_left);
    state.ended = { round: e.round, level: state.view.level, trick: t.trick, left: t.left };
  } else if (e.event === "deal") state.log = [];
  else state.log.push(e);
}
// R8: a trick ends when every other seat still holding cards has passed since its last
// play; the next play leads a new one. The round's last trick is the one its last play is in.
function lastTrick(events, startLeft) {
  const left = startLeft.slice();
  let trick = [], last = null, passes = 0;
  for (const e of events) {
    if (e.event === "play") {
      if (last !== null && passes >= left.filter((n, s) => n > 0 && s !== last).length) trick = [];
      trick.push(e); left[e.seat] -= nCards(e); last = e.seat; passes = 0;
    } else if (e.event === "pass") { trick.push(e); passes++; }
  }
  return { trick, left };
}
// A tribute with one legal card (R11: the only card of the highest power) is paid at once.
function forcedTribute(d) {
  if (d.phase !== "tribute" || d.legal.length !== 1) return false;
  const card = splitAction(d.legal[0]).cards.join(" ");
  act(0);
  state.notice = T("forced_tribute", { card: prettyCards(card) });
  render();
  return true;
}

// ---- the selection ---------------------------------------------------------------------
function handCards() { return state.view && state.view.hand ? sortHand(state.view.hand, state.view.level) : []; }
function selectionText() { const h = handCards(); return [...state.selected].sort((a, b) => a - b).map(i => h[i]).join(" "); }
function sendCheck() { if (state.seat !== null && state.view && state.view.hand) send({ type: "check", cards: selectionText() }); }
function selectCards(cards) {
  const hand = handCards();
  state.selected.clear();
  const used = new Set();
  for (const c of cards) {
    const i = hand.findIndex((h, k) => h === c && !used.has(k));
    if (i >= 0) { used.add(i); state.selected.add(i); }
  }
  state.check = null; state.choice = null;
  render(); sendCheck();
}
function act(index) {
  if (!state.decide) return;
  send({ type: "act", decision: state.decide.decision, index });
  state.selected.clear(); state.check = null; state.showEmpty = false; state.notice = "";
}

// ---- drawing ---------------------------------------------------------------------------
function renderSeats(v) {
  const box = $("seats");
  box.innerHTML = "";
  const lastPlay = {};
  for (const e of v.history) if (e.event === "play" || e.event === "pass") lastPlay[e.seat] = e;
  for (let s = 0; s < 6; s++) {
    const d = document.createElement("div");
    d.className = "seat" + (s === v.current_player ? " turn" : "") + (s === state.seat ? " me" : "");
    const info = state.seats[s] || {};
    const pos = v.finish_order.indexOf(s);
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = seatName(s) + " ";
    const tag = (text, cls) => { const t = document.createElement("span"); t.className = "tag " + (cls || ""); t.textContent = text; name.appendChild(t); };
    tag(teamName(s % 2), "team" + (s % 2));
    if (s === v.dealer) tag(T("dealer"));
    if (pos >= 0) tag(T("out", { n: pos + 1 }));
    if (info.bot_playing) tag(T("bot_playing"), "away");
    const meta = document.createElement("div");
    meta.className = "meta";
    meta.textContent = `${T("seat", { n: s })} · ${T("cards_left", { n: v.cards_left[s] })} · ${T("score", { n: v.scores[s] })}`;
    const last = document.createElement("div");
    const e = lastPlay[s];
    const current = v.top !== null && (s === v.top.seat || v.passed.includes(s));
    last.className = "last" + (current ? (s === v.top.seat ? " top" : "") : " old");
    if (e && e.event === "play") last.appendChild(cardsRow(e.cards, v.level));
    else if (e) last.textContent = T("passes");
    d.append(name, meta, last);
    box.appendChild(d);
  }
}

function eventNode(e, level) {
  const li = document.createElement("li");
  const who = seatName(e.seat);
  if (e.event === "play") {
    li.append(who + ": ", cardsRow(e.cards, level), " " + kindName(e.kind));
    if (e.as) li.append(" · ", T("jokers_as", { as: "" }), cardsRow(e.as, level));
  } else if (e.event === "pass") li.textContent = `${who}: ${T("passes")}`;
  else if (e.event === "tribute") { li.append(`${who} → ${seatName(e.to)} ${kindName("tribute")}: `, cardsRow(e.card, level)); }
  else if (e.event === "return") { li.append(`${who} → ${seatName(e.to)} ${kindName("return")}`); if (e.cards || e.card) li.append(": ", cardsRow(e.cards || e.card, level)); }
  else if (e.event === "anti_tribute") { li.append(`${who}: ${T("anti")} `, cardsRow(e.jokers, level)); }
  else if (e.event === "offer" || e.event === "take") {
    li.append(`${who} → ${seatName(e.to)} ${kindName(e.event)}`);
    if (e.cards || e.card) li.append(": ", cardsRow(e.cards || e.card, level));
  } else li.textContent = `${who}: ${kindName(e.event)}`;
  return li;
}

function render() {
  const v = state.view;
  if (!v) return;
  $("info").textContent = T("info", { round: v.round + 1, level: rankName(v.level), a: rankName(v.levels[0]), b: rankName(v.levels[1]), dealer: seatName(v.dealer) });
  renderSeats(v);
  const trick = $("trick");
  trick.innerHTML = "";
  if (v.top) {
    const kind = kindName(v.top.kind);
    trick.append((v.top.seat === state.seat ? T("to_beat_you", { kind }) : T("to_beat", { who: seatName(v.top.seat), kind })) + " ",
                 cardsRow(v.top.cards, v.level));
    if (v.top.as) trick.append(" (", T("jokers_as", { as: "" }), cardsRow(v.top.as, v.level), ")");
  } else if (v.phase === "play" && v.current_player !== null) {
    trick.textContent = v.current_player === state.seat ? T("new_trick_you") : T("new_trick", { who: seatName(v.current_player) });
  }
  $("notice").textContent = state.notice;
  const hist = $("history");
  hist.innerHTML = "";
  for (const e of v.history) hist.appendChild(eventNode(e, v.level));
  hist.scrollTop = 1e9;
  const hand = handCards();
  const hb = $("hand");
  hb.innerHTML = "";
  hand.forEach((c, i) => {
    const el = cardElement(c, v.level, false);
    el.setAttribute("role", "button");
    if (state.selected.has(i)) el.classList.add("sel");
    el.onclick = () => {
      state.selected.has(i) ? state.selected.delete(i) : state.selected.add(i);
      state.check = null; state.choice = null; state.showEmpty = true; render(); sendCheck();
    };
    hb.appendChild(el);
  });
  renderDecision();
}

function reasonText(r) {
  const vars = { size: r.size, top_size: r.top_size, kind: kindName(r.kind), top_kind: kindName(r.top_kind) };
  return T("reason_" + r.code, vars);
}

function promptText(d, v) {
  if (d.phase === "play") return v.top ? T("your_turn_follow", { kind: kindName(v.top.kind), n: v.top.cards.split(" ").length }) : T("your_turn_lead");
  return T("your_" + d.phase);
}

function renderButtons() {
  const d = state.decide;
  $("pass").disabled = !d || d.legal.indexOf("pass") < 0;
  const phase = d ? d.phase : state.view && state.view.phase;
  $("pass").hidden = phase !== "play";  // tribute, return, take: passing is never a choice
  $("hint").disabled = !d || state.hintPending || d.legal.length < 2;  // a forced choice needs no hint
  const c = state.check;
  const ok = d && c && c.decision === d.decision && c.cards === selectionText() && c.readings.some(r => r.index === state.choice);
  $("submit").disabled = !ok;
}

function renderDecision() {
  const d = state.decide, v = state.view;
  const ch = $("choices"), ex = $("explain");
  ch.innerHTML = ""; ex.textContent = "";
  $("submit").textContent = d ? T(d.phase === "play" ? "play" : d.phase) : T("play");
  if (!d) {
    $("prompt").textContent = state.matchOver || (v && v.phase === "match_over") ? T("match_over")
      : v && v.current_player === state.seat ? T("waiting_you")
      : v && v.current_player !== null ? T("waiting", { who: seatName(v.current_player) }) : "";
  } else {
    $("prompt").textContent = promptText(d, v);
    const anti = d.legal.indexOf("anti_tribute");
    if (anti >= 0) { const b = document.createElement("button"); b.type = "button"; b.textContent = T("anti"); b.onclick = () => act(anti); ch.appendChild(b); }
  }
  const c = state.check;
  if (c && c.cards === selectionText()) {
    // "nothing selected" only answers the player's own clearing, not a fresh decision
    if (c.reason && (c.reason.code !== "empty" || state.showEmpty)) ex.textContent = reasonText(c.reason);
    else if (c.readings.length === 1) {
      const r = c.readings[0];
      ex.append(T("reading_one", { kind: kindName(r.kind) }));
      if (r.as) ex.append(" ", T("jokers_as", { as: "" }), cardsRow(r.as, v.level));
    } else if (c.readings.length > 1) {
      ex.textContent = T("readings");
      for (const r of c.readings) {
        const l = document.createElement("label");
        l.className = "reading";
        const radio = document.createElement("input");
        radio.type = "radio"; radio.name = "reading"; radio.value = r.index; radio.checked = state.choice === r.index;
        radio.onchange = () => { state.choice = r.index; renderButtons(); };
        l.append(radio, " " + kindName(r.kind) + " · ", T("jokers_as", { as: "" }), cardsRow(r.as || "", v.level));
        ch.appendChild(l);
      }
    }
  }
  renderHint();
  renderButtons();
  $("submit").onclick = () => { if (state.choice !== null) act(state.choice); };
}

// The hint: one row per group of equivalent plays (the server's `group`, best first), with
// that group's own number of deals: the race stops groups that fall behind early, so the
// counts differ (docs/protocol.md); the race's best highlighted.
function hintGroups(h) {
  const groups = [];
  for (const c of h.candidates) {
    const g = groups[c.group] || (groups[c.group] = { rows: [], best: c.best, first: c });
    g.rows.push(c);
  }
  return groups.filter(Boolean);
}

function choiceNode(text, level) {
  const a = splitAction(text);
  const span = document.createElement("span");
  span.className = "choice";
  if (a.verb === "pass") span.append(T("hint_pass"));
  else if (a.verb === "anti_tribute") span.append(T("anti"));
  else {
    span.append(cardsRow(a.cards.join(" "), level));
    if (a.as) span.append(" ", T("jokers_as", { as: "" }), cardsRow(a.as, level));
  }
  return { node: span, cards: a.verb === "pass" || a.verb === "anti_tribute" ? null : a.cards };
}

// The rows' combinations (R5) as the server names them: a `check` of each row's cards
// answers its readings with their kinds (the page does not classify cards itself).
function askKinds(h) {
  state.kinds = {};
  for (const g of hintGroups(h).slice(0, HINT_ROWS)) {
    const a = splitAction(g.first.text);
    if (a.verb !== "play") continue;
    const cards = a.cards.join(" ");
    if (!(cards in state.kinds)) { state.kinds[cards] = {}; send({ type: "check", cards }); }
  }
}
function rowKind(text) {
  const a = splitAction(text);
  const known = a.verb === "play" ? state.kinds[a.cards.join(" ")] : null;
  if (!known) return null;
  const kinds = Object.values(known);
  return known[text] || (kinds.length && kinds.every((k) => k === kinds[0]) ? kinds[0] : null);
}
const HINT_ROWS = 6;

function renderHint() {
  const box = $("hintbox");
  const h = state.hint;
  if (state.hintPending) { box.hidden = false; box.textContent = T("hint_thinking"); return; }
  if (!h || !state.decide || h.decision !== state.decide.decision) { box.hidden = true; box.innerHTML = ""; return; }
  box.hidden = false;
  box.innerHTML = "";
  const title = document.createElement("div");
  title.textContent = T("hint_title", { seconds: h.seconds });
  const legend = document.createElement("div");
  legend.className = "legend";
  legend.textContent = T("hint_legend");
  box.append(title, legend);
  const list = document.createElement("ol");
  const rows = hintGroups(h).slice(0, HINT_ROWS);
  rows.forEach((g, i) => {
    const c = g.first;
    const li = document.createElement("li");
    li.className = "cand" + (g.best ? " best" : "");
    li.dataset.index = c.index;
    li.dataset.group = c.group;
    const choice = choiceNode(c.text, state.view.level);
    li.append(choice.node);
    const kind = rowKind(c.text);
    if (kind) { const k = document.createElement("span"); k.className = "kind"; k.textContent = kindName(kind); li.append(" ", k); }
    if (g.rows.length > 1) li.append(" ", T("hint_same", { n: g.rows.length - 1 }));
    const est = c.n ? T("hint_row", { win: `${pct(c.win)} ${interval(c.win_ci)}`, draw: `${pct(c.draw)} ${interval(c.draw_ci)}`,
                                     lose: `${pct(c.lose)} ${interval(c.lose_ci)}` }) : T("hint_untried");
    li.append(" " + est + " · " + T("hint_n", { n: c.n }));
    if (g.best) { const b = document.createElement("span"); b.className = "tag"; b.textContent = T("hint_best"); li.append(" ", b); }
    // the ranking is by expected points: the best row says so when a row below it has the
    // better win chance (the legend says it for every row)
    if (g.best && c.n && rows.slice(i + 1).some((o) => o.first.n && o.first.win > c.win)) {
      const note = document.createElement("span"); note.className = "note"; note.textContent = T("hint_points_note"); li.append(" ", note);
    }
    li.onclick = () => { if (choice.cards) selectCards(choice.cards); };
    list.appendChild(li);
  });
  box.appendChild(list);
}

// ---- the end of a round (R9, R11, R13) ---------------------------------------------------
function maybeRoundEnd() {
  const r = state.view && state.view.last_result;
  if (r && r.round > state.shownRound) showRoundEnd(r, null);
}

function showRoundEnd(r, over) {
  if (!r) return;
  state.roundEnd = [r, over];  // redrawn as it is when the language changes
  const mine = state.seat === null ? null : state.seat % 2;
  const title = r.winner === null ? T("round_draw") : mine === null ? T("team_wins", { team: teamName(r.winner) })
    : r.winner === mine ? T("round_won") : T("round_lost");
  $("re-title").textContent = title;
  const body = $("re-body");
  body.innerHTML = "";
  const section = (key) => { const h = document.createElement("h3"); h.textContent = T(key); body.appendChild(h); };
  section("finishing");
  const order = document.createElement("ol");
  order.id = "re-order";
  for (const s of r.order) { const li = document.createElement("li"); li.textContent = s === null ? "?" : `${seatName(s)} (${teamName(s % 2)})`; order.appendChild(li); }
  body.appendChild(order);
  if (r.winner === null && (r.forfeit === null || r.forfeit === undefined) && r.order.length && r.order[0] !== null) {
    const f = r.order[0] % 2;  // R9: the first player's team did not get all its players out first
    const draw = document.createElement("p");
    draw.id = "re-draw";
    draw.textContent = T("why_draw", { f: teamName(f), o: teamName(1 - f) });
    body.appendChild(draw);
  }
  const end = state.ended && state.ended.round === r.round ? state.ended : null;
  if (end && end.trick.length) {
    section("last_trick");
    const trick = document.createElement("ol");
    trick.id = "re-trick";
    for (const e of end.trick) trick.appendChild(eventNode(e, end.level));
    body.appendChild(trick);
    const holding = end.left.map((n, s) => n > 0 ? `${seatName(s)} (${T("cards_left", { n })})` : null).filter(Boolean);
    if (holding.length) {
      const p = document.createElement("p");
      p.id = "re-holding";
      p.textContent = T("still_holding", { who: holding.join(", ") });
      body.appendChild(p);
    }
  }
  section("scores_title");
  const why = document.createElement("p");
  why.id = "re-why";
  why.textContent = scoreWhy(r);
  body.appendChild(why);
  const table = document.createElement("ul");
  table.id = "re-scores";
  r.scores.forEach((d, s) => { const li = document.createElement("li"); li.textContent = `${seatName(s)}: ${d > 0 ? "+" : ""}${d}`; table.appendChild(li); });
  body.appendChild(table);
  section("levels_title");
  const lv = document.createElement("p");
  lv.id = "re-levels";
  lv.textContent = `${teamName(0)} ${rankName(r.levels_before[0])} → ${rankName(r.levels_after[0])} · ${teamName(1)} ${rankName(r.levels_before[1])} → ${rankName(r.levels_after[1])} · ` +
    (r.levels_before.join() !== r.levels_after.join() ? T("level_up") : T("level_same"));
  body.appendChild(lv);
  if (!r.match_over) {
    section("tribute_next");
    const tr = document.createElement("p");
    tr.id = "re-tribute";
    const pays = (t, b) => t === state.seat ? T("you_pay", { b: seatName(b) })
      : b === state.seat ? T("pays_you", { a: seatName(t) }) : T("pays", { a: seatName(t), b: seatName(b) });
    tr.textContent = r.tributers.length ? r.tributers.map((t, i) => pays(t, r.receivers[i])).join(" · ") : T("no_tribute");
    body.appendChild(tr);
  } else {
    const m = document.createElement("p");
    m.id = "re-match";
    m.textContent = r.match_winner === null ? T("match_draw") : T("match_won", { team: teamName(r.match_winner) });
    body.appendChild(m);
    if (over) { const a = document.createElement("a"); a.href = `/replay?match=${over.match}`; a.textContent = T("replay"); body.appendChild(a); }
  }
  state.shownRound = Math.max(state.shownRound, r.round);
  $("roundend").hidden = false;
}

function scoreWhy(r) {
  const scheme = state.rules.scoring || "stake";
  if (r.forfeit !== null && r.forfeit !== undefined) return T("why_forfeit", { who: seatName(r.forfeit) });
  if (scheme === "stake") {
    if (r.winner === null) return T("why_stake_draw");
    const w = Math.max(...r.scores), l = -Math.min(...r.scores);
    return T("why_stake", { w, l, n: r.tributers.length });
  }
  if (scheme === "levels") return r.levels_before.join() !== r.levels_after.join() ? T("why_levels_up") : T("why_levels");
  return r.winner === null ? T("why_simple_draw") : T("why_simple");
}

// ---- leaving ---------------------------------------------------------------------------
function confirmThen(fn) { state.onConfirm = fn; $("confirm").hidden = false; }
function leaveTable() { send({ type: "leave" }); }

$("new").onclick = () => { if (inMatch()) confirmThen(() => { leaveTable(); showSetup(); }); else showSetup(); };
$("leave").onclick = () => { if (inMatch()) confirmThen(leaveTable); };
$("confirm-yes").onclick = () => { $("confirm").hidden = true; const f = state.onConfirm; state.onConfirm = null; if (f) f(); };
$("confirm-no").onclick = () => { $("confirm").hidden = true; state.onConfirm = null; };
$("roundend-ok").onclick = () => {
  $("roundend").hidden = true;
  if (state.table) localStorage.setItem(seenKey(), String(state.shownRound));
};
$("start").onclick = startTable;
$("invites-close").onclick = () => { $("invites").hidden = true; };
$("clear").onclick = () => { state.selected.clear(); state.check = null; state.choice = null; state.showEmpty = true; render(); sendCheck(); };
$("pass").onclick = () => { if (state.decide) act(state.decide.legal.indexOf("pass")); };
$("hint").onclick = () => {
  if (!state.decide || state.hintPending) return;
  state.hintPending = true; state.hint = null;
  send({ type: "hint", decision: state.decide.decision });
  renderDecision();
};
$("lang").onclick = () => {
  setLang(LANG === "zh" ? "en" : "zh");
  $("lang").textContent = T("lang");
  if (state.statusText && state.ws && state.ws.readyState === 1) status(state.statusText());
  render();
  if (!$("setup").hidden) showSetup();
  if (!$("roundend").hidden && state.roundEnd) showRoundEnd(...state.roundEnd);
};

// ---- start: an invite link, a spectator link, the last table, or the set-up ----------------
setLang(LANG);
$("lang").textContent = T("lang");
// An invite link (#join=TABLE.TOKEN) or a spectator link (#watch=TABLE), opened in a new tab
// or pasted into this one; the token is kept (localStorage) and taken out of the address.
function fromHash() {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("join")) {
    const [table, token] = hash.get("join").split(".");
    localStorage.setItem("daguai-table", JSON.stringify({ table, token }));
    history.replaceState(null, "", location.pathname + location.search);
    $("setup").hidden = true;
    connect(table, token);
    return true;
  }
  if (hash.get("watch")) { $("setup").hidden = true; connect(hash.get("watch"), null); return true; }
  return false;
}
window.addEventListener("hashchange", fromHash);
if (!fromHash()) {
  const saved = localStorage.getItem("daguai-table");
  if (saved) { const s = JSON.parse(saved); connect(s.table, s.token); } else showSetup();
}
