// Card helpers shared by the table and the replay viewer (R2 text, R4 power order).
"use strict";
const RANKS = "23456789TJQKA";
const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };

// R4: BJ > SJ > level cards > A > K > ... > 2 (suits never rank; they only order the display).
function cardPower(card, level) {
  if (card === "BJ") return 100;
  if (card === "SJ") return 99;
  const r = card[0];
  if (r === level) return 98;
  return RANKS.indexOf(r);
}
function sortHand(cards, level) {
  return cards.slice().sort((a, b) => cardPower(b, level) - cardPower(a, level) || (a < b ? -1 : a > b ? 1 : 0));
}
// A card as a DOM element: the rank over the suit symbol (so "10" fits), level cards and
// jokers marked; jokers read 大怪 / 小怪 in Chinese, BIG / small joker in English.
function cardElement(card, level, small) {
  const el = document.createElement("span");
  el.className = "card" + (small ? " small" : "");
  const zh = typeof LANG !== "undefined" && LANG === "zh";
  const top = document.createElement("b"), bottom = document.createElement("i");
  if (card === "SJ" || card === "BJ") {
    el.classList.add("joker");
    if (card === "BJ") el.classList.add("red");
    // named on small cards too (trick, history, hint), in a smaller type (table.css)
    top.textContent = zh ? (card === "BJ" ? "大" : "小") : (card === "BJ" ? "BIG" : "small");
    bottom.textContent = zh ? "怪" : "joker";
    el.title = zh ? (card === "BJ" ? "大怪" : "小怪") : (card === "BJ" ? "big joker (BJ)" : "small joker (SJ)");
  } else {
    const suit = card[1];
    top.textContent = card[0] === "T" ? "10" : card[0];
    bottom.textContent = SUITS[suit];
    if (suit === "h" || suit === "d") el.classList.add("red");
    if (card[0] === level) { el.classList.add("level"); el.title = zh ? "将牌" : "level card"; }
  }
  el.append(top, bottom);
  el.dataset.card = card;
  return el;
}
// A rank or a level as players write it: "10", never the engine's "T" (R2).
function rankName(r) { return r === "T" ? "10" : String(r); }
// Card text inside a sentence (a server message): each engine token as the cards show it.
function prettyCards(text) {
  const zh = typeof LANG !== "undefined" && LANG === "zh";
  return String(text).replace(/\b(BJ|SJ)\b/g, (j) => zh ? (j === "BJ" ? "大怪" : "小怪") : (j === "BJ" ? "big joker" : "small joker"))
    .replace(/\b([2-9TJQKA])([shdc])\b/g, (_, r, s) => rankName(r) + SUITS[s]);
}
function cardsRow(text, level) {
  const row = document.createElement("span");
  row.className = "small";
  if (!text) return row;
  for (const c of sortHand(text.split(" "), level)) row.appendChild(cardElement(c, level, true));
  return row;
}
// "5s 5s 5s 5c BJ as 3s" -> {verb, cards: [...], as: "3s"}
function splitAction(text) {
  let words = text.split(" ");
  let verb = "play";
  if (["pass", "anti_tribute", "tribute", "return", "offer", "take"].includes(words[0])) {
    verb = words[0];
    words = words.slice(1);
  }
  const i = words.indexOf("as");
  const as = i >= 0 ? words.slice(i + 1).join(" ") : "";
  const cards = i >= 0 ? words.slice(0, i) : words;
  return { verb, cards, as };
}
function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = a.slice().sort(), y = b.slice().sort();
  return x.every((c, i) => c === y[i]);
}
const TEAM = ["A", "B"];
// An event as a line with its cards drawn as the table draws them (the replay viewer).
function eventLine(e, level) {
  const span = document.createElement("span");
  const cards = (t) => cardsRow(t, level);
  switch (e.event) {
    case "play":
      span.append(`seat ${e.seat} plays `, cards(e.cards));
      if (e.as) span.append(" (jokers as ", cards(e.as), ")");
      span.append(` — ${e.kind.replace(/_/g, " ")}`);
      return span;
    case "tribute": span.append(`seat ${e.seat} pays tribute `, cards(e.card), ` to seat ${e.to}`); return span;
    case "anti_tribute": span.append(`seat ${e.seat} refuses tribute, showing `, cards(e.jokers)); return span;
    case "return": case "take": case "offer": {
      const c = e.card || e.cards;
      const verb = { return: "returns", take: "takes", offer: "offers" }[e.event];
      span.append(`seat ${e.seat} ${verb} `, c ? cards(c) : "a card", `${e.event === "take" ? " from" : " to"} seat ${e.to}`);
      return span;
    }
  }
  span.textContent = describeEvent(e);
  return span;
}
function describeEvent(e) {
  switch (e.event) {
    case "play": return `seat ${e.seat} plays ${e.cards}${e.as ? " (jokers as " + e.as + ")" : ""} — ${e.kind.replace(/_/g, " ")}`;
    case "pass": return `seat ${e.seat} passes${e.auto ? " (no play)" : ""}`;
    case "tribute": return `seat ${e.seat} pays tribute ${e.card} to seat ${e.to}`;
    case "anti_tribute": return `seat ${e.seat} refuses tribute, showing ${e.jokers}`;
    case "return": return `seat ${e.seat} returns ${e.card || e.cards || "a card"} to seat ${e.to}`;
    case "offer": return `seat ${e.seat} offers ${e.cards || "cards"} to seat ${e.to}`;
    case "take": return `seat ${e.seat} takes ${e.card || e.cards || "a card"} from seat ${e.to}`;
    case "deal": return `round ${e.round} dealt; dealer seat ${e.dealer}, levels A ${rankName(e.levels[0])} / B ${rankName(e.levels[1])}`;
    case "round_end": return resultText(e);
    case "forfeit": return `seat ${e.seat} leaves the match`;
    case "auto_pass": return `automatic passes ${e.on ? "on" : "off"}`;
  }
  return e.event;
}
function resultText(r) {
  const who = r.winner === null ? "draw" : `team ${TEAM[r.winner]} wins`;
  let s = `round ${r.round}: ${who}; order ${r.order.map(x => x === null ? "?" : x).join(" ")}; levels A ${rankName(r.levels_after[0])} / B ${rankName(r.levels_after[1])}`;
  if (r.tributers.length) s += `; tribute ${r.tributers.map((t, i) => t + "→" + r.receivers[i]).join(", ")}`;
  if (r.match_over) s += r.match_winner === null ? " — match over (draw)" : ` — match over, team ${TEAM[r.match_winner]} wins`;
  return s;
}
