// The variant table (rules.hpp): one row per field of Rules.
#include <algorithm>
#include <string>
#include <string_view>
#include <type_traits>

#include <daguai/core/cards.hpp>
#include <daguai/core/rules.hpp>
#include <daguai/core/table.hpp>

namespace daguai {

namespace {

// The field M of Rules as an int32 engine value, and back (enums by their underlying value).
template <auto M>
std::int32_t get_field(const Rules& r) {
  return std::int32_t(r.*M);
}
template <auto M>
void set_field(Rules& r, std::int32_t v) {
  using T = std::remove_cvref_t<decltype(r.*M)>;
  r.*M = static_cast<T>(v);
}

// Choice names in enum order; the static_asserts tie each list to its enum's last value.
constexpr const char* kWild[] = {"auto", "high", "declare"};
static_assert(std::size(kWild) == std::size_t(Wild::kDeclare) + 1);
constexpr const char* kJokerPair[] = {"tie", "pure_wins"};
static_assert(std::size(kJokerPair) == std::size_t(JokerPair::kPureWins) + 1);
constexpr const char* kLeadAfterOut[] = {"next", "partner"};
static_assert(std::size(kLeadAfterOut) == std::size_t(LeadAfterOut::kPartner) + 1);
constexpr const char* kDealer[] = {"first_out", "stay"};
static_assert(std::size(kDealer) == std::size_t(DealerRule::kStay) + 1);
constexpr const char* kTributePairing[] = {"next", "previous", "finish_order"};
static_assert(std::size(kTributePairing) == std::size_t(TributePairing::kFinishOrder) + 1);
constexpr const char* kScoring[] = {"stake", "levels", "simple"};
static_assert(std::size(kScoring) == std::size_t(Scoring::kSimple) + 1);
constexpr const char* kTable[] = {"6p3d", "4p2d"};
static_assert(std::size(kTable) == std::size_t(TableKind::k4p2d) + 1);
static_assert(std::string_view(kTable[0]) == table_of(TableKind::k6p3d).name &&
              std::string_view(kTable[1]) == table_of(TableKind::k4p2d).name);

constexpr std::int32_t kNoLimit = std::int32_t(1) << 30;  // round counts
constexpr std::int32_t kMaxBase = std::int32_t(1) << 20;  // stakes stay far from int32 overflow

template <auto M, std::size_t N>
constexpr RuleVariant choice(const char* name, const char* rule, const char* const (&names)[N],
                             const char* enum_name, const char* doc) {
  return {name, VariantKind::kChoice, rule, names,         enum_name,
          0,    std::int32_t(N) - 1,  doc,  &get_field<M>, &set_field<M>};
}
template <auto M>
constexpr RuleVariant flag(const char* name, const char* rule, const char* doc) {
  return {name, VariantKind::kBool, rule, {}, nullptr, 0, 1, doc, &get_field<M>, &set_field<M>};
}
template <auto M>
constexpr RuleVariant integer(const char* name, const char* rule, std::int32_t lo, std::int32_t hi,
                              const char* doc) {
  return {name, VariantKind::kInt, rule, {}, nullptr, lo, hi, doc, &get_field<M>, &set_field<M>};
}
template <auto M>
constexpr RuleVariant level(const char* name, const char* rule, const char* doc) {
  return {name, VariantKind::kLevel, rule,         {}, nullptr, 0, kNumRanks - 1,
          doc,  &get_field<M>,       &set_field<M>};
}

// The table. Docs are one line each: they become the numpydoc Parameters of daguai.Rules,
// the CLI's --rules help and the variant lists of the docs.
const RuleVariant kVariants[] = {
    choice<&Rules::wild>("wild", "R6", kWild, "Wild",
                         "how jokers are read in 2/3/5-card plays: auto = highest kind, then "
                         "lowest key; high = highest kind, then highest key; declare = the "
                         "player chooses any interpretation"),
    flag<&Rules::wrap_straights>(
        "wrap_straights", "R5",
        "sequences may wrap A→2 (QKA23); wrapped straights rank below A2345"),
    choice<&Rules::joker_pair>("joker_pair", "R7", kJokerPair, "JokerPair",
                               "whether SJ SJ beats SJ BJ (pure_wins) or ties with it"),
    choice<&Rules::lead_after_out>(
        "lead_after_out", "R8", kLeadAfterOut, "LeadAfterOut",
        "who leads when the unbeaten last play emptied its player's hand: the next player "
        "or the partner"),
    choice<&Rules::dealer>("dealer", "R9/R10", kDealer, "DealerRule",
                           "the first player out deals next, or the dealer keeps the deal while "
                           "his team wins"),
    choice<&Rules::tribute_pairing>("tribute_pairing", "R11", kTributePairing, "TributePairing",
                                    "how tributers are matched with receivers"),
    flag<&Rules::anti_tribute>("anti_tribute", "R11",
                               "抗贡: a tributer holding 3 or more jokers pays nothing"),
    flag<&Rules::joker_tribute_choice>(
        "joker_tribute_choice", "R11",
        "a joker tribute is answered with 2 (SJ) or 3 (BJ) candidate cards to take one from"),
    level<&Rules::final_level>("final_level", "R12",
                               "the match ends when the dealer's team wins a round at this level"),
    integer<&Rules::max_rounds>("max_rounds", "R12", 0, kNoLimit,
                                "stop after this many rounds (0 = no limit)"),
    integer<&Rules::max_final_failures>(
        "max_final_failures", "R12", 0, kNoLimit,
        "after this many failed rounds as the dealer's team at the final level, the team "
        "goes back to level 2 (0 = no limit)"),
    choice<&Rules::scoring>("scoring", "R13", kScoring, "Scoring",
                            "scoring scheme: stake (paid per round), levels or simple"),
    integer<&Rules::base>("base", "R13", 1, kMaxBase, "the base stake b of R13 and R14"),
    flag<&Rules::losers_pay>("losers_pay", "R13",
                             "stake scoring: losers lose what winners gain (zero-sum)"),
    integer<&Rules::min_rounds>("min_rounds", "R14", 0, kNoLimit,
                                "rounds before leaving stops counting as an early forfeit"),
    choice<&Rules::table>("table", "R18", kTable, "TableKind",
                          "six players with three decks, or four players with two decks"),
};

}  // namespace

const char* variant_kind_name(VariantKind k) {
  switch (k) {
    case VariantKind::kChoice:
      return "choice";
    case VariantKind::kBool:
      return "bool";
    case VariantKind::kInt:
      return "int";
    case VariantKind::kLevel:
      return "level";
  }
  return "?";
}

std::span<const RuleVariant> rule_variants() { return kVariants; }

const RuleVariant* find_rule_variant(std::string_view name) {
  for (const RuleVariant& v : kVariants)
    if (name == v.name) return &v;
  return nullptr;
}

std::int32_t rule_default(const RuleVariant& v) { return v.get(Rules{}); }

int choice_index(const RuleVariant& v, std::string_view choice) {
  for (std::size_t i = 0; i < v.choices.size(); ++i)
    if (choice == v.choices[i]) return int(i);
  return -1;
}

namespace {

std::string bounds(const RuleVariant& v) {
  std::string s = "[";
  s += std::to_string(v.lo);
  s += ", ";
  s += std::to_string(v.hi);
  s += ']';
  return s;
}

}  // namespace

// "Rules.<name> <what>, got <got>" (built by appending: GCC 12 warns on chains of +).
[[noreturn]] static void throw_rule_error(const RuleVariant& v, std::string_view what,
                                          std::string_view got) {
  std::string msg = "Rules.";
  msg += v.name;
  msg += ' ';
  msg += what;
  msg += ", got ";
  msg += got;
  throw CardError(msg);
}

void throw_rule_range(const RuleVariant& v, std::string_view got) {
  throw_rule_error(v, "must be in " + bounds(v), got);
}

void throw_rule_type(const RuleVariant& v, std::string_view got) {
  if (v.kind == VariantKind::kBool) throw_rule_error(v, "must be True or False", got);
  throw_rule_error(v, "must be an integer in " + bounds(v), got);
}

void set_rule(Rules* r, const RuleVariant& v, std::int64_t value) {
  if (value < v.lo || value > v.hi) throw_rule_range(v, std::to_string(value));
  v.set(*r, std::int32_t(value));
}

void check_rule_names(const std::vector<std::string>& names) {
  std::vector<std::string> unknown;
  for (const std::string& n : names)
    if (!find_rule_variant(n)) unknown.push_back(n);
  if (unknown.empty()) return;
  std::sort(unknown.begin(), unknown.end());
  std::string s = "unknown rule name(s): ";
  for (std::size_t i = 0; i < unknown.size(); ++i) {
    if (i) s += ", ";
    s += unknown[i];
  }
  s += " (known:";
  for (const RuleVariant& v : kVariants) {
    s += ' ';
    s += v.name;
  }
  s += ')';
  throw CardError(s);
}

std::vector<std::string> rule_choices(const RuleVariant& v) {
  std::vector<std::string> out;
  if (v.kind == VariantKind::kChoice)
    for (const char* c : v.choices) out.emplace_back(c);
  if (v.kind == VariantKind::kLevel)
    for (int x = v.lo; x <= v.hi; ++x) out.push_back(level_text(x));
  return out;
}

std::int32_t parse_rule_text(const RuleVariant& v, std::string_view text, std::string_view shown) {
  const std::string what = std::string("Rules.") + v.name + "=" + std::string(shown);
  if (v.kind == VariantKind::kChoice) {
    const int i = choice_index(v, text);
    if (i >= 0) return i;
    std::string msg = what + " is not one of ";
    for (std::size_t i = 0; i < v.choices.size(); ++i) {
      if (i) msg += ", ";
      msg += '\'';
      msg += v.choices[i];
      msg += '\'';
    }
    throw CardError(msg);
  }
  if (v.kind == VariantKind::kLevel) {
    int x = -1;
    try {
      x = parse_level(text);
    } catch (const CardError&) {
    }
    if (x >= v.lo && x <= v.hi) return x;
    std::string msg = what + " is not a level (";
    const std::vector<std::string> levels = rule_choices(v);
    for (std::size_t i = 0; i < levels.size(); ++i) {
      if (i) msg += ' ';
      msg += levels[i];
    }
    msg += ')';
    throw CardError(msg);
  }
  throw_rule_type(v, shown);
}

}  // namespace daguai
