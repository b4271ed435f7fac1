// The lobby and the set-up: the open tables (`GET /api/tables`) with their free seats and a
// Watch button, a new table's seats (6p3d or 4p2d, R18), bots and their speed, the time per
// move, a short rules panel (static/rules.json), and the table's chat and emotes (the
// `chat` message, docs/protocol.md: shown as text, never as HTML).
"use strict";

const SPEEDS = { slow: 1.2, normal: 0.6, fast: 0.2, instant: 0 };
function tableSize() { return $("tablekind").value === "4p2d" ? 4 : 6; }

function showSetup() {
  $("setup").hidden = false;
  $("buttons").hidden = true;
  $("chat").hidden = true;
  const box = $("seatplan");
  const before = {};
  for (const sel of box.querySelectorAll("select")) before[sel.id] = sel.value;
  box.innerHTML = "";
  for (let s = 0; s < tableSize(); s++) {
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
      if (before[sel.id]) sel.value = before[sel.id];
      l.appendChild(sel);
    }
    box.appendChild(l);
  }
  status(T("start_hint"));
  loadRules();
  refreshLobby();
}

async function startTable() {
  const rules = { wild: $("wild").value };
  if ($("final").value !== "A") rules.final_level = $("final").value;
  if ($("tablekind").value === "4p2d") rules.table = "4p2d";
  const policy = $("policy").value;
  const limit = $("timelimit").value ? Number($("timelimit").value) : null;
  const person = (name) => Object.assign({ kind: "human", name, bot_after: 60 }, limit ? { time_limit: limit } : {});
  // the host's own name is what the friends see at this seat ("You" is only ever the reader)
  const typed = $("myname").value.trim().slice(0, 40);
  if (typed) localStorage.setItem("daguai-name", typed); else localStorage.removeItem("daguai-name");
  const seats = [person(typed || T("name_host"))];
  for (let s = 1; s < tableSize(); s++) {
    const choice = $("plan" + s).value;
    seats.push(choice === "friend" ? person(T("name_friend", { n: s }))
      : choice === "remote" ? { kind: "remote", name: T("name_remote", { n: s }), bot_after: 60 }
      : { kind: "bot", policy, name: T("name_bot", { n: s }) });
  }
  const req = { rules, seats };
  const query = new URLSearchParams(location.search);
  const delay = query.get("bot_delay");  // seconds per bot move (the tests choose it)
  req.bot_delay = delay !== null ? Number(delay) : SPEEDS[$("speed").value];
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

// ---- the open tables -------------------------------------------------------------------
async function refreshLobby() {
  if ($("setup").hidden) return;
  let tables = [];
  try { tables = await (await fetch("/api/tables")).json(); } catch (err) { return; }
  const list = $("tablelist");
  list.innerHTML = "";
  const open = tables.filter((t) => t.status === "open").slice(-20).reverse();
  $("notables").hidden = open.length > 0;
  for (const t of open) {
    const li = document.createElement("li");
    li.dataset.table = t.table;
    const free = t.seats.filter((s) => s.kind !== "bot" && !s.connected).length;
    const who = t.seats.map((s) => displayName(s, s.seat)).join(", ");
    const size = t.seats.length === 4 ? T("t4") : T("t6");
    li.append(`${size} · ${T("round_n", { n: t.round + 1 })} · ${T("free_seats", { n: free })} · ${T("players", { who })} `);
    const b = document.createElement("button");
    b.type = "button"; b.className = "small-btn watch"; b.textContent = T("watch");
    b.onclick = () => { $("setup").hidden = true; connect(t.table, null); };
    li.appendChild(b);
    list.appendChild(li);
  }
}
setInterval(refreshLobby, 5000);

// ---- the rules panel: a short summary shipped with the page ----------------------------
async function loadRules() {
  if (!state.rulesText) {
    try { state.rulesText = await (await fetch("/static/rules.json")).json(); } catch (err) { return; }
  }
  const box = $("rulestext");
  box.innerHTML = "";
  for (const para of state.rulesText[LANG] || state.rulesText.en) {
    const p = document.createElement("p");
    p.textContent = para;
    box.appendChild(p);
  }
  const full = document.createElement("p");  // the complete rules ship with the package
  const code = document.createElement("code");
  code.textContent = "daguai rules";
  full.append(T("rules_full") + ": ", code, " (docs/rules.md)");
  box.appendChild(full);
}

// ---- chat and emotes ---------------------------------------------------------------------
const EMOTES = ["☺", "♥", "★", "✓", "☹", "‼"];  // symbols common fonts have (no emoji font needed)
function setupChat() {
  const others = state.seats.some((s) => s.seat !== state.seat && s.kind !== "bot");
  $("chat").hidden = !others;
  if (!others) return;
  const box = $("emotes");
  if (!box.childElementCount) {
    for (const e of EMOTES) {
      const b = document.createElement("button");
      b.type = "button"; b.className = "small-btn emote"; b.textContent = e;
      b.onclick = () => sendChat(e);
      box.appendChild(b);
    }
  }
  $("chatform").hidden = state.seat === null;  // a spectator reads
}
function sendChat(text) {
  text = String(text).trim().slice(0, 200);
  if (text) send({ type: "chat", text });
}
function onChat(msg) {
  const li = document.createElement("li");
  const who = document.createElement("b");
  who.textContent = seatName(msg.seat) + ": ";
  li.append(who, document.createTextNode(msg.text));  // text, never markup
  const log = $("chatlog");
  log.appendChild(li);
  while (log.childElementCount > 50) log.firstChild.remove();
  log.scrollTop = 1e9;
  const el = state.seatEls && state.seatEls[msg.seat];
  if (el) {
    const bubble = el.querySelector(".bubble");
    bubble.textContent = msg.text;
    bubble.classList.add("on");
    clearTimeout(bubble.timer);
    bubble.timer = setTimeout(() => bubble.classList.remove("on"), 4000);
  }
}
