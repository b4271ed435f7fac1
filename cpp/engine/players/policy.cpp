#include <algorithm>

#include <daguai/players/learned.hpp>
#include <daguai/players/policy.hpp>
#include <daguai/players/search.hpp>
#include <daguai/plays/analysis.hpp>
#include <daguai/plays/five.hpp>

namespace daguai {

PolicyId parse_policy(const std::string& name) {
  const auto& reg = policy_registry();
  std::string names;
  for (std::size_t i = 0; i < reg.size(); ++i) {
    if (name == reg[i].name) return PolicyId(i);
    names += (i ? ", " : "") + std::string(reg[i].name);
  }
  // models (learned.hpp): "learned" (the shipped model) or the path of a .dgn file
  if (const int id = find_model_policy(name); id >= 0) return PolicyId(id);
  if (has_builtin_model()) names += std::string(", ") + kBuiltinModel;
  throw GameError("unknown policy '" + name + "': expected one of " + names +
                  " or the path of a .dgn model file");
}

const char* policy_name(PolicyId k) {
  const auto& reg = policy_registry();
  if (model_of(k)) return model_name(k);
  return std::size_t(k) < reg.size() ? reg[std::size_t(k)].name : "?";
}

namespace {

Action make_action(ActionType t, int seat, const Play& p) {
  Action a;
  a.type = t;
  a.seat = std::int8_t(seat);
  a.play = p;
  return a;
}

Action pass_action(int seat) {
  Action a;
  a.type = ActionType::kPass;
  a.seat = std::int8_t(seat);
  return a;
}

// Level cards and jokers among the cards of a play.
int control_cards(const Play& p, int level) { return p.cards.jokers() + p.cards.rank_count(level); }

// "Cheapness" order for a follow / a lead of one size: lower key first, then fewer control
// cards, then fewer jokers.
bool cheaper(const Play& a, const Play& b, int level) {
  if (a.key != b.key) return a.key < b.key;
  const int ca = control_cards(a, level), cb = control_cards(b, level);
  if (ca != cb) return ca < cb;
  return a.jokers() < b.jokers();
}

// Non-play phases shared by greedy and heuristic: pay the first highest card, return the
// lowest-power card, offer the lowest cards, take the highest offered card.
Action simple_exchange(const PolicyView& g, PolicyScratch& s) {
  s.actions.clear();
  g.legal_actions(&s.actions);
  const int level = g.level_rank();
  auto power_of = [&](const Action& a) {
    for (int f = 0; f < kNumFaces; ++f)
      if (a.play.cards.count(f)) return face_power(f, level);
    return 0;
  };
  auto total_power = [&](const Action& a) {
    int t = 0;
    for (int f = 0; f < kNumFaces; ++f) t += a.play.cards.count(f) * face_power(f, level);
    return t;
  };
  switch (g.phase()) {
    case Phase::kTribute:
      return s.actions.front();  // every tribute candidate has the same power (R11)
    case Phase::kReturn: {
      if (g.expects_offer())
        return *std::min_element(
            s.actions.begin(), s.actions.end(),
            [&](const Action& a, const Action& b) { return total_power(a) < total_power(b); });
      return *std::min_element(
          s.actions.begin(), s.actions.end(),
          [&](const Action& a, const Action& b) { return power_of(a) < power_of(b); });
    }
    case Phase::kTake:
      return *std::max_element(
          s.actions.begin(), s.actions.end(),
          [&](const Action& a, const Action& b) { return power_of(a) < power_of(b); });
    default:
      return s.actions.front();
  }
}

// ---------------------------------------------------------------------------------------
// random: uniform over the legal actions.
// ---------------------------------------------------------------------------------------
Action random_action(const PolicyView& g, Rng& rng, PolicyScratch& s) {
  const int seat = g.current_player();
  if (g.phase() == Phase::kPlay) {
    // Count the plays, draw one index over plays + pass, generate only that play (moves.hpp).
    const Play* top = g.has_top() ? &g.top() : nullptr;
    const PlayCounts c = count_plays(g.hand(seat), g.level_rank(), g.rules(), top);
    const std::size_t k = rng.bounded(c.total + (g.can_pass() ? 1 : 0));
    if (k == c.total) return pass_action(seat);
    return make_action(ActionType::kPlay, seat,
                       play_at(g.hand(seat), g.level_rank(), g.rules(), top, c, k));
  }
  s.actions.clear();
  g.legal_actions(&s.actions);
  return s.actions[rng.bounded(s.actions.size())];
}

// ---------------------------------------------------------------------------------------
// greedy
// ---------------------------------------------------------------------------------------
Action greedy_action(const PolicyView& g, PolicyScratch& s) {
  if (g.phase() != Phase::kPlay) return simple_exchange(g, s);
  const int seat = g.current_player(), level = g.level_rank();
  s.plays.clear();
  g.legal_plays(&s.plays);
  if (g.has_top()) {
    if (s.plays.empty()) return pass_action(seat);
    const Play* best = &s.plays[0];
    for (const Play& p : s.plays)
      if (cheaper(p, *best, level)) best = &p;
    return make_action(ActionType::kPlay, seat, *best);
  }
  // Lead: the weakest play of the largest size, preferring no control cards.
  const Play* best = nullptr;
  for (const Play& p : s.plays) {
    if (!best) {
      best = &p;
      continue;
    }
    const int cp = control_cards(p, level) > 0, cb = control_cards(*best, level) > 0;
    if (cp != cb) {
      if (cp < cb) best = &p;
      continue;
    }
    if (p.size() != best->size()) {
      if (p.size() > best->size()) best = &p;
      continue;
    }
    if (cheaper(p, *best, level)) best = &p;
  }
  return make_action(ActionType::kPlay, seat, *best);
}

// ---------------------------------------------------------------------------------------
// heuristic
// ---------------------------------------------------------------------------------------

// The reference planner: the plan as first written (issue 9), kept unchanged as the slow,
// obvious statement of the plan; Planner below must make exactly the same plans
// (tests/test_analysis_planner.py compares them). A plan (配牌): the hand split into plays. Jokers
// and level cards are "controls", kept as their own singles / pairs / triples to regain the lead;
// the other cards are grouped by rank, then five-card combinations replace groups while that lowers
// the number of plays (手数): a combination is chosen by the number of plays it saves, ties to the
// lower ranks.
struct ReferencePlanner {
  int level;
  const Rules& rules;
  std::uint8_t cnt[13];  // natural non-level cards per rank
  Cards work;            // those cards

  ReferencePlanner(const Cards& hand, int lv, const Rules& r) : level(lv), rules(r) {
    work = hand.naturals();
    const Cards lvl = rank_cards(level, 0xFF);
    work = Cards{work.lo & ~lvl.lo, work.hi & ~lvl.hi};
    for (int r = 0; r < kNumRanks; ++r) cnt[r] = std::uint8_t(work.rank_count(r));
  }
  // Plays needed for c cards of one rank as singles / pairs / triples.
  static int units(int c) { return c == 0 ? 0 : (c + 2) / 3; }

  void take(int face) {
    work.remove(face);
    --cnt[face_rank(face)];
  }
  int any_face(int r) const {
    for (int s = 0; s < kNumSuits; ++s)
      if (work.count(make_face(r, s))) return make_face(r, s);
    return -1;
  }

  // The best five-card combination among natural non-level cards; returns saving and
  // fills `out` with its cards (0 = none worth it).
  int best_combo(Cards* out) const {
    int best = 0;
    auto consider = [&](int saving, const Cards& c) {
      if (saving > best) {
        best = saving;
        *out = c;
      }
    };
    // straights (and straight flushes): one card of five consecutive ranks (five.hpp)
    unsigned held = 0;  // ranks with a natural non-level card
    for (int r = 0; r < kNumRanks; ++r)
      if (cnt[r]) held |= 1u << r;
    for (int t = first_straight(rules.wrap_straights); t < kNumRanks; ++t) {
      const unsigned ranks = straight_ranks(t);
      if (ranks & (1u << level)) continue;  // keep level cards as controls
      if (window_gaps(t, held)) continue;   // no jokers in a plan's combination
      int saving = -1;
      Cards c;
      for (unsigned x = ranks; x; x &= x - 1) {
        const int r = __builtin_ctz(x);
        saving += units(cnt[r]) - units(cnt[r] - 1);
      }
      // prefer one suit (straight flush) when every rank has it
      int sf_suit = -1;
      for (int s = 0; s < kNumSuits && sf_suit < 0; ++s) {
        bool all = true;
        for (int r = 0; r < kNumRanks; ++r)
          if (((ranks >> r) & 1) && !work.count(make_face(r, s))) all = false;
        if (all) sf_suit = s;
      }
      for (int r = 0; r < kNumRanks; ++r)
        if ((ranks >> r) & 1) c.add(sf_suit >= 0 ? make_face(r, sf_suit) : any_face(r));
      consider(saving, c);
    }
    // full house (triple + pair) and four-plus-one (four + single): lowest ranks first
    for (int t = 0; t < kNumRanks; ++t) {
      if (cnt[t] == 3 || cnt[t] == 4) {
        for (int p = 0; p < kNumRanks; ++p) {
          if (p == t) continue;
          if (cnt[t] == 3 && cnt[p] == 2) {  // 2 plays -> 1
            Cards c;
            take_n(t, 3, &c);
            take_n(p, 2, &c);
            consider(1, c);
          }
          if (cnt[t] == 4 && cnt[p] == 1) {  // 2 + 1 plays -> 1
            Cards c;
            take_n(t, 4, &c);
            take_n(p, 1, &c);
            consider(2, c);
          }
        }
      }
      if (cnt[t] == 5) {
        Cards c;
        take_n(t, 5, &c);
        consider(1, c);  // triple + pair -> five of a kind
      }
    }
    // flushes: per suit, the five lowest cards whose rank is a single (4 plays saved)
    for (int s = 0; s < kNumSuits; ++s) {
      Cards c;
      int n = 0, saving = -1;
      unsigned ranks = 0;
      for (int p = 0; p < kLevelPower && n < 5; ++p) {
        const int r = power_rank(p, level);
        if (cnt[r] == 1 && work.count(make_face(r, s))) {
          c.add(make_face(r, s));
          ranks |= 1u << r;
          ++n;
          ++saving;
        }
      }
      if (n == 5 && !is_sequence(ranks, rules.wrap_straights)) consider(saving, c);
    }
    return best;
  }
  void take_n(int r, int n, Cards* c) const {
    for (int s = 0; s < kNumSuits && n > 0; ++s)
      for (int k = work.count(make_face(r, s)); k > 0 && n > 0; --k, --n) c->add(make_face(r, s));
  }

  void build(const Cards& hand, std::vector<Play>* plan) {
    plan->clear();
    Cards combo;
    while (best_combo(&combo) > 0) {
      Play p;
      if (classify(combo, level, rules, &p)) plan->push_back(p);
      for (int f = 0; f < kNumNatural; ++f)
        for (int k = combo.count(f); k > 0; --k) take(f);
      combo = Cards{};
    }
    // the rest by rank: triples, pairs, singles
    auto add_group = [&](const Cards& c) {
      Play p;
      if (!c.empty() && classify(c, level, rules, &p)) plan->push_back(p);
    };
    for (int r = 0; r < kNumRanks; ++r) {
      while (cnt[r] > 0) {
        const int n = cnt[r] >= 3 ? 3 : cnt[r];
        Cards c;
        take_n(r, n, &c);
        for (int f = 0; f < kNumNatural; ++f)
          for (int k = c.count(f); k > 0; --k) take(f);
        add_group(c);
      }
    }
    // controls: level cards by count, then jokers (a joker pair when there are two)
    const Cards nat = hand.naturals();
    Cards lvl;
    for (int s = 0; s < kNumSuits; ++s)
      for (int k = nat.count(make_face(level, s)); k > 0; --k) lvl.add(make_face(level, s));
    while (!lvl.empty()) {
      Cards c;
      int n = std::min(3, lvl.size());
      for (int f = 0; f < kNumFaces && n > 0; ++f)
        for (int k = lvl.count(f); k > 0 && n > 0; --k, --n) c.add(f);
      lvl -= c;
      add_group(c);
    }
    for (int k = hand.sj(); k > 0; --k) add_group(Cards{0, 1ull << 40});
    for (int k = hand.bj(); k > 0; --k) add_group(Cards{0, 1ull << 42});
  }
};

// The ranks of suit s among cards: bit r set when the face (r, s) is held. Each rank is one
// byte (2 bits a suit, cards.hpp); the multiplication gathers the bytes' low bits.
inline unsigned suit_ranks(const Cards& c, int s) {
  constexpr std::uint64_t kGather = 0x0102040810204080ULL;
  const std::uint64_t lo = (c.lo >> (2 * s)) & 0x0303030303030303ULL;
  const std::uint64_t hi = (c.hi >> (2 * s)) & 0x0000000303030303ULL;  // ranks 8..12
  const std::uint64_t lo1 = (lo | lo >> 1) & 0x0101010101010101ULL;
  const std::uint64_t hi1 = (hi | hi >> 1) & 0x0000000101010101ULL;
  return unsigned((lo1 * kGather) >> 56) | unsigned((hi1 * kGather) >> 56) << 8;
}

// The planner the heuristic uses (issue 17 item 3): the same plans as ReferencePlanner, with
// less work per step - a combination's cards are built only when it beats the best so far,
// the straight flush test reads per-suit rank masks made once per step, the savings of a rank
// are read from a table, and taken cards leave `work` by subtraction (no face loop).
// Candidates are considered in the reference's order and a later one wins only with a
// strictly larger saving, so the choice is the reference's.
struct Planner {
  int level;
  const Rules& rules;
  std::uint8_t cnt[13];  // natural non-level cards per rank
  Cards work;            // those cards

  Planner(const Cards& hand, int lv, const Rules& r) : level(lv), rules(r) {
    work = hand.naturals();
    const Cards lvl = rank_cards(level, 0xFF);
    work = Cards{work.lo & ~lvl.lo, work.hi & ~lvl.hi};
    for (int r = 0; r < kNumRanks; ++r) cnt[r] = std::uint8_t(work.rank_count(r));
  }
  // units(c) - units(c - 1) for c cards of a rank as singles / pairs / triples: 1 when c % 3 == 1
  static int gain(int c) { return c % 3 == 1 ? 1 : 0; }
  // The lowest suit of rank r in work (the reference's any_face).
  int any_face(int r) const {
    const int byte = work.rank_byte(r);
    return make_face(r, __builtin_ctz(unsigned(byte)) >> 1);
  }
  void take_n(int r, int n, Cards* c) const {
    for (int s = 0; s < kNumSuits && n > 0; ++s)
      for (int k = work.count(make_face(r, s)); k > 0 && n > 0; --k, --n) c->add(make_face(r, s));
  }
  void take(const Cards& c) {
    work -= c;
    for (int r = 0; r < kNumRanks; ++r) cnt[r] = std::uint8_t(cnt[r] - c.rank_count(r));
  }

  int best_combo(Cards* out) const {
    int best = 0;
    unsigned suit_held[4];  // per suit, the ranks it holds in work
    for (int s = 0; s < kNumSuits; ++s) suit_held[s] = suit_ranks(work, s);
    const unsigned held = suit_held[0] | suit_held[1] | suit_held[2] | suit_held[3];
    unsigned gains = 0;               // ranks whose next card saves a play (cnt % 3 == 1)
    unsigned singles = 0, pairs = 0;  // ranks with one card, with two
    for (int r = 0; r < kNumRanks; ++r) {
      gains |= unsigned(gain(cnt[r])) << r;
      singles |= unsigned(cnt[r] == 1) << r;
      pairs |= unsigned(cnt[r] == 2) << r;
    }
    for (int t = first_straight(rules.wrap_straights); t < kNumRanks; ++t) {
      const unsigned ranks = straight_ranks(t);
      if (ranks & (1u << level)) continue;
      if (window_gaps(t, held)) continue;
      const int saving = __builtin_popcount(ranks & gains) - 1;
      if (saving <= best) continue;
      int sf_suit = -1;
      for (int s = 0; s < kNumSuits && sf_suit < 0; ++s)
        if ((ranks & ~suit_held[s]) == 0) sf_suit = s;
      Cards c;
      for (unsigned x = ranks; x; x &= x - 1) {
        const int r = __builtin_ctz(x);
        c.add(sf_suit >= 0 ? make_face(r, sf_suit) : any_face(r));
      }
      best = saving;
      *out = c;
    }
    if (best < 2) {
      // the reference scans p upwards for each t: the lowest rank p != t with 2 (1) cards
      for (int t = 0; t < kNumRanks && best < 2; ++t) {
        if (cnt[t] == 3 && best < 1) {
          const unsigned ps = pairs & ~(1u << t);
          if (ps) {
            Cards c;
            take_n(t, 3, &c);
            take_n(__builtin_ctz(ps), 2, &c);
            best = 1;
            *out = c;
          }
        }
        if (cnt[t] == 4) {
          const unsigned ps = singles & ~(1u << t);
          if (ps) {
            Cards c;
            take_n(t, 4, &c);
            take_n(__builtin_ctz(ps), 1, &c);
            best = 2;
            *out = c;
          }
        }
        if (cnt[t] == 5 && best < 1) {
          Cards c;
          take_n(t, 5, &c);
          best = 1;
          *out = c;
        }
      }
    }
    if (best < 4) {  // a flush saves 4 plays
      // the reference takes, per suit, the five lowest-power single ranks; work holds no
      // level card, so power order is rank order: the five lowest bits
      for (int s = 0; s < kNumSuits; ++s) {
        unsigned cand = singles & suit_held[s];
        if (__builtin_popcount(cand) < 5) continue;
        unsigned ranks = 0;
        for (int n = 0; n < 5; ++n, cand &= cand - 1) ranks |= cand & (0u - cand);
        if (is_sequence(ranks, rules.wrap_straights)) continue;
        Cards c;
        for (unsigned x = ranks; x; x &= x - 1) c.add(make_face(__builtin_ctz(x), s));
        best = 4;
        *out = c;
        break;
      }
    }
    return best;
  }

  void build(const Cards& hand, std::vector<Play>* plan) {
    plan->clear();
    Cards combo;
    while (best_combo(&combo) > 0) {
      Play p;
      if (classify(combo, level, rules, &p)) plan->push_back(p);
      take(combo);
      combo = Cards{};
    }
    auto add_group = [&](const Cards& c) {
      Play p;
      if (!c.empty() && classify(c, level, rules, &p)) plan->push_back(p);
    };
    for (int r = 0; r < kNumRanks; ++r) {
      while (cnt[r] > 0) {
        const int n = cnt[r] >= 3 ? 3 : cnt[r];
        Cards c;
        take_n(r, n, &c);
        work -= c;
        cnt[r] = std::uint8_t(cnt[r] - n);
        add_group(c);
      }
    }
    const Cards nat = hand.naturals();
    Cards lvl;
    for (int s = 0; s < kNumSuits; ++s)
      for (int k = nat.count(make_face(level, s)); k > 0; --k) lvl.add(make_face(level, s));
    while (!lvl.empty()) {
      Cards c;
      int n = std::min(3, lvl.size());
      for (int f = 0; f < kNumFaces && n > 0; ++f)
        for (int k = lvl.count(f); k > 0 && n > 0; --k, --n) c.add(f);
      lvl -= c;
      add_group(c);
    }
    for (int k = hand.sj(); k > 0; --k) add_group(Cards{0, 1ull << 40});
    for (int k = hand.bj(); k > 0; --k) add_group(Cards{0, 1ull << 42});
  }
};

// heuristic_exact's plan: the natural non-level cards split into the fewest plays (min_plays),
// then the controls (level cards, jokers) kept apart as Planner keeps them.
void exact_plan(const Cards& hand, int level, const Rules& rules, std::vector<Play>* plan) {
  const Cards lvl_all = rank_cards(level, 0xFF);
  const Cards nat = hand.naturals();
  const Cards work{nat.lo & ~lvl_all.lo, nat.hi & ~lvl_all.hi};
  *plan = min_plays(work, level, rules).plays;
  auto add_group = [&](const Cards& c) {
    Play p;
    if (!c.empty() && classify(c, level, rules, &p)) plan->push_back(p);
  };
  Cards lvl;
  for (int s = 0; s < kNumSuits; ++s)
    for (int k = nat.count(make_face(level, s)); k > 0; --k) lvl.add(make_face(level, s));
  while (!lvl.empty()) {
    Cards c;
    int n = std::min(3, lvl.size());
    for (int f = 0; f < kNumFaces && n > 0; ++f)
      for (int k = lvl.count(f); k > 0 && n > 0; --k, --n) c.add(f);
    lvl -= c;
    add_group(c);
  }
  for (int k = hand.sj(); k > 0; --k) add_group(Cards{0, 1ull << 40});
  for (int k = hand.bj(); k > 0; --k) add_group(Cards{0, 1ull << 42});
}

bool is_control(const Play& p, int level) { return control_cards(p, level) == p.size(); }

// Relative weakness of a plan unit for leading: lower = lead it earlier.
int lead_rank(const Play& p) {
  if (p.size() == 5)
    return int((p.key >> 20) * 16 + ((p.key & 0xFFFFF) >> 16));  // kind, top nibble
  return int(p.key >> 1);
}

// `exact`: plan with min_plays (a fewest-plays split, analysis.hpp) instead of Planner - the
// heuristic_exact policy, an opponent for the search that is not its rollout policy.
Action heuristic_action(const PolicyView& g, Rng& rng, PolicyScratch& s, bool exact = false) {
  (void)rng;
  if (g.phase() != Phase::kPlay) return simple_exchange(g, s);
  const int seat = g.current_player(), level = g.level_rank();
  const Cards& hand = g.hand(seat);
  // (Re)plan when the hand is not what the plan covers.
  Cards covered;
  for (const Play& p : s.plan) covered += p.cards;
  if (covered != hand || s.plan_hand != hand) {
    if (exact) {
      exact_plan(hand, level, g.rules(), &s.plan);
    } else {
      Planner pl(hand, level, g.rules());
      pl.build(hand, &s.plan);
    }
    s.plan_hand = hand;
  }
  const int seats = table_of(g.rules()).seats;  // R18: partners at even distance
  auto partner_close = [&]() {
    for (int k = 2; k < seats; k += 2) {
      const int p = (seat + k) % seats;
      if (!g.is_out(p) && g.cards_left(p) <= 5) return true;
    }
    return false;
  };
  auto opponent_close = [&]() {
    for (int k = 1; k < seats; k += 2) {
      const int o = (seat + k) % seats;
      if (!g.is_out(o) && g.cards_left(o) <= 5) return true;
    }
    return false;
  };
  auto play = [&](const Play& p) { return make_action(ActionType::kPlay, seat, p); };

  if (!g.has_top()) {
    // Lead. Out in one play if the whole hand is one.
    if (s.plan.size() == 1) return play(s.plan[0]);
    // Feed a partner close to going out: the smallest single, else the smallest pair.
    if (partner_close()) {
      for (int size : {1, 2}) {
        const Play* best = nullptr;
        for (const Play& p : s.plan)
          if (p.size() == size && !is_control(p, level) && (!best || p.key < best->key)) best = &p;
        if (best) return play(*best);
      }
    }
    // Otherwise the weakest non-control unit; bigger units first when the hand is strong
    // in controls (seed 000: open five-card plays only with a way back to the lead).
    int controls = 0;
    for (const Play& p : s.plan) controls += is_control(p, level);
    const Play* best = nullptr;
    for (const Play& p : s.plan) {
      if (is_control(p, level)) continue;
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

  // Follow.
  const Play& top = g.top();
  const bool partner_top = team_of(g.top_seat()) == team_of(seat);
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
    if (p.size() == top.size() && beats(p, top) && !is_control(p, level) &&
        (!best || cheaper(p, *best, level)))
      best = &p;
  if (best) return play(*best);
  // Use a control unit when the hand is nearly done, the opponents are close, or the
  // partner needs the lead.
  const bool urgent = opponent_close() || partner_close() || s.plan.size() <= 3;
  if (!urgent) return pass_action(seat);
  for (const Play& p : s.plan)
    if (p.size() == top.size() && beats(p, top) && (!best || cheaper(p, *best, level))) best = &p;
  if (best) return play(*best);
  // Break the plan: the cheapest legal follow, if any.
  s.plays.clear();
  g.legal_plays(&s.plays);
  if (s.plays.empty()) return pass_action(seat);
  const Play* c = &s.plays[0];
  for (const Play& p : s.plays)
    if (cheaper(p, *c, level)) c = &p;
  return play(*c);
}

}  // namespace

HeuristicPlan heuristic_plan(const Cards& hand, int level, const Rules& rules) {
  HeuristicPlan plan;
  Planner(hand, level, rules).build(hand, &plan.plays);
  plan.minimal = int(plan.plays.size()) == plays_lower_bound(hand.size());
  return plan;
}

std::vector<Play> detail::reference_heuristic_plan(const Cards& hand, int level,
                                                   const Rules& rules) {
  std::vector<Play> plays;
  ReferencePlanner(hand, level, rules).build(hand, &plays);
  return plays;
}

namespace {

PolicyEntry rule_entry(const char* name, PolicyFn fn) {
  PolicyEntry e;
  e.name = name;
  e.kind = PolicyKind::kRule;
  e.fn = fn;
  return e;
}

PolicyEntry search_entry(const char* name, const SearchConfig& budget) {
  PolicyEntry e;
  e.name = name;
  e.kind = PolicyKind::kSearch;
  e.search = &pimc_action;
  e.budget = budget;
  return e;
}

SearchConfig with_rollouts(int rollouts) {
  SearchConfig c;
  c.rollouts = rollouts;
  return c;
}

}  // namespace

const char* policy_kind_name(PolicyKind c) {
  switch (c) {
    case PolicyKind::kRule:
      return "rule";
    case PolicyKind::kSearch:
      return "search";
  }
  return "?";
}

const PolicyEntry* policy_entry(PolicyId k) {
  const auto& reg = policy_registry();
  if (model_of(k) || std::size_t(k) >= reg.size()) return nullptr;
  return &reg[std::size_t(k)];
}

bool is_search_policy(PolicyId k) {
  const PolicyEntry* e = policy_entry(k);
  return e && e->kind == PolicyKind::kSearch;
}

const std::vector<PolicyEntry>& policy_registry() {
  // Adding a policy: one entry here (its id is its index; PolicyId names the first ones).
  static const std::vector<PolicyEntry> kPolicies = {
      rule_entry("random", [](const PolicyView& v, Rng& r,
                              PolicyScratch& s) { return random_action(v, r, s); }),
      rule_entry("greedy",
                 [](const PolicyView& v, Rng&, PolicyScratch& s) { return greedy_action(v, s); }),
      rule_entry("heuristic", [](const PolicyView& v, Rng& r,
                                 PolicyScratch& s) { return heuristic_action(v, r, s); }),
      // the search (search.hpp) with its default budget, then fixed budgets in total rollouts
      // per decision (the strength curve, docs/search.md)
      search_entry("pimc", SearchConfig{}),
      search_entry("pimc24", with_rollouts(24)),
      search_entry("pimc48", with_rollouts(48)),
      search_entry("pimc192", with_rollouts(192)),
      // the heuristic planning with min_plays: an opponent that is not pimc's rollout policy
      rule_entry("heuristic_exact",
                 [](const PolicyView& v, Rng& r, PolicyScratch& s) {
                   return heuristic_action(v, r, s, true);
                 }),
  };
  return kPolicies;
}

Action choose_action(PolicyId kind, const GameState& g, Rng& rng, PolicyScratch& scratch) {
  if (g.match_over()) throw GameError("the match is over: no decision to choose");
  return decide(kind, PolicyView(g), rng, scratch);
}

Action decide(PolicyId kind, const PolicyView& view, Rng& rng, PolicyScratch& scratch) {
  const auto& reg = policy_registry();
  if (const auto net = model_of(kind)) return learned_action(view, net.get(), scratch);
  if (std::size_t(kind) >= reg.size()) throw GameError("unknown policy");
  const PolicyEntry& e = reg[std::size_t(kind)];
  return e.kind == PolicyKind::kSearch ? e.search(view, rng, scratch, e.budget)
                                        : e.fn(view, rng, scratch);
}

}  // namespace daguai
