#include <algorithm>
#include <tuple>
#include <unordered_map>

#include <daguai/players/planner.hpp>
#include <daguai/plays/analysis.hpp>
#include <daguai/search/candidates.hpp>

namespace daguai {

LeftForm left_form(const Cards& hand, const Play& play) {
  const Cards left = hand - play.cards;
  const int jokers = left.jokers();
  LeftForm f;
  f.key = play.key;
  f.info = play.info;
  f.jokers = std::uint32_t(left.sj() | left.bj() << 2);
  std::uint32_t col[4] = {0, 0, 0, 0};
  int in_suit[4] = {0, 0, 0, 0};
  for (int r = 0; r < kNumRanks; ++r)
    for (int s = 0; s < kNumSuits; ++s) {
      const int c = left.count(make_face(r, s));
      col[s] |= std::uint32_t(c) << (2 * r);
      in_suit[s] += c;
    }
  for (int s = 0; s < kNumSuits; ++s) {
    if (in_suit[s] + jokers >= 5) continue;  // live (R5, R6): kept as a column
    for (int r = 0; r < kNumRanks; ++r) f.dead += std::uint64_t((col[s] >> (2 * r)) & 3) << (4 * r);
    col[s] = 0;
  }
  std::sort(col, col + 4);  // the smallest relabelling of the suits (R4: suits never rank)
  std::copy(col, col + 4, f.live);
  return f;
}

namespace {

struct FormHash {
  std::size_t operator()(const LeftForm& f) const {
    std::uint64_t h = (std::uint64_t(f.key) << 32 | f.info) * 0x9E3779B97F4A7C15ULL;
    h ^= f.dead + f.jokers + 0x632BE59BD9B4E019ULL + (h << 6) + (h >> 2);
    for (std::uint32_t c : f.live) h ^= c + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    return std::size_t(h);
  }
};

}  // namespace

std::vector<ActionGroup> group_actions(const Cards& hand, const std::vector<Action>& actions) {
  std::vector<ActionGroup> groups;
  std::unordered_map<LeftForm, int, FormHash> of_form;
  of_form.reserve(actions.size() * 2);
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const Action& a = actions[i];
    if (a.type != ActionType::kPlay) {  // decisions other than plays stay alone
      groups.push_back(ActionGroup{{int(i)}});
      continue;
    }
    const auto [it, fresh] = of_form.emplace(left_form(hand, a.play), int(groups.size()));
    if (fresh)
      groups.push_back(ActionGroup{{int(i)}});
    else
      groups[std::size_t(it->second)].members.push_back(int(i));
  }
  return groups;
}

std::vector<int> select_candidates(const PolicyView& view, const std::vector<Action>& actions,
                                   const std::vector<ActionGroup>& groups, int incumbent,
                                   int keep) {
  const int n = int(groups.size());
  std::vector<int> group_of(actions.size(), -1);
  for (int g = 0; g < n; ++g)
    for (int i : groups[std::size_t(g)].members) group_of[std::size_t(i)] = g;
  std::vector<int> out;
  std::vector<char> taken(std::size_t(n), 0);
  const int limit = keep > 0 ? std::min(keep, n) : n;
  auto add = [&](int g) {
    if (g >= 0 && int(out.size()) < limit && !taken[std::size_t(g)]) {
      taken[std::size_t(g)] = 1;
      out.push_back(g);
    }
  };
  if (incumbent >= 0) add(group_of[std::size_t(incumbent)]);
  auto rep = [&](int g) -> const Action& {
    return actions[std::size_t(groups[std::size_t(g)].members[0])];
  };
  auto is_play = [&](int g) { return rep(g).type == ActionType::kPlay; };
  if (int(out.size()) < limit && view.phase() == Phase::kPlay) {
    const int seat = view.current_player(), level = view.level_rank();
    const Cards& hand = view.hand(seat);
    for (int g = 0; g < n; ++g)
      if (rep(g).type == ActionType::kPass) add(g);
    // the lowest group of plays satisfying `want` (by key, then legal order)
    auto lowest = [&](auto want) {
      int best = -1;
      for (int g = 0; g < n; ++g)
        if (is_play(g) && want(rep(g).play) && (best < 0 || rep(g).play.key < rep(best).play.key))
          best = g;
      return best;
    };
    if (view.has_top()) {  // the highest beating play
      int best = -1;
      for (int g = 0; g < n; ++g)
        if (is_play(g) && (best < 0 || rep(g).play.key > rep(best).play.key)) best = g;
      add(best);
    }
    add(lowest([](const Play& p) { return p.kind() == Kind::kFiveOfAKind; }));
    add(lowest([](const Play& p) { return p.kind() == Kind::kStraightFlush; }));
    add(lowest([](const Play& p) { return p.cards.jokers() > 0; }));
    add(lowest([&](const Play& p) {
      return p.cards.jokers() == 0 && p.cards.rank_count(level) == p.size();
    }));
    // the units of the rollout policy's plan and of a fewest-plays split that are legal now
    auto add_units = [&](const std::vector<Play>& units) {
      for (const Play& u : units)
        for (std::size_t i = 0; i < actions.size(); ++i)
          if (actions[i].type == ActionType::kPlay && actions[i].play.cards == u.cards) {
            add(group_of[i]);
            break;
          }
    };
    add_units(heuristic_plan(hand, level, view.rules()).plays);
    add_units(min_plays(hand, level, view.rules()).plays);
  }
  if (int(out.size()) >= limit) return out;
  // The rest: other decisions in legal order, then plays round-robin over the sizes, lowest
  // key first, one group of each (kind, key) before a second one.
  for (int g = 0; g < n; ++g)
    if (!is_play(g)) add(g);
  std::vector<int> by_size[4][2];  // [size 1, 2, 3, 5][first of its (kind, key), other]
  std::vector<int> order;          // every group of plays (a taken one still marks its family)
  for (int g = 0; g < n; ++g)
    if (is_play(g)) order.push_back(g);
  auto family = [&](int g) {
    const Play& p = rep(g).play;
    return std::make_tuple(p.size(), p.key, int(p.kind()));
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return family(a) < family(b); });
  for (std::size_t k = 0; k < order.size();) {  // one family at a time
    std::size_t end = k;
    bool represented = false;  // by a reserved slot
    while (end < order.size() && family(order[end]) == family(order[k]))
      represented |= taken[std::size_t(order[end++])] != 0;
    const int size = rep(order[k]).play.size();
    const int slot = size == 5 ? 3 : std::min(2, size - 1);
    for (bool first = !represented; k < end; ++k)
      if (!taken[std::size_t(order[k])]) {
        by_size[slot][first ? 0 : 1].push_back(order[k]);
        first = false;
      }
  }
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t i = 0; int(out.size()) < limit; ++i) {
      bool any = false;
      for (auto& v : by_size)
        if (i < v[pass].size()) {
          add(v[pass][i]);
          any = true;
        }
      if (!any) break;
    }
  return out;
}

std::vector<Action> candidate_arms(const PolicyView& view, const std::vector<Action>& actions,
                                   const std::vector<ActionGroup>& groups, int incumbent, int keep,
                                   std::vector<int>* chosen) {
  const std::vector<int> kept = select_candidates(view, actions, groups, incumbent, keep);
  std::vector<Action> arms;
  arms.reserve(kept.size());
  for (int g : kept) arms.push_back(actions[std::size_t(groups[std::size_t(g)].members[0])]);
  if (incumbent >= 0 && !arms.empty()) arms[0] = actions[std::size_t(incumbent)];
  if (chosen) *chosen = kept;
  return arms;
}

}  // namespace daguai
