#include <cstdint>
#include <limits>
#include <string>

#include <daguai/game/position.hpp>
#include <daguai/game/tribute_facts.hpp>

namespace daguai {

namespace {

[[noreturn]] void fail(const std::string& m) { throw PositionError("inconsistent position: " + m); }

std::string entry_text(std::size_t i, const Action& a) {
  std::string s = "history entry " + std::to_string(i) + " (seat " + std::to_string(a.seat) + " " +
                  action_name(a.type);
  if (a.type != ActionType::kPass && a.type != ActionType::kAntiTribute)
    s += " " + cards_text(a.play.cards);
  return s + ")";
}

std::string seat_range(int seats) { return "0.." + std::to_string(seats - 1); }
bool seat_ok(int s, int seats) { return s >= 0 && s < seats; }

// The round counter and the final-level failures are incremented after a round: int32.
constexpr int kMaxCount = std::numeric_limits<std::int32_t>::max() - 1;

// The match around the round: round, dealer, levels (R3), final-level failures (R12), scores.
void check_match(const Rules& rules, const Position& pos, int seats) {
  if (pos.round < 0) fail("round " + std::to_string(pos.round) + " is negative");
  if (pos.round > kMaxCount)
    fail("round " + std::to_string(pos.round) + " is past " + std::to_string(kMaxCount));
  if (rules.max_rounds > 0 && pos.round >= rules.max_rounds)
    fail("round " + std::to_string(pos.round) +
         " is past max_rounds = " + std::to_string(rules.max_rounds));
  if (!seat_ok(pos.dealer, seats))
    fail("dealer " + std::to_string(pos.dealer) + " is not a seat (" + seat_range(seats) + ")");
  for (int t = 0; t < 2; ++t) {
    if (pos.levels[std::size_t(t)] < 0 || pos.levels[std::size_t(t)] > rules.final_level)
      fail(std::string("the level of team ") + "AB"[t] + " is not a level up to the final level");
    const int ff = pos.final_failures[std::size_t(t)];
    if (ff < 0) fail("final_failures must be >= 0");
    if (ff > kMaxCount)
      fail("final_failures " + std::to_string(ff) + " is past " + std::to_string(kMaxCount));
    // R12: the failure that reaches max_final_failures sends the team back to level 2 and
    // resets its count, so a count is always below it.
    if (rules.max_final_failures > 0 && ff >= rules.max_final_failures)
      fail(std::string("final_failures of team ") + "AB"[t] + " is " + std::to_string(ff) +
           ", but max_final_failures = " + std::to_string(rules.max_final_failures) +
           " resets the count when it is reached (R12)");
  }
  // Scores: a round changes a score by less than 2**31 and rounds are fewer than 2**31, so
  // scores within +-2**62 cannot overflow (R13, R14).
  constexpr std::int64_t kScoreBound = std::int64_t(1) << 62;
  for (int s = 0; s < seats; ++s)
    if (pos.scores[std::size_t(s)] < -kScoreBound || pos.scores[std::size_t(s)] > kScoreBound)
      fail("the score of seat " + std::to_string(s) + " is outside +-2**62");
}

// R11 tribute pairs: opponents, tributers of one team, no seat twice.
void check_pairs(const Position& pos, const Table& tb) {
  if (pos.n_pairs < 0 || pos.n_pairs > tb.max_tributers)
    fail("there are 0 to " + std::to_string(tb.max_tributers) + " tribute pairs, not " +
         std::to_string(pos.n_pairs));
  if (pos.n_pairs > 0 && pos.round == 0 && pos.start != Start::kRandom)
    fail(
        "round 0 has no tribute (R11: tribute follows a won round; a random start state's "
        "round 0 may, with \"start\": \"random\")");
  unsigned used = 0;
  for (int i = 0; i < pos.n_pairs; ++i) {
    const int t = pos.tributers[std::size_t(i)], r = pos.receivers[std::size_t(i)];
    if (!seat_ok(t, tb.seats) || !seat_ok(r, tb.seats))
      fail("tribute pair " + std::to_string(i) + " names a seat outside " + seat_range(tb.seats));
    if (team_of(t) == team_of(r))
      fail("tribute pair " + std::to_string(i) + ": seats " + std::to_string(t) + " and " +
           std::to_string(r) + " are partners (R11 pairs opponents)");
    if (team_of(t) != team_of(pos.tributers[0]))
      fail("tribute pair " + std::to_string(i) + ": every tributer is of the losing team (R9)");
    if (((used >> t) & 1) || ((used >> r) & 1))
      fail("tribute pair " + std::to_string(i) + " repeats a seat");
    used |= (1u << t) | (1u << r);
  }
}

int pair_of(const Position& pos, int seat, bool as_tributer) {
  for (int i = 0; i < pos.n_pairs; ++i)
    if ((as_tributer ? pos.tributers : pos.receivers)[std::size_t(i)] == seat) return i;
  return -1;
}

// The cards each seat held at the deal: its hand now, plus what it played and gave away,
// minus what it received in the tribute exchange; checked against the card totals (R2) and
// the hand size.
struct Undo {
  std::array<std::array<int, kNumFaces>, kSeats> held{};
  std::array<int, kNumFaces> total{};
  // undo a move of c from `from` to `to` (-1: played)
  void move(const Cards& c, int from, int to) {
    for (int f = 0; f < kNumFaces; ++f) {
      held[std::size_t(from)][std::size_t(f)] += c.count(f);
      if (to >= 0)
        held[std::size_t(to)][std::size_t(f)] -= c.count(f);
      else
        total[std::size_t(f)] += c.count(f);
    }
  }
};

void undo_entry(const Position& pos, std::size_t i, int seats, Undo* u) {
  const Action& a = pos.history[i].action;
  if (!seat_ok(a.seat, seats))
    fail("history entry " + std::to_string(i) + ": seat " + std::to_string(a.seat) +
         " is not a seat (" + seat_range(seats) + ")");
  int j = -1;
  switch (a.type) {
    case ActionType::kPlay:
      u->move(a.play.cards, a.seat, -1);
      break;
    case ActionType::kTribute:
    case ActionType::kTake:
    case ActionType::kAntiTribute:
      if ((j = pair_of(pos, a.seat, true)) < 0)
        fail(entry_text(i, a) + ": seat " + std::to_string(a.seat) +
             " is not a tributer of this round");
      if (a.type == ActionType::kTribute)
        u->move(a.play.cards, a.seat, pos.receivers[std::size_t(j)]);
      if (a.type == ActionType::kTake) u->move(a.play.cards, pos.receivers[std::size_t(j)], a.seat);
      break;
    case ActionType::kReturn:
    case ActionType::kOffer:
      if ((j = pair_of(pos, a.seat, false)) < 0)
        fail(entry_text(i, a) + ": seat " + std::to_string(a.seat) +
             " is not a receiver of this round");
      if (a.type == ActionType::kReturn)
        u->move(a.play.cards, a.seat, pos.tributers[std::size_t(j)]);
      break;
    case ActionType::kPass:
      break;
  }
}

// A position without history (a fresh deal, seeded_position's): the hands are the dealt
// hands. They pass when every face of the 54 is held tb.decks times in all, the seats past the
// table's hold nothing and every hand has tb.hand_size cards; counted word-parallel (each
// 2-bit count of a Cards word moved into a byte of its own, four words a Cards word, so the
// sums over six hands, at most 18, do not carry). Anything else (stray bits above the 54 faces
// included) is left to dealt_hands' face-by-face checks, which name the failure.
bool fresh_deal_ok(const Position& pos, const Table& tb) {
  constexpr std::uint64_t kBytes = 0x0303030303030303ULL;
  constexpr std::uint64_t kOnes = 0x5555555555555555ULL, kHiFaces = (1ULL << 44) - 1;  // 54 faces
  std::uint64_t lo[4] = {}, hi[4] = {};
  for (int s = 0; s < kSeats; ++s) {
    const Cards& h = pos.hands[std::size_t(s)];
    if (s >= tb.seats) {
      if (!h.empty()) return false;
      continue;
    }
    if ((h.hi & ~kHiFaces) != 0 || h.size() != tb.hand_size) return false;
    for (int j = 0; j < 4; ++j) {
      lo[j] += (h.lo >> (2 * j)) & kBytes;
      hi[j] += (h.hi >> (2 * j)) & kBytes;
    }
  }
  const std::uint64_t d = std::uint64_t(tb.decks);
  for (int j = 0; j < 4; ++j)
    if (lo[j] != d * ((kOnes >> (2 * j)) & kBytes) ||
        hi[j] != d * (((kOnes & kHiFaces) >> (2 * j)) & kBytes))
      return false;
  return true;
}

std::array<Cards, kSeats> dealt_hands(const Position& pos, const Table& tb) {
  if (pos.history.empty() && fresh_deal_ok(pos, tb)) return pos.hands;
  const int seats = tb.seats;
  Undo u;
  for (int s = 0; s < seats; ++s)
    for (int f = 0; f < kNumFaces; ++f) {
      u.held[std::size_t(s)][std::size_t(f)] = pos.hands[std::size_t(s)].count(f);
      u.total[std::size_t(f)] += pos.hands[std::size_t(s)].count(f);
    }
  for (std::size_t i = 0; i < pos.history.size(); ++i) undo_entry(pos, i, seats, &u);
  for (int f = 0; f < kNumFaces; ++f)
    if (u.total[std::size_t(f)] != tb.decks)
      fail("card totals (R2): " + face_text(f) + " appears " +
           std::to_string(u.total[std::size_t(f)]) +
           " times in the hands and this round's plays; every face exists " +
           std::to_string(tb.decks) + " times");
  for (int s = seats; s < kSeats; ++s)
    if (!pos.hands[std::size_t(s)].empty())
      fail("seat " + std::to_string(s) + " holds cards but the table has " + std::to_string(seats) +
           " seats (R18)");
  std::array<Cards, kSeats> dealt{};
  for (int s = 0; s < seats; ++s) {
    int n = 0;
    for (int f = 0; f < kNumFaces; ++f) {
      const int c = u.held[std::size_t(s)][std::size_t(f)];
      if (c < 0)
        fail("seat " + std::to_string(s) + " gives away " + face_text(f) +
             " in the history more often than it holds or received it");
      n += c;
      if (c) dealt[std::size_t(s)].add(f, c);
    }
    if (n != tb.hand_size)
      fail("hand size: seat " + std::to_string(s) + " holds " +
           std::to_string(pos.hands[std::size_t(s)].size()) +
           " cards, which with this round's plays and exchanges makes " + std::to_string(n) +
           " dealt, not " + std::to_string(tb.hand_size));
  }
  return dealt;
}

// R11 (tribute_facts.hpp, the atom the belief constraints use too): a tributer's dealt hand
// held no card above its tribute. The replay would refuse the tribute as well; this names
// the dealt card.
void check_tribute_caps(const Position& pos, const std::array<Cards, kSeats>& dealt,
                        const Table& tb) {
  const int level = pos.levels[std::size_t(team_of(pos.dealer))];
  for (std::size_t i = 0; i < pos.history.size(); ++i) {
    const Action& a = pos.history[i].action;
    if (a.type != ActionType::kTribute || a.play.cards.size() != 1) continue;
    const int x = cards_faces(a.play.cards)[0];
    const Cards above = cards_above_tribute(x, level, tb);
    const Cards& d = dealt[std::size_t(a.seat)];
    if (((pos.open_hands >> a.seat) & 1) || count_above(d, above) == 0) continue;
    const Cards over{d.lo & above.lo, d.hi & above.hi};
    fail(entry_text(i, a) + ": seat " + std::to_string(a.seat) + " was dealt " + cards_text(over) +
         ", above its tribute (R11: a card of the highest power" +
         (tb.joker_tribute ? "" : " among the natural cards, R18") + ")");
  }
}

}  // namespace

// Validation order (the first failure is reported): the match fields, the tribute pairs,
// the seats of the history, the card totals (R2), each hand against its plays and
// exchanges, the tributers' dealt hands (R11), then the history itself applied decision by
// decision, the seat to act and the finishing order.
GameState::GameState(const Rules& rules, const Position& pos, bool record)
    : table_(&table_of(rules.table)),
      seed_(pos.seed),
      game_(pos.game),
      initial_auto_pass_(pos.auto_pass),
      record_(record),
      start_(pos.start) {
  pub_.rules = rules;
  pub_.auto_pass = false;  // the history holds its forced passes; set after the replay
  if (pub_.rules.final_level > 12) throw GameError("final_level out of range");
  const Table& tb = *table_;
  open_ = std::uint8_t(pos.open_hands & tb.all_mask());
  check_match(pub_.rules, pos, tb.seats);
  check_pairs(pos, tb);
  const std::array<Cards, kSeats> dealt = dealt_hands(pos, tb);
  check_tribute_caps(pos, dealt, tb);

  pub_.round = pos.round;
  pub_.dealer = pos.dealer;
  pub_.levels = pos.levels;
  pub_.scores = pos.scores;
  pub_.final_failures = pos.final_failures;
  begin_round(dealt, pos.n_pairs, pos.tributers.data(), pos.receivers.data());
  // Replay with auto_pass off: forced passes are in the history (marked automatic).
  for (std::size_t i = 0; i < pos.history.size(); ++i) {
    const HistoryEntry& e = pos.history[i];
    if (pub_.round != pos.round || pub_.phase == Phase::kMatchOver)
      fail(entry_text(i, e.action) +
           ": the round ended at the entry before (a position lies inside one round)");
    if (e.action.seat != pub_.current)
      fail(entry_text(i, e.action) + ": wrong seat to act, it is seat " +
           std::to_string(pub_.current) + "'s turn");
    try {
      if (e.automatic) {
        if (e.action.type != ActionType::kPass)
          fail(entry_text(i, e.action) + ": only a pass can be automatic");
        if ((open_ >> e.action.seat) & 1) {  // a placeholder hand: the pass is taken as forced
          check(e.action);
          apply_pass(true);
        } else {
          apply_forced_pass();
        }
      } else {
        apply(e.action);
      }
    } catch (const PositionError&) {
      throw;
    } catch (const std::invalid_argument& ex) {
      fail(entry_text(i, e.action) + " is illegal: " + ex.what());
    }
  }
  if (pub_.round != pos.round || pub_.phase == Phase::kMatchOver)
    fail(
        "the history ends the round (a position lies inside one round: give the next round's "
        "position)");
  pub_.auto_pass = pos.auto_pass;
  if (open_ == 0) {
    run_auto_passes();
  } else if (pos.auto_pass && pos.to_act >= 0) {
    // the seats before to_act passed automatically: forced for a placeholder hand, checked
    // for a given one
    while (pub_.phase == Phase::kPlay && pub_.has_top() && pub_.current != pos.to_act &&
           (((open_ >> pub_.current) & 1) ||
            !has_legal_follow(hands_[pub_.current], level_rank(), pub_.rules, pub_.top)))
      apply_pass(true);
  }
  open_ = 0;
  if (pos.to_act >= 0 && pos.to_act != pub_.current)
    fail("wrong seat to act: the position says seat " + std::to_string(pos.to_act) +
         " but after the history it is seat " + std::to_string(pub_.current) + "'s turn");
  if (pos.check_finish_order) {
    bool same = int(pos.finish_order.size()) == pub_.players_out;
    for (int i = 0; same && i < pub_.players_out; ++i)
      same = pos.finish_order[std::size_t(i)] == pub_.finish_order[std::size_t(i)];
    if (!same) fail("the finishing order does not match the history");
  }
}

}  // namespace daguai
