// The web table's two languages: English and 中文, with the card and combination names
// Shanghai players use (RULES.md R5, R11; /work/shared/seeds). T(key, {name: value}) fills
// {name} placeholders; the choice is kept in localStorage ("daguai-lang").
"use strict";
const TEXT = {
  en: {
    title: "daguai · Da Guai Lu Zi", replays: "replays", lang: "中文", new: "New table", leave: "Leave table",
    rules: "Rules", jokers: "Jokers", wild_auto: "lowest reading (auto)", wild_high: "highest reading",
    wild_declare: "I choose (declare)", ends: "Match ends after", level_a: "level A", level_3: "level 3 (short)",
    bots: "Bots", seat_n: "Seat {n}", me: "me", bot: "a bot", friend: "a friend", remote: "my bot program",
    remote_seat: "Seat {n} (a bot program: run it with)", start: "Start",
    invites: "Invite your friends", invite_seat: "Seat {n} (a friend)", spectators: "Spectators", copy: "Copy",
    close: "Close", connecting: "connecting…", start_hint: "Choose the seats and press Start.",
    you_are: "Table {table}: you are seat {seat} (team {team})", watching: "Table {table}: watching",
    disconnected: "Disconnected: reload the page to reconnect.",
    info: "Round {round} · level {level} · A {a} / B {b} · dealer: {dealer}",
    you: "You", seat: "seat {n}", cards_left: "{n} cards", score: "score {n}", dealer: "dealer",
    out: "out #{n}", bot_playing: "bot playing", away: "away", pass: "Pass", passes: "pass",
    to_beat: "To beat: {who}'s {kind}", jokers_as: "jokers as {as}", new_trick: "New trick: {who} leads",
    play: "Play", tribute: "Pay tribute", return: "Return", offer: "Offer", take: "Take", clear: "Clear",
    hint: "Hint", anti: "Refuse tribute (show jokers)",
    your_turn_lead: "Your lead: select any single, pair, triple or five cards.",
    your_turn_follow: "Your turn: beat the {kind} with a higher {kind} of {n} cards, or pass.",
    your_tribute: "Pay tribute: select a card of the highest power in your hand (R11).",
    your_return: "Return any one card to the player who paid you.",
    your_offer: "Offer cards for the joker tribute.", your_take: "Take one of the offered cards.",
    waiting: "Waiting for {who}…", match_over: "The match is over.",
    reason_empty: "Nothing selected.", reason_not_in_hand: "Those cards are not all in your hand.",
    reason_size: "Plays have 1, 2, 3 or 5 cards; you selected {size}.",
    reason_size_top: "The top play has {top_size} cards: only {top_size} cards can beat it; you selected {size}.",
    reason_no_combination: "These {size} cards make no combination (single, pair, triple, or a five-card hand).",
    reason_does_not_beat: "Your {kind} does not beat the {top_kind}: it must be higher.",
    reason_one_card: "Select exactly one card.", reason_tribute_highest: "The tribute must be a card of the highest power in your hand.",
    reason_offer_count: "Select the number of cards the offer needs.", reason_not_legal: "Not a legal choice now.",
    reason_not_your_turn: "Not your turn yet: that would be a {kind}.",
    reading_one: "Plays as a {kind}.", readings: "Choose what the jokers stand for (strongest first):",
    as_faces: "jokers as {as}",
    hint_thinking: "The engine is thinking…",
    hint_title: "Engine's estimate ({seconds} s): your team's chance to win / draw / lose the round after each choice, with its 95% interval, over the deals of the hidden cards that choice was tried in:",
    hint_row: "win {win} · draw {draw} · lose {lose}", hint_best: "best", hint_pass: "pass",
    hint_n: "{n} deals", hint_same: "(or {n} equivalent)", hint_untried: "not tried",
    round_won: "Your team wins the round!", round_lost: "Your team loses the round.", round_draw: "The round is a draw.",
    team_wins: "Team {team} wins the round.", finishing: "Finishing order", scores_title: "Score changes (R13)",
    levels_title: "Levels", tribute_next: "Next round's tribute (R11)", no_tribute: "No tribute next round.",
    pays: "{a} pays tribute to {b}", you_pay: "You pay tribute to {b}", pays_you: "{a} pays tribute to you",
    continue: "Continue",
    why_stake: "Stake scoring: each winner +{w}, each loser −{l} ({n} tributer(s)).",
    why_stake_draw: "A draw scores nothing.", why_levels_up: "Levels scoring: the dealer's team went up: its players +3, the others −1 (× base).",
    why_levels: "Levels scoring: no level change, every player +1 (× base).",
    why_simple: "Simple scoring: winners +3, losers −3 (× base).", why_simple_draw: "Simple scoring: a draw gives everyone +1 (× base).",
    why_forfeit: "{who} left the match (R14): the leaver pays, the opponents score.",
    level_up: "The dealer's team won: its level goes up.", level_same: "No level changes.",
    match_won: "Match over: team {team} wins the match.", match_draw: "Match over: a draw.", replay: "Watch the replay",
    confirm_leave: "Leave this table? You forfeit the match (R14) and it ends for everyone.", yes_leave: "Leave", stay: "Stay",
    place: "#{n}", team: "team {t}",
  },
  zh: {
    title: "大怪路子 · daguai", replays: "回放", lang: "English", new: "新牌桌", leave: "离开牌桌",
    rules: "规则", jokers: "大小怪", wild_auto: "按最小牌算", wild_high: "按最大牌算", wild_declare: "自己选",
    ends: "打到", level_a: "打过A", level_3: "打到3（短局）", bots: "电脑", seat_n: "{n}号位", me: "我",
    bot: "电脑", friend: "朋友", remote: "我的程序", remote_seat: "{n}号位（程序，这样运行）", start: "开始",
    invites: "邀请朋友", invite_seat: "{n}号位（朋友）",
    spectators: "观战", copy: "复制", close: "关闭", connecting: "连接中…", start_hint: "选好座位，按开始。",
    you_are: "牌桌 {table}：你坐{seat}号位（{team}队）", watching: "牌桌 {table}：观战",
    disconnected: "连接断开：刷新页面重新连接。",
    info: "第{round}局 · 打{level} · 甲 {a} / 乙 {b} · 庄家：{dealer}",
    you: "你", seat: "{n}号位", cards_left: "{n}张", score: "{n}分", dealer: "庄家", out: "第{n}游",
    bot_playing: "电脑代打", away: "离开", pass: "不要", passes: "不要",
    to_beat: "要打：{who}的{kind}", jokers_as: "怪当{as}", new_trick: "新一轮：{who}出牌",
    play: "出牌", tribute: "进贡", return: "还贡", offer: "给牌", take: "拿牌", clear: "重选", hint: "提示",
    anti: "抗贡（亮出大小怪）",
    your_turn_lead: "轮到你出牌：单张、对子、三张或五张。",
    your_turn_follow: "轮到你：用更大的{n}张{kind}压过，或者不要。",
    your_tribute: "进贡：选一张你手里最大的牌（R11）。", your_return: "还贡：任选一张牌还给进贡的人。",
    your_offer: "给牌：选出要给的牌。", your_take: "拿牌：从给的牌里拿一张。",
    waiting: "等{who}…", match_over: "比赛结束。",
    reason_empty: "还没选牌。", reason_not_in_hand: "这些牌不都在你手里。",
    reason_size: "出牌只能是1、2、3或5张；你选了{size}张。",
    reason_size_top: "上家出的是{top_size}张，只能用{top_size}张压；你选了{size}张。",
    reason_no_combination: "这{size}张牌不成牌型（单张、对子、三张或五张牌型）。",
    reason_does_not_beat: "你的{kind}压不过{top_kind}：要更大才行。",
    reason_one_card: "只能选一张牌。", reason_tribute_highest: "进贡要交手里最大的牌。",
    reason_offer_count: "选够要给的张数。", reason_not_legal: "现在不能这样出。",
    reason_not_your_turn: "还没轮到你：这是{kind}。",
    reading_one: "出的是{kind}。", readings: "选大小怪当什么（最大的在前）：", as_faces: "怪当{as}",
    hint_thinking: "电脑在算…",
    hint_title: "电脑估算（{seconds}秒）：每种出法之后你们队这一局赢 / 平 / 输的机会（95%区间），按试过这种出法的暗牌局数算：",
    hint_row: "赢 {win} · 平 {draw} · 输 {lose}", hint_best: "最好", hint_pass: "不要",
    hint_n: "{n}局", hint_same: "（另有{n}种一样的出法）", hint_untried: "没试",
    round_won: "你们队赢了这一局！", round_lost: "你们队输了这一局。", round_draw: "这一局平局。",
    team_wins: "{team}队赢了这一局。", finishing: "出完顺序", scores_title: "得分（R13）", levels_title: "级数",
    tribute_next: "下一局进贡（R11）", no_tribute: "下一局不进贡。", pays: "{a}向{b}进贡", you_pay: "你向{b}进贡",
    pays_you: "{a}向你进贡", continue: "继续",
    why_stake: "按注计分：赢家每人+{w}，输家每人−{l}（{n}家进贡）。", why_stake_draw: "平局不计分。",
    why_levels_up: "按级计分：庄家队升级，每人+3，其他人−1（×底分）。",
    why_levels: "按级计分：没有升级，每人+1（×底分）。",
    why_simple: "简单计分：赢家+3，输家−3（×底分）。", why_simple_draw: "简单计分：平局每人+1（×底分）。",
    why_forfeit: "{who}逃跑（R14）：逃跑的人扣分，对手加分。",
    level_up: "庄家队赢了：升一级。", level_same: "级数不变。",
    match_won: "比赛结束：{team}队赢了。", match_draw: "比赛结束：平局。", replay: "看回放",
    confirm_leave: "离开这张牌桌？算你逃跑（R14），比赛对大家都结束。", yes_leave: "离开", stay: "留下",
    place: "第{n}", team: "{t}队",
  },
};
// Combination names as players say them (R5); card names (R2, R3).
const KIND_NAMES = {
  en: { single: "single", pair: "pair", triple: "triple", straight: "straight", flush: "flush",
        full_house: "full house", four_plus_one: "four-plus-one", straight_flush: "straight flush",
        five_of_a_kind: "five of a kind", tribute: "tribute", return: "return", offer: "offer", take: "take" },
  zh: { single: "单张", pair: "对子", triple: "三张", straight: "杂顺", flush: "同花", full_house: "三带两",
        four_plus_one: "四带一", straight_flush: "同花顺", five_of_a_kind: "五同", tribute: "进贡",
        return: "还贡", offer: "给牌", take: "拿牌" },
};
const TEAM_NAMES = { en: ["A", "B"], zh: ["甲", "乙"] };
let LANG = localStorage.getItem("daguai-lang") || ((navigator.language || "").startsWith("zh") ? "zh" : "en");
function T(key, vars) {
  let s = (TEXT[LANG] && TEXT[LANG][key]) || TEXT.en[key] || key;
  for (const [k, v] of Object.entries(vars || {})) s = s.split("{" + k + "}").join(String(v));
  return s;
}
function kindName(kind) { return (KIND_NAMES[LANG] || KIND_NAMES.en)[kind] || String(kind).replace(/_/g, " "); }
function teamName(t) { return TEAM_NAMES[LANG][t]; }
function setLang(lang) {
  LANG = lang;
  localStorage.setItem("daguai-lang", lang);
  document.documentElement.lang = lang === "zh" ? "zh-Hans" : "en";
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = T(el.dataset.i18n);
}
