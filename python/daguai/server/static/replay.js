// Replay viewer: the stored matches (date, players, winner) and any of them step by step,
// by trick or by round (docs/server.md "Replays"), in English or 中文, with the players'
// names and rounds numbered from 1; the review of a round beside the moves (review.js).
"use strict";
const $ = (id) => document.getElementById(id);
const STRINGS = {
  en: {
    title: "daguai replays", table: "table", lang: "中文", none: "No finished match yet.", matches: "Finished matches",
    date: "date", players: "players", rounds: "rounds", winner: "winner", watch: "watch", draw: "draw",
    team: "team {t}", no_match: "No such match.", start: "start of the match", round: "Round {n}",
    info: "Round {round} · level {level} · A {a} / B {b} · dealer: {dealer}", trick: "trick {n}",
    pos: "step {i} / {n}", cards: "{n} cards", dealer: "dealer", out: "out #{n}",
    first_round: "◀◀ round", prev_trick: "◀ trick", prev: "◀", next: "▶", next_trick: "trick ▶", next_round: "round ▶▶",
    plays: "{who} plays", passes: "{who}: pass", forced: "{who}: no play possible",
    tribute: "{who} pays tribute to {to}", return: "{who} returns a card to {to}", take: "{who} takes from {to}",
    offer: "{who} offers cards to {to}", anti: "{who} refuses tribute (anti-tribute)",
    dealt: "Round {n} dealt; dealer {who}", forfeit: "{who} leaves the match",
    result: "Round {n}: {who}", wins: "team {t} wins", match_over: "match over: {who}",
    review: "Review", review_seat: "Review the decisions of", review_go: "Review this round",
    review_note: "The engine replays each decision of the chosen player in this round over deals of the cards that player could not see.",
    auto: "automatic passes {on}",
  },
  zh: {
    title: "大怪路子 · 回放", table: "牌桌", lang: "English", none: "还没有打完的比赛。", matches: "已结束的比赛",
    date: "日期", players: "玩家", rounds: "局数", winner: "胜方", watch: "观看", draw: "平局",
    team: "{t}队", no_match: "没有这场比赛。", start: "比赛开始", round: "第{n}局",
    info: "第{round}局 · 打{level} · 甲 {a} / 乙 {b} · 庄家：{dealer}", trick: "第{n}轮",
    pos: "第 {i} / {n} 步", cards: "{n} 张", dealer: "庄家", out: "第{n}个出完",
    first_round: "◀◀ 上一局", prev_trick: "◀ 上一轮", prev: "◀", next: "▶", next_trick: "下一轮 ▶", next_round: "下一局 ▶▶",
    plays: "{who} 出", passes: "{who}：不要", forced: "{who}：要不起",
    tribute: "{who} 向 {to} 进贡", return: "{who} 向 {to} 还贡", take: "{who} 从 {to} 拿牌",
    offer: "{who} 给 {to} 看牌", anti: "{who} 抗贡",
    dealt: "第{n}局发牌；庄家 {who}", forfeit: "{who} 逃跑",
    result: "第{n}局：{who}", wins: "{t}队胜", match_over: "比赛结束：{who}",
    review: "复盘", review_seat: "复盘谁的出牌", review_go: "复盘这一局",
    review_note: "引擎把所选玩家这一局的每一手，在他看不到的牌的各种分布下重打一遍。",
    auto: "自动过牌 {on}",
  },
};
const TEAMS = { en: ["A", "B"], zh: ["甲", "乙"] };
let LANG = localStorage.getItem("daguai-lang") || ((navigator.language || "").startsWith("zh") ? "zh" : "en");
function T(key, vars) {
  let s = STRINGS[LANG][key] || STRINGS.en[key] || key;
  for (const [k, v] of Object.entries(vars || {})) s = s.split("{" + k + "}").join(String(v));
  return s;
}
const teamName = (t) => TEAMS[LANG][t];
let entries = [], pos = 0, names = [], marks = [], matchId = null, seats = 6;
const nameOf = (s) => names[s] || `#${s}`;

function header() {
  document.title = T("title");
  $("title").textContent = T("title");
  $("tablelink").textContent = T("table");
  $("lang").textContent = T("lang");
}

async function showList() {
  const r = await fetch("/api/matches");
  const matches = await r.json();
  const box = $("list");
  box.replaceChildren();
  if (!matches.length) { box.textContent = T("none"); return; }
  const h = document.createElement("h3"); h.textContent = T("matches"); box.appendChild(h);
  const table = document.createElement("table");
  table.id = "matches";
  const head = table.insertRow();
  for (const k of ["date", "players", "rounds", "winner", ""]) { const th = document.createElement("th"); th.textContent = k ? T(k) : ""; head.appendChild(th); }
  for (const m of matches.slice().reverse()) {
    const row = table.insertRow();
    row.dataset.match = m.match;
    row.insertCell().textContent = new Date(m.finished * 1000).toLocaleString(LANG === "zh" ? "zh-CN" : "en-GB");
    row.insertCell().textContent = m.seats.map((n, s) => `${n} (${teamName(s % 2)})`).join(", ");
    row.insertCell().textContent = m.rounds;
    const w = m.winner === null || m.winner === undefined ? T("draw")
      : `${T("team", { t: teamName(m.winner) })}: ${m.seats.filter((_, s) => s % 2 === m.winner).join(", ")}`;
    row.insertCell().textContent = w;
    const a = document.createElement("a");
    a.href = "/replay?match=" + m.match; a.textContent = T("watch");
    row.insertCell().appendChild(a);
  }
  box.appendChild(table);
}

// For every entry: its round (0-based) and whether it begins a trick (R7/R8, tricks.js's rule).
function markEntries() {
  marks = [];
  let round = 0, left = [], open = false, last = -1, passes = 0, trick = 0;
  entries.forEach((e, i) => {
    const m = { round, trickStart: false, trick };
    if (i === 0) { marks.push(m); return; }
    if (e.event === "deal") {
      round = e.round; left = e.hands.map((h) => (h ? h.split(" ").length : 0)); open = false; trick = 0;
      Object.assign(m, { round, trick });
    } else if (e.event === "play") {
      if (!open) { open = true; trick++; m.trickStart = true; }
      m.trick = trick;
      left[e.seat] -= e.cards.split(" ").length; last = e.seat; passes = 0;
    } else if (e.event === "pass" && open) {
      passes++;
      if (passes >= left.filter((n, s) => s !== last && n > 0).length) open = false;
    }
    m.trick = trick;
    marks.push(m);
  });
}

// The table after entries[1..upto]: hands, last action per seat, level, dealer, order.
function stateAt(upto) {
  const s = { hands: Array.from({ length: seats }, () => []), last: {}, level: "2", levels: ["2", "2"], dealer: 0, order: [], round: 0, result: null };
  const take = (seat, card) => { const h = s.hands[seat]; const i = h.indexOf(card); if (i >= 0) h.splice(i, 1); };
  for (let i = 1; i <= upto; i++) {
    const e = entries[i];
    switch (e.event) {
      case "deal":
        s.hands = e.hands.map(h => h ? h.split(" ") : []); s.dealer = e.dealer; s.levels = e.levels;
        s.level = e.levels[e.dealer % 2]; s.order = []; s.last = {}; s.round = e.round; s.result = null; break;
      case "play":
        if (marks[i].trickStart) s.last = {};
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

function resultLine(r) {
  const who = r.winner === null ? T("draw") : T("wins", { t: teamName(r.winner) });
  let s = T("result", { n: r.round + 1, who });
  if (r.match_over) s += " · " + T("match_over", { who: r.match_winner === null ? T("draw") : T("wins", { t: teamName(r.match_winner) }) });
  return s;
}

function eventText(e, level) {
  const span = document.createElement("span");
  const who = nameOf(e.seat);
  switch (e.event) {
    case "play": span.append(T("plays", { who }) + " ", cardsRow(e.cards, level)); if (e.as) span.append(" → ", cardsRow(e.as, level)); break;
    case "pass": span.textContent = T(e.auto ? "forced" : "passes", { who }); span.className = e.auto ? "forced" : ""; break;
    case "tribute": case "return": case "take": case "offer":
      span.append(T(e.event, { who, to: nameOf(e.to) }) + " ");
      if (e.card || e.cards) span.append(cardsRow(e.card || e.cards, level));
      break;
    case "anti_tribute": span.textContent = T("anti", { who }); break;
    case "deal": span.textContent = T("dealt", { n: e.round + 1, who: nameOf(e.dealer) }); break;
    case "round_end": span.textContent = resultLine(e); break;
    case "forfeit": span.textContent = T("forfeit", { who }) + " · " + resultLine(e); break;
    case "auto_pass": span.textContent = T("auto", { on: e.on ? "on" : "off" }); break;
    default: span.textContent = e.event;
  }
  return span;
}

function render() {
  const s = stateAt(pos);
  const m = marks[pos] || { round: 0, trick: 0 };
  $("pos").textContent = `${T("pos", { i: pos, n: entries.length - 1 })} · ${T("round", { n: m.round + 1 })}${m.trick ? " · " + T("trick", { n: m.trick }) : ""}`;
  const ev = $("event");
  ev.replaceChildren(pos === 0 ? T("start") : eventText(entries[pos], s.level));
  $("info").textContent = T("info", { round: s.round + 1, level: rankName(s.level), a: rankName(s.levels[0]), b: rankName(s.levels[1]), dealer: nameOf(s.dealer) });
  $("roundpick").value = String(m.round);
  const box = $("seats");
  box.replaceChildren();
  for (let seat = 0; seat < seats; seat++) {
    const d = document.createElement("div");
    const cur = entries[pos] && entries[pos].seat === seat;
    d.className = "seat" + (cur ? " turn" : "");
    const out = s.order.indexOf(seat);
    const name = document.createElement("div");
    name.className = "name";
    name.append(nameOf(seat) + " ");
    const tag = (text, cls) => { const t = document.createElement("span"); t.className = "tag" + (cls ? " " + cls : ""); t.textContent = text; name.appendChild(t); };
    tag(teamName(seat % 2), "team" + (seat % 2));
    if (seat === s.dealer) tag(T("dealer"));
    if (out >= 0) tag(T("out", { n: out + 1 }));
    const meta = document.createElement("div"); meta.className = "meta"; meta.textContent = T("cards", { n: s.hands[seat].length });
    const last = document.createElement("div");
    last.className = "last";
    const e = s.last[seat];
    if (e && e.event === "play") last.appendChild(cardsRow(e.cards, s.level));
    else if (e) last.textContent = T(e.auto ? "forced" : "passes", { who: "" }).replace(/^[:：]\s*/, "");
    d.append(name, meta, last, cardsRow(s.hands[seat].join(" "), s.level));
    box.appendChild(d);
  }
  if (s.result) { const p = document.createElement("p"); p.textContent = resultLine(s.result); box.appendChild(p); }
}

// Steps: one event, one trick (to the next / previous trick's first play or deal), one round.
function boundary(dir, test) {
  for (let i = pos + dir; i > 0 && i < entries.length; i += dir) if (test(i)) return i;
  return dir > 0 ? entries.length - 1 : 0;
}
const isRound = (i) => entries[i].event === "deal";
const isTrick = (i) => marks[i].trickStart || isRound(i);
function go(p) { pos = Math.max(0, Math.min(entries.length - 1, p)); render(); }

function reviewSide() {
  const side = $("reviewside");
  side.replaceChildren();
  const h = document.createElement("h3"); h.textContent = T("review");
  const note = document.createElement("p"); note.className = "meta"; note.textContent = T("review_note");
  const label = document.createElement("label"); label.textContent = T("review_seat") + " ";
  const pick = document.createElement("select"); pick.id = "reviewseat";
  for (let s = 0; s < seats; s++) { const o = document.createElement("option"); o.value = s; o.textContent = nameOf(s); pick.appendChild(o); }
  label.appendChild(pick);
  const button = document.createElement("button"); button.id = "reviewgo"; button.textContent = T("review_go");
  const out = document.createElement("div"); out.id = "reviewout";
  // a decision of the review, clicked: the table as it was when that decision was made
  const onPick = (d) => go(d.line - 2);
  button.onclick = () => window.daguaiReview.open({ match: matchId, round: (marks[pos] || { round: 0 }).round, seat: Number(pick.value), names, container: out, lang: LANG, onPick });
  side.append(h, note, label, " ", button, out);
}

async function showMatch(id) {
  const r = await fetch(`/api/matches/${id}/record`);
  if (!r.ok) { $("list").textContent = T("no_match"); return; }
  entries = (await r.text()).split("\n").filter(l => l.trim()).map(l => JSON.parse(l));
  matchId = Number(id);
  seats = (entries.find((e) => e.event === "deal") || { hands: new Array(6) }).hands.length;
  const info = (await (await fetch("/api/matches")).json()).find((m) => m.match === matchId);
  names = info ? info.seats : [];
  markEntries();
  $("viewer").style.display = "block";
  $("list").replaceChildren();
  const pick = $("roundpick");
  pick.replaceChildren();
  entries.forEach((e, i) => { if (isRound(i)) { const o = document.createElement("option"); o.value = e.round; o.textContent = T("round", { n: e.round + 1 }); pick.appendChild(o); } });
  pick.onchange = () => go(entries.findIndex((e) => e.event === "deal" && e.round === Number(pick.value)));
  const label = (id, key) => { $(id).textContent = T(key); };
  label("prevround", "first_round"); label("prevtrick", "prev_trick"); label("prev", "prev");
  label("next", "next"); label("nexttrick", "next_trick"); label("nextround", "next_round");
  $("prevround").onclick = () => go(boundary(-1, isRound));
  $("prevtrick").onclick = () => go(boundary(-1, isTrick));
  $("prev").onclick = () => go(pos - 1);
  $("next").onclick = () => go(pos + 1);
  $("nexttrick").onclick = () => go(boundary(1, isTrick));
  $("nextround").onclick = () => go(boundary(1, isRound));
  document.onkeydown = (k) => {
    if (k.key === "ArrowRight") go(k.shiftKey ? boundary(1, isTrick) : pos + 1);
    if (k.key === "ArrowLeft") go(k.shiftKey ? boundary(-1, isTrick) : pos - 1);
  };
  reviewSide();
  render();
}

function start() {
  header();
  const match = new URLSearchParams(location.search).get("match");
  if (match) showMatch(match); else showList();
}
$("lang").onclick = () => { LANG = LANG === "zh" ? "en" : "zh"; localStorage.setItem("daguai-lang", LANG); document.documentElement.lang = LANG === "zh" ? "zh-Hans" : "en"; start(); };
document.documentElement.lang = LANG === "zh" ? "zh-Hans" : "en";
start();
