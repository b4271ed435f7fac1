// The web table over the daguai protocol (docs/protocol.md, docs/server.md): one seat of a
// table of people and bots, or a spectator. The server decides everything; this page shows
// the seat's view, asks the server why a selection is (not) legal (`check`), for the
// engine's advice (`hint`), and explains each round's end (R9, R11, R13).
"use strict";
const $ = (id) => document.getElementById(id);
const state = {
  ws: null, table: null, token: null, seat: null, seats: [], rules: {}, view: null, decide: null,
  selected: new Set(), check: null, choice: null, hint: null, hintPending: false, matchOver: null,
  shownRound: -1, onConfirm: null, showEmpty: false, log: [], ended: null, notice: "",
  sortBy: localStorage.getItem("daguai-sort") || "power", muted: localStorage.getItem("daguai-muted") === "1",
  beeps: 0, hintDetails: false,
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
function endedKey() { return "daguai-ended-" + state.table; }

// ---- tables: the set-up and the lobby are lobby.js ---------------------------------------
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
                         matchOver: null, selected: new Set(), log: [], ended: null, notice: "", seatEls: null,
                         combos: null, hadTop: null });
  // the last round-end screen the reader dismissed (Continue) and the last trick of the
  // round that ended last, kept across reloads and rejoins of this table
  state.shownRound = Number(localStorage.getItem("daguai-seen-" + table) || -1);
  try { state.ended = JSON.parse(localStorage.getItem("daguai-ended-" + table) || "null"); } catch (err) { state.ended = null; }
  $("roundend").hidden = true;
  $("chatlog").innerHTML = "";
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
      setupChat();
      break;
    case "view": setView(msg.view); maybeRoundEnd(); render(); break;
    case "decide": {
      const fresh = !state.decide || state.decide.decision !== msg.decision;
      state.decide = msg; setView(msg.view); state.selected.clear(); state.check = null;
      state.choice = null; state.hint = null; state.showEmpty = false; maybeRoundEnd();
      if (forcedTribute(msg)) break;
      if (fresh) beep();  // the turn signal: a beep, the title and the icon (ring.js)
      render(); sendCheck(); break;
    }
    case "ack": if (state.decide && msg.decision === state.decide.decision) { state.decide = null; state.hint = null; } render(); break;
    case "checked":
      if (msg.cards === selectionText()) { state.check = msg; state.choice = msg.readings.length ? msg.readings[0].index : null; }
      renderDecision(); break;
    case "hint":
      state.hintPending = false;
      if (state.decide && msg.decision === state.decide.decision) state.hint = msg;
      renderDecision(); break;
    case "event": onEvent(msg.event); break;
    case "chat": onChat(msg); break;
    case "match_over": {
      state.matchOver = msg; state.decide = null;
      const r = msg.results[msg.results.length - 1];
      // a screen the reader dismissed does not come back on a rejoin; an open one gains the replay link
      if (r && (r.round > state.shownRound || !$("roundend").hidden)) showRoundEnd(r, msg);
      render(); break;
    }
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
  if ((e.event === "round_end" || e.event === "forfeit") && state.view) {  // a Leave ends it too
    const t = lastTrick(state.log, state.startLeft || state.view.cards_left);
    state.ended = { round: e.round, level: state.view.level, trick: t.trick, left: t.left };
    localStorage.setItem(endedKey(), JSON.stringify(state.ended));
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
function eventNode(e, level) {
  const li = document.createElement("li");
  const who = seatName(e.seat);
  if (e.event === "play") {
    li.append(who + ": ", cardsRow(e.cards, level), " " + kindName(e.kind));
    if (e.as) li.append(" · ", T("jokers_as", { as: "" }), cardsRow(e.as, level));
  } else if (e.event === "pass") li.textContent = `${who}: ${window.daguaiTricks ? daguaiTricks.passWord(e, LANG) : T("passes")}`;
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
  renderHand(v);
  renderStandings(v);
  // spectators and the set-up have no Play / Pass / Clear / Hint
  $("buttons").hidden = state.seat === null || !$("setup").hidden || !v.hand;
  $("me").classList.toggle("watching", state.seat === null);
  const mine = !!state.decide && !state.matchOver;
  if (mine !== !!state.signalled) turnSignal(mine);
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

// The hint for a player: one plain suggestion first ("Play 8♠ 8♥"), then one row per
// family of plays (the server's `family`: plays that differ only by a kicker or a suit),
// best first, each with its win chance, "about equal" where its 95% interval overlaps the
// suggestion's, and the other numbers (draw, lose, the intervals, the deals each was tried
// in: the race gives each group its own, docs/protocol.md) behind "details". The list is
// drawn once per hint (and language): nothing under the pointer is replaced.
function hintRows(h) {
  const rows = [], at = {};
  for (const c of h.candidates) {
    const key = c.family !== undefined ? c.family : "g" + c.group;
    if (!(key in at)) { at[key] = rows.length; rows.push({ first: c, best: c.best, texts: new Set(), groups: new Set() }); }
    const r = rows[at[key]];
    r.texts.add(c.text); r.groups.add(c.group);
    if (c.best) { r.best = true; r.first = c; }
  }
  return rows;
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

// "Play 8♠ 8♥", "Pass", "Pay tribute 8♠" ... in the reader's language.
function suggestionNode(c, level) {
  const a = splitAction(c.text);
  const p = document.createElement("div");
  p.id = "hint-first";
  const lead = document.createElement("b");
  lead.textContent = T("hint_first") + " ";
  p.appendChild(lead);
  if (a.verb === "pass") p.append(T("pass"));
  else if (a.verb === "anti_tribute") p.append(T("anti"));
  else {
    p.append(T(a.verb === "play" ? "play" : a.verb) + " ", cardsRow(a.cards.join(" "), level));
    if (a.as) p.append(" ", T("jokers_as", { as: "" }), cardsRow(a.as, level));
    if (c.kind) p.append(" · " + kindName(c.kind));
  }
  return p;
}
const HINT_ROWS = 6;
function overlaps(a, b) { return a[0] <= b[1] && b[0] <= a[1]; }

function renderHint() {
  const box = $("hintbox");
  const h = state.hint;
  if (state.hintPending) {
    box.hidden = false;
    if (box.dataset.drawn !== "thinking") { box.dataset.drawn = "thinking"; box.textContent = T("hint_thinking"); state.hintDrawn = null; }
    return;
  }
  if (!h || !state.decide || h.decision !== state.decide.decision) {
    box.hidden = true; box.innerHTML = ""; box.dataset.drawn = ""; state.hintDrawn = null; return;
  }
  box.hidden = false;
  box.classList.toggle("details", state.hintDetails);
  if (state.hintDrawn && state.hintDrawn.hint === h && state.hintDrawn.lang === LANG) return;  // drawn once
  state.hintDrawn = { hint: h, lang: LANG };
  box.dataset.drawn = "hint";
  box.innerHTML = "";
  const level = state.view.level;
  const rows = hintRows(h).slice(0, HINT_ROWS);
  const top = rows.find((r) => r.best) || rows[0];
  const head = document.createElement("div");
  head.className = "hint-head";
  if (top) head.appendChild(suggestionNode(top.first, level));
  box.appendChild(head);
  const toggle = document.createElement("button");
  toggle.type = "button"; toggle.id = "hint-toggle"; toggle.className = "small-btn";
  toggle.textContent = T(state.hintDetails ? "hint_hide" : "hint_details");
  toggle.onclick = () => {
    state.hintDetails = !state.hintDetails;
    box.classList.toggle("details", state.hintDetails);
    toggle.textContent = T(state.hintDetails ? "hint_hide" : "hint_details");
  };
  const about = document.createElement("div");
  about.className = "legend numbers";
  about.textContent = T("hint_about", { seconds: h.seconds }) + " " + T("hint_legend");
  head.appendChild(toggle);
  box.appendChild(about);
  const list = document.createElement("ol");
  rows.forEach((g, i) => {
    const c = g.first;
    const li = document.createElement("li");
    li.className = "cand" + (g.best ? " best" : "");
    li.dataset.index = c.index; li.dataset.group = c.group;
    if (c.family !== undefined) li.dataset.family = c.family;
    const choice = choiceNode(c.text, level);
    li.append(choice.node);
    if (c.kind) { const k = document.createElement("span"); k.className = "kind"; k.textContent = kindName(c.kind); li.append(" ", k); }
    if (g.texts.size > 1) { const m = document.createElement("span"); m.className = "more"; m.textContent = T("hint_variants", { n: g.texts.size - 1 }); li.append(" ", m); }
    const win = document.createElement("span");
    win.className = "win";
    win.textContent = c.n ? T("hint_win", { win: pct(c.win) }) : T("hint_untried");
    li.append(" ", win);
    if (g.best) { const b = document.createElement("span"); b.className = "tag"; b.textContent = T("hint_best"); li.append(" ", b); }
    else if (top && c.n && top.first.n && overlaps(c.win_ci, top.first.win_ci)) {
      const e = document.createElement("span"); e.className = "tag equal"; e.textContent = T("hint_equal"); li.append(" ", e);
    }
    // the ranking is by expected points: the best row says so when a row below it has the
    // better win chance (the legend says it for every row)
    if (g.best && c.n && rows.slice(i + 1).some((o) => o.first.n && o.first.win > c.win)) {
      const note = document.createElement("span"); note.className = "note"; note.textContent = T("hint_points_note"); li.append(" ", note);
    }
    if (c.n) {
      const nums = document.createElement("span");
      nums.className = "numbers";
      nums.textContent = T("hint_numbers", { ci: interval(c.win_ci), draw: `${pct(c.draw)} ${interval(c.draw_ci)}`,
                                             lose: `${pct(c.lose)} ${interval(c.lose_ci)}`, n: c.n });
      li.append(" ", nums);
    }
    li.onclick = () => { if (choice.cards) selectCards(choice.cards); };
    list.appendChild(li);
  });
  box.appendChild(list);
}

// ---- the end of a round (R9, R11, R13) ---------------------------------------------------
// A round's end is shown until the reader dismisses it (Continue); a dismissed one never
// comes back, also not after a reload or a rejoin (the round is kept in localStorage).
function maybeRoundEnd() {
  const r = state.view && state.view.last_result;
  if (r && r.round > state.shownRound && (r.round !== state.openRound || $("roundend").hidden)) showRoundEnd(r, null);
}

function showRoundEnd(r, over) {
  if (!r) return;
  state.roundEnd = [r, over];  // redrawn as it is when the language changes
  const mine = state.seat === null ? null : state.seat % 2;
  const forfeit = r.forfeit !== null && r.forfeit !== undefined;
  // a Leave ends the match by forfeit (R14): say who left, not "a draw"
  const title = forfeit ? (r.forfeit === state.seat ? T("forfeit_title_you") : T("forfeit_title", { who: seatName(r.forfeit) }))
    : r.winner === null ? T("round_draw") : mine === null ? T("team_wins", { team: teamName(r.winner) })
    : r.winner === mine ? T("round_won") : T("round_lost");
  $("re-title").textContent = title;
  const body = $("re-body");
  body.innerHTML = "";
  const section = (key) => { const h = document.createElement("h3"); h.textContent = T(key); body.appendChild(h); };
  section("finishing");
  const out = r.order.filter((s) => s !== null);  // a forfeit leaves the rest of the order unknown
  if (out.length) {
    const order = document.createElement("ol");
    order.id = "re-order";
    for (const s of out) { const li = document.createElement("li"); li.textContent = `${seatName(s)} (${teamName(s % 2)})`; order.appendChild(li); }
    body.appendChild(order);
  } else {
    const p = document.createElement("p"); p.id = "re-order-none"; p.textContent = T("no_order"); body.appendChild(p);
  }
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
    m.textContent = r.match_winner === null ? T("match_draw")
      : T(forfeit ? "match_forfeit" : "match_won", { team: teamName(r.match_winner) });
    body.appendChild(m);
    if (over) { const a = document.createElement("a"); a.href = `/replay?match=${over.match}`; a.textContent = T("replay"); body.appendChild(a); }
  }
  // the review of the round (review.js, when the page has it)
  const actions = $("re-actions");
  const old = $("re-review");
  if (old) old.remove();
  if (window.daguaiReview && typeof window.daguaiReview.open === "function") {
    const b = document.createElement("button");
    b.type = "button"; b.id = "re-review"; b.textContent = T("review");
    b.onclick = () => window.daguaiReview.open({ table: state.table, round: r.round, seat: state.seat, lang: LANG });
    actions.insertBefore(b, $("roundend-ok"));
  }
  state.openRound = r.round;
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
  state.shownRound = Math.max(state.shownRound, state.openRound ?? -1);
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
$("mute").onclick = () => {
  state.muted = !state.muted;
  localStorage.setItem("daguai-muted", state.muted ? "1" : "0");
  renderMute();
};
$("sort").onclick = toggleSort;
document.addEventListener("keydown", onKey);
$("chatform").onsubmit = (ev) => { ev.preventDefault(); sendChat($("chattext").value); $("chattext").value = ""; };
$("tablekind").onchange = showSetup;
// Who is connected changes while the page is open (a friend joins, a stand-in bot plays):
// the table's summary is read every few seconds for the seats' badges.
async function refreshSeats() {
  if (!state.table || !state.view || state.matchOver || document.hidden) return;
  try {
    const r = await fetch(`/api/tables/${state.table}`);
    if (!r.ok) return;
    const t = await r.json();
    if (!t.seats || t.table !== state.table) return;
    t.seats.forEach((s, i) => { if (state.seats[i]) Object.assign(state.seats[i], { connected: s.connected, bot_playing: s.bot_playing }); });
    if (state.view) renderSeats(state.view);
  } catch (err) { /* the next try */ }
}
setInterval(refreshSeats, 3000);
function setTexts() {
  $("lang").textContent = T("lang");
  $("chattext").placeholder = T("chat_placeholder");
  renderMute();
}
$("lang").onclick = () => {
  setLang(LANG === "zh" ? "en" : "zh");
  setTexts();
  if (state.statusText && state.ws && state.ws.readyState === 1) status(state.statusText());
  render();
  if (!$("setup").hidden) showSetup();
  if (!$("roundend").hidden && state.roundEnd) showRoundEnd(...state.roundEnd);
};

// ---- start: an invite link, a spectator link, the last table, or the set-up ----------------
setLang(LANG);
setTexts();
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
