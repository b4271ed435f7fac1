#include <algorithm>
#include <bit>

#include <daguai/game/audience.hpp>
#include <daguai/game/position.hpp>
#include <daguai/game/state.hpp>
#include <daguai/game/tribute_facts.hpp>

namespace daguai {

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::kTribute:
      return "tribute";
    case Phase::kReturn:
      return "return";
    case Phase::kTake:
      return "take";
    case Phase::kPlay:
      return "play";
    case Phase::kMatchOver:
      return "match_over";
  }
  return "?";
}

// The names are kEventKinds' (audience.hpp), the one table of event kinds.
const char* event_name(EventType t) {
  const auto i = std::size_t(t);
  return i < kEventKinds.size() ? kEventKinds[i].name : "?";
}

const char* action_name(ActionType t) {
  switch (t) {
    case ActionType::kPlay:
      return "play";
    case ActionType::kPass:
      return "pass";
    case ActionType::kTribute:
      return "tribute";
    case ActionType::kAntiTribute:
      return "anti_tribute";
    case ActionType::kReturn:
      return "return";
    case ActionType::kOffer:
      return "offer";
    case ActionType::kTake:
      return "take";
  }
  return "?";
}

namespace {

std::string seat_text(int s) { return "seat " + std::to_string(s); }

int single_face(const Cards& c) {
  for (int f = 0; f < kNumFaces; ++f)
    if (c.count(f)) return f;
  return -1;
}

}  // namespace

Play card_play(const Cards& c) {
  Play p;
  p.cards = c;
  p.info = play_info(Kind::kSingle, c.size(), c.jokers(), 0);
  return p;
}

GameState::GameState(const Rules& rules, std::uint64_t seed, std::uint64_t game, bool auto_pass,
                     bool record, Start start)
    : GameState(rules,
                start == Start::kRandom ? random_position(rules, seed, game, auto_pass)
                                        : seeded_position(seed, game, auto_pass, rules.table),
                record) {}

GameState::GameState(const PublicState& pub, const std::array<Cards, kSeats>& hands,
                     const Exchange& exchange, std::uint64_t seed, std::uint64_t game)
    : pub_(pub),
      hands_(hands),
      exchange_(exchange),
      table_(&table_of(pub.rules.table)),
      seed_(seed),
      game_(game),
      initial_auto_pass_(pub.auto_pass),
      record_(false) {
  for (int s = 0; s < kSeats; ++s)
    if (hands_[std::size_t(s)].size() != pub_.cards_left[std::size_t(s)])
      throw GameError("a world's hand of " + seat_text(s) + " has " +
                      std::to_string(hands_[std::size_t(s)].size()) +
                      " cards where the public state counts " +
                      std::to_string(pub_.cards_left[std::size_t(s)]));
}

namespace {

// R2, R17: shuffle the 162 cards (face-major: 3 x face 0, 3 x face 1, ...) with the round's
// stream; seat s receives shuffled positions [27 s, 27 s + 27). R18 4p2d: the same with 108
// cards (2 x each face) and 4 seats.
// The table's figures as template arguments: the loops have constant bounds, as before R18.
template <int kSeatsT, int kDecksT, int kHandT>
std::array<Cards, kSeats> deal_of(std::uint64_t seed, std::uint64_t game, int round) {
  constexpr int n = kNumFaces * kDecksT;
  std::uint8_t deck[n];
  for (int i = 0; i < n; ++i) deck[i] = std::uint8_t(i / kDecksT);
  Rng r = Rng::stream(seed, game, Stream::kDeal, std::uint64_t(round));
  r.shuffle(deck, n);
  std::array<Cards, kSeats> hands{};
  for (int s = 0; s < kSeatsT; ++s)
    for (int k = 0; k < kHandT; ++k) hands[std::size_t(s)].add(deck[s * kHandT + k]);
  return hands;
}

std::array<Cards, kSeats> seeded_deal(const Table& t, std::uint64_t seed, std::uint64_t game,
                                      int round) {
  if (t.kind == TableKind::k4p2d)
    return deal_of<kTable4p2d.seats, kTable4p2d.decks, kTable4p2d.hand_size>(seed, game, round);
  return deal_of<kTable6p3d.seats, kTable6p3d.decks, kTable6p3d.hand_size>(seed, game, round);
}

}  // namespace

Position GameState::seeded_position(std::uint64_t seed, std::uint64_t game, bool auto_pass,
                                    TableKind table) {
  const Table& t = table_of(table);
  Position p;
  p.seed = seed;
  p.game = game;
  // R10: the first dealer is chosen at random (seeded).
  Rng r = Rng::stream(seed, game, Stream::kFirstDealer, 0);
  p.dealer = int(r.bounded(std::uint64_t(t.seats)));
  p.hands = seeded_deal(t, seed, game, 0);
  p.auto_pass = auto_pass;
  return p;
}

void GameState::set_auto_pass(bool on) {
  if (on == pub_.auto_pass) return;
  pub_.auto_pass = on;
  log_event(EventType::kAutoPass, -1, -1, nullptr, 0, on ? 1 : 0);
  run_auto_passes();
}

// The next round of a seeded match: deal from the round's stream, tribute from the
// previous round's result (R11).
void GameState::deal_round() {
  const std::array<Cards, kSeats> hands = seeded_deal(*table_, seed_, game_, pub_.round);
  if (!results_.empty() && results_.back().n_tributers > 0) {
    const RoundResult& last = results_.back();
    begin_round(hands, last.n_tributers, last.tributers.data(), last.receivers.data());
  } else {
    begin_round(hands, 0, nullptr, nullptr);
  }
}

void GameState::begin_round(const std::array<Cards, kSeats>& hands, int n_pairs,
                            const std::int8_t* trib, const std::int8_t* recv) {
  hands_ = hands;
  for (int s = 0; s < kSeats; ++s)
    pub_.cards_left[std::size_t(s)] = std::int8_t(hands_[std::size_t(s)].size());
  pub_.played.fill(Cards{});
  pub_.forced = ForcedLog();
  pub_.top_seat = -1;
  pub_.passed = 0;
  pub_.finish_order.fill(-1);
  pub_.players_out = 0;
  pub_.out_mask = 0;
  pub_.n_pairs = 0;
  pub_.pair_step = 0;
  pub_.tribute_face.fill(-1);
  exchange_.return_face.fill(-1);
  exchange_.offer.fill(Cards{});
  if (record_) {
    Deal d;
    d.round = pub_.round;
    d.dealer = std::int8_t(pub_.dealer);
    d.levels = {std::int8_t(pub_.levels[0]), std::int8_t(pub_.levels[1])};
    d.hands = hands_;
    deals_.push_back(d);
  }
  round_log_start_ = log_.size();
  log_event(EventType::kDeal, pub_.dealer, -1, nullptr, std::int32_t(deals_.size()) - 1);
  // R11: tribute, after this deal.
  if (n_pairs > 0) {
    pub_.n_pairs = n_pairs;
    for (int i = 0; i < pub_.n_pairs; ++i) {
      pub_.tributers[std::size_t(i)] = trib[i];
      pub_.receivers[std::size_t(i)] = recv[i];
    }
    pub_.phase = Phase::kTribute;
    pub_.pair_step = 0;
    pub_.current = pub_.tributers[0];
    return;
  }
  start_play();
}

void GameState::start_play() {
  pub_.phase = Phase::kPlay;
  pub_.current = pub_.dealer;  // R8: the dealer leads the first trick
  pub_.top_seat = -1;
  pub_.passed = 0;
}

// After a tribute / return / take: move to the next pending step of the tribute exchange.
// Order: every tributer pays (pairs in order), then every receiver returns (same order).
void GameState::next_tribute_step() {
  if (pub_.phase == Phase::kTribute) {
    if (++pub_.pair_step < pub_.n_pairs) {
      pub_.current = pub_.tributers[pub_.pair_step];
      return;
    }
    pub_.pair_step = -1;
    pub_.phase = Phase::kReturn;
  } else {
    pub_.phase = Phase::kReturn;
  }
  for (int i = pub_.pair_step + 1; i < pub_.n_pairs; ++i) {
    if (pub_.tribute_face[i] < 0) continue;  // refused (anti_tribute): nothing to return
    pub_.pair_step = i;
    pub_.current = pub_.receivers[i];
    return;
  }
  start_play();
}

// R11: the highest single power in the hand; R18 4p2d: among the natural cards only (jokers
// are never tribute cards there).
int GameState::highest_power_in(const Cards& hand) const {
  const int level = level_rank();
  const int faces = table_->joker_tribute ? kNumFaces : kNumNatural;
  int best = -1;
  for (int f = 0; f < faces; ++f)
    if (hand.count(f)) best = std::max(best, face_power(f, level));
  return best;
}

void GameState::legal_plays(PlayList* out) const {
  if (pub_.phase != Phase::kPlay) return;
  daguai::legal_plays(hands_[pub_.current], level_rank(), pub_.rules,
                      pub_.top_seat >= 0 ? &pub_.top : nullptr, out);
}

namespace {

// Every sub-multiset of `hand` with k cards, in ascending face order (offers).
void sub_multisets(const Cards& hand, int k, int face, Cards acc, std::vector<Action>* out,
                   int seat) {
  if (k == 0) {
    Action a;
    a.type = ActionType::kOffer;
    a.seat = std::int8_t(seat);
    a.play = card_play(acc);
    out->push_back(a);
    return;
  }
  for (int f = face; f < kNumFaces; ++f) {
    const int c = hand.count(f);
    if (!c) continue;
    Cards next = acc;
    for (int t = 1; t <= std::min(c, k); ++t) {
      next.add(f);
      sub_multisets(hand, k - t, f + 1, next, out, seat);
    }
  }
}

}  // namespace

void GameState::legal_actions(std::vector<Action>* out) const {
  const int seat = pub_.current;
  auto single = [&](ActionType t, int f) {
    Action a;
    a.type = t;
    a.seat = std::int8_t(seat);
    Cards c;
    c.add(f);
    a.play = card_play(c);
    out->push_back(a);
  };
  switch (pub_.phase) {
    case Phase::kMatchOver:
      return;
    case Phase::kPlay: {
      thread_local PlayList plays;
      plays.clear();
      legal_plays(&plays);
      out->reserve(out->size() + plays.size() + 1);
      for (const Play& p : plays) out->push_back(play_action(seat, p));
      if (can_pass()) out->push_back(pass_action(seat));
      return;
    }
    case Phase::kTribute: {
      const Cards& h = hands_[seat];
      const int best = highest_power_in(h);
      for (int f = 0; f < kNumFaces; ++f)
        if (h.count(f) && face_power(f, level_rank()) == best) single(ActionType::kTribute, f);
      if (pub_.rules.anti_tribute && h.jokers() >= kAntiTributeJokers) {
        Action a;
        a.type = ActionType::kAntiTribute;
        a.seat = std::int8_t(seat);
        out->push_back(a);
      }
      return;
    }
    case Phase::kReturn: {
      const int paid = pub_.tribute_face[pub_.pair_step];
      if (pub_.rules.joker_tribute_choice && is_joker(paid)) {
        sub_multisets(hands_[seat], paid == kSJ ? 2 : 3, 0, Cards{}, out, seat);
        return;
      }
      for (int f = 0; f < kNumFaces; ++f)
        if (hands_[seat].count(f)) single(ActionType::kReturn, f);
      return;
    }
    case Phase::kTake: {
      const Cards& o = exchange_.offer[pub_.pair_step];
      for (int f = 0; f < kNumFaces; ++f)
        if (o.count(f)) single(ActionType::kTake, f);
      return;
    }
  }
}

void GameState::check_turn(ActionType t) const {
  if (pub_.phase == Phase::kMatchOver)
    throw GameError(std::string("the match is over: no ") + action_name(t) + " is possible");
  bool ok = false;
  const char* expected = "";
  switch (pub_.phase) {
    case Phase::kPlay:
      ok = t == ActionType::kPlay || t == ActionType::kPass;
      expected = "play or pass";
      break;
    case Phase::kTribute:
      ok = t == ActionType::kTribute || t == ActionType::kAntiTribute;
      expected = "tribute";
      break;
    case Phase::kReturn: {
      const bool offer =
          pub_.rules.joker_tribute_choice && is_joker(pub_.tribute_face[pub_.pair_step]);
      ok = t == (offer ? ActionType::kOffer : ActionType::kReturn);
      expected = offer ? "offer (joker tribute: 2 or 3 candidate cards)" : "return";
      break;
    }
    case Phase::kTake:
      ok = t == ActionType::kTake;
      expected = "take";
      break;
    default:
      break;
  }
  if (!ok)
    throw GameError(std::string("wrong phase: a ") + action_name(t) + " was given but " +
                    seat_text(pub_.current) + " must " + expected + " (phase " +
                    phase_name(pub_.phase) + ")");
}

void GameState::check(const Action& a) const {
  check_turn(a.type);
  if (a.seat >= 0 && a.seat != pub_.current)
    throw GameError("out of turn: the action is " + seat_text(a.seat) + "'s but it is " +
                    seat_text(pub_.current) + "'s turn");
  const Cards& hand = hands_[pub_.current];
  auto one_card_in = [&](const Cards& from, const char* what) {
    if (a.play.cards.size() != 1)
      throw GameError(std::string(what) + " is exactly one card, got '" + cards_text(a.play.cards) +
                      "'");
    if (!from.contains(a.play.cards))
      throw CardError(
          std::string(what) + ": " + cards_text(a.play.cards) + " is not in " +
          (&from == &hand ? "the hand of " + seat_text(pub_.current) : std::string("the offer")));
  };
  switch (a.type) {
    case ActionType::kPlay:
      check_play(hand, a.play, level_rank(), pub_.rules, pub_.top_seat >= 0 ? &pub_.top : nullptr);
      return;
    case ActionType::kPass:
      if (pub_.top_seat < 0)
        throw GameError(seat_text(pub_.current) + " leads the trick and cannot pass (R8)");
      return;
    case ActionType::kTribute: {
      one_card_in(hand, "a tribute");
      const int f = single_face(a.play.cards);
      if (!((open_ >> pub_.current) & 1) && face_power(f, level_rank()) != highest_power_in(hand))
        throw GameError(
            std::string("a tribute must be a card of the highest power in the hand") +
            (table_->joker_tribute ? " (R11); " : ", jokers excepted (R11, R18 4p2d); ") +
            face_text(f) + " is not");
      return;
    }
    case ActionType::kAntiTribute:
      if (!pub_.rules.anti_tribute)
        throw GameError("anti_tribute (抗贡) is not enabled in these rules");
      if (hand.jokers() < kAntiTributeJokers)
        throw GameError("anti_tribute (抗贡) needs " + std::to_string(kAntiTributeJokers) +
                        " or more jokers; " + seat_text(pub_.current) + " has " +
                        std::to_string(hand.jokers()));
      return;
    case ActionType::kReturn:
      one_card_in(hand, "a return");
      return;
    case ActionType::kOffer: {
      const int need = pub_.tribute_face[pub_.pair_step] == kSJ ? 2 : 3;
      if (a.play.cards.size() != need)
        throw GameError("the offer for a " + face_text(pub_.tribute_face[pub_.pair_step]) +
                        " tribute is " + std::to_string(need) + " cards, got '" +
                        cards_text(a.play.cards) + "'");
      if (!hand.contains(a.play.cards))
        throw CardError("offer: '" + cards_text(a.play.cards) + "' is not in the hand of " +
                        seat_text(pub_.current));
      return;
    }
    case ActionType::kTake:
      one_card_in(exchange_.offer[pub_.pair_step], "a take");
      return;
  }
  throw GameError("unknown action type");
}

namespace {

// apply's test of a play by the seat to act in the play phase: the tests of check_play (the
// cards in the hand, the play's level, its classification, beating the top) in one pass, no
// message built. False under Wild::kDeclare (check() then tests the play's interpretations).
[[gnu::always_inline]] inline bool accepts_play(const PublicState& pub, const Cards& hand,
                                                const Play& p) {
  const int level = pub.level_rank();
  if (!hand.contains(p.cards) || p.level() != level) return false;
  if (pub.top_seat >= 0 && !beats(p, pub.top)) return false;
  if (pub.rules.wild == Wild::kDeclare) return false;
  Play q;
  return classify(p.cards, level, pub.rules, &q) && q == p;
}

}  // namespace

// The play phase's two decisions (R8) by the seat to act are tested inline, as check() tests
// them; anything else, or anything the inline test does not accept, goes through check(),
// which throws the documented error (or accepts, under Wild::kDeclare).
// apply itself only dispatches (no frame, no saved registers): a pass and a play each jump
// to a function of their own, whose frame holds only what that path needs.
void GameState::apply(const Action& a) {
  if (pub_.phase == Phase::kPlay && (a.seat < 0 || a.seat == pub_.current)) {
    if (a.type == ActionType::kPass && pub_.top_seat >= 0) return apply_pass(false);
    if (a.type == ActionType::kPlay) return apply_play(a);
  }
  apply_checked(a);
}

[[gnu::noinline]] void GameState::apply_play(const Action& a) {
  if (accepts_play(pub_, hands_[std::size_t(pub_.current)], a.play)) return play_step(a.play);
  apply_checked(a);
}

[[gnu::noinline]] void GameState::apply_checked(const Action& a) {
  check(a);
  apply_trusted(a);
}

void GameState::apply_trusted(const Action& a) {
#ifndef NDEBUG
  check(a);
#endif
  if (a.type == ActionType::kPlay) return play_step(a.play);
  if (a.type == ActionType::kPass) return pass_step(false);
  apply_exchange(a);
}

// The tribute phases' decisions (R11), trusted.
void GameState::apply_exchange(const Action& a) {
  const int seat = pub_.current;
  const int i = pub_.pair_step;
  // A tribute exchange: one card moves between the pair, is remembered, and is logged.
  auto exchange = [&](int from, int to, int* slot, EventType ev, int other) {
    const int f = single_face(a.play.cards);
    hands_[from].remove(f);
    hands_[to].add(f);
    --pub_.cards_left[std::size_t(from)];
    ++pub_.cards_left[std::size_t(to)];
    *slot = f;
    log_event(ev, seat, other, &a.play);
    next_tribute_step();
  };
  switch (a.type) {
    case ActionType::kPlay:
    case ActionType::kPass:
      return;  // apply_trusted's
    case ActionType::kTribute:
      exchange(seat, pub_.receivers[i], &pub_.tribute_face[i], EventType::kTribute,
               pub_.receivers[i]);
      return;
    case ActionType::kReturn:
      exchange(seat, pub_.tributers[i], &exchange_.return_face[i], EventType::kReturn,
               pub_.tributers[i]);
      return;
    case ActionType::kTake:  // the tributer takes an offered card from the receiver
      exchange(pub_.receivers[i], seat, &exchange_.return_face[i], EventType::kTake,
               pub_.receivers[i]);
      return;
    case ActionType::kAntiTribute: {
      pub_.tribute_face[i] = -2;
      Play shown = card_play(Cards{0, hands_[seat].hi & ~Cards::kHiNatural});  // the jokers shown
      log_event(EventType::kAntiTribute, seat, pub_.receivers[i], &shown);
      next_tribute_step();
      return;
    }
    case ActionType::kOffer:
      exchange_.offer[i] = a.play.cards;
      log_event(EventType::kOffer, seat, pub_.tributers[i], &a.play);
      pub_.phase = Phase::kTake;
      pub_.current = pub_.tributers[i];
      return;
  }
}

void GameState::apply_forced_pass() {
  check_turn(ActionType::kPass);
  if (pub_.top_seat < 0)
    throw GameError("seat " + std::to_string(pub_.current) +
                    " leads the trick and cannot pass (R8)");
  if (has_legal_follow(hands_[pub_.current], level_rank(), pub_.rules, pub_.top))
    throw GameError("seat " + std::to_string(pub_.current) +
                    " has a play that beats the top: the pass is not forced");
  apply_pass(true);
}

// ---- the play phase (R8) ----------------------------------------------------------------

// R1 order: the first seat after `seat` (wrapping, `seat` itself last) still holding cards:
// the lowest active seat above `seat`, else the lowest active seat.
inline int GameState::next_active(int seat) const {
  const unsigned active = ~pub_.out_mask & table_->all_mask();
  const unsigned after = active & ~((2u << seat) - 1u);
  const unsigned m = after ? after : active;
  return m ? std::countr_zero(m) : -1;
}

inline void GameState::play_step(const Play& p) {
  const int seat = pub_.current;
  Cards& hand = hands_[std::size_t(seat)];
  hand -= p.cards;
  const int left = hand.size();
  pub_.cards_left[std::size_t(seat)] = std::int8_t(left);
  pub_.played[std::size_t(seat)] += p.cards;
  log_event(EventType::kPlay, seat, -1, &p);
  pub_.top = p;
  pub_.top_seat = seat;
  pub_.passed = 0;
  if (left == 0) {  // R8: out, in finishing order
    pub_.finish_order[std::size_t(pub_.players_out++)] = std::int8_t(seat);
    pub_.out_mask |= 1u << seat;
    const unsigned team_mask = table_->team_mask(team_of(seat));
    if ((pub_.out_mask & team_mask) == team_mask) {  // R8: the round ends when one team is out
      finish_round();
      return;
    }
  }
  pub_.current = next_active(seat);
  run_auto_passes();
}

inline void GameState::pass_step(bool automatic) {
  const int seat = pub_.current;
  pub_.passed |= 1u << seat;
  if (automatic) pub_.forced.push_back(ForcedPass{std::int8_t(seat), pub_.top, pub_.played[seat]});
  log_event(EventType::kPass, seat, -1, nullptr, 0, automatic ? 1 : 0);
  end_trick_or_continue(seat);
}

[[gnu::noinline]] void GameState::apply_pass(bool automatic) { pass_step(automatic); }

// R8: the trick ends when every player still holding cards, other than the one who made
// the last play, has passed since that play (R18: at most 3 others at 4p2d).
inline void GameState::end_trick_or_continue(int from) {
  const unsigned active = ~pub_.out_mask & table_->all_mask();
  const unsigned others = active & ~(1u << pub_.top_seat);
  if ((others & ~pub_.passed) != 0) {
    pub_.current = next_active(from);
    run_auto_passes();
    return;
  }
  int leader = pub_.top_seat;
  if ((pub_.out_mask >> pub_.top_seat) & 1) {
    leader = -1;
    if (pub_.rules.lead_after_out == LeadAfterOut::kPartner) {  // 接风: the next partner with cards
      const Table& tb = *table_;
      for (int k = 2; k < tb.seats && leader < 0; k += 2) {
        const int s = tb.next(pub_.top_seat, k);
        if (!((pub_.out_mask >> s) & 1)) leader = s;
      }
    }
    if (leader < 0) leader = next_active(pub_.top_seat);
  }
  pub_.top_seat = -1;
  pub_.passed = 0;
  pub_.current = leader;
}

void GameState::auto_passes() {
  while (pub_.phase == Phase::kPlay && pub_.top_seat >= 0 &&
         !has_legal_follow(hands_[pub_.current], level_rank(), pub_.rules, pub_.top))
    pass_step(true);
}

}  // namespace daguai
