#include <cstdint>
#include <limits>
#include <string>

#include <daguai/game/position.hpp>

namespace daguai {

namespace {

std::string entry_text(std::size_t i, const Action& a) {
  std::string s = "history entry " + std::to_string(i) + " (seat " + std::to_string(a.seat) + " " +
                  action_name(a.type);
  if (a.type != ActionType::kPass && a.type != ActionType::kAntiTribute)
    s += " " + cards_text(a.play.cards);
  return s + ")";
}

}  // namespace

// Validation order (the first failure is reported): the match fields, the tribute pairs,
// the seats of the history, the card totals (R2), each hand against its plays and
// exchanges, then the history itself applied decision by decision, the seat to act and
// the finishing order.
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
  auto fail = [](const std::string& m) { throw PositionError("inconsistent position: " + m); };
  const Table& tb = *table_;
  const int seats = tb.seats;
  auto seat_range = [seats]() { return "0.." + std::to_string(seats - 1); };
  auto seat_ok = [seats](int s) { return s >= 0 && s < seats; };
  if (pos.round < 0) fail("round " + std::to_string(pos.round) + " is negative");
  // The round counter and the final-level failures are incremented after a round: int32.
  constexpr int kMaxCount = std::numeric_limits<std::int32_t>::max() - 1;
  if (pos.round > kMaxCount)
    fail("round " + std::to_string(pos.round) + " is past " + std::to_string(kMaxCount));
  if (pub_.rules.max_rounds > 0 && pos.round >= pub_.rules.max_rounds)
    fail("round " + std::to_string(pos.round) +
         " is past max_rounds = " + std::to_string(pub_.rules.max_rounds));
  if (!seat_ok(pos.dealer))
    fail("dealer " + std::to_string(pos.dealer) + " is not a seat (" + seat_range() + ")");
  for (int t = 0; t < 2; ++t) {
    if (pos.levels[std::size_t(t)] < 0 || pos.levels[std::size_t(t)] > pub_.rules.final_level)
      fail(std::string("the level of team ") + "AB"[t] + " is not a level up to the final level");
    const int ff = pos.final_failures[std::size_t(t)];
    if (ff < 0) fail("final_failures must be >= 0");
    if (ff > kMaxCount)
      fail("final_failures " + std::to_string(ff) + " is past " + std::to_string(kMaxCount));
    // R12: the failure that reaches max_final_failures sends the team back to level 2 and
    // resets its count, so a count is always below it.
    if (pub_.rules.max_final_failures > 0 && ff >= pub_.rules.max_final_failures)
      fail(std::string("final_failures of team ") + "AB"[t] + " is " + std::to_string(ff) +
           ", but max_final_failures = " + std::to_string(pub_.rules.max_final_failures) +
           " resets the count when it is reached (R12)");
  }
  // Scores: a round changes a score by less than 2**31 and rounds are fewer than 2**31, so
  // scores within +-2**62 cannot overflow (R13, R14).
  constexpr std::int64_t kScoreBound = std::int64_t(1) << 62;
  for (int s = 0; s < seats; ++s)
    if (pos.scores[std::size_t(s)] < -kScoreBound || pos.scores[std::size_t(s)] > kScoreBound)
      fail("the score of seat " + std::to_string(s) + " is outside +-2**62");
  // R11 tribute pairs.
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
  if (pub_.round != pos.round || pub_.phase == Phase::kMatchOver)
    fail(
        "the history ends the round (a position lies inside one round: give the next round's "
        "position)");
  pub_.auto_pass = pos.auto_pass;
  run_auto_passes();
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
