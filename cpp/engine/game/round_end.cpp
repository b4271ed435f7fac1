// The end of a round (R9-R14): who pays tribute to whom (R11), who deals next (R9, R10), the
// score changes (R13, R18's stakes), levels and the match's end (R12), a forfeit (R14), and a
// random start, drawn as if a round had just ended. The state machine is state.cpp.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include <daguai/game/position.hpp>
#include <daguai/game/state.hpp>

namespace daguai {

namespace {

// R11 matching of tributers (worst finisher last in `trib`) with receivers (best first).
void pair_tributes(TributePairing how, const Table& tb, int n, const std::int8_t* trib,
                   const std::int8_t* recv, std::array<std::int8_t, kMaxTributers>* out_t,
                   std::array<std::int8_t, kMaxTributers>* out_r) {
  // trib: tributers by finishing position (better first); recv: receivers, better first.
  // receiver index -> tributer seat
  std::array<std::int8_t, kMaxTributers> match = tributer_array(std::int8_t(-1));
  if (how == TributePairing::kFinishOrder) {
    for (int i = 0; i < n; ++i) match[i] = trib[n - 1 - i];  // last-placed pays the first
  } else {
    bool t_used[kMaxTributers] = {}, r_used[kMaxTributers] = {};
    for (int step = 0; step < n; ++step) {
      int bi = -1, bj = -1, bd = 99;
      // ties: the tributer who finished worse is matched first, then the better receiver
      for (int ti = n - 1; ti >= 0; --ti) {
        if (t_used[ti]) continue;
        for (int rj = 0; rj < n; ++rj) {
          if (r_used[rj]) continue;
          const int d = how == TributePairing::kNext ? tb.distance(trib[ti], recv[rj])
                                                     : tb.distance(recv[rj], trib[ti]);
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

// R11: who pays and who receives after a round the `winner` team won. `order` is the
// finishing order (seats, first out first); `still_in(i)` whether the seat at position i
// still holds cards. Receivers are the winners in finishing order (at most the table's
// tributer limit), tributers the losers still holding cards; they are then paired by
// `how`. Returns the number of pairs.
template <class StillIn>
int pair_round_tributes(const Table& tb, TributePairing how, const std::int8_t* order, int winner,
                        StillIn still_in, std::array<std::int8_t, kMaxTributers>* out_t,
                        std::array<std::int8_t, kMaxTributers>* out_r) {
  std::int8_t trib[kMaxTributers], recv[kMaxTributers];
  int nt = 0, nr = 0;
  for (int i = 0; i < tb.seats; ++i) {
    const int s = order[i];
    if (Table::team_of(s) == winner) {
      if (nr < tb.max_tributers) recv[nr++] = std::int8_t(s);
    } else if (still_in(i)) {
      trib[nt++] = std::int8_t(s);  // still holding cards: pays tribute
    }
  }
  if (nt > 0) pair_tributes(how, tb, nt, trib, recv, out_t, out_r);
  return nt;
}

// R9, R10: who deals the next round: under dealer = stay the dealer again if its team won,
// else the seat after it; otherwise the first player out.
int next_dealer(DealerRule rule, int dealer, bool dealer_won, int first_out, const Table& tb) {
  if (rule == DealerRule::kStay) return dealer_won ? dealer : tb.next(dealer);
  return first_out;
}

// R13 (R18's stakes): the score change of `seat` after a round `winner` won (-1: a draw) with
// `n_tributers` tributers, base b; `dealer_won` / `dteam` for the levels scoring.
std::int32_t round_score(const Rules& rules, const Table& tb, int seat, int winner, int n_tributers,
                         bool dealer_won, int dteam) {
  const std::int32_t b = rules.base;
  const bool in_winner = Table::team_of(seat) == winner;
  switch (rules.scoring) {
    case Scoring::kStake: {
      if (winner < 0) return 0;
      const std::int32_t w = tb.stake[std::size_t(n_tributers)] * b;
      return in_winner ? w : (rules.losers_pay ? -w : 0);
    }
    case Scoring::kLevels:
      return dealer_won ? (Table::team_of(seat) == dteam ? 3 * b : -b) : b;
    case Scoring::kSimple:
      return winner < 0 ? b : (in_winner ? 3 * b : -3 * b);
  }
  return 0;
}

}  // namespace

void GameState::finish_round() {
  RoundResult r;
  r.round = pub_.round;
  r.dealer = std::int8_t(pub_.dealer);
  r.level_rank = std::int8_t(level_rank());
  r.levels_before = {std::int8_t(pub_.levels[0]), std::int8_t(pub_.levels[1])};
  r.players_out = std::int8_t(pub_.players_out);
  // Players still holding cards stop and take the remaining positions: fewer cards first,
  // ties in play order after the last player out (docs/game.md).
  const Table& tb = *table_;
  const int last = pub_.finish_order[std::size_t(pub_.players_out - 1)];
  std::vector<int> rest;
  for (int k = 1; k <= tb.seats; ++k) {
    const int s = tb.next(last, k);
    if (!((pub_.out_mask >> s) & 1)) rest.push_back(s);
  }
  std::stable_sort(rest.begin(), rest.end(),
                   [&](int a, int b) { return hands_[a].size() < hands_[b].size(); });
  for (std::size_t i = 0; i < rest.size(); ++i)
    pub_.finish_order[std::size_t(pub_.players_out) + i] = std::int8_t(rest[i]);
  r.order = pub_.finish_order;

  // R9: F = team of the first out. F wins if its three are out first; else a draw.
  const int f_team = team_of(pub_.finish_order[0]);
  const int done_team = team_of(last);
  r.winner = std::int8_t(done_team == f_team ? f_team : -1);
  if (r.winner >= 0) {
    const auto& order = pub_.finish_order;
    const unsigned out = pub_.out_mask;
    r.n_tributers = std::int8_t(pair_round_tributes(
        tb, pub_.rules.tribute_pairing, order.data(), r.winner,
        [&](int i) { return !((out >> order[std::size_t(i)]) & 1); }, &r.tributers, &r.receivers));
  }

  // Levels (R9, R12).
  const int dteam = team_of(pub_.dealer);
  bool match_over = false;
  int match_winner = -1;
  const bool dealer_won = r.winner == dteam;
  if (dealer_won) {
    if (pub_.levels[dteam] >= pub_.rules.final_level) {
      match_over = true;  // R12: the dealer's team won at the final level
      match_winner = dteam;
    } else {
      pub_.levels[dteam] += 1;
    }
  } else if (pub_.levels[dteam] >= pub_.rules.final_level) {
    pub_.final_failures[dteam] += 1;
    // R12 (打A三次不过回2): that many failures at the final level send the team back to
    // level 2 and its count starts again; the match goes on.
    if (pub_.rules.max_final_failures > 0 &&
        pub_.final_failures[dteam] >= pub_.rules.max_final_failures) {
      pub_.levels[dteam] = 0;
      pub_.final_failures[dteam] = 0;
    }
  }
  r.levels_after = {std::int8_t(pub_.levels[0]), std::int8_t(pub_.levels[1])};

  r.next_dealer = std::int8_t(
      next_dealer(pub_.rules.dealer, pub_.dealer, dealer_won, pub_.finish_order[0], tb));

  for (int s = 0; s < tb.seats; ++s) {
    const std::int32_t d =
        round_score(pub_.rules, tb, s, r.winner, r.n_tributers, dealer_won, dteam);
    r.scores[std::size_t(s)] = d;
    pub_.scores[std::size_t(s)] += d;
  }

  pub_.round += 1;
  if (pub_.rules.max_rounds > 0 && pub_.round >= pub_.rules.max_rounds) match_over = true;
  // R12: a match ended by a limit goes to the team with the higher level (equal: a draw).
  if (match_over && match_winner < 0)
    match_winner = pub_.levels[0] > pub_.levels[1] ? 0 : (pub_.levels[1] > pub_.levels[0] ? 1 : -1);
  r.match_over = match_over;
  r.match_winner = std::int8_t(match_over ? match_winner : -1);
  results_.push_back(r);
  log_event(EventType::kRoundEnd, -1, -1, nullptr, std::int32_t(results_.size()) - 1);
  if (match_over || stop_after_round_) {  // a rollout deals no next round (state.hpp)
    pub_.phase = Phase::kMatchOver;
    pub_.current = -1;
    return;
  }
  pub_.dealer = r.next_dealer;
  deal_round();
}

void GameState::forfeit(int seat) {
  const Table& tb = *table_;
  if (seat < 0 || seat >= tb.seats)
    throw GameError("no seat " + std::to_string(seat) + ": seats are 0.." +
                    std::to_string(tb.seats - 1));
  if (pub_.phase == Phase::kMatchOver)
    throw GameError("the match is over: seat " + std::to_string(seat) + " cannot leave it");
  RoundResult r;
  r.round = pub_.round;
  r.dealer = std::int8_t(pub_.dealer);
  r.next_dealer = std::int8_t(pub_.dealer);
  r.level_rank = std::int8_t(level_rank());
  r.levels_before = r.levels_after = {std::int8_t(pub_.levels[0]), std::int8_t(pub_.levels[1])};
  r.order = pub_.finish_order;
  r.players_out = std::int8_t(pub_.players_out);
  r.forfeit_seat = std::int8_t(seat);
  const int opp = 1 - team_of(seat);
  const std::int32_t b = pub_.rules.base;
  std::int32_t leaver, bonus;
  if (pub_.round < pub_.rules.min_rounds) {  // R14: before the minimum rounds
    leaver = -tb.early_leaver * b;
    bonus = b;
  } else {
    leaver = -tb.forfeit_leaver * b;
    const bool first = pub_.players_out >= 1 && team_of(pub_.finish_order[0]) == opp;
    const bool second = pub_.players_out >= 2 && team_of(pub_.finish_order[1]) == opp;
    bonus = (first && second ? 3 : first ? 2 : 1) * b;
  }
  for (int s = 0; s < tb.seats; ++s) {
    const std::int32_t d = s == seat ? leaver : (team_of(s) == opp ? bonus : 0);
    r.scores[std::size_t(s)] = d;
    pub_.scores[std::size_t(s)] += d;
  }
  r.match_over = true;
  r.match_winner = std::int8_t(opp);
  results_.push_back(r);
  log_event(EventType::kForfeit, seat, -1, nullptr, std::int32_t(results_.size()) - 1);
  pub_.phase = Phase::kMatchOver;
  pub_.current = -1;
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
  p.n_pairs = winner < 0 ? 0
                         : pair_round_tributes(
                               tb, rules.tribute_pairing, order, winner,
                               [&](int i) { return i >= n_out; }, &p.tributers, &p.receivers);
  p.dealer = next_dealer(rules.dealer, prev_dealer, winner == team_of(prev_dealer), order[0], tb);
  return p;
}

}  // namespace daguai
