// Game review in the page (docs/server.md "Review"): the costliest decisions of one seat in
// one round, each on the cards of that moment beside the better play, from POST /api/review
// (daguai.review on the stored record), with a progress bar while the server computes.
//
//   daguaiReview.open({table, token, round, seat})  a round that is over at a live table
//                                                   (token: the seat's; default: the one
//                                                   this browser keeps for the table)
//   daguaiReview.open({match, round, seat})         any seat of a finished match
//     options: names (seat names), container (an element to draw in instead of a dialog),
//     lang ("en" / "zh"; default the page's), top (decisions shown, default 5),
//     onPick(decision) (a click on a decision: the replay viewer goes to its moment)
//   -> a Promise of the review document (null if refused); daguaiReview.close()
//   daguaiReview.button(opts) -> a "Review" / "复盘" button that opens it (the round-end screen)
//
// Needs cards.js (cardsRow). Rounds are numbered from 1 on screen, from 0 in the API.
"use strict";
window.daguaiReview = (function () {
  const STRINGS = {
    en: {
      title: "Review · round {round} · {name}", computing: "The engine is reviewing {name}'s decisions…",
      progress: "{done} of {total} decisions", none: "The engine agrees with every decision of this round.",
      summary: "{n} decisions reviewed ({forced} with no choice), {rollouts} deals of the hidden cards each.",
      costliest: "The costliest decisions", decision: "Decision {n}", hand: "Hand", to_beat: "To beat ({who})",
      lead: "Leading the trick", played: "Played", better: "Better", cost: "Cost: {points} points [{lo}, {hi}]",
      win: "chance to win the round {win} percentage points", agrees: "the engine agrees",
      close: "Close", failed: "The review failed: {msg}", busy: "The server is busy: try again in a moment.",
      pass: "pass", you: "you", seat: "seat {n}", phase_tribute: "tribute", phase_return: "return",
      phase_take: "take", phase_play: "play", show: "show this moment",
    },
    zh: {
      title: "复盘 · 第{round}局 · {name}", computing: "引擎正在复盘{name}的每一手…",
      progress: "{done} / {total} 手", none: "这一局的每一手，引擎都认同。",
      summary: "复盘了 {n} 手（{forced} 手别无选择），每手试了 {rollouts} 种暗牌分布。",
      costliest: "代价最大的几手", decision: "第 {n} 手", hand: "手牌", to_beat: "要压（{who}）",
      lead: "首出", played: "实际出", better: "更好", cost: "代价：{points} 分 [{lo}, {hi}]",
      win: "本局胜率 {win} 个百分点", agrees: "引擎认同",
      close: "关闭", failed: "复盘失败：{msg}", busy: "服务器正忙，请稍后再试。",
      pass: "不要", you: "你", seat: "{n} 号位", phase_tribute: "进贡", phase_return: "还贡",
      phase_take: "拿牌", phase_play: "出牌", show: "看这一手",
    },
  };
  let dialog = null;

  function pageLang() {
    if (typeof LANG !== "undefined" && (LANG === "zh" || LANG === "en")) return LANG;  // i18n.js
    const saved = localStorage.getItem("daguai-lang");
    if (saved === "zh" || saved === "en") return saved;
    return (navigator.language || "").startsWith("zh") ? "zh" : "en";
  }
  function tr(lang, key, vars) {
    let s = (STRINGS[lang] && STRINGS[lang][key]) || STRINGS.en[key] || key;
    for (const [k, v] of Object.entries(vars || {})) s = s.split("{" + k + "}").join(String(v));
    return s;
  }
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function style() {
    if (document.getElementById("review-style")) return;
    const s = el("style");
    s.id = "review-style";
    s.textContent = `
#review-dialog { position: fixed; inset: 0; background: rgba(0,0,0,.55); z-index: 50; display: flex;
  align-items: flex-start; justify-content: center; overflow: auto; }
#review-dialog > .review-box { background: #123; color: #eee; margin: 3vh 8px; padding: 12px 16px;
  border-radius: 8px; max-width: 760px; width: 100%; box-shadow: 0 4px 24px #000; }
.review-panel progress { width: 100%; height: 14px; }
.review-panel .review-item { border-top: 1px solid #456; padding: 6px 0; }
.review-panel .review-row { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 3px 0; }
.review-panel .review-label { min-width: 7em; color: #bcd; }
.review-panel .review-better .review-label { color: #8f8; }
.review-panel .review-cost { color: #ffd75e; }
.review-panel button { min-height: 44px; min-width: 44px; }`;
    document.head.appendChild(s);
  }
  function close() { if (dialog) { dialog.remove(); dialog = null; } }
  function nameOf(names, seat, lang) { return (names && names[seat]) || tr(lang, "seat", { n: seat }); }
  function actionRow(text, level, lang) {
    if (text === "pass") return el("span", "", tr(lang, "pass"));
    if (typeof splitAction === "function" && typeof cardsRow === "function") {
      const a = splitAction(text);
      const row = el("span");
      if (a.verb !== "play") row.append(tr(lang, "phase_" + a.verb) + " ");
      row.append(cardsRow(a.cards.join(" "), level));
      if (a.as) row.append(" → ", cardsRow(a.as, level));
      return row;
    }
    return el("span", "", text);
  }
  function fmt(x) { return (x >= 0 ? "+" : "") + x.toFixed(2); }

  // One decision on the cards of its moment, the seat's play beside the better one.
  function item(d, names, lang, onPick) {
    const box = el("div", "review-item");
    if (onPick) { box.style.cursor = "pointer"; box.title = tr(lang, "show"); box.onclick = () => onPick(d); }
    box.dataset.decision = d.decision;
    box.dataset.best = d.best;
    box.dataset.choice = d.choice;
    box.append(el("div", "review-title", tr(lang, "decision", { n: d.decision }) + " · " + tr(lang, "phase_" + d.phase)));
    const row = (label, content, cls) => {
      const r = el("div", "review-row" + (cls ? " " + cls : ""));
      r.append(el("span", "review-label", label), content);
      box.append(r);
    };
    row(tr(lang, "hand"), typeof cardsRow === "function" ? cardsRow(d.hand, d.level) : el("span", "", d.hand));
    if (d.to_beat) row(tr(lang, "to_beat", { who: nameOf(names, d.to_beat_seat, lang) }), actionRow(d.to_beat, d.level, lang));
    else if (d.phase === "play") row(tr(lang, "lead"), el("span"));
    row(tr(lang, "played"), actionRow(d.choice, d.level, lang), "review-played");
    if (d.agrees) { box.append(el("div", "review-cost", tr(lang, "agrees"))); return box; }
    row(tr(lang, "better"), actionRow(d.best, d.level, lang), "review-better");
    const ci = d.points_ci || [d.points, d.points];
    const cost = tr(lang, "cost", { points: d.points.toFixed(2), lo: fmt(ci[0]), hi: fmt(ci[1]) }) + " · " +
      tr(lang, "win", { win: fmt(100 * d.win).replace(/\.(\d)\d$/, ".$1") });
    box.append(el("div", "review-cost", cost));
    return box;
  }

  // The review document drawn into `panel` (the costliest first, `top` of them).
  function render(panel, doc, opts) {
    const lang = opts.lang || pageLang();
    const names = opts.names || doc.names;
    panel.querySelector(".review-body").replaceChildren();
    const body = panel.querySelector(".review-body");
    body.append(el("p", "review-summary", tr(lang, "summary", { n: doc.reviewed, forced: doc.forced, rollouts: doc.rollouts })));
    const costly = doc.decisions.filter((d) => !d.agrees).slice(0, opts.top || 5);
    if (!costly.length) { body.append(el("p", "review-none", tr(lang, "none"))); return; }
    body.append(el("h4", "", tr(lang, "costliest")));
    for (const d of costly) body.append(item(d, names, lang, opts.onPick));
  }

  function panelFor(opts, lang) {
    style();
    const panel = el("section", "review-panel");
    panel.id = "review-panel";
    const name = nameOf(opts.names, opts.seat, lang);
    panel.append(el("h3", "review-heading", tr(lang, "title", { round: opts.round + 1, name })));
    const bar = el("progress");
    bar.id = "review-progress";
    bar.max = 1; bar.value = 0;
    const note = el("p", "review-note", tr(lang, "computing", { name }));
    const body = el("div", "review-body");
    panel.append(note, bar, body);
    if (opts.container) { opts.container.replaceChildren(panel); return panel; }
    close();
    dialog = el("div");
    dialog.id = "review-dialog";
    const box = el("div", "review-box");
    const shut = el("button", "", tr(lang, "close"));
    shut.id = "review-close";
    shut.onclick = close;
    box.append(panel, shut);
    dialog.append(box);
    dialog.addEventListener("click", (e) => { if (e.target === dialog) close(); });
    document.body.appendChild(dialog);
    return panel;
  }

  function request(opts) {
    if (opts.match !== undefined && opts.match !== null) return { match: Number(opts.match), seat: opts.seat, round: opts.round };
    let token = opts.token;
    if (!token) {
      try { const kept = JSON.parse(localStorage.getItem("daguai-table") || "null"); if (kept && kept.table === opts.table) token = kept.token; }
      catch (e) { token = undefined; }
    }
    const body = { table: opts.table, round: opts.round, token };
    if (opts.seat !== undefined && opts.seat !== null) body.seat = opts.seat;
    return body;
  }

  // Reads the answer's JSON lines as they come: progress, then the review (or an error).
  async function open(opts) {
    const lang = opts.lang || pageLang();
    const panel = panelFor(opts, lang);
    const bar = panel.querySelector("progress"), note = panel.querySelector(".review-note");
    const fail = (msg) => { note.textContent = msg; panel.dataset.state = "error"; bar.remove(); return null; };
    panel.dataset.state = "computing";
    let r;
    try {
      r = await fetch("/api/review", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request(opts)) });
    } catch (e) { return fail(tr(lang, "failed", { msg: String(e) })); }
    if (!r.ok) {
      let msg = r.statusText;
      try { msg = (await r.json()).message; } catch (e) { /* not JSON */ }
      return fail(r.status === 429 ? tr(lang, "busy") : tr(lang, "failed", { msg }));
    }
    const reader = r.body.getReader(), decoder = new TextDecoder();
    let buffer = "", doc = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffer += decoder.decode(value, { stream: true });
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl); buffer = buffer.slice(nl + 1);
        if (!line.trim()) continue;
        const m = JSON.parse(line);
        if (m.type === "progress") {
          bar.max = m.total || 1; bar.value = m.done;
          note.textContent = tr(lang, "progress", { done: Math.floor(m.done), total: m.total });
        } else if (m.type === "review") doc = m.review;
        else if (m.type === "error") return fail(tr(lang, "failed", { msg: m.message }));
      }
      if (done) break;
    }
    if (!doc) return fail(tr(lang, "failed", { msg: "no answer" }));
    bar.remove(); note.remove();
    panel.dataset.state = "done";
    panel.dataset.costliest = doc.decisions.length && !doc.decisions[0].agrees ? String(doc.decisions[0].decision) : "";
    const names = opts.names || doc.names;
    panel.querySelector(".review-heading").textContent = tr(lang, "title", { round: opts.round + 1, name: nameOf(names, doc.seat, lang) });
    render(panel, doc, opts);
    return doc;
  }

  // A "Review" button (复盘) that opens the review with `opts` (as open): for the table
  // page's round-end screen.
  function button(opts) {
    const lang = opts.lang || pageLang();
    const b = el("button", "review-open", lang === "zh" ? "复盘" : "Review");
    b.type = "button";
    b.onclick = () => open(opts);
    return b;
  }

  return { open, close, render, button, STRINGS };
})();
