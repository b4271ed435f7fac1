#include "state.hpp"

#include <algorithm>

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

const char* event_name(EventType t) {
  switch (t) {
    case EventType::kDeal:
      return "deal";
    case EventType::kTribute:
      return "tribute";
    case EventType::kAntiTribute:
      return "anti_tribute";
    case EventType::kReturn:
      return "return";
    case EventType::kOffer:
      return "offer";
    case EventType::kTake:
      return "take";
    case EventType::kPlay:
      return "play";
    case EventType::kPass:
      return "pass";
    case EventType::kRoundEnd:
      return "round_end";
    case EventType::kForfeit:
      return "forfeit";
    case EventType::kAutoPass:
      return "auto_pass";
  }
  return "?";
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

std::string entry_text(std::size_t i, const Action& a) {
  std::string s = "history entry " + std::to_string(i) + " (seat " + std::to_string(a.seat) + " " +
                  action_name(a.type);
  if (a.type != ActionType::kPass && a.type != ActionType::kAntiTribute)
    s += " " + cards_text(a.play.cards);
  return s + ")";
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

// Validation order (the first failure is reported): the match fields, the tribute pairs,
// the seats of the history, the card totals (R2), each hand against its plays and
// exchanges, then the history itself applied decision by decision, the seat to act and
// the finishing order.
GameState::GameState(const Rules& rules, const Position& pos, bool record)
    : rules_(rules),
      table_(&table_of(rules.table)),
      seed_(pos.seed),
      game_(pos.game),
      auto_pass_(false),
      initial_auto_pass_(pos.auto_pass),
      record_(record),
      start_(pos.start) {
  if (rules_.final_level > 12) throw GameError("final_level out of range");
  auto fail = [](const std::string& m) { throw PositionError("inconsistent position: " + m); };
  const Table& tb = *table_;
  const int seats = tb.seats;
  auto seat_range = [seats]() { return "0.." + std::to_string(seats - 1); };
  auto seat_ok = [seats](int s) { return s >= 0 && s < seats; };
  if (pos.round < 0) fail("round " + std::to_string(pos.round) + " is negative");
  if (rules_.max_rounds > 0 && pos.round >= rules_.max_rounds)
    fail("round " + std::to_string(pos.round) +
         " is past max_rounds = " + std::to_string(rules_.max_rounds));
  if (!seat_ok(pos.dealer))
    fail("dealer " + std::to_string(pos.dealer) + " is not a seat (" + seat_range() + ")");
  for (int t = 0; t < 2; ++t) {
    if (pos.levels[std::size_t(t)] < 0 || pos.levels[std::size_t(t)] > rules_.final_level)
      fail(std::string("the level of team ") + "AB"[t] + " is not a level up to the final level");
    if (pos.final_failures[std::size_t(t)] < 0) fail("final_failures must be >= 0");
  }
  // R11 tribute pairs.
  if (pos.n_pairs < 0 || pos.n_pairs > tb.max_tributers)
    fail("there are 0 to " + std::to_string(tb.max_tributers) + " tribute pairs, not " +
         std::to_string(pos.n_pairs));
  if (pos.n_pairs > 0 && pos.round == 0 && pos.start != Start::kRandom)
    fail("round 0 has no tribute (R11: tribute follows a won round)");
  unsigned used = 0;
  for (int i = 0; i < pos.n_pairs; ++i) {
    const int t = pos.tributers[std::size_t(i)], r = pos.receivers[std::size_t(i)];
    if (!seat_ok(t) || !seat_ok(r))
      fail("tribute pair " + std::to_string(i) + " names a seat outside " + seat_range());
    if (team_of(t) == team_of(r))
      fail("tribute pair " + std::to_string(i) + ": seats " + std::to_string(t) + " and " +
           std::to_string(r) + " are partners (R11 pairs opponents)");
    if (team_of(t) != team_of(pos.tributers[0]))
      fail("tribute pair " + std::to_string(i) + ": every tributer is of the losing team (R9)");
    if (((used >> t) & 1) || ((used >> r) & 1))
      fail("tribute pair " + std::to_string(i) + " repeats a seat");
    used |= (1u << t) | (1u << r);
  }
  auto pair_of = [&](int seat, bool as_tributer) {
    for (int i = 0; i < pos.n_pairs; ++i)
      if ((as_tributer ? pos.tributers : pos.receivers)[std::size_t(i)] == seat) return i;
    return -1;
  };
  // The cards each seat held at the deal: its hand now, plus what it played and gave
  // away, minus what it received in the tribute exchange.
  std::array<std::array<int, kNumFaces>, kSeats> held{};
  std::array<int, kNumFaces> total{};
  for (int s = 0; s < seats; ++s)
    for (int f = 0; f < kNumFaces; ++f) {
      held[std::size_t(s)][std::size_t(f)] = pos.hands[std::size_t(s)].count(f);
      total[std::size_t(f)] += pos.hands[std::size_t(s)].count(f);
    }
  auto undo = [&](const Cards& c, int from,
                  int to) {  // undo a move of c from `from` to `to` (-1: played)
    for (int f = 0; f < kNumFaces; ++f) {
      held[std::size_t(from)][std::size_t(f)] += c.count(f);
      if (to >= 0)
        held[std::size_t(to)][std::size_t(f)] -= c.count(f);
      else
        total[std::size_t(f)] += c.count(f);
    }
  };
  for (std::size_t i = 0; i < pos.history.size(); ++i) {
    const Action& a = pos.history[i].action;
    if (!seat_ok(a.seat))
      fail("history entry " + std::to_string(i) + ": seat " + std::to_string(a.seat) +
           " is not a seat (" + seat_range() + ")");
    int j = -1;
    switch (a.type) {
      case ActionType::kPlay:
        undo(a.play.cards, a.seat, -1);
        break;
      case ActionType::kTribute:
      case ActionType::kTake:
      case ActionType::kAntiTribute:
        if ((j = pair_of(a.seat, true)) < 0)
          fail(entry_text(i, a) + ": seat " + std::to_string(a.seat) +
               " is not a tributer of this round");
        if (a.type == ActionType::kTribute)
          undo(a.play.cards, a.seat, pos.receivers[std::size_t(j)]);
        if (a.type == ActionType::kTake) undo(a.play.cards, pos.receivers[std::size_t(j)], a.seat);
        break;
      case ActionType::kReturn:
      case ActionType::kOffer:
        if ((j = pair_of(a.seat, false)) < 0)
          fail(entry_text(i, a) + ": seat " + std::to_string(a.seat) +
               " is not a receiver of this round");
        if (a.type == ActionType::kReturn)
          undo(a.play.cards, a.seat, pos.tributers[std::size_t(j)]);
        break;
      case ActionType::kPass:
        break;
    }
  }
  for (int f = 0; f < kNumFaces; ++f)
    if (total[std::size_t(f)] != tb.decks)
      fail("card totals (R2): " + face_text(f) + " appears " +
           std::to_string(total[std::size_t(f)]) +
           " times in the hands and this round's plays; every face exists " +
           std::to_string(tb.decks) + " times");
  for (int s = seats; s < kSeats; ++s)
    if (!pos.hands[std::size_t(s)].empty())
      fail("seat " + std::to_string(s) + " holds cards but the table has " + std::to_string(seats) +
           " seats (R18)");
  for (int s = 0; s < seats; ++s) {
    int n = 0;
    for (int f = 0; f < kNumFaces; ++f) {
      const int c = held[std::size_t(s)][std::size_t(f)];
      if (c < 0)
        fail("seat " + std::to_string(s) + " gives away " + face_text(f) +
             " in the history more often than it holds or received it");
      n += c;
    }
    if (n != tb.hand_size)
      fail("hand size: seat " + std::to_string(s) + " holds " +
           std::to_string(pos.hands[std::size_t(s)].size()) +
           " cards, which with this round's plays and exchanges makes " + std::to_string(n) +
           " dealt, not " + std::to_string(tb.hand_size));
  }
  std::array<Cards, kSeats> dealt{};
  for (int s = 0; s < seats; ++s)
    for (int f = 0; f < kNumFaces; ++f)
      if (held[std::size_t(s)][std::size_t(f)])
        dealt[std::size_t(s)].add(f, held[std::size_t(s)][std::size_t(f)]);

  round_ = pos.round;
  dealer_ = pos.dealer;
  level_ = pos.levels;
  score_ = pos.scores;
  final_failures_ = pos.final_failures;
  begin_round(dealt, pos.n_pairs, pos.tributers.data(), pos.receivers.data());
  // Replay with auto_pass off: forced passes are in the history (marked automatic).
  for (std::size_t i = 0; i < pos.history.size(); ++i) {
    const HistoryEntry& e = pos.history[i];
    if (round_ != pos.round || phase_ == Phase::kMatchOver)
      fail(entry_text(i, e.action) +
           ": the round ended at the entry before (a position lies inside one round)");
    if (e.action.seat != current_)
      fail(entry_text(i, e.action) + ": wrong seat to act, it is seat " + std::to_string(current_) +
           "'s turn");
    try {
      if (e.automatic) {
        if (e.action.type != ActionType::kPass)
          fail(entry_text(i, e.action) + ": only a pass can be automatic");
        apply_forced_pass();
      } else {
        apply(e.action);
      }
    } catch (const PositionError&) {
      throw;
    } catch (const std::invalid_argument& ex) {
      fail(entry_text(i, e.action) + " is illegal: " + ex.what());
    }
  }
  if (round_ != pos.round || phase_ == Phase::kMatchOver)
    fail(
        "the history ends the round (a position lies inside one round: give the next round's "
        "position)");
  auto_pass_ = pos.auto_pass;
  run_auto_passes();
  if (pos.to_act >= 0 && pos.to_act != current_)
    fail("wrong seat to act: the position says seat " + std::to_string(pos.to_act) +
         " but after the history it is seat " + std::to_string(current_) + "'s turn");
  if (pos.check_finish_order) {
    bool same = int(pos.finish_order.size()) == n_out_;
    for (int i = 0; same && i < n_out_; ++i)
      same = pos.finish_order[std::size_t(i)] == order_[std::size_t(i)];
    if (!same) fail("the finishing order does not match the history");
  }
}

void GameState::set_auto_pass(bool on) {
  if (on == auto_pass_) return;
  auto_pass_ = on;
  log_event(EventType::kAutoPass, -1, -1, nullptr, 0, on ? 1 : 0);
  run_auto_passes();
}

int GameState::next_active(int seat) const {
  const int seats = table_->seats;
  for (int k = 1; k <= seats; ++k) {
    const int s = (seat + k) % seats;
    if (!((out_mask_ >> s) & 1)) return s;
  }
  return -1;
}

void GameState::log_event(EventType t, int seat, int other, const Play* play, std::int32_t index,
                          std::uint8_t flags) {
  if (!record_) return;
  Event e;
  e.type = t;
  e.seat = std::int8_t(seat);
  e.other = std::int8_t(other);
  e.flags = flags;
  e.index = index;
  if (play) e.play = *play;
  log_.push_back(e);
}

// The next round of a seeded match: deal from the round's stream, tribute from the
// previous round's result (R11).
void GameState::deal_round() {
  const std::array<Cards, kSeats> hands = seeded_deal(*table_, seed_, game_, round_);
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
  played_.fill(Cards{});
  forced_ = ForcedLog();
  top_seat_ = -1;
  passed_ = 0;
  order_.fill(-1);
  n_out_ = 0;
  out_mask_ = 0;
  n_pairs_ = 0;
  pair_step_ = 0;
  tribute_face_.fill(-1);
  return_face_.fill(-1);
  offer_.fill(Cards{});
  if (record_) {
    Deal d;
    d.round = round_;
    d.dealer = std::int8_t(dealer_);
    d.levels = {std::int8_t(level_[0]), std::int8_t(level_[1])};
    d.hands = hands_;
    deals_.push_back(d);
  }
  round_log_start_ = log_.size();
  log_event(EventType::kDeal, dealer_, -1, nullptr, std::int32_t(deals_.size()) - 1);
  // R11: tribute, after this deal.
  if (n_pairs > 0) {
    n_pairs_ = n_pairs;
    for (int i = 0; i < n_pairs_; ++i) {
      trib_[std::size_t(i)] = trib[i];
      recv_[std::size_t(i)] = recv[i];
    }
    phase_ = Phase::kTribute;
    pair_step_ = 0;
    current_ = trib_[0];
    return;
  }
  start_play();
}

void GameState::start_play() {
  phase_ = Phase::kPlay;
  current_ = dealer_;  // R8: the dealer leads the first trick
  top_seat_ = -1;
  passed_ = 0;
}

// After a tribute / return / take: move to the next pending step of the tribute exchange.
// Order: every tributer pays (pairs in order), then every receiver returns (same order).
void GameState::next_tribute_step() {
  if (phase_ == Phase::kTribute) {
    if (++pair_step_ < n_pairs_) {
      current_ = trib_[pair_step_];
      return;
    }
    pair_step_ = -1;
    phase_ = Phase::kReturn;
  } else {
    phase_ = Phase::kReturn;
  }
  for (int i = pair_step_ + 1; i < n_pairs_; ++i) {
    if (tribute_face_[i] < 0) continue;  // refused (anti_tribute): nothing to return
    pair_step_ = i;
    current_ = recv_[i];
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
  if (phase_ != Phase::kPlay) return;
  daguai::legal_plays(hands_[current_], level_rank(), rules_, top_seat_ >= 0 ? &top_ : nullptr,
                      out);
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
  const int seat = current_;
  auto single = [&](ActionType t, int f) {
    Action a;
    a.type = t;
    a.seat = std::int8_t(seat);
    Cards c;
    c.add(f);
    a.play = card_play(c);
    out->push_back(a);
  };
  switch (phase_) {
    case Phase::kMatchOver:
      return;
    case Phase::kPlay: {
      thread_local PlayList plays;
      plays.clear();
      legal_plays(&plays);
      out->reserve(out->size() + plays.size() + 1);
      for (const Play& p : plays) {
        Action a;
        a.type = ActionType::kPlay;
        a.seat = std::int8_t(seat);
        a.play = p;
        out->push_back(a);
      }
      if (can_pass()) {
        Action a;
        a.type = ActionType::kPass;
        a.seat = std::int8_t(seat);
        out->push_back(a);
      }
      return;
    }
    case Phase::kTribute: {
      const Cards& h = hands_[seat];
      const int best = highest_power_in(h);
      for (int f = 0; f < kNumFaces; ++f)
        if (h.count(f) && face_power(f, level_rank()) == best) single(ActionType::kTribute, f);
      if (rules_.anti_tribute && h.jokers() >= 3) {
        Action a;
        a.type = ActionType::kAntiTribute;
        a.seat = std::int8_t(seat);
        out->push_back(a);
      }
      return;
    }
    case Phase::kReturn: {
      const int paid = tribute_face_[pair_step_];
      if (rules_.joker_tribute_choice && is_joker(paid)) {
        sub_multisets(hands_[seat], paid == kSJ ? 2 : 3, 0, Cards{}, out, seat);
        return;
      }
      for (int f = 0; f < kNumFaces; ++f)
        if (hands_[seat].count(f)) single(ActionType::kReturn, f);
      return;
    }
    case Phase::kTake: {
      const Cards& o = offer_[pair_step_];
      for (int f = 0; f < kNumFaces; ++f)
        if (o.count(f)) single(ActionType::kTake, f);
      return;
    }
  }
}

void GameState::check_turn(ActionType t) const {
  if (phase_ == Phase::kMatchOver)
    throw GameError(std::string("the match is over: no ") + action_name(t) + " is possible");
  bool ok = false;
  const char* expected = "";
  switch (phase_) {
    case Phase::kPlay:
      ok = t == ActionType::kPlay || t == ActionType::kPass;
      expected = "play or pass";
      break;
    case Phase::kTribute:
      ok = t == ActionType::kTribute || t == ActionType::kAntiTribute;
      expected = "tribute";
      break;
    case Phase::kReturn: {
      const bool offer = rules_.joker_tribute_choice && is_joker(tribute_face_[pair_step_]);
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
                    seat_text(current_) + " must " + expected + " (phase " + phase_name(phase_) +
                    ")");
}

void GameState::check(const Action& a) const {
  check_turn(a.type);
  if (a.seat >= 0 && a.seat != current_)
    throw GameError("out of turn: the action is " + seat_text(a.seat) + "'s but it is " +
                    seat_text(current_) + "'s turn");
  const Cards& hand = hands_[current_];
  auto one_card_in = [&](const Cards& from, const char* what) {
    if (a.play.cards.size() != 1)
      throw GameError(std::string(what) + " is exactly one card, got '" + cards_text(a.play.cards) +
                      "'");
    if (!from.contains(a.play.cards))
      throw CardError(
          std::string(what) + ": " + cards_text(a.play.cards) + " is not in " +
          (&from == &hand ? "the hand of " + seat_text(current_) : std::string("the offer")));
  };
  switch (a.type) {
    case ActionType::kPlay:
      check_play(hand, a.play, level_rank(), rules_, top_seat_ >= 0 ? &top_ : nullptr);
      return;
    case ActionType::kPass:
      if (top_seat_ < 0)
        throw GameError(seat_text(current_) + " leads the trick and cannot pass (R8)");
      return;
    case ActionType::kTribute: {
      one_card_in(hand, "a tribute");
      const int f = single_face(a.play.cards);
      if (face_power(f, level_rank()) != highest_power_in(hand))
        throw GameError(
            std::string("a tribute must be a card of the highest power in the hand") +
            (table_->joker_tribute ? " (R11); " : ", jokers excepted (R11, R18 4p2d); ") +
            face_text(f) + " is not");
      return;
    }
    case ActionType::kAntiTribute:
      if (!rules_.anti_tribute)
        throw GameError("anti_tribute (抗贡) is not enabled in these rules");
      if (hand.jokers() < 3)
        throw GameError("anti_tribute (抗贡) needs 3 or more jokers; " + seat_text(current_) +
                        " has " + std::to_string(hand.jokers()));
      return;
    case ActionType::kReturn:
      one_card_in(hand, "a return");
      return;
    case ActionType::kOffer: {
      const int need = tribute_face_[pair_step_] == kSJ ? 2 : 3;
      if (a.play.cards.size() != need)
        throw GameError("the offer for a " + face_text(tribute_face_[pair_step_]) + " tribute is " +
                        std::to_string(need) + " cards, got '" + cards_text(a.play.cards) + "'");
      if (!hand.contains(a.play.cards))
        throw CardError("offer: '" + cards_text(a.play.cards) + "' is not in the hand of " +
                        seat_text(current_));
      return;
    }
    case ActionType::kTake:
      one_card_in(offer_[pair_step_], "a take");
      return;
  }
  throw GameError("unknown action type");
}

void GameState::apply(const Action& a) {
  check(a);
  const int seat = current_;
  const int i = pair_step_;
  // A tribute exchange: one card moves between the pair, is remembered, and is logged.
  auto exchange = [&](int from, int to, int* slot, EventType ev, int other) {
    const int f = single_face(a.play.cards);
    hands_[from].remove(f);
    hands_[to].add(f);
    *slot = f;
    log_event(ev, seat, other, &a.play);
    next_tribute_step();
  };
  switch (a.type) {
    case ActionType::kPlay:
      apply_play(a.play);
      return;
    case ActionType::kPass:
      apply_pass(false);
      return;
    case ActionType::kTribute:
      exchange(seat, recv_[i], &tribute_face_[i], EventType::kTribute, recv_[i]);
      return;
    case ActionType::kReturn:
      exchange(seat, trib_[i], &return_face_[i], EventType::kReturn, trib_[i]);
      return;
    case ActionType::kTake:  // the tributer takes an offered card from the receiver
      exchange(recv_[i], seat, &return_face_[i], EventType::kTake, recv_[i]);
      return;
    case ActionType::kAntiTribute: {
      tribute_face_[i] = -2;
      Play shown = card_play(Cards{0, hands_[seat].hi & ~Cards::kHiNatural});  // the jokers shown
      log_event(EventType::kAntiTribute, seat, recv_[i], &shown);
      next_tribute_step();
      return;
    }
    case ActionType::kOffer:
      offer_[i] = a.play.cards;
      log_event(EventType::kOffer, seat, trib_[i], &a.play);
      phase_ = Phase::kTake;
      current_ = trib_[i];
      return;
  }
}

void GameState::apply_forced_pass() {
  check_turn(ActionType::kPass);
  if (top_seat_ < 0)
    throw GameError("seat " + std::to_string(current_) + " leads the trick and cannot pass (R8)");
  if (has_legal_follow(hands_[current_], level_rank(), rules_, top_))
    throw GameError("seat " + std::to_string(current_) +
                    " has a play that beats the top: the pass is not forced");
  apply_pass(true);
}

void GameState::apply_play(const Play& p) {
  const int seat = current_;
  hands_[seat] -= p.cards;
  played_[seat] += p.cards;
  log_event(EventType::kPlay, seat, -1, &p);
  top_ = p;
  top_seat_ = seat;
  passed_ = 0;
  if (hands_[seat].empty()) {  // R8: out, in finishing order
    order_[std::size_t(n_out_++)] = std::int8_t(seat);
    out_mask_ |= 1u << seat;
    const unsigned team_mask = table_->team_mask(team_of(seat));
    if ((out_mask_ & team_mask) == team_mask) {  // R8: the round ends when one team is out
      finish_round();
      return;
    }
  }
  current_ = next_active(seat);
  run_auto_passes();
}

void GameState::apply_pass(bool automatic) {
  const int seat = current_;
  passed_ |= 1u << seat;
  if (automatic) forced_.push_back(ForcedPass{std::int8_t(seat), top_, played_[seat]});
  log_event(EventType::kPass, seat, -1, nullptr, 0, automatic ? 1 : 0);
  end_trick_or_continue(seat);
}

// R8: the trick ends when every player still holding cards, other than the one who made
// the last play, has passed since that play (R18: at most 3 others at 4p2d).
void GameState::end_trick_or_continue(int from) {
  const unsigned active = ~out_mask_ & table_->all_mask();
  const unsigned others = active & ~(1u << top_seat_);
  if ((others & ~passed_) != 0) {
    current_ = next_active(from);
    run_auto_passes();
    return;
  }
  int leader = top_seat_;
  if ((out_mask_ >> top_seat_) & 1) {
    leader = -1;
    if (rules_.lead_after_out == LeadAfterOut::kPartner) {  // 接风: the next partner with cards
      const int seats = table_->seats;
      for (int k = 2; k < seats && leader < 0; k += 2)
        if (!((out_mask_ >> ((top_seat_ + k) % seats)) & 1)) leader = (top_seat_ + k) % seats;
    }
    if (leader < 0) leader = next_active(top_seat_);
  }
  top_seat_ = -1;
  passed_ = 0;
  current_ = leader;
}

void GameState::run_auto_passes() {
  if (!auto_pass_) return;
  while (phase_ == Phase::kPlay && top_seat_ >= 0 &&
         !has_legal_follow(hands_[current_], level_rank(), rules_, top_))
    apply_pass(true);
}

namespace {

// R11 matching of tributers (worst finisher last in `trib`) with receivers (best first).
void pair_tributes(TributePairing how, int seats, int n, const std::int8_t* trib,
                   const std::int8_t* recv, std::array<std::int8_t, 3>* out_t,
                   std::array<std::int8_t, 3>* out_r) {
  // trib: tributers by finishing position (better first); recv: receivers, better first.
  std::array<std::int8_t, 3> match{{-1, -1, -1}};  // receiver index -> tributer seat
  if (how == TributePairing::kFinishOrder) {
    for (int i = 0; i < n; ++i) match[i] = trib[n - 1 - i];  // last-placed pays the first
  } else {
    bool t_used[3] = {}, r_used[3] = {};
    for (int step = 0; step < n; ++step) {
      int bi = -1, bj = -1, bd = 99;
      // ties: the tributer who finished worse is matched first, then the better receiver
      for (int ti = n - 1; ti >= 0; --ti) {
        if (t_used[ti]) continue;
        for (int rj = 0; rj < n; ++rj) {
          if (r_used[rj]) continue;
          const int d = how == TributePairing::kNext ? (recv[rj] - trib[ti] + seats) % seats
                                                     : (trib[ti] - recv[rj] + seats) % seats;
          if (d < bd) {
            bd = d;
            bi = ti;
            bj = rj;
          }
        }
      }
      t_used[bi] = r_used[bj] = true;
      match[bj] = trib[bi];
    }
  }
  for (int i = 0; i < n; ++i) {  // pairs listed in the receivers' finishing order
    (*out_r)[i] = recv[i];
    (*out_t)[i] = match[i];
  }
}

}  // namespace

void GameState::finish_round() {
  RoundResult r;
  r.round = round_;
  r.dealer = std::int8_t(dealer_);
  r.level_rank = std::int8_t(level_rank());
  r.levels_before = {std::int8_t(level_[0]), std::int8_t(level_[1])};
  r.players_out = std::int8_t(n_out_);
  // Players still holding cards stop and take the remaining positions: fewer cards first,
  // ties in play order after the last player out (docs/game.md).
  const Table& tb = *table_;
  const int last = order_[std::size_t(n_out_ - 1)];
  std::vector<int> rest;
  for (int k = 1; k <= tb.seats; ++k) {
    const int s = (last + k) % tb.seats;
    if (!((out_mask_ >> s) & 1)) rest.push_back(s);
  }
  std::stable_sort(rest.begin(), rest.end(),
                   [&](int a, int b) { return hands_[a].size() < hands_[b].size(); });
  for (std::size_t i = 0; i < rest.size(); ++i)
    order_[std::size_t(n_out_) + i] = std::int8_t(rest[i]);
  r.order = order_;

  // R9: F = team of the first out. F wins if its three are out first; else a draw.
  const int f_team = team_of(order_[0]);
  const int done_team = team_of(last);
  r.winner = std::int8_t(done_team == f_team ? f_team : -1);
  if (r.winner >= 0) {
    std::int8_t trib[3], recv[3];
    int nt = 0, nr = 0;
    for (int i = 0; i < tb.seats; ++i) {
      const int s = order_[std::size_t(i)];
      if (team_of(s) == r.winner) {
        if (nr < tb.max_tributers) recv[nr++] = std::int8_t(s);
      } else if (!((out_mask_ >> s) & 1)) {
        trib[nt++] = std::int8_t(s);  // still holding cards: pays tribute
      }
    }
    r.n_tributers = std::int8_t(nt);
    pair_tributes(rules_.tribute_pairing, tb.seats, nt, trib, recv, &r.tributers, &r.receivers);
  }

  // Levels (R9, R12).
  const int dteam = team_of(dealer_);
  bool match_over = false;
  int match_winner = -1;
  const bool dealer_won = r.winner == dteam;
  if (dealer_won) {
    if (level_[dteam] >= rules_.final_level) {
      match_over = true;  // R12: the dealer's team won at the final level
      match_winner = dteam;
    } else {
      level_[dteam] += 1;
    }
  } else if (level_[dteam] >= rules_.final_level) {
    final_failures_[dteam] += 1;
    // R12 (打A三次不过回2): that many failures at the final level send the team back to
    // level 2 and its count starts again; the match goes on.
    if (rules_.max_final_failures > 0 && final_failures_[dteam] >= rules_.max_final_failures) {
      level_[dteam] = 0;
      final_failures_[dteam] = 0;
    }
  }
  r.levels_after = {std::int8_t(level_[0]), std::int8_t(level_[1])};

  // Next dealer (R9, R10).
  if (rules_.dealer == DealerRule::kStay)
    r.next_dealer = std::int8_t(dealer_won ? dealer_ : (dealer_ + 1) % tb.seats);
  else
    r.next_dealer = order_[0];

  // Scores (R13), base b.
  const std::int32_t b = rules_.base;
  for (int s = 0; s < tb.seats; ++s) {
    std::int32_t d = 0;
    switch (rules_.scoring) {
      case Scoring::kStake:
        if (r.winner >= 0) {
          const std::int32_t w = tb.stake[std::size_t(r.n_tributers)] * b;  // R13, R18
          d = team_of(s) == r.winner ? w : (rules_.losers_pay ? -w : 0);
        }
        break;
      case Scoring::kLevels:
        d = dealer_won ? (team_of(s) == dteam ? 3 * b : -b) : b;
        break;
      case Scoring::kSimple:
        d = r.winner < 0 ? b : (team_of(s) == r.winner ? 3 * b : -3 * b);
        break;
    }
    r.scores[std::size_t(s)] = d;
    score_[std::size_t(s)] += d;
  }

  round_ += 1;
  if (rules_.max_rounds > 0 && round_ >= rules_.max_rounds) match_over = true;
  // R12: a match ended by a limit goes to the team with the higher level (equal: a draw).
  if (match_over && match_winner < 0)
    match_winner = level_[0] > level_[1] ? 0 : (level_[1] > level_[0] ? 1 : -1);
  r.match_over = match_over;
  r.match_winner = std::int8_t(match_over ? match_winner : -1);
  results_.push_back(r);
  log_event(EventType::kRoundEnd, -1, -1, nullptr, std::int32_t(results_.size()) - 1);
  if (match_over) {
    phase_ = Phase::kMatchOver;
    current_ = -1;
    return;
  }
  dealer_ = r.next_dealer;
  deal_round();
}

void GameState::forfeit(int seat) {
  const Table& tb = *table_;
  if (seat < 0 || seat >= tb.seats)
    throw GameError("no " + seat_text(seat) + ": seats are 0.." + std::to_string(tb.seats - 1));
  if (phase_ == Phase::kMatchOver)
    throw GameError("the match is over: " + seat_text(seat) + " cannot leave it");
  RoundResult r;
  r.round = round_;
  r.dealer = std::int8_t(dealer_);
  r.next_dealer = std::int8_t(dealer_);
  r.level_rank = std::int8_t(level_rank());
  r.levels_before = r.levels_after = {std::int8_t(level_[0]), std::int8_t(level_[1])};
  r.order = order_;
  r.players_out = std::int8_t(n_out_);
  r.forfeit_seat = std::int8_t(seat);
  const int opp = 1 - team_of(seat);
  const std::int32_t b = rules_.base;
  std::int32_t leaver, bonus;
  if (round_ < rules_.min_rounds) {  // R14: before the minimum rounds
    leaver = -tb.early_leaver * b;
    bonus = b;
  } else {
    leaver = -tb.forfeit_leaver * b;
    const bool first = n_out_ >= 1 && team_of(order_[0]) == opp;
    const bool second = n_out_ >= 2 && team_of(order_[1]) == opp;
    bonus = (first && second ? 3 : first ? 2 : 1) * b;
  }
  for (int s = 0; s < tb.seats; ++s) {
    const std::int32_t d = s == seat ? leaver : (team_of(s) == opp ? bonus : 0);
    r.scores[std::size_t(s)] = d;
    score_[std::size_t(s)] += d;
  }
  r.match_over = true;
  r.match_winner = std::int8_t(opp);
  results_.push_back(r);
  log_event(EventType::kForfeit, seat, -1, nullptr, std::int32_t(results_.size()) - 1);
  phase_ = Phase::kMatchOver;
  current_ = -1;
}

// Start::kRandom (state.hpp, docs/game.md): levels, dealer and tribute pairs as if a round
// with a uniformly random finishing order had just been played, as a position of round 0
// with the seeded round-0 deal. The previous round's dealer (needed by dealer = stay) is
// uniform too; scores stay 0.
Position GameState::random_position(const Rules& rules, std::uint64_t seed, std::uint64_t game,
                                    bool auto_pass) {
  Position p = seeded_position(seed, game, auto_pass, rules.table);
  const Table& tb = table_of(rules.table);
  const int seats = tb.seats;
  p.start = Start::kRandom;
  if (rules.final_level > 12) throw GameError("final_level out of range");
  Rng r = Rng::stream(seed, game, Stream::kStart, 0);
  p.levels[0] = int(r.bounded(std::uint64_t(rules.final_level) + 1));
  p.levels[1] = int(r.bounded(std::uint64_t(rules.final_level) + 1));
  const int prev_dealer = int(r.bounded(std::uint64_t(seats)));
  std::int8_t order[kSeats] = {0, 1, 2, 3, 4, 5};
  r.shuffle(order, seats);
  // R8: the round ends when one team has all its players out; the rest still hold cards.
  int count[2] = {0, 0}, n_out = 0;
  while (n_out < seats) {
    const int t = team_of(order[n_out++]);
    if (++count[t] == tb.team_size) break;
  }
  // R9: the first player out's team wins if it is the team that went out.
  const int f_team = team_of(order[0]);
  const int winner = team_of(order[n_out - 1]) == f_team ? f_team : -1;
  std::int8_t trib[3], recv[3];
  int nt = 0, nr = 0;
  if (winner >= 0) {
    for (int i = 0; i < seats; ++i) {
      const int s = order[i];
      if (team_of(s) == winner) {
        if (nr < tb.max_tributers) recv[nr++] = std::int8_t(s);
      } else if (i >= n_out) {
        trib[nt++] = std::int8_t(s);  // still holding cards: pays tribute (R11)
      }
    }
  }
  if (nt > 0)
    pair_tributes(rules.tribute_pairing, seats, nt, trib, recv, &p.tributers, &p.receivers);
  p.n_pairs = nt;
  // R9/R10: the next dealer.
  if (rules.dealer == DealerRule::kStay)
    p.dealer = winner == team_of(prev_dealer) ? prev_dealer : (prev_dealer + 1) % seats;
  else
    p.dealer = order[0];
  return p;
}

}  // namespace daguai
