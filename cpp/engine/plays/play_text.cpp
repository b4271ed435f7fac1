#include <string>
#include <vector>

#include <daguai/core/table.hpp>
#include <daguai/plays/play_text.hpp>

namespace daguai {

namespace {

constexpr const char* kRankChars = "23456789TJQKA";

// The choice name of rules.wild, from the variant table (rules.cpp).
const char* wild_name(Wild w) { return find_rule_variant("wild")->choices[std::size_t(w)]; }

// Python's repr of simple text, for messages: 'text'.
std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

}  // namespace

std::string jokers_as_text(const Play& p) {
  std::string s;
  for (int f : joker_faces(p, p.level())) s += " " + face_text(f);
  return s;  // "" or " <face> <face>..."
}

Play classify_play(const Cards& c, int level, const Rules& rules, const char* what) {
  Play p;
  if (!classify(c, level, rules, &p))
    throw IllegalPlay(std::string(what) + " '" + cards_text(c) +
                      "' is not a play (R5: a single, pair, "
                      "triple, or a five-card straight, flush, full house, four-plus-one, straight "
                      "flush or five of a kind)");
  return p;
}

Play classify_declared(const Cards& c, const Cards& jokers_as, int level, const Rules& rules) {
  if (rules.wild != Wild::kDeclare)
    throw CardError("jokers_as needs rules with wild='declare' (R6); under '" +
                    std::string(wild_name(rules.wild)) + "' the interpretation is fixed");
  const Cards nat = c.naturals();
  if (Cards::sum_overflows(nat, jokers_as))  // name the face that would get a 4th copy
    for (int f = 0; f < kNumFaces; ++f)
      if (nat.count(f) + jokers_as.count(f) > kMaxCopies)
        throw CardError("jokers_as: a joker cannot stand for " + face_text(f) + ": the play has " +
                        std::to_string(nat.count(f)) + " natural " + face_text(f) +
                        " already (at most 3 copies: three decks, R2)");
  const int copies = table_of(rules).decks;  // R18: two decks, two copies
  if (copies < kMaxCopies)
    for (int f = 0; f < kNumFaces; ++f)
      if (nat.count(f) + jokers_as.count(f) > copies)
        throw CardError("jokers_as: a joker cannot stand for " + face_text(f) + ": at most " +
                        std::to_string(copies) + " copies of a face at table " +
                        table_of(rules).name + " (R18)");
  return declare(c, nat + jokers_as, level, rules);
}

Play read_play(std::string_view cards, const std::optional<std::string>& declared, int level,
               const Rules& rules) {
  const Cards c = parse_cards(cards, table_of(rules));  // R18: the table's copy limit
  if (declared && rules.wild == Wild::kDeclare)         // declare() checks the faces make a reading
    return classify_declared(c, parse_cards(*declared), level, rules);
  Play p;
  if (!classify(c, level, rules, &p)) throw IllegalPlay(quoted(cards) + " is not a play (R5)");
  if (declared) {
    Cards as;
    std::string as_text;
    for (int f : joker_faces(p, level)) {
      as.add(f);
      as_text += (as_text.empty() ? "" : " ") + face_text(f);
    }
    if (!(as == parse_cards(*declared)))
      throw IllegalPlay("the jokers of " + quoted(cards) + " stand for " +
                        quoted(as_text.empty() ? "themselves" : as_text) + " under wild=" +
                        quoted(wild_name(rules.wild)) + ", not " + quoted(*declared));
  }
  return p;
}

std::string describe(const Play& p) {
  const int level = p.level();
  std::string kind = kind_name(p.kind());
  for (char& ch : kind)
    if (ch == '_') ch = ' ';
  if (p.jokers() == p.size() && p.size() > 1) {  // joker-only plays stand for themselves (R6)
    std::string s = kind + " of jokers (";
    s += (p.key >> (p.size() == 5 ? 0 : 1) & 0xF) == kBJPower ? "BJ" : "SJ";
    return s + " power)";
  }
  if (p.size() == 1) {
    const int f = p.jokers() ? (p.cards.sj() ? kSJ : kBJ) : cards_faces(p.cards)[0];
    return kind + " " + face_text(f);
  }
  int n[kNumRanks] = {};
  for (int f : cards_faces(interpreted_cards(p))) ++n[face_rank(f)];
  std::string ranks;
  const std::uint32_t sub = p.key & 0xFFFFF;
  switch (p.kind()) {
    case Kind::kStraight:
    case Kind::kStraightFlush:  // the sequence key is the top rank (pattern.hpp "Keys")
      for (int i = 4; i >= 0; --i) ranks += kRankChars[(int(sub) - i + kNumRanks) % kNumRanks];
      break;
    case Kind::kFlush:  // five powers, high to low, 4 bits each
      for (int i = 4; i >= 0; --i)
        ranks += kRankChars[power_rank(int((sub >> (4 * i)) & 15), level)];
      break;
    default: {  // groups: the group's rank first, then the rest
      const int g = power_rank(int(p.size() == 5 ? sub : (p.key >> 1)) & 15, level);
      ranks.append(std::size_t(n[g]), kRankChars[g]);
      for (int r = 0; r < kNumRanks; ++r)
        if (r != g) ranks.append(std::size_t(n[r]), kRankChars[r]);
    }
  }
  return kind + " " + ranks;
}

Cards interpreted_cards(const Play& p) {
  if (p.jokers() == 0 || p.jokers() == p.size() || p.size() == 1) return p.cards;
  Cards all = p.cards.naturals();
  for (int f : joker_faces(p, p.level())) all.add(f);
  return all;
}

std::string play_repr(const Play& p) {
  std::string s = "Play('" + cards_text(p.cards) + "', " + describe(p);
  const std::string as = jokers_as_text(p);
  if (!as.empty()) s += ", jokers as" + as;
  return s + ", level " + level_text(p.level()) + ")";
}

void validate_play(const Play& p) {
  if (p.cards.hi & ~Cards::kHiValid) throw CardError("corrupt play: unused bits set");
  if (int(p.kind()) >= kNumKinds || p.size() != p.cards.size() || p.jokers() != p.cards.jokers() ||
      p.level() >= kNumRanks)
    throw CardError("corrupt play: kind, size, jokers or level inconsistent with its cards");
  for (int f = 0; p.copies() < kMaxCopies && f < kNumNatural; ++f)  // R18: two decks
    if (p.cards.count(f) > p.copies())
      throw CardError("corrupt play: more than " + std::to_string(p.copies()) + " copies of " +
                      face_text(f) + " in a play of a two-deck table");
  for (int wrap = 0; wrap < 2; ++wrap)
    for (int pure = 0; pure < 2; ++pure) {
      Rules r;
      r.wrap_straights = wrap != 0;
      r.joker_pair = pure ? JokerPair::kPureWins : JokerPair::kTie;
      for (const Play& q : interpretations(p.cards, p.level(), r))
        if (q.key == p.key && q.kind() == p.kind()) return;
    }
  throw CardError("corrupt play: '" + cards_text(p.cards) + "' cannot be a " + kind_name(p.kind()) +
                  " with key " + std::to_string(p.key) + " at level " + level_text(p.level()));
}

}  // namespace daguai
