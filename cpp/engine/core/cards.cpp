#include <bit>
#include <cctype>

#include <daguai/core/cards.hpp>
#include <daguai/core/table.hpp>

namespace daguai {

// gather_byte_lsbs: bit 8i of x times bit (56 - 7k) of the constant lands at 56 + i + 7(i - k);
// only k == i falls in bits 56..63, and all 64 partial products land on distinct bits, so no
// carry can disturb the top byte.

namespace {

constexpr char kRankChars[] = "23456789TJQKA";
constexpr char kSuitChars[] = "shdc";

// Decode a UTF-8 suit symbol at the start of s (♠♥♦♣ and the outline forms ♤♡♢♧).
// Returns the suit and sets len, or -1.
int utf8_suit(std::string_view s, std::size_t& len) {
  // U+2660..U+2667 = E2 99 A0..A7: ♠ ♡ ♢ ♣ ♤ ♥ ♦ ♧
  if (s.size() >= 3 && std::uint8_t(s[0]) == 0xE2 && std::uint8_t(s[1]) == 0x99) {
    len = 3;
    switch (std::uint8_t(s[2])) {
      case 0xA0:
      case 0xA4:
        return 0;  // ♠ ♤
      case 0xA5:
      case 0xA1:
        return 1;  // ♥ ♡
      case 0xA6:
      case 0xA2:
        return 2;  // ♦ ♢
      case 0xA3:
      case 0xA7:
        return 3;  // ♣ ♧
      default:
        break;
    }
  }
  return -1;
}

int rank_of_char(char c) {
  c = char(std::toupper(static_cast<unsigned char>(c)));
  for (int r = 0; r < kNumRanks; ++r)
    if (kRankChars[r] == c) return r;
  return -1;
}

int suit_of_char(char c) {
  c = char(std::tolower(static_cast<unsigned char>(c)));
  for (int s = 0; s < kNumSuits; ++s)
    if (kSuitChars[s] == c) return s;
  return -1;
}

[[noreturn]] void bad_token(std::string_view token, const char* why) {
  throw CardError("bad card '" + std::string(token) + "': " + why);
}

// Parse a rank at the start of s ("10" or one rank character); sets len or returns -1.
int parse_rank_prefix(std::string_view s, std::size_t& len) {
  if (s.size() >= 2 && s[0] == '1' && s[1] == '0') {
    len = 2;
    return 8;
  }
  if (!s.empty()) {
    const int r = rank_of_char(s[0]);
    if (r >= 0) {
      len = 1;
      return r;
    }
  }
  return -1;
}

int parse_suit_prefix(std::string_view s, std::size_t& len) {
  if (!s.empty()) {
    const int st = suit_of_char(s[0]);
    if (st >= 0) {
      len = 1;
      return st;
    }
  }
  return utf8_suit(s, len);
}

// Commas and white space as Python's str.split() sees it in ASCII (which includes the
// separators 0x1C-0x1F that C's isspace() does not).
bool is_separator(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return c == ',' || std::isspace(u) || (u >= 0x1C && u <= 0x1F);
}

// Length of a multi-byte UTF-8 separator at the start of s (no-break space U+00A0,
// ideographic space U+3000, fullwidth comma U+FF0C), else 0.
std::size_t utf8_separator(std::string_view s) {
  auto at = [&](std::size_t i) { return i < s.size() ? std::uint8_t(s[i]) : 0; };
  if (at(0) == 0xC2 && at(1) == 0xA0) return 2;
  if (at(0) == 0xE3 && at(1) == 0x80 && at(2) == 0x80) return 3;
  if (at(0) == 0xEF && at(1) == 0xBC && at(2) == 0x8C) return 3;
  return 0;
}

}  // namespace

int parse_face(std::string_view t) {
  if (t.empty()) bad_token(t, "empty");
  if (t.size() == 2) {
    const char a = char(std::toupper(static_cast<unsigned char>(t[0])));
    const char b = char(std::toupper(static_cast<unsigned char>(t[1])));
    if (b == 'J' && a == 'S') return kSJ;
    if (b == 'J' && a == 'B') return kBJ;
  }
  // <rank><suit> (R2) or, as a courtesy, <suit symbol><rank> ("♠A"; not "sA", which would
  // make "sj" ambiguous with the small joker).
  std::size_t n1 = 0, n2 = 0;
  int r = parse_rank_prefix(t, n1);
  if (r >= 0) {
    const int s = parse_suit_prefix(t.substr(n1), n2);
    if (s >= 0 && n1 + n2 == t.size()) return make_face(r, s);
    if (t.size() == n1 + 1 || (s >= 0 && t.size() > n1 + n2))
      bad_token(t, s < 0 ? "expected a suit (s h d c or ♠ ♥ ♦ ♣) after the rank"
                         : "unexpected characters after the suit");
  }
  const int s = utf8_suit(t, n1);
  if (s >= 0) {
    r = parse_rank_prefix(t.substr(n1), n2);
    if (r >= 0 && n1 + n2 == t.size()) return make_face(r, s);
  }
  bad_token(t,
            "expected <rank><suit> with rank 2-9, T/10, J, Q, K, A and suit s h d c, or SJ / BJ");
}

Cards parse_cards(std::string_view text, const Table& table) {
  Cards c;
  std::size_t i = 0;
  while (i < text.size()) {
    for (;;) {
      if (i < text.size() && is_separator(text[i])) {
        ++i;
        continue;
      }
      const std::size_t u = utf8_separator(text.substr(i));
      if (u) {
        i += u;
        continue;
      }
      break;
    }
    std::size_t j = i;
    while (j < text.size() && !is_separator(text[j]) && !utf8_separator(text.substr(j))) ++j;
    if (j > i) {
      const std::string_view tok = text.substr(i, j - i);
      add_copy(&c, parse_face(tok), table);
    }
    i = j;
  }
  return c;
}

Cards parse_cards(std::string_view text) { return parse_cards(text, kTable6p3d); }

int parse_level(std::string_view text) {
  std::size_t n = 0;
  const int r = parse_rank_prefix(text, n);
  if (r < 0 || n != text.size())
    throw CardError("unknown level '" + std::string(text) +
                    "': expected one of 2 3 4 5 6 7 8 9 T (or 10) J Q K A");
  return r;
}

std::string face_text(int f) {
  if (f == kSJ) return "SJ";
  if (f == kBJ) return "BJ";
  if (f < 0 || f > kBJ) throw CardError("face id " + std::to_string(f) + " out of range 0..53");
  return std::string{kRankChars[face_rank(f)], kSuitChars[face_suit(f)]};
}

std::string level_text(int level) {
  if (level < 0 || level >= kNumRanks)
    throw CardError("level index " + std::to_string(level) + " out of range 0..12");
  return std::string(1, kRankChars[level]);
}

std::vector<int> cards_faces(const Cards& c) {
  std::vector<int> out;
  out.reserve(c.size());
  for (int f = 0; f < kNumFaces; ++f)
    for (int k = c.count(f); k > 0; --k) out.push_back(f);
  return out;
}

std::string cards_text(const Cards& c) {
  std::string out;
  for (int f = 0; f < kNumFaces; ++f)
    for (int k = c.count(f); k > 0; --k) {
      if (!out.empty()) out += ' ';
      out += face_text(f);
    }
  return out;
}

namespace {

// The copy limit (R2): one copy per deck, three decks at most (the 6p3d table).
static_assert(kMaxCopies == 3, "the copy-limit messages of this file say 3");

template <class Int>
Cards counts_to_cards(const Int* counts, int n) {
  if (n != kNumFaces)
    throw CardError("a count array needs 54 entries (one per face), got " + std::to_string(n));
  Cards c;
  for (int f = 0; f < kNumFaces; ++f) {
    const std::int64_t v = std::int64_t(counts[f]);
    if (v < 0 || v > kMaxCopies)
      throw CardError("count " + std::to_string(v) + " for " + face_text(f) +
                      " is outside 0..3 (R2)");
    c.add(f, int(v));
  }
  return c;
}

[[noreturn]] void too_many_copies(int f, const Table& table) {
  if (table.decks == kMaxCopies)
    throw CardError("too many copies of " + face_text(f) + " (at most 3: three decks, R2)");
  static_assert(kTable4p2d.decks == 2, "the fewer-decks message below says two");
  throw CardError("too many copies of " + face_text(f) + " (at most 2: two decks at the " +
                  table.name + " table, R18)");
}

}  // namespace

void add_copy(Cards* c, int f, const Table& table) {
  if (c->count(f) >= table.decks) too_many_copies(f, table);
  c->add(f);
}

void add_copy(Cards* c, int f) { add_copy(c, f, kTable6p3d); }

void check_copies(const Cards& c, const Table& table) {
  if (table.decks >= kMaxCopies) return;  // a Cards never holds more than 3 (R2)
  static_assert(kTable4p2d.decks == kMaxCopies - 1, "below: over the limit = the count 3");
  // A count of 3 sets both bits of its face's 2-bit field (the Cards layout, cards.hpp).
  constexpr std::uint64_t kLowBits = 0x5555555555555555ULL;
  const std::uint64_t lo = c.lo & (c.lo >> 1) & kLowBits, hi = c.hi & (c.hi >> 1) & kLowBits;
  if (lo | hi)
    too_many_copies(lo ? std::countr_zero(lo) / 2 : 32 + std::countr_zero(hi) / 2, table);
}

Cards add_cards(const Cards& a, const Cards& b) {
  if (Cards::sum_overflows(a, b))
    throw CardError("cannot add '" + cards_text(b) + "': a face would exceed 3 copies (R2)");
  return a + b;
}

Cards cards_from_counts(const std::uint8_t* counts, int n) { return counts_to_cards(counts, n); }

Cards cards_from_counts(const std::int64_t* counts, int n) { return counts_to_cards(counts, n); }

void cards_to_counts(const Cards& c, std::uint8_t* counts) {
  for (int f = 0; f < kNumFaces; ++f) counts[f] = std::uint8_t(c.count(f));
}

Cards cards_from_faces(const std::uint8_t* faces, int n, const Table& table) {
  Cards c;
  for (int i = 0; i < n; ++i) {
    const int f = faces[i];
    if (f >= kNumFaces) throw CardError("face id " + std::to_string(f) + " out of range 0..53");
    add_copy(&c, f, table);
  }
  return c;
}

Cards cards_from_faces(const std::uint8_t* faces, int n) {
  return cards_from_faces(faces, n, kTable6p3d);
}

}  // namespace daguai
