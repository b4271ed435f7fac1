// Learning interfaces: fixed-shape observation tensors, per-candidate
// features, and a fixed-size abstract action space. Layouts are versioned (kObsVersion) and
// documented slice by slice in docs/learning.md; encode.cpp is the single source of truth.
//
// Everything a seat's tensor holds is what that seat may know (R16): its own hand, public
// plays and passes, card counts, levels, dealer, tribute cards; the card returned to it
// (and the one it returned). Seats are relative: index k = seat (me + k) % seats. R18: the
// layout is the same at both tables (6 seat slots); at 4p2d slots 4 and 5 stay zero.
#pragma once

#include <cstdint>
#include <vector>

#include <daguai/game/infostate.hpp>
#include <daguai/game/state.hpp>
#include <daguai/plays/moves.hpp>

namespace daguai {

constexpr int kObsVersion = 1;

// ---- observation: float32[kObsSize], slices (offset, length) -----------------------------
struct ObsSlice {
  const char* name;
  int offset;
  int size;
  const char* meaning;
};
constexpr int kObsHand = 0;                        // 54: own face counts (0..3)
constexpr int kObsPlayed = kObsHand + 54;          // 6 x 54: cards played this round by seat rel k
constexpr int kObsTopCards = kObsPlayed + 6 * 54;  // 54: face counts of the top play (0 if none)
constexpr int kObsTopKind = kObsTopCards + 54;     // 9: one-hot kind of the top play
constexpr int kObsTopKey = kObsTopKind + 9;        // 1: top key scaled to [0, 1] within its size
constexpr int kObsTopSeat = kObsTopKey + 1;        // 6: one-hot relative seat of the top play
constexpr int kObsLeading = kObsTopSeat + 6;       // 1: 1 if the player to act leads (no top)
constexpr int kObsPassed = kObsLeading + 1;        // 6: passed since the top play, by rel seat
constexpr int kObsCounts = kObsPassed + 6;         // 6: cards left / 27, by rel seat
constexpr int kObsOut = kObsCounts + 6;            // 6: finishing position / 6 (0 = still in)
constexpr int kObsLevels = kObsOut + 6;            // 13 + 13: own team level, other team level
constexpr int kObsLevelRank = kObsLevels + 26;     // 13: the round's level rank L
constexpr int kObsDealer = kObsLevelRank + 13;     // 6: dealer, one-hot rel seat
constexpr int kObsPhase = kObsDealer + 6;       // 5: one-hot phase (tribute return take play over)
constexpr int kObsToAct = kObsPhase + 5;        // 6: player to act, one-hot rel seat
constexpr int kObsTribute = kObsToAct + 6;      // 54: tribute cards paid this round (public)
constexpr int kObsExchange = kObsTribute + 54;  // 54: cards returned to / by me this round
constexpr int kObsScores = kObsExchange + 54;   // 2: my seat's / next seat's match score / 100
constexpr int kObsSize = kObsScores + 2;        // 633
const std::vector<ObsSlice>& obs_slices();

// out[f] = the count of face f in c, for the 54 faces (the counts of every tensor).
void put_counts(const Cards& c, float* out);

// Fill obs[kObsSize] from the information state of its viewer (infostate.hpp: R16).
void encode_observation(const InfoState& v, float* obs);

// ---- candidate features: float32[kCandFeatures] per legal action -------------------------
constexpr int kCandFeatures = 54 + 9 + 1 + 1 + 1 + 1;  // counts, kind, key, jokers/5, pass, size/5
void encode_candidate(const Action& a, int level, float* out);

// ---- abstract actions ----------------------------------------------------------------------
// id layout (kNumAbstract = 444):
//   0                    pass
//   1 .. 15              single by power 0..14 (12 = level card, 13 SJ, 14 BJ)
//   16 .. 44             pair: 16 + power*2 + jokers (power 0..12, jokers 0..1); 42, 43, 44 =
//                        SJ SJ, SJ BJ, BJ BJ
//   45 .. 87             triple: 45 + power*3 + jokers (0..2); 84..87 = SSS SSB SBB BBB
//   88 .. 126            straight: 88 + key*3 + jokers (key 0..12, jokers 0..2)
//   127 .. 165           flush: 127 + top power*3 + jokers (top power 0..12, jokers 0..2)
//   166 .. 217           full house: 166 + triple power*4 + jokers (0..3)
//   218 .. 269           four-plus-one: 218 + four power*4 + jokers (0..3)
//   270 .. 321           straight flush: 270 + key*4 + jokers (0..3)
//   322 .. 386           five of a kind: 322 + power*5 + jokers (0..4); 387 = all jokers
//   388 .. 441           tribute / return / take of face f: 388 + f
//   442                  anti_tribute
//   443                  offer (the canonical offer: the lowest-power cards)
// Several legal actions can share an id (suits, kickers, pair ranks, flush lower cards,
// which joker; jokers beyond a field's maximum count as the maximum); the concrete action is
// the canonical one: the smallest sum of card powers (R4), then the fewest level cards, then
// the fewest BJs, then the first in the legal-action order.
constexpr int kNumAbstract = 444;
int abstract_id(const Action& a, int level);
// The mask of available abstract ids (each byte 0 or 1) and, for each, the index of its canonical
// action in `actions` (-1 if unavailable).
void abstract_mask(const std::vector<Action>& actions, int level, std::uint8_t* mask,
                   std::int32_t* index);
// The same over the play phase's legal actions given as their plays (GameState::legal_plays)
// and whether the seat may pass (the pass is then the last action, at index plays.size()):
// the same mask and indices as over legal_actions, with no Action made for each play.
void abstract_mask(const PlayList& plays, bool pass, int level, std::uint8_t* mask,
                   std::int32_t* index);

// The canonical legal action of abstract action `id` among `legal` at `level`;
// GameError when the id is masked out (not legal now).
Action action_from_abstract(const std::vector<Action>& legal, int level, int id);

}  // namespace daguai
