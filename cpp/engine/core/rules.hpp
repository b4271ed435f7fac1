// The rule variants of docs/rules.md as one plain struct, and the one table that declares them
// (rule_variants(), rules.cpp): name, kind, choices, bounds, rule id and doc of every variant.
// Everything else is derived from that table: the CoreRules binding (get/set by name), the
// Python `daguai.Rules` dataclass (fields, defaults, validation, docstring), the CLI's --rules
// help and the checks of the docs (tests/core/test_rules_variants.py). Python's `daguai.Rules` is
// the user-facing object; it converts itself once into this struct.
//
// Adding a variant (docs/development.md "Adding a rule variant"): a field of `Rules` with its
// default, for a choice its enum (names in rule_variants() in the same order), one row of
// rule_variants(), and the implementation that reads the field.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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

// ---- The variant table ---------------------------------------------------------------------

// What values a variant takes. The engine value of every variant is one int32:
//   kChoice  index into `choices` (the enum's value; names in enum order)
//   kBool    0 / 1
//   kInt     the integer itself, in [lo, hi]
//   kLevel   a rank index 0..12 (Python: the level text, cards.hpp level_text)
enum class VariantKind : std::uint8_t { kChoice = 0, kBool = 1, kInt = 2, kLevel = 3 };
const char* variant_kind_name(VariantKind k);  // "choice", "bool", "int", "level"

struct RuleVariant {
  const char* name;  // the Rules field, the daguai.Rules keyword and the --rules key
  VariantKind kind;
  const char* rule;                      // docs/rules.md id ("R6"; "R9/R10" when two)
  std::span<const char* const> choices;  // kChoice: the choice names in enum order
  const char* enum_name;                 // kChoice: the Python enum (_core.Wild, ...)
  std::int32_t lo, hi;                   // accepted engine values (choice 0..n-1, bool 0..1)
  const char* doc;                       // one line (Python docstring, CLI help, docs)
  std::int32_t (*get)(const Rules&);     // the field as its engine value
  void (*set)(Rules&, std::int32_t);     // unchecked: use set_rule
};

// Every variant, in declaration order (the order of daguai.Rules' fields).
std::span<const RuleVariant> rule_variants();
// The row called `name`, or nullptr.
const RuleVariant* find_rule_variant(std::string_view name);
// The default: the engine value of a default-constructed Rules (the struct above is the one
// place defaults are written).
std::int32_t rule_default(const RuleVariant& v);
// The engine value of `choice` (kChoice: its index), or -1 if it is not one of v's choices.
int choice_index(const RuleVariant& v, std::string_view choice);
// Sets variant v of *r; CardError "Rules.<name> must be in [lo, hi], got <value>" outside
// [v.lo, v.hi] (*r unchanged).
void set_rule(Rules* r, const RuleVariant& v, std::int64_t value);

// The validation of a value given from outside (bindings, files), in one place: the bindings
// only translate a Python value into text or an integer and call these.
// CardError "Rules.<name> must be in [lo, hi], got <got>": a value beyond any integer the
// caller can hold (`got` as the caller shows it).
[[noreturn]] void throw_rule_range(const RuleVariant& v, std::string_view got);
// CardError "Rules.<name> must be an integer in [lo, hi], got <got>" (kBool: "must be True or
// False"): a value of the wrong type.
[[noreturn]] void throw_rule_type(const RuleVariant& v, std::string_view got);
// The engine value of a text: a choice name (kChoice) or a level text (kLevel). CardError
// "Rules.<name>=<shown> is not one of 'a', 'b'" / "... is not a level (2 3 ... A)" otherwise,
// and for a variant of another kind (`shown`: the value as the caller quotes it).
std::int32_t parse_rule_text(const RuleVariant& v, std::string_view text, std::string_view shown);
// CardError "unknown rule name(s): a, b (known: wild ...)" unless every name is a variant's.
void check_rule_names(const std::vector<std::string>& names);
// The texts of v's values: kChoice its choice names, kLevel the level texts from lo to hi;
// none for the other kinds.
std::vector<std::string> rule_choices(const RuleVariant& v);

}  // namespace daguai
