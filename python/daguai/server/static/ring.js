// The table as a ring: every reader sees themself at the bottom and the others in turn order
// around it (counter-clockwise: the next seat to act is on the right), partners marked as
// partners, the seat to act glowing with an arrow and, where the seat has a time limit, a
// bar running down. Also the standings line, the turn signal (a short beep, the title and
// the favicon) and the motion when a play lands or a trick is collected. The seat boxes
// stay in seat order in the document; CSS grid areas put them around the table.
"use strict";

// Ring positions 0..5 (0: the reader, at the bottom) to grid areas; a 4-seat table (R18)
// uses the bottom, the right, the top and the left.
const RING_AREAS = { 6: ["p0", "p1", "p2", "p3", "p4", "p5"], 4: ["p0", "p1", "p3", "p5"] };
function ringPosition(s, n) { const me = state.seat === null ? 0 : state.seat; return (s - me + n) % n; }
function isPartner(s) { return state.seat !== null && s !== state.seat && s % 2 === state.seat % 2; }
function timeLimitOf(s) {
  if (s === state.seat && state.decide) return state.decide.time_limit;
  const info = state.seats[s];
  return info && info.time_limit ? info.time_limit : null;
}

// Each seat's box is built once and then updated in place, so a play landing can move.
function seatBox(s, n) {
  const box = $("seats");
  state.seatEls = state.seatEls || [];
  if (state.seatEls.length !== n || !state.seatEls[0].isConnected) {
    for (const el of box.querySelectorAll(".seat")) el.remove();
    state.seatEls = [];
    for (let k = 0; k < n; k++) {
      const d = document.createElement("div");
      d.dataset.seat = k;
      const name = document.createElement("div"), meta = document.createElement("div");
      const last = document.createElement("div"), mark = document.createElement("div");
      const bar = document.createElement("div"), bubble = document.createElement("div");
      name.className = "name"; meta.className = "meta"; mark.className = "turnmark";
      bar.className = "timebar"; bar.appendChild(document.createElement("i")); bubble.className = "bubble";
      d.append(mark, name, meta, last, bar, bubble);
      box.appendChild(d);
      state.seatEls.push(d);
    }
    state.lastKeys = [];
  }
  return state.seatEls[s];
}

function renderSeats(v) {
  const n = v.cards_left.length;
  $("seats").className = "ring ring" + n;
  const lastPlay = {};
  for (const e of v.history) if (e.event === "play" || e.event === "pass") lastPlay[e.seat] = e;
  for (let s = 0; s < n; s++) {
    const d = seatBox(s, n);
    const info = state.seats[s] || {};
    const turn = s === v.current_player;
    d.className = "seat team" + (s % 2) + (turn ? " turn" : "") + (s === state.seat ? " me" : "") + (isPartner(s) ? " partner" : "");
    d.style.gridArea = RING_AREAS[n][ringPosition(s, n)];
    const [mark, name, meta, last, bar] = d.children;
    mark.textContent = turn ? "▼ " + T("to_act") : "";
    name.textContent = seatName(s) + " ";
    const tag = (text, cls) => { const t = document.createElement("span"); t.className = "tag " + (cls || ""); t.textContent = text; name.appendChild(t); };
    tag(teamName(s % 2), "team" + (s % 2));
    if (isPartner(s)) tag(T("partner"), "partner");
    if (s === v.dealer) tag(T("dealer"));
    const pos = v.finish_order.indexOf(s);
    if (pos >= 0) tag(T("out", { n: pos + 1 }));
    if (info.bot_playing) tag(T("bot_playing"), "away");
    else if (s !== state.seat && info.kind !== "bot" && info.connected === false) tag(T("invited"), "invited");
    meta.innerHTML = "";
    const part = (cls, text) => { const x = document.createElement("span"); x.className = cls; x.textContent = text; meta.appendChild(x); };
    part("seatno", T("seat", { n: s }) + " · ");
    part("count", T("cards_left", { n: v.cards_left[s] }));
    part("points", " · " + T("score", { n: v.scores[s] }));
    const e = lastPlay[s];
    const current = v.top !== null && (s === v.top.seat || v.passed.includes(s));
    const key = e ? `${JSON.stringify(e)}|${v.round}|${v.level}|${LANG}` : "";
    // a play that arrived while the page was open lands (the class stays until the next one)
    const fresh = state.lastKeys[s] !== key;
    const landed = fresh ? state.lastKeys[s] !== undefined && e && e.event === "play" : last.classList.contains("landed");
    last.className = "last" + (current ? (s === v.top.seat ? " top" : "") : " old");
    if (fresh) {
      state.lastKeys[s] = key;
      last.innerHTML = "";
      if (e && e.event === "play") last.appendChild(cardsRow(e.cards, v.level));
      else if (e) last.textContent = T("passes");
      if (landed) void last.offsetWidth;  // restart the animation
    }
    if (landed) last.classList.add("landed"); else if (last.firstChild && last.firstChild.nodeType === 3 && e && e.event === "pass") last.textContent = T("passes");
    timeBar(bar, turn ? timeLimitOf(s) : null, s, v);
  }
  trickMotion(v);
}

// A time bar: the seat's limit, running from when the turn began (kept across redraws).
function timeBar(bar, limit, s, v) {
  bar.hidden = !limit;
  if (!limit) return;
  const turnKey = `${v.round}:${s}:${v.history.length}:${state.decide ? state.decide.decision : ""}`;
  if (state.turnKey !== turnKey) { state.turnKey = turnKey; state.turnStart = performance.now(); }
  const i = bar.firstChild;
  const elapsed = (performance.now() - state.turnStart) / 1000;
  if (i.dataset.key !== turnKey) {
    i.dataset.key = turnKey;
    i.style.animation = "none"; void i.offsetWidth;
    i.style.animation = `timebar ${limit}s linear ${-elapsed}s forwards`;
  }
}

// The trick collected: when the play to beat goes (a new trick), the centre sweeps away.
function trickMotion(v) {
  const had = state.hadTop;
  state.hadTop = v.top ? v.top.seat + ":" + v.top.cards : null;
  if (had && !v.top && $("trick").childNodes.length) {
    const ghost = $("trick").cloneNode(true);  // the collected trick sweeps away
    ghost.removeAttribute("id");
    ghost.className = "sweep";
    $("center").appendChild(ghost);
    setTimeout(() => ghost.remove(), 700);
  }
}

// Standings: each team's level and score, the final level and what each team needs.
function renderStandings(v) {
  const box = $("standings");
  box.hidden = false;
  box.innerHTML = "";
  const final = (state.rules.final_level || "A");
  const order = "23456789TJQKA";
  for (const t of [0, 1]) {
    const p = document.createElement("div");
    p.className = "team" + t + (state.seat !== null && state.seat % 2 === t ? " mine" : "");
    const score = v.scores.filter((_, s) => s % 2 === t).reduce((a, b) => a + b, 0);
    p.textContent = T("team_line", { team: teamName(t), level: rankName(v.levels[t]), score: (score > 0 ? "+" : "") + score });
    if (state.seat !== null && state.seat % 2 === t) p.textContent += " (" + T("your_team") + ")";
    p.dataset.level = v.levels[t]; p.dataset.score = score;
    const k = order.indexOf(final) - order.indexOf(v.levels[t]);
    const need = document.createElement("span");
    need.className = "need";
    need.textContent = " — " + (k > 0 ? T("needs_levels", { k, n: k, final: rankName(final) }) : T("needs_win", { final: rankName(final) }));
    p.appendChild(need);
    box.appendChild(p);
  }
  const f = document.createElement("div");
  f.className = "final" + (state.rules.max_rounds ? " limit" : "");
  f.textContent = T("final_line", { final: rankName(final) }) +
    (state.rules.max_rounds ? " " + T("max_rounds_line", { m: state.rules.max_rounds }) : "");
  box.appendChild(f);
  box.title = f.textContent;
}

// ---- the turn signal: a short beep (muted by the header's button), title and favicon ----
const TITLE = document.title;
const ICON = document.querySelector("link[rel=icon]").href;
let audio = null;
function beep() {
  state.beeps = (state.beeps || 0) + 1;
  if (state.muted) return;
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    const t = audio.currentTime, o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = 880;
    g.gain.setValueAtTime(0.0001, t);
    g.gain.exponentialRampToValueAtTime(0.15, t + 0.02);
    g.gain.exponentialRampToValueAtTime(0.0001, t + 0.25);
    o.connect(g); g.connect(audio.destination);
    o.start(t); o.stop(t + 0.3);
  } catch (err) { /* no sound on this device: the title and the icon still change */ }
}
function alertIcon() {
  const c = document.createElement("canvas");
  c.width = c.height = 32;
  const x = c.getContext("2d");
  x.fillStyle = "#ffd75e"; x.beginPath(); x.arc(16, 16, 15, 0, 7); x.fill();
  x.fillStyle = "#c00"; x.font = "bold 24px sans-serif"; x.textAlign = "center"; x.fillText("!", 16, 25);
  return c.toDataURL("image/png");
}
function turnSignal(on) {
  const icon = document.querySelector("link[rel=icon]");
  if (on) {
    document.title = "● " + T("your_turn_title") + " — " + TITLE;
    icon.href = state.alertIcon || (state.alertIcon = alertIcon());
  } else {
    document.title = TITLE;
    icon.href = ICON;
  }
  state.signalled = on;
}
function renderMute() {
  $("mute").textContent = state.muted ? "✕♪" : "♪";
  $("mute").title = T(state.muted ? "unmute" : "mute");
  $("mute").setAttribute("aria-pressed", String(!state.muted));
}
