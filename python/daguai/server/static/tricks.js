// A round's history by trick (R7, R8) for the web table and the replay viewer; the server's
// views carry the same as `trick_starts` and `last_trick` (python/daguai/tricks.py).
//
//   daguaiTricks.group(view)      -> [[event, ...], ...]  this round's tricks, plays and passes
//   daguaiTricks.lastTrick(view)  -> [event, ...] | null  the last trick that is over
//   daguaiTricks.passWord(e, lang) -> "no play possible" / "要不起" for a forced pass
//                                    (e.auto: the engine passed, the seat could not beat
//                                    the top), "pass" / "不要" for a chosen one
//   daguaiTricks.starts(history, cardsLeft) -> the index of each trick's first play
"use strict";
window.daguaiTricks = (function () {
  const WORDS = { en: { pass: "pass", forced: "no play possible" }, zh: { pass: "不要", forced: "要不起" } };
  const size = (e) => e.cards.split(" ").length;
  // A trick begins with a play when none is open and ends when every other seat still
  // holding cards has passed after its last play (seats that are out are skipped, R8).
  function scan(history, cardsLeft) {
    const left = cardsLeft.slice();
    for (const e of history) if (e.event === "play") left[e.seat] += size(e);
    const starts = [];
    let open = false, last = -1, passes = 0;
    history.forEach((e, i) => {
      if (e.event === "play") {
        if (!open) { starts.push(i); open = true; }
        left[e.seat] -= size(e); last = e.seat; passes = 0;
      } else if (e.event === "pass" && open) {
        passes++;
        if (passes >= left.filter((n, s) => s !== last && n > 0).length) open = false;
      }
    });
    return { starts, open };
  }
  function starts(history, cardsLeft) { return scan(history, cardsLeft).starts; }
  function slice(history, st, k) {
    const end = k + 1 < st.length ? st[k + 1] : history.length;
    return history.slice(st[k], end).filter((e) => e.event === "play" || e.event === "pass");
  }
  function group(view) {
    const history = view.history || [];
    const st = view.trick_starts || starts(history, view.cards_left);
    return st.map((_, k) => slice(history, st, k));
  }
  function lastTrick(view) {
    if (view.last_trick !== undefined) return view.last_trick;
    const history = view.history || [];
    const { starts: st, open } = scan(history, view.cards_left);
    const done = open ? st.length - 1 : st.length;
    return done > 0 ? slice(history, st, done - 1) : null;
  }
  function passWord(e, lang) { const w = WORDS[lang] || WORDS.en; return e.auto ? w.forced : w.pass; }
  return { starts, group, lastTrick, passWord };
})();
