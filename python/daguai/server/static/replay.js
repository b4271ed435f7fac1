// Replay viewer: steps through a stored JSON Lines record (docs/records.md).
"use strict";
const $ = (id) => document.getElementById(id);
let entries = [], pos = 0;

async function showList() {
  const r = await fetch("/api/matches");
  const matches = await r.json();
  const box = $("list");
  box.innerHTML = matches.length ? "<h3>Finished matches</h3>" : "<p>No finished match yet.</p>";
  for (const m of matches.slice().reverse()) {
    const a = document.createElement("a");
    a.href = "/replay?match=" + m.match;
    a.textContent = `match ${m.match} (table ${m.table}): ${m.rounds} rounds, levels A ${rankName(m.levels[0])} / B ${rankName(m.levels[1])}`;
    a.style.color = "#ffd75e"; a.style.display = "block";
    box.appendChild(a);
  }
}

// The table after entries[1..upto]: hands, last action per seat, level, dealer, order.
function stateAt(upto) {
  const s = { hands: [[], [], [], [], [], []], last: {}, level: "2", levels: ["2", "2"], dealer: 0, order: [], round: 0, result: null };
  const take = (seat, card) => { const h = s.hands[seat]; const i = h.indexOf(card); if (i >= 0) h.splice(i, 1); };
  for (let i = 1; i <= upto; i++) {
    const e = entries[i];
    switch (e.event) {
      case "deal":
        s.hands = e.hands.map(h => h ? h.split(" ") : []); s.dealer = e.dealer; s.levels = e.levels;
        s.level = e.levels[e.dealer % 2]; s.order = []; s.last = {}; s.round = e.round; s.result = null; break;
      case "play":
        for (const c of e.cards.split(" ")) take(e.seat, c);
        s.last[e.seat] = e;
        if (s.hands[e.seat].length === 0) s.order.push(e.seat);
        break;
      case "pass": s.last[e.seat] = e; break;
      case "tribute": case "return": take(e.seat, e.card); s.hands[e.to].push(e.card); break;
      case "take": take(e.to, e.card); s.hands[e.seat].push(e.card); break;
      case "round_end": case "forfeit": s.result = e; break;
    }
  }
  return s;
}

function render() {
  const s = stateAt(pos);
  $("pos").textContent = `${pos} / ${entries.length - 1}`;
  const ev = $("event");
  ev.innerHTML = "";
  if (pos === 0) ev.textContent = "start"; else ev.appendChild(eventLine(entries[pos], s.level));
  $("info").textContent = `round ${s.round} · level ${rankName(s.level)} · A ${rankName(s.levels[0])} / B ${rankName(s.levels[1])} · dealer seat ${s.dealer}`;
  const box = $("seats");
  box.innerHTML = "";
  for (let seat = 0; seat < 6; seat++) {
    const d = document.createElement("div");
    const cur = entries[pos] && entries[pos].seat === seat;
    d.className = "seat" + (cur ? " turn" : "");
    const out = s.order.indexOf(seat);
    d.innerHTML = `<div class="name">seat ${seat} <span class="tag team${seat % 2}">${TEAM[seat % 2]}</span>` +
      (seat === s.dealer ? '<span class="tag">dealer</span>' : "") + (out >= 0 ? `<span class="tag">out #${out + 1}</span>` : "") +
      `</div><div class="meta">${s.hands[seat].length} cards</div>`;
    const last = document.createElement("div");
    last.className = "last";
    const e = s.last[seat];
    if (e && e.event === "play") last.appendChild(cardsRow(e.cards, s.level)); else if (e) last.textContent = "pass";
    d.appendChild(last);
    d.appendChild(cardsRow(s.hands[seat].join(" "), s.level));
    box.appendChild(d);
  }
  if (s.result) { const p = document.createElement("p"); p.textContent = resultText(s.result); box.appendChild(p); }
}

async function showMatch(id) {
  const r = await fetch(`/api/matches/${id}/record`);
  if (!r.ok) { $("list").textContent = "no such match"; return; }
  entries = (await r.text()).split("\n").filter(l => l.trim()).map(l => JSON.parse(l));
  $("viewer").style.display = "block";
  pos = 0;
  const go = (p) => { pos = Math.max(0, Math.min(entries.length - 1, p)); render(); };
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(pos - 1);
  $("next").onclick = () => go(pos + 1);
  $("last").onclick = () => go(entries.length - 1);
  document.onkeydown = (k) => { if (k.key === "ArrowRight") go(pos + 1); if (k.key === "ArrowLeft") go(pos - 1); };
  render();
}

const match = new URLSearchParams(location.search).get("match");
if (match) showMatch(match); else showList();
