#include <algorithm>

#include <daguai/beliefs/constraints.hpp>
#include <daguai/game/tribute_facts.hpp>

namespace daguai {

namespace {

// R11 order of the exchange (state.cpp next_tribute_step): every tributer pays, then the
// receivers return in pair order; the phase and pair_step say which returns are made.
bool returned(const PublicState& pub, int pair) {
  switch (pub.phase) {
    case Phase::kPlay:
    case Phase::kMatchOver:
      return true;
    case Phase::kReturn:
    case Phase::kTake:
      return pair < pub.pair_step;
    case Phase::kTribute:
      return false;
  }
  return false;
}

int first_face(const Cards& c, const Cards& mask) {
  const Cards m{c.lo & mask.lo, c.hi & mask.hi};
  for (int f = 0; f < kNumFaces; ++f)
    if (m.count(f)) return f;
  return -1;
}

const Cards kAll{~0ULL, Cards::kHiValid};

std::string seat_text(int s) { return "seat " + std::to_string(s); }

}  // namespace

Constraints::Constraints(const InfoState& v) : v_(&v) {
  const PublicState& pub = v.pub;
  const int seats = pub.table().seats;
  auto add = [&](Fact f) {
    facts_.push_back(f);
    ++seat_facts_[std::size_t(f.a)];
    if (f.b >= 0) ++seat_facts_[std::size_t(f.b)];
  };
  for (int s = 0; s < seats; ++s)
    if (s != v.seat && v.jokers_known[std::size_t(s)]) add(Fact{Kind::kJokers, std::int8_t(s)});
  pub.forced.for_each_from(0, [&](const ForcedPass& fp) {
    if (fp.seat == v.seat) return;  // the viewer's own hand is exact
    forced_.push_back(fp);
    add(Fact{Kind::kForced, fp.seat, -1, std::int16_t(forced_.size() - 1)});
  });
  // auto_pass: a seat left to act over a top holds a play that beats it (or the engine
  // would have passed for it)
  if (pub.auto_pass && pub.phase == Phase::kPlay && pub.has_top() && pub.current >= 0 &&
      pub.current != v.seat)
    add(Fact{Kind::kFollows, std::int8_t(pub.current)});
  for (int i = 0; i < pub.n_pairs; ++i) {
    const int x = pub.tribute_face[std::size_t(i)];
    const auto t = pub.tributers[std::size_t(i)], r = pub.receivers[std::size_t(i)];
    if (x == -2 && t != v.seat && !v.jokers_known[std::size_t(t)])
      add(Fact{Kind::kRefused, t});  // the jokers shown are not known: only their number
    if (x < 0) continue;             // not paid yet, or refused (the jokers facts)
    const Cards above = cards_above_tribute(x, pub.level_rank(), pub.table());
    const auto pair = std::int16_t(i);
    if (!returned(pub, i)) {
      if (t != v.seat) add(Fact{Kind::kCap, t, -1, pair, -1, above});
      if (r != v.seat) add(Fact{Kind::kHeld, r, -1, pair, x, above});
    } else if (v.exchange.return_face[std::size_t(i)] >= 0) {
      if (t != v.seat)
        add(Fact{Kind::kCap, t, -1, pair, v.exchange.return_face[std::size_t(i)], above});
    } else {
      add(Fact{Kind::kExists, t, r, pair, x, above});
    }
  }
}

Cards Constraints::hand_at_pass(const Fact& f, const Hands& hands) const {
  const ForcedPass& fp = forced_[std::size_t(f.index)];
  return hands[std::size_t(f.a)] + (v_->pub.played[std::size_t(f.a)] - fp.played_before);
}

Cards Constraints::tributer_dealt(const Fact& f, const Hands& hands) const {
  Cards dealt = since_exchange(f.a, hands);
  if (f.face >= 0 && dealt.count(f.face)) dealt.remove(f.face);
  return dealt;
}

bool Constraints::ok(const Fact& f, const Hands& hands) const {
  const InfoState& v = *v_;
  switch (f.kind) {
    case Kind::kJokers:
      return hands[std::size_t(f.a)].jokers() == v.known[std::size_t(f.a)].jokers();
    case Kind::kRefused:
      return since_exchange(f.a, hands).jokers() >= kAntiTributeJokers;
    case Kind::kForced:
      return !has_legal_follow(hand_at_pass(f, hands), v.pub.level_rank(), v.pub.rules,
                               forced_[std::size_t(f.index)].top);
    case Kind::kFollows:
      return has_legal_follow(hands[std::size_t(f.a)], v.pub.level_rank(), v.pub.rules, v.pub.top);
    case Kind::kCap:
      return count_above(tributer_dealt(f, hands), f.above) == 0;
    case Kind::kHeld:
      return since_exchange(f.a, hands).count(f.face) > 0;
    case Kind::kExists: {
      const Cards tt = since_exchange(f.a, hands), rr = since_exchange(f.b, hands);
      const int n = count_above(tt, f.above);
      if (n >= 2) return false;
      return rr.count(f.face) > 0 || (n == 0 && tt.count(f.face) > 0);
    }
  }
  return false;
}

std::string Constraints::describe(const Fact& f, const Hands& hands) const {
  const InfoState& v = *v_;
  const int x = f.face;
  switch (f.kind) {
    case Kind::kJokers:
      return seat_text(f.a) + " holds " + std::to_string(hands[std::size_t(f.a)].jokers()) +
             " jokers but showed all its jokers in a refusal (anti_tribute, R11): " +
             std::to_string(v.known[std::size_t(f.a)].jokers()) + " are left";
    case Kind::kRefused:
      return seat_text(f.a) + " refused tribute (anti_tribute) but holds " +
             std::to_string(since_exchange(f.a, hands).jokers()) + " jokers, not " +
             std::to_string(kAntiTributeJokers) + " or more (R11)";
    case Kind::kForced:
      return seat_text(f.a) + " passed automatically over " +
             cards_text(forced_[std::size_t(f.index)].top.cards) +
             " but its hand then had a play that beats it (R8, auto_pass)";
    case Kind::kFollows:
      return seat_text(f.a) +
             " is to act under auto_pass but holds no play that beats the top (it would have "
             "passed automatically)";
    case Kind::kCap:
      return seat_text(f.a) + " paid the tribute " +
             face_text(v.pub.tribute_face[std::size_t(f.index)]) +
             " but its dealt hand held a card above it (R11)";
    case Kind::kHeld:
      return seat_text(f.a) + " received the tribute " + face_text(x) +
             " but does not hold it before its return (R11)";
    case Kind::kExists:
      return "no returned card explains the tribute " + face_text(x) + " of " + seat_text(f.a) +
             " to " + seat_text(f.b) +
             " (R11: the tributer's dealt hand held no card above it, and the receiver held it)";
  }
  return "";
}

std::string Constraints::violation(const Hands& hands) const {
  const InfoState& v = *v_;
  const int seats = v.table().seats;
  Cards all;
  for (int s = 0; s < kSeats; ++s) {
    const Cards& h = hands[std::size_t(s)];
    if (s >= seats) {
      if (!h.empty()) return seat_text(s) + " is not a seat of the table (R18)";
      continue;
    }
    if (h.size() != v.pub.cards_left[std::size_t(s)])
      return seat_text(s) + " holds " + std::to_string(h.size()) + " cards, not its " +
             std::to_string(v.pub.cards_left[std::size_t(s)]) + " (R16: counts are public)";
    if (!h.contains(v.known[std::size_t(s)]))
      return seat_text(s) + " does not hold " + cards_text(v.known[std::size_t(s)]) +
             ", which the viewer knows it holds";
    if (s == v.seat) continue;
    if (Cards::sum_overflows(all, h)) return "a face is dealt more often than the deck holds it";
    all += h - v.known[std::size_t(s)];
  }
  if (v.seat >= 0 && hands[std::size_t(v.seat)] != v.hand)
    return "the viewer's hand is not its own";
  if (all != v.unseen) return "the hidden cards are not the cards the viewer has not seen";
  for (const Fact& f : facts_)
    if (!ok(f, hands)) return describe(f, hands);
  return "";
}

std::string Constraints::violation_among(unsigned seats, const Hands& hands) const {
  for (const Fact& f : facts_) {
    if (!((seats >> f.a) & 1) || (f.b >= 0 && !((seats >> f.b) & 1))) continue;
    if (!ok(f, hands)) return describe(f, hands);
  }
  return "";
}

bool Constraints::holds(const Hands& hands) const {
  for (const Fact& f : facts_)
    if (!ok(f, hands)) return false;
  return true;
}

bool Constraints::seat_ok(int s, const Hands& hands) const {
  if (!seat_facts_[std::size_t(s)]) return true;
  for (const Fact& f : facts_)
    if ((f.a == s || f.b == s) && !ok(f, hands)) return false;
  return true;
}

bool Constraints::partial_ok(int s, unsigned assigned, const Hands& hands) const {
  for (const Fact& f : facts_) {
    if (f.a != s && f.b != s) continue;
    if (!((assigned >> f.a) & 1) || (f.b >= 0 && !((assigned >> f.b) & 1))) continue;
    if (!ok(f, hands)) return false;
  }
  return true;
}

int Constraints::penalty(const Fact& f, const Hands& hands) const {
  const InfoState& v = *v_;
  switch (f.kind) {
    case Kind::kJokers:
      return hands[std::size_t(f.a)].jokers() - v.known[std::size_t(f.a)].jokers();
    case Kind::kForced:  // each distinct play that beats the top is one step away
      return int(count_plays(hand_at_pass(f, hands), v.pub.level_rank(), v.pub.rules,
                             &forced_[std::size_t(f.index)].top)
                     .total);
    case Kind::kCap:
      return count_above(tributer_dealt(f, hands), f.above);
    case Kind::kExists: {
      const int n = count_above(since_exchange(f.a, hands), f.above);
      return (n >= 2 ? n - 1 : 0) + !ok(f, hands);
    }
    case Kind::kRefused:
      return std::max(0, kAntiTributeJokers - since_exchange(f.a, hands).jokers());
    case Kind::kFollows:
    case Kind::kHeld:
      return !ok(f, hands);
  }
  return 0;
}

int Constraints::penalty(const Hands& hands) const {
  int n = 0;
  for (const Fact& f : facts_) n += penalty(f, hands);
  return n;
}

int Constraints::penalty_of(int s1, int s2, const Hands& hands) const {
  int n = 0;
  for (const Fact& f : facts_)
    if (f.a == s1 || f.a == s2 || (f.b >= 0 && (f.b == s1 || f.b == s2))) n += penalty(f, hands);
  return n;
}

bool Constraints::monotone_ok(int s, const Hands& hands) const {
  for (const Fact& f : facts_) {
    if (f.a != s || f.b >= 0) continue;
    if ((f.kind == Kind::kForced || f.kind == Kind::kCap || f.kind == Kind::kJokers) &&
        !ok(f, hands))
      return false;
  }
  return true;
}

int Constraints::facts_of(int s) const { return seat_facts_[std::size_t(s)]; }

int Constraints::witness_return(int pair, const Hands& hands) const {
  for (const Fact& f : facts_) {
    if (f.kind != Kind::kExists || f.index != pair) continue;
    const Cards tt = since_exchange(f.a, hands), rr = since_exchange(f.b, hands);
    const int n = count_above(tt, f.above);
    if (n == 1) return first_face(tt, f.above);         // the one card above x came back
    if (rr.count(f.face)) return first_face(tt, kAll);  // r kept x: any card of t
    return tt.count(f.face) ? f.face : -1;              // r returned x itself
  }
  return -1;
}

namespace {

int pair_of(const PublicState& pub, int seat) {
  for (int i = 0; i < pub.n_pairs; ++i)
    if (pub.tributers[std::size_t(i)] == seat || pub.receivers[std::size_t(i)] == seat) return i;
  return -1;
}

Cards one(int f) {
  Cards c;
  if (f >= 0) c.add(f);
  return c;
}

}  // namespace

Position world_position(const InfoState& v, const Hands& hands) {
  const PublicState& pub = v.pub;
  if (v.history.empty())
    throw GameError("world_position: the view has no history (a view of a recording game)");
  const Constraints c(v);
  Position p;
  p.round = pub.round;
  p.dealer = pub.dealer;
  p.levels = pub.levels;
  p.scores = pub.scores;
  p.final_failures = pub.final_failures;
  p.n_pairs = pub.n_pairs;
  p.tributers = pub.tributers;
  p.receivers = pub.receivers;
  p.hands = hands;
  p.auto_pass = pub.auto_pass;
  p.to_act = pub.current;
  p.check_finish_order = true;
  for (int i = 0; i < pub.players_out; ++i)
    p.finish_order.push_back(pub.finish_order[std::size_t(i)]);
  // round 0 with tribute exists only in a random start state (position.hpp)
  p.start = pub.round == 0 && pub.n_pairs > 0 ? Start::kRandom : Start::kFresh;
  for (const Event& e : v.history) {
    HistoryEntry h;
    h.action.seat = e.seat;
    h.action.play = e.play;
    const bool hidden = e.flags & 2;
    const int i = pair_of(pub, e.seat);
    switch (e.type) {
      case EventType::kPlay:
        h.action.type = ActionType::kPlay;
        break;
      case EventType::kPass:
        h.action.type = ActionType::kPass;
        h.action.play = Play{};
        h.automatic = e.flags & 1;
        break;
      case EventType::kTribute:
        h.action.type = ActionType::kTribute;
        break;
      case EventType::kAntiTribute:
        h.action.type = ActionType::kAntiTribute;
        h.action.play = Play{};
        break;
      case EventType::kReturn:
      case EventType::kTake:
        h.action.type = e.type == EventType::kReturn ? ActionType::kReturn : ActionType::kTake;
        if (hidden) h.action.play = card_play(one(c.witness_return(i, hands)));
        break;
      case EventType::kOffer: {
        h.action.type = ActionType::kOffer;
        if (!hidden) break;
        // the witness y and any other cards of the receiver's hand then (T(r) + y)
        const int y = c.witness_return(i, hands);
        const int r = pub.receivers[std::size_t(i)];
        Cards offer = one(y), rest = hands[std::size_t(r)] + pub.played[std::size_t(r)];
        const int need = pub.tribute_face[std::size_t(i)] == kSJ ? 2 : 3;
        for (int f = 0; f < kNumFaces && offer.size() < need; ++f)
          for (int k = rest.count(f); k > 0 && offer.size() < need; --k)
            if (offer.count(f) < kMaxCopies) offer.add(f);
        h.action.play = card_play(offer);
        break;
      }
      default:
        continue;  // the deal, the auto_pass setting: not decisions of a position
    }
    p.history.push_back(h);
  }
  return p;
}

}  // namespace daguai
