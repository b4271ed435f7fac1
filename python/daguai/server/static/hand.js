// Help with a 27-card hand: sorted by power or by suit (a toggle, remembered), the
// straights, flushes and bombs the engine lists among the legal plays marked (the decide's
// `combos`, R5), a double-click or a long press on a card selects its whole rank, the
// keyboard (arrows, space, enter, p, h, c, s), and during a tribute, return or take the
// cards that may be given marked (R11).
"use strict";

const SUIT_ORDER = "shdc";
function sortBySuit(cards, level) {
  const suit = (c) => (c === "SJ" || c === "BJ") ? -1 : SUIT_ORDER.indexOf(c[1]);
  return cards.slice().sort((a, b) => suit(a) - suit(b) || cardPower(b, level) - cardPower(a, level));
}
function handCards() {
  const v = state.view;
  if (!v || !v.hand) return [];
  return state.sortBy === "suit" ? sortBySuit(v.hand, v.level) : sortHand(v.hand, v.level);
}
function rankOf(card) { return card === "SJ" || card === "BJ" ? card : card[0]; }

// Cards of the open decision that may be chosen alone (tribute, return, take: R11).
function eligibleCards() {
  const d = state.decide;
  if (!d || !["tribute", "return", "take"].includes(d.phase)) return null;
  const out = new Set();
  for (const t of d.legal) { const a = splitAction(t); if (a.cards.length === 1) out.add(a.cards[0]); }
  return out;
}
// The combinations of the hand as the engine found them; kept while the hand is the same.
function handCombos() {
  const v = state.view;
  const sig = v && v.hand ? v.hand.join(" ") : "";
  if (state.decide && state.decide.combos && state.decide.view && state.decide.view.hand.join(" ") === sig) {
    state.combos = { sig, list: state.decide.combos };
  }
  return state.combos && state.combos.sig === sig ? state.combos.list : [];
}

function renderHand(v) {
  const hand = handCards();
  const hb = $("hand");
  hb.innerHTML = "";
  const eligible = eligibleCards();
  const combos = handCombos();
  const inCombo = new Set(combos.flatMap((c) => c.cards.split(" ")));
  if (state.cursor >= hand.length) state.cursor = hand.length - 1;
  hand.forEach((c, i) => {
    const el = cardElement(c, v.level, false);
    el.setAttribute("role", "button");
    if (state.selected.has(i)) el.classList.add("sel");
    if (inCombo.has(c)) el.classList.add("combo");
    if (eligible) el.classList.add(eligible.has(c) ? "eligible" : "dim");
    if (state.cursor === i && state.keyboard) el.classList.add("cursor");
    el.onclick = () => tapCard(i);
    el.onpointerdown = (ev) => {
      if (ev.pointerType === "mouse") return;
      clearTimeout(state.pressTimer);
      state.pressTimer = setTimeout(() => { state.pressed = i; selectRank(i); }, 500);
    };
    el.onpointerup = el.onpointerleave = () => clearTimeout(state.pressTimer);
    hb.appendChild(el);
  });
  renderHandTools(combos);
}

// A second tap on the same card within 400 ms (a double-click) selects its whole rank.
function tapCard(i) {
  if (state.pressed === i) { state.pressed = null; return; }  // the long press already did it
  const now = performance.now(), last = state.lastTap;
  state.lastTap = { i, t: now };
  if (last && last.i === i && now - last.t < 400) { state.lastTap = null; selectRank(i); return; }
  state.selected.has(i) ? state.selected.delete(i) : state.selected.add(i);
  state.cursor = i;
  state.check = null; state.choice = null; state.showEmpty = true; render(); sendCheck();
}
function selectRank(i) {
  const hand = handCards(), r = rankOf(hand[i]);
  for (let k = 0; k < hand.length; k++) if (rankOf(hand[k]) === r) state.selected.add(k);
  state.check = null; state.choice = null; state.showEmpty = true; render(); sendCheck();
}

function renderHandTools(combos) {
  const mine = state.seat !== null && state.view && state.view.hand;
  $("handtools").hidden = !mine;
  if (!mine) return;
  $("sort").textContent = T(state.sortBy === "suit" ? "sort_suit" : "sort_power");
  const box = $("combos");
  box.innerHTML = "";
  const byKind = {};
  for (const c of combos) (byKind[c.kind] = byKind[c.kind] || []).push(c);
  for (const kind of Object.keys(byKind)) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "small-btn combo-btn"; b.dataset.kind = kind;
    b.textContent = T("combo_count", { kind: kindName(kind), n: byKind[kind].length });
    b.onclick = () => {  // each press selects the next one of that kind
      state.comboAt = state.comboAt || {};
      const k = state.comboAt[kind] = ((state.comboAt[kind] ?? -1) + 1) % byKind[kind].length;
      selectCards(byKind[kind][k].cards.split(" "));
    };
    box.appendChild(b);
  }
}

function toggleSort() {
  const hand = handCards(), chosen = [...state.selected].map((i) => hand[i]);
  state.sortBy = state.sortBy === "suit" ? "power" : "suit";
  localStorage.setItem("daguai-sort", state.sortBy);
  selectCards(chosen);
}

// The keyboard, when no text field has the focus and no dialog is open.
function onKey(ev) {
  const t = ev.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
  if (!$("roundend").hidden || !$("confirm").hidden || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const n = handCards().length;
  const press = (id) => { const b = $(id); if (b && !b.disabled && !b.hidden) b.click(); };
  switch (ev.key) {
    case "ArrowLeft": case "ArrowRight":
      if (!n) return;
      state.keyboard = true;
      state.cursor = Math.max(0, Math.min(n - 1, (state.cursor ?? -1) + (ev.key === "ArrowLeft" ? -1 : 1)));
      render(); break;
    case " ":
      if (!n) return;
      state.keyboard = true;
      if (state.cursor === undefined || state.cursor < 0) state.cursor = 0;
      state.lastTap = null; tapCard(state.cursor); break;
    case "Enter": press("submit"); break;
    case "p": case "P": press("pass"); break;
    case "h": case "H": press("hint"); break;
    case "c": case "C": case "Escape": press("clear"); break;
    case "s": case "S": if (n) toggleSort(); break;
    default: return;
  }
  ev.preventDefault();
}
