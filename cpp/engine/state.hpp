// A match of 大怪路子: deal, tribute and return, tricks, going out, results, levels, dealer,
// scores, forfeits. RULES.md R1, R3, R8-R14, R16, R17; decisions in docs/game.md.
//
// R1  seats 0..5 play in increasing order; even seats are team 0 (A), odd seats team 1 (B).
// R18 the table (table.hpp): 6p3d (R1-R17) or 4p2d (seats 0..3, 2 decks); arrays below are
//     sized for 6 seats and 3 tributers, and only the first table().seats entries are used.
// R8  the dealer leads; a leader cannot pass; a follower plays a beating play or passes; a
//     player who passed may play again in the same trick; the trick ends when every other
//     player still holding cards has passed since the last play; the last player to play
//     leads next, or (if out) the next player holding cards (lead_after_out = next) or
//     the next partner holding cards (= partner, 接风); the round ends when one team is out.
// R9  the first player out's team F wins if all of F is out while the other team still
//     holds cards (those players pay tribute); otherwise a draw. The dealer's team levels up
//     when it wins. The first player out deals next (or dealer = stay).
// R11 tribute after the next deal: each tributer pays a card of the highest power in the new
//     hand (choosing among equal faces), each receiver returns any card.
// R12 the match ends when the dealer's team wins at the final level (or after max_rounds);
//     max_final_failures sends a failing team back to level 2.
// R13 scores (stake / levels / simple, base b); R14 forfeits.
//
// The state changes only through decisions (apply); every decision is validated first and
// an invalid one throws (CardError / IllegalPlay / GameError) leaving the state unchanged.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cards.hpp"
#include "moves.hpp"
#include "pattern.hpp"
#include "rng.hpp"
#include "rules.hpp"
#include "shared_log.hpp"
#include "table.hpp"

namespace daguai {

constexpr int kSeats = kMaxTableSeats;  // array size: the largest table (table.hpp)
constexpr int kHandSize = 27;
constexpr int team_of(int seat) { return seat & 1; }

// A decision out of turn, in the wrong phase, or not allowed by the rules -> Python
// IllegalActionError (a ValueError).
struct GameError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

enum class Phase : std::uint8_t {
  kTribute = 0,  // a tributer pays (or, with anti_tribute, refuses)
  kReturn = 1,   // a receiver returns a card (or, joker_tribute_choice, offers candidates)
  kTake = 2,     // joker_tribute_choice: the tributer takes one offered card
  kPlay = 3,     // tricks
  kMatchOver = 4,
};
const char* phase_name(Phase p);

enum class ActionType : std::uint8_t {
  kPlay = 0,  // play.cards/kind/key: the play
  kPass = 1,
  kTribute = 2,      // play.cards: the one card paid
  kAntiTribute = 3,  // 抗贡 (anti_tribute): show >= 3 jokers, pay nothing
  kReturn = 4,       // play.cards: the one card returned
  kOffer = 5,        // play.cards: 2 (SJ paid) or 3 (BJ paid) candidate cards
  kTake = 6,         // play.cards: the one offered card taken
};
const char* action_name(ActionType t);

// The Play that carries the cards of a non-play action (tribute, return, offer, take).
Play card_play(const Cards& c);

// An action: its type, the seat it belongs to (-1: whoever's turn it is) and a Play
// (the cards, and for kPlay the kind/key).
struct Action {
  ActionType type = ActionType::kPass;
  std::int8_t seat = -1;
  Play play;
  // Same decision by the same seat (Python's == is this one).
  bool operator==(const Action& o) const {
    return type == o.type && seat == o.seat && play == o.play;
  }
};

// Result of a round (R9, R13). Seats in finishing order; tributers[i] pays receivers[i].
struct RoundResult {
  int round = 0;
  std::array<std::int8_t, kSeats> order{};  // seats by finishing position 1..6
  std::int8_t players_out = 0;              // how many went out by playing (the rest stopped)
  std::int8_t winner = -1;                  // team 0/1, or -1 for a draw
  std::int8_t dealer = 0, next_dealer = 0;
  std::int8_t level_rank = 0;  // the round's level rank L
  std::array<std::int8_t, 2> levels_before{}, levels_after{};
  std::int8_t n_tributers = 0;
  std::array<std::int8_t, 3> tributers{}, receivers{};
  std::array<std::int32_t, kSeats> scores{};  // score change of each seat
  bool match_over = false;
  std::int8_t match_winner = -1;  // when match_over: team, or -1 for a draw
  std::int8_t forfeit_seat = -1;  // R14: the seat that left, if any
};

enum class EventType : std::uint8_t {
  kDeal = 0,
  kTribute = 1,
  kAntiTribute = 2,
  kReturn = 3,
  kOffer = 4,
  kTake = 5,
  kPlay = 6,
  kPass = 7,
  kRoundEnd = 8,
  kForfeit = 9,
  kAutoPass = 10,  // the auto_pass setting changed (flags: 1 on, 0 off)
};

const char* event_name(
    EventType t);  // "deal", "tribute", ..., "auto_pass" (records, docs/records.md)

// One entry of the game log. kDeal / kRoundEnd refer to deals_ / results_ by `index`.
struct Event {
  EventType type = EventType::kPass;
  std::int8_t seat = -1;
  std::int8_t other = -1;  // tribute/return/offer/take: the other seat of the pair
  std::uint8_t flags = 0;  // kPass: 1 = applied automatically (forced pass)
  std::int32_t index = 0;
  Play play;  // kPlay: the play; tribute/return/offer/take: play.cards
};

struct Deal {
  int round = 0;
  std::int8_t dealer = 0;
  std::array<std::int8_t, 2> levels{};
  std::array<Cards, kSeats> hands{};
};

// Where a match begins (docs/game.md "Start states").
//   kFresh   R3/R10: both levels 2, a random first dealer, no tribute.
//   kRandom  a random point of a match, drawn from Rng::stream(seed, game, kStart, 0): each
//            team's level uniform in 2..final_level, and the previous round's finishing
//            order a uniform permutation of the seats, from which R9/R11 give the dealer,
//            the winner and the tribute pairs exactly as after a played round (a draw:
//            no tribute). Scores start at 0; the first round is round 0.
enum class Start : std::uint8_t { kFresh = 0, kRandom = 1 };
// A pass made automatically (auto_pass, or a replayed forced pass). Public (R16), and it
// tells that `seat` held no play beating `top`; played_before = the cards the seat had
// played this round at that moment (its hand then = its hand now + what it played since).
struct ForcedPass {
  std::int8_t seat = -1;
  Play top;
  Cards played_before;
};

struct InfoState;

// An inconsistent position (docs/records.md "Positions") -> Python PositionError, a
// subclass of IllegalActionError (a ValueError). The message names the first problem.
struct PositionError : GameError {
  using GameError::GameError;
};

// One decision of a position's history; `automatic`: a forced pass made by auto_pass.
struct HistoryEntry {
  Action action;  // action.seat: the seat that made it (required)
  bool automatic = false;
};

// A match as it stands inside a round (issue 9): the hands now, this round's history from
// its deal, and the match around it. The seeded deal is the position of round 0 with an
// empty history (GameState::seeded_position).
struct Position {
  std::uint64_t seed = 0, game = 0;  // the streams of the later rounds' deals (R17)
  int round = 0;
  int dealer = 0;
  std::array<int, 2> levels{{0, 0}};  // rank index per team (R3)
  std::array<std::int64_t, kSeats> scores{};
  std::array<int, 2> final_failures{{0, 0}};
  int n_pairs = 0;  // R11: this round's tribute pairs, tributers[i] pays receivers[i]
  std::array<std::int8_t, 3> tributers{}, receivers{};
  std::array<Cards, kSeats> hands{};  // the hands now (after the history)
  std::vector<HistoryEntry> history;  // this round's decisions so far, in order
  bool auto_pass = false;
  int to_act = -1;                  // checked when >= 0
  bool check_finish_order = false;  // when true, finish_order must match the history
  std::vector<int> finish_order;
  // kRandom: a random start state (GameState::random_position), whose round 0 follows an
  // imagined previous round and so may begin with tribute.
  Start start = Start::kFresh;
};

class GameState {
 public:
  // A new match: first dealer and every deal drawn from Rng::stream(seed, game, ...).
  GameState(const Rules& rules, std::uint64_t seed, std::uint64_t game = 0, bool auto_pass = false,
            bool record = true, Start start = Start::kFresh);
  // A match from a position: validated first (PositionError naming the first problem:
  // card totals R2, hand sizes against the plays, tribute pairs, an illegal history entry,
  // the seat to act, the finishing order), then the round is dealt with the hands the
  // history implies and the history is applied.
  GameState(const Rules& rules, const Position& position, bool record = true);
  // The position of a seeded match before its first decision (R10 first dealer, R2 deal).
  static Position seeded_position(std::uint64_t seed, std::uint64_t game, bool auto_pass = false,
                                  TableKind table = TableKind::k6p3d);
  // The position of a random start state (Start::kRandom): the seeded round-0 deal with
  // levels, dealer and tribute pairs drawn from Rng::stream(seed, game, kStart, 0).
  static Position random_position(const Rules& rules, std::uint64_t seed, std::uint64_t game,
                                  bool auto_pass = false);

  // ---- queries -------------------------------------------------------------------------
  const Rules& rules() const { return rules_; }
  const Table& table() const { return *table_; }  // R18: table_of(rules().table)
  std::uint64_t seed() const { return seed_; }
  std::uint64_t game_index() const { return game_; }
  Start start() const { return start_; }
  Phase phase() const { return phase_; }
  bool match_over() const { return phase_ == Phase::kMatchOver; }
  int current_player() const { return current_; }  // -1 when the match is over
  int round() const { return round_; }
  int dealer() const { return dealer_; }
  int level_rank() const { return level_[team_of(dealer_)]; }
  int level(int team) const { return level_[team]; }
  const Cards& hand(int seat) const { return hands_[seat]; }
  int cards_left(int seat) const { return hands_[seat].size(); }
  // The cards `seat` has played this round (R16: public).
  const Cards& played(int seat) const { return played_[seat]; }
  // This round's automatic passes, in order (infostate.hpp: forced-pass constraints).
  using ForcedLog = SharedLog<ForcedPass, 16>;
  const ForcedLog& forced_passes() const { return forced_; }
  int pair_step() const { return pair_step_; }  // tribute phases: the pair being settled
  bool is_out(int seat) const { return (out_mask_ >> seat) & 1; }
  const std::array<std::int8_t, kSeats>& finish_order() const { return order_; }
  int players_out() const { return n_out_; }
  bool has_top() const { return top_seat_ >= 0; }
  const Play& top() const { return top_; }
  int top_seat() const { return top_seat_; }
  unsigned passed_mask() const { return passed_; }
  std::int64_t score(int seat) const { return score_[seat]; }
  int final_failures(int team) const { return final_failures_[team]; }
  bool auto_pass() const { return auto_pass_; }
  bool initial_auto_pass() const { return initial_auto_pass_; }
  // Changes are logged (so records replay them) and apply pending forced passes at once.
  void set_auto_pass(bool on);

  // Tribute pairs of the current round (R11): tributer i pays receiver i.
  int tribute_pairs() const { return n_pairs_; }
  int tributer(int i) const { return trib_[i]; }
  int receiver(int i) const { return recv_[i]; }
  // Per pair: the card paid (-1 before, -2 refused by anti_tribute), returned / taken.
  int tribute_face(int i) const { return tribute_face_[i]; }
  int return_face(int i) const { return return_face_[i]; }
  const Cards& offer(int i) const { return offer_[i]; }

  using ResultLog = SharedLog<RoundResult, 8>;
  using EventLog = SharedLog<Event, 64>;
  using DealLog = SharedLog<Deal, 8>;
  const ResultLog& results() const { return results_; }
  const EventLog& log() const { return log_; }
  const DealLog& deals() const { return deals_; }
  std::size_t round_log_start() const {
    return round_log_start_;
  }  // log index of this round's deal
  bool recording() const { return record_; }

  // Every legal decision of the current player (empty when the match is over), in a
  // documented order: play phase = legal plays (moves.hpp order) then pass (if allowed).
  void legal_actions(std::vector<Action>* out) const;
  // Play phase only: the legal plays of the current player into `out` (no pass).
  void legal_plays(PlayList* out) const;
  bool can_pass() const { return phase_ == Phase::kPlay && top_seat_ >= 0; }
  // Return phase with joker_tribute_choice after a joker tribute: the receiver offers.
  bool expects_offer() const {
    return phase_ == Phase::kReturn && rules_.joker_tribute_choice &&
           is_joker(tribute_face_[std::size_t(pair_step_)]);
  }

  // Validate (throws, state unchanged) then apply a decision of the current player.
  void apply(const Action& a);
  // Validate only: throws what apply would throw.
  void check(const Action& a) const;
  // A forced pass (the player to act has no legal follow), logged as automatic: what
  // auto_pass applies by itself; replaying records uses it. Throws if a play exists.
  void apply_forced_pass();
  // R14: `seat` leaves the match now (any time before the match is over).
  void forfeit(int seat);

 private:
  void deal_round();
  void begin_round(const std::array<Cards, kSeats>& hands, int n_pairs, const std::int8_t* trib,
                   const std::int8_t* recv);
  void start_play();
  void next_tribute_step();
  void end_trick_or_continue(int from);
  void finish_round();
  int next_active(int seat) const;
  void apply_pass(bool automatic);
  void apply_play(const Play& p);
  void run_auto_passes();
  void log_event(EventType t, int seat, int other, const Play* play, std::int32_t index = 0,
                 std::uint8_t flags = 0);
  void check_turn(ActionType t) const;
  int highest_power_in(const Cards& hand) const;

  Rules rules_;
  const Table* table_ = &kTable6p3d;
  std::uint64_t seed_ = 0, game_ = 0;
  bool auto_pass_ = false, initial_auto_pass_ = false, record_ = true;
  Start start_ = Start::kFresh;

  int round_ = 0;
  int dealer_ = 0;
  std::array<int, 2> level_{{0, 0}};
  std::array<std::int64_t, kSeats> score_{};
  std::array<int, 2> final_failures_{{0, 0}};
  Phase phase_ = Phase::kPlay;
  int current_ = 0;

  std::array<Cards, kSeats> hands_{};
  std::array<Cards, kSeats> played_{};  // cards each seat played this round
  Play top_;
  int top_seat_ = -1;
  unsigned passed_ = 0;  // seats that passed since the last play
  std::array<std::int8_t, kSeats> order_{{-1, -1, -1, -1, -1, -1}};
  int n_out_ = 0;
  unsigned out_mask_ = 0;

  int n_pairs_ = 0, pair_step_ = 0;
  std::array<std::int8_t, 3> trib_{}, recv_{};
  std::array<int, 3> tribute_face_{{-1, -1, -1}}, return_face_{{-1, -1, -1}};
  std::array<Cards, 3> offer_{};
  RoundResult pending_tribute_;  // the result that set up this round's tribute

  ResultLog results_;  // every round's result (also without recording: small)
  EventLog log_;       // empty unless recording
  DealLog deals_;      // empty unless recording
  std::size_t round_log_start_ = 0;
  ForcedLog forced_;  // this round's automatic passes

  GameState() = default;  // for make_world only
  // A determinized world (sampler.cpp): the public state of a view with given hands.
  friend GameState make_world(const InfoState& v, const std::array<Cards, kSeats>& hands,
                              std::uint64_t seed, std::uint64_t game);
};

}  // namespace daguai
