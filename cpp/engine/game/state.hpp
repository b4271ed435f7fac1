// A match of 大怪路子: deal, tribute and return, tricks, going out, results, levels, dealer,
// scores, forfeits. docs/rules.md R1, R3, R8-R14, R16, R17; decisions in docs/game.md.
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
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <daguai/core/cards.hpp>
#include <daguai/core/errors.hpp>
#include <daguai/core/rng.hpp>
#include <daguai/core/rules.hpp>
#include <daguai/core/shared_log.hpp>
#include <daguai/core/table.hpp>
#include <daguai/game/public_state.hpp>
#include <daguai/plays/moves.hpp>
#include <daguai/plays/pattern.hpp>

namespace daguai {

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

// The two decisions of the play phase (R8): `seat` plays `p`, or passes.
inline Action play_action(int seat, const Play& p) {
  Action a;
  a.type = ActionType::kPlay;
  a.seat = std::int8_t(seat);
  a.play = p;
  return a;
}
inline Action pass_action(int seat) {
  Action a;
  a.type = ActionType::kPass;
  a.seat = std::int8_t(seat);
  return a;
}

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
  std::array<std::int8_t, kMaxTributers> tributers{}, receivers{};
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

struct Position;  // position.hpp

// The match: its public state (public_state.hpp), every hand, the private side of the
// tribute exchange, the seed of the later deals and the logs.
class GameState {
 public:
  // A new match: first dealer and every deal drawn from Rng::stream(seed, game, ...).
  GameState(const Rules& rules, std::uint64_t seed, std::uint64_t game = 0, bool auto_pass = false,
            bool record = true, Start start = Start::kFresh);
  // A match from a position (position.hpp; defined in position.cpp): validated first
  // (PositionError naming the first problem: card totals R2, hand sizes against the plays,
  // tribute pairs, an illegal history entry, the seat to act, the finishing order), then the
  // round is dealt with the hands the history implies and the history is applied.
  GameState(const Rules& rules, const Position& position, bool record = true);
  // A world (sampler.hpp): a public state completed by every hand and the exchange as far as
  // it is known; no log, later rounds dealt from (seed, game). GameError if a hand's size is
  // not the public card count.
  GameState(const PublicState& pub, const std::array<Cards, kSeats>& hands,
            const Exchange& exchange, std::uint64_t seed, std::uint64_t game);
  // The position of a seeded match before its first decision (R10 first dealer, R2 deal).
  static Position seeded_position(std::uint64_t seed, std::uint64_t game, bool auto_pass = false,
                                  TableKind table = TableKind::k6p3d);
  // The position of a random start state (Start::kRandom): the seeded round-0 deal with
  // levels, dealer and tribute pairs drawn from Rng::stream(seed, game, kStart, 0).
  static Position random_position(const Rules& rules, std::uint64_t seed, std::uint64_t game,
                                  bool auto_pass = false);

  // ---- queries -------------------------------------------------------------------------
  // Everything public (R16), as one value: what a view and a world are built from.
  const PublicState& public_state() const { return pub_; }
  // The private side of the tribute exchange, every pair.
  const Exchange& exchange() const { return exchange_; }
  const Rules& rules() const { return pub_.rules; }
  const Table& table() const { return *table_; }  // R18: table_of(rules().table)
  std::uint64_t seed() const { return seed_; }
  std::uint64_t game_index() const { return game_; }
  Start start() const { return start_; }
  Phase phase() const { return pub_.phase; }
  bool match_over() const { return pub_.phase == Phase::kMatchOver; }
  int current_player() const { return pub_.current; }  // -1 when the match is over
  int round() const { return pub_.round; }
  int dealer() const { return pub_.dealer; }
  int level_rank() const { return pub_.level_rank(); }
  int level(int team) const { return pub_.levels[std::size_t(team)]; }
  const Cards& hand(int seat) const { return hands_[std::size_t(seat)]; }
  int cards_left(int seat) const { return pub_.cards_left[std::size_t(seat)]; }
  // The cards `seat` has played this round (R16: public).
  const Cards& played(int seat) const { return pub_.played[std::size_t(seat)]; }
  // This round's automatic passes, in order (infostate.hpp: forced-pass constraints).
  using ForcedLog = PublicState::ForcedLog;
  const ForcedLog& forced_passes() const { return pub_.forced; }
  int pair_step() const { return pub_.pair_step; }  // tribute phases: the pair being settled
  bool is_out(int seat) const { return pub_.is_out(seat); }
  const std::array<std::int8_t, kSeats>& finish_order() const { return pub_.finish_order; }
  int players_out() const { return pub_.players_out; }
  bool has_top() const { return pub_.has_top(); }
  const Play& top() const { return pub_.top; }
  int top_seat() const { return pub_.top_seat; }
  unsigned passed_mask() const { return pub_.passed; }
  std::int64_t score(int seat) const { return pub_.scores[std::size_t(seat)]; }
  int final_failures(int team) const { return pub_.final_failures[std::size_t(team)]; }
  bool auto_pass() const { return pub_.auto_pass; }
  bool initial_auto_pass() const { return initial_auto_pass_; }
  // Changes are logged (so records replay them) and apply pending forced passes at once.
  void set_auto_pass(bool on);

  // Tribute pairs of the current round (R11): tributer i pays receiver i.
  int tribute_pairs() const { return pub_.n_pairs; }
  int tributer(int i) const { return pub_.tributers[std::size_t(i)]; }
  int receiver(int i) const { return pub_.receivers[std::size_t(i)]; }
  // Per pair: the card paid (-1 before, -2 refused by anti_tribute), returned / taken.
  int tribute_face(int i) const { return pub_.tribute_face[std::size_t(i)]; }
  int return_face(int i) const { return exchange_.return_face[std::size_t(i)]; }
  const Cards& offer(int i) const { return exchange_.offer[std::size_t(i)]; }

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
  bool can_pass() const { return pub_.can_pass(); }
  // Return phase with joker_tribute_choice after a joker tribute: the receiver offers.
  bool expects_offer() const {
    return pub_.phase == Phase::kReturn && pub_.rules.joker_tribute_choice &&
           is_joker(pub_.tribute_face[std::size_t(pub_.pair_step)]);
  }

  // Validate (throws, state unchanged) then apply a decision of the current player.
  void apply(const Action& a);
  // Validate only: throws what apply would throw.
  void check(const Action& a) const;
  // apply without check, for a decision the engine made itself and knows legal: an entry of
  // legal_actions / legal_plays / play_at, or a built-in policy's choice. A play's kind and key
  // are used as they are (not classified again). Only the engine's own loops call it (rollouts
  // in play_out, the search's candidates); anything from outside (Python) goes through apply.
  // An illegal action here leaves the state undefined (a debug build checks it).
  void apply_trusted(const Action& a);
  // A rollout's state: the round now under way is the last it plays. When it ends, its result
  // is recorded as usual (results(), the scores and levels) and no next round is dealt; the
  // state then stands as a match that is over (phase kMatchOver, no player to act), though the
  // result's match_over says what the rules say. The search's rollouts only read that result.
  void stop_after_this_round() { stop_after_round_ = true; }
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
  void finish_round();
  void apply_exchange(const Action& a);
  // The play phase's steps (R8). Declared inline and defined in state.cpp, the only file that
  // calls them, so that apply and apply_trusted are one function each on their hot path.
  inline void play_step(const Play& p);
  inline void pass_step(bool automatic);
  inline void end_trick_or_continue(int from);
  inline int next_active(int seat) const;
  void apply_pass(bool automatic);      // pass_step, out of line (apply, position.cpp)
  void apply_play(const Action& a);     // apply's play in the play phase by the seat to act
  void apply_checked(const Action& a);  // check, then apply_trusted
  // auto_pass: the forced passes due now (the test inline, the loop out of line).
  void run_auto_passes() {
    if (pub_.auto_pass) auto_passes();
  }
  void auto_passes();
  // Logs when recording; the test is inline so an unrecorded game (rollouts) pays no call.
  void log_event(EventType t, int seat, int other, const Play* play, std::int32_t index = 0,
                 std::uint8_t flags = 0) {
    if (record_) push_event(t, seat, other, play, index, flags);
  }
  // The event is written in place in the log's chunk (no temporary, no call).
  [[gnu::always_inline]] void push_event(EventType t, int seat, int other, const Play* play,
                                         std::int32_t index, std::uint8_t flags) {
    log_.append_in_place([&](void* slot) {
      ::new (slot)
          Event{t, std::int8_t(seat), std::int8_t(other), flags, index, play ? *play : Play{}};
    });
  }
  void check_turn(ActionType t) const;
  int highest_power_in(const Cards& hand) const;

  PublicState pub_;                    // everything public (R16)
  std::array<Cards, kSeats> hands_{};  // every hand (pub_.cards_left = their sizes)
  Exchange exchange_;                  // every pair's private exchange
  const Table* table_ = &kTable6p3d;   // = &pub_.table(), cached for the hot paths
  std::uint64_t seed_ = 0, game_ = 0;  // the streams of the later deals (R17): private
  bool initial_auto_pass_ = false, record_ = true, stop_after_round_ = false;
  Start start_ = Start::kFresh;
  // While a position with placeholder hands replays (Position::open_hands), those seats: the
  // tribute's highest-power check skips them. 0 otherwise.
  std::uint8_t open_ = 0;

  ResultLog results_;  // every round's result (also without recording: small)
  EventLog log_;       // empty unless recording
  DealLog deals_;      // empty unless recording
  std::size_t round_log_start_ = 0;
};

}  // namespace daguai
