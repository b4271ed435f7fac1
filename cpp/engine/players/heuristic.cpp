#include <daguai/core/table.hpp>
#include <daguai/players/heuristic.hpp>
#include <daguai/players/planner.hpp>
#include <daguai/players/rule_helpers.hpp>

namespace daguai {

namespace {

// Relative weakness of a plan unit for leading: lower = lead it earlier.
int lead_rank(const Play& p) {
  if (p.size() == 5)
    return int((p.key >> 20) * 16 + ((p.key & 0xFFFFF) >> 16));  // kind, top nibble
  return int(p.key >> 1);
}

// Whether a partner (first = 2) or an opponent (first = 1) of `seat` is still in the round
// with at most five cards: partners sit at even distance (R18).
bool close_to_out(const PolicyView& g, int seat, int first) {
  const Table& tb = table_of(g.rules());
  for (int k = first; k < tb.seats; k += 2) {
    const int o = tb.next(seat, k);
    if (!g.is_out(o) && g.cards_left(o) <= 5) return true;
  }
  return false;
}

// The lead from the plan s.plan.
Action lead(const PolicyView& g, PolicyScratch& s, int seat, int level) {
  auto play = [&](const Play& p) { return play_action(seat, p); };
  const Controls ctl(level);
  // Out in one play if the whole hand is one.
  if (s.plan.size() == 1) return play(s.plan[0]);
  // Feed a partner close to going out: the smallest single, else the smallest pair.
  if (close_to_out(g, seat, 2)) {
    for (int size : {1, 2}) {
      const Play* best = nullptr;
      for (const Play& p : s.plan)
        if (p.size() == size && !ctl.of(p) && (!best || p.key < best->key)) best = &p;
      if (best) return play(*best);
    }
  }
  // Otherwise the weakest non-control unit; bigger units first when the hand is strong
  // in controls (seed 000: open five-card plays only with a way back to the lead).
  int controls = 0;
  for (const Play& p : s.plan) controls += ctl.of(p);
  const Play* best = nullptr;
  for (const Play& p : s.plan) {
    if (ctl.of(p)) continue;
    if (!best) {
      best = &p;
      continue;
    }
    const bool big_p = p.size() == 5, big_b = best->size() == 5;
    if (big_p != big_b) {
      if ((controls >= 2) == big_p) best = &p;
      continue;
    }
    if (p.size() != best->size() ? p.size() > best->size() : lead_rank(p) < lead_rank(*best))
      best = &p;
  }
  if (best) return play(*best);
  // only controls left: lead the lowest of them
  const Play* low = &s.plan[0];
  for (const Play& p : s.plan)
    if (p.size() > low->size() || (p.size() == low->size() && p.key < low->key)) low = &p;
  return play(*low);
}

// The follow of the top play with `hand` and its plan s.plan.
Action follow(const PolicyView& g, PolicyScratch& s, int seat, int level, const Cards& hand) {
  auto play = [&](const Play& p) { return play_action(seat, p); };
  const Play& top = g.top();
  const bool partner_top = team_of(g.top_seat()) == team_of(seat);
  const Controls ctl(level);
  // Going out with this play wins the race: always take it (the whole hand as one play).
  {
    Play whole;
    if (hand.size() == top.size() && classify(hand, level, g.rules(), &whole) && beats(whole, top))
      return play(whole);
  }
  if (partner_top) return pass_action(seat);  // never beat the partner otherwise
  // A plan unit of the same size that beats the top: the cheapest non-control one.
  const Play* best = nullptr;
  for (const Play& p : s.plan)
    if (p.size() == top.size() && !ctl.of(p) && beats(p, top) &&
        (!best || cheaper(p, *best, level)))
      best = &p;
  if (best) return play(*best);
  // Use a control unit when the hand is nearly done, the opponents are close, or the
  // partner needs the lead.
  const bool urgent = close_to_out(g, seat, 1) || close_to_out(g, seat, 2) || s.plan.size() <= 3;
  if (!urgent) return pass_action(seat);
  for (const Play& p : s.plan)
    if (p.size() == top.size() && beats(p, top) && (!best || cheaper(p, *best, level))) best = &p;
  if (best) return play(*best);
  // Break the plan: the cheapest legal follow, if any.
  Play c;
  if (!cheapest_follow(hand, level, g.rules(), top, &s.plays, &c)) return pass_action(seat);
  return play(c);
}

// `exact`: plan with min_plays (a fewest-plays split, analysis.hpp) instead of the planner.
Action plan_and_decide(const PolicyView& g, PolicyScratch& s, bool exact) {
  if (g.phase() != Phase::kPlay) return simple_exchange(g, s);
  const int seat = g.current_player(), level = g.level_rank();
  const Cards& hand = g.hand(seat);
  // (Re)plan when the hand is not what the plan covers, or the plan is of another level: a
  // scratch is shared by the games of a batch (BatchEnv's opponents), where two games can
  // leave a seat the same few cards at different levels. A plan update_plan made for this very
  // hand at this level (its memo says so) covers it: no need to add its cards up.
  const PlanMemo& m = s.plan_memo;
  const bool memo_ok =
      m.valid && m.exact == exact && m.hand == s.plan_hand && m.size == s.plan.size();
  if (memo_ok && s.plan_hand == hand && s.plan_level == level)
    return g.has_top() ? follow(g, s, seat, level, hand) : lead(g, s, seat, level);
  // A plan its memo describes covers the memo's hand (update_plan; only this file writes
  // s.plan): its cards need no adding up.
  Cards covered = s.plan_hand;
  if (!memo_ok) {
    covered = Cards{};
    for (const Play& p : s.plan) covered += p.cards;
  }
  if (covered != hand || s.plan_hand != hand || s.plan_level != level) {
    // The memo describes the plan only if the plan is still the one made for its hand (its
    // rules key holds the level: update_plan replans at another level).
    if (covered != s.plan_hand || s.plan_memo.hand != s.plan_hand) s.plan_memo.valid = false;
    update_plan(hand, level, g.rules(), exact, &s.plan, &s.plan_memo);
    s.plan_hand = hand;
    s.plan_level = level;
  }
  return g.has_top() ? follow(g, s, seat, level, hand) : lead(g, s, seat, level);
}

}  // namespace

Action heuristic_action(const PolicyView& g, Rng&, PolicyScratch& s) {
  return plan_and_decide(g, s, false);
}

Action heuristic_exact_action(const PolicyView& g, Rng&, PolicyScratch& s) {
  return plan_and_decide(g, s, true);
}

}  // namespace daguai
