// The rule variants of RULES.md as one plain struct. Python's `daguai.Rules` (a frozen
// dataclass) is the user-facing object; it converts itself once into this struct.
#pragma once

#include <cstdint>

namespace daguai {

// R6: how jokers in a 2/3/5-card play are interpreted.
enum class Wild : std::uint8_t {
  kAuto = 0,     // highest kind, then lowest key (seeds 000/002/003; default)
  kHigh = 1,     // highest kind, then highest key (house rule)
  kDeclare = 2,  // the player declares any interpretation the cards can form
};

// R7: whether SJ+SJ beats SJ+BJ.
enum class JokerPair : std::uint8_t { kTie = 0, kPureWins = 1 };

// R8: who leads after the unbeaten last play was a player's last card.
enum class LeadAfterOut : std::uint8_t { kNext = 0, kPartner = 1 };

// R9/R10: who deals the next round.
enum class DealerRule : std::uint8_t { kFirstOut = 0, kStay = 1 };

// R11: matching tributers with receivers.
enum class TributePairing : std::uint8_t { kNext = 0, kPrevious = 1, kFinishOrder = 2 };

// R13: scoring scheme.
enum class Scoring : std::uint8_t { kStake = 0, kLevels = 1, kSimple = 2 };

// R18: the table. k6p3d is the game of R1-R17; k4p2d the 4-player, 2-deck table.
enum class TableKind : std::uint8_t { k6p3d = 0, k4p2d = 1 };

struct Rules {
  // R5-R7: patterns.
  Wild wild = Wild::kAuto;
  bool wrap_straights = false;
  JokerPair joker_pair = JokerPair::kTie;
  // R8-R14: the game.
  LeadAfterOut lead_after_out = LeadAfterOut::kNext;
  DealerRule dealer = DealerRule::kFirstOut;
  TributePairing tribute_pairing = TributePairing::kNext;
  bool anti_tribute = false;
  bool joker_tribute_choice = false;
  std::uint8_t final_level = 12;        // rank index; A
  std::int32_t max_rounds = 0;          // 0 = no limit
  std::int32_t max_final_failures = 0;  // 0 = no limit
  Scoring scoring = Scoring::kStake;
  std::int32_t base = 1;
  bool losers_pay = true;
  std::int32_t min_rounds = 3;         // R14
  TableKind table = TableKind::k6p3d;  // R18
};

}  // namespace daguai
