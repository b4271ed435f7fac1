#include <string>
#include <vector>

#include <daguai/io/describe.hpp>

namespace daguai {

namespace {

constexpr const char* kRankChars = "23456789TJQKA";

std::string jokers_as_text(const Play& p) {
  std::string s;
  for (int f : joker_faces(p, p.level())) s += " " + face_text(f);
  return s;  // "" or " <face> <face>..."
}

}  // namespace

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

std::string action_text(const Action& a) {
  if (a.type == ActionType::kPass || a.type == ActionType::kAntiTribute) return action_name(a.type);
  if (a.type != ActionType::kPlay)
    return std::string(action_name(a.type)) + " " + cards_text(a.play.cards);
  const std::string as = jokers_as_text(a.play);
  return cards_text(a.play.cards) + (as.empty() ? "" : " as" + as);
}

std::string action_repr(const Action& a) {
  std::string s = "Action(" + std::string(action_name(a.type));
  if (a.type != ActionType::kPass && a.type != ActionType::kAntiTribute)
    s += " '" + cards_text(a.play.cards) + "'";
  if (a.type == ActionType::kPlay) {
    const std::string as = jokers_as_text(a.play);
    if (!as.empty()) s += " as" + as;
  }
  return s + ", seat " + std::to_string(a.seat) + ")";
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
