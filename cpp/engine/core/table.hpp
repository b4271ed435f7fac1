// The table a match is played at, as data (docs/rules.md R1, R2, R8, R9, R11, R13, R14, R18):
// seats, decks, hand size, teams, tribute limits, stakes and forfeit figures. Rules.table
// (a TableKind) names one; table_of() returns its descriptor. Seat counts, deck counts, hand
// sizes and team masks are read from it, never written as literals.
//
// R1   6p3d: seats 0..5, team A = 0 2 4, team B = 1 3 5.
// R18  4p2d: seats 0..3, team A = 0 2,   team B = 1 3.
//      Both tables: alternate seats are partners (team_of(seat) = seat & 1) and a hand is 27
//      cards; the deck is `decks` copies of each of the 54 faces, and a wildcard reading
//      (R6) may use a face at most `decks` times (the pattern layer's copy limit).
// R9   the most tributers is a team's size (3 or 2); R11 joker_tribute: whether a joker can
//      be a tribute card (6p3d yes; 4p2d no: the tribute is the highest natural card).
// R13  stake by tributer count: 1 -> 1b, 2 -> 3b, 3 -> 6b (the same row for both tables).
// R14  forfeit: the leaver loses forfeit_leaver b (18 / 12), or early_leaver b before the
//      minimum rounds (3 / 2, docs/game.md); opponents gain 3 / 2 / 1 b (or 1 b early).
//
// Fixed-size arrays stay sized for the largest table (kSeats, kMaxTributers); loops run to
// table.seats and table.max_tributers.
#pragma once

#include <array>
#include <cstdint>

#include <daguai/core/cards.hpp>
#include <daguai/core/rules.hpp>

namespace daguai {

constexpr int kSeats = 6;         // the largest table's seats: the size of per-seat arrays
constexpr int kMaxTributers = 3;  // R9: the largest table's team size: tribute pair arrays

// A per-tributer array holding `v` in every entry.
template <class T>
constexpr std::array<T, kMaxTributers> tributer_array(T v) {
  std::array<T, kMaxTributers> a{};
  a.fill(v);
  return a;
}

struct Table {
  TableKind kind;
  const char* name;          // "6p3d", "4p2d" (Rules.table)
  int seats;                 // players, seats 0..seats-1 in play order (R1)
  int decks;                 // copies of each face in the deck = the wildcard copy limit (R2, R6)
  int hand_size;             // cards dealt to each seat (R2)
  int team_size;             // seats / 2 (alternate seats are partners)
  int max_tributers;         // R9: at most a team's size
  bool joker_tribute;        // R11: jokers can be tribute cards
  std::array<int, 4> stake;  // R13 stake, winners' gain in b by tributer count 0..3
  int forfeit_leaver;        // R14: the leaver's loss in b after the minimum rounds
  int early_leaver;          // R14: the leaver's loss in b before the minimum rounds

  constexpr int deck_size() const { return kNumFaces * decks; }
  constexpr unsigned all_mask() const { return (1u << seats) - 1u; }
  // Bit mask of the seats of `team` (0 = A: even seats, 1 = B: odd seats).
  constexpr unsigned team_mask(int team) const {
    return (team ? 0xAAAAAAAAu : 0x55555555u) & all_mask();
  }
  static constexpr int team_of(int seat) { return seat & 1; }
  // Play order: the seat after `seat`.
  constexpr int next(int seat, int k = 1) const { return (seat + k) % seats; }
  // How many seats after `from` `to` sits in play order (0 .. seats - 1).
  constexpr int distance(int from, int to) const { return (to - from + seats) % seats; }
};

inline constexpr Table kTable6p3d{TableKind::k6p3d, "6p3d", 6, 3, 27, 3, 3, true,
                                  {{0, 1, 3, 6}},   18,     3};
inline constexpr Table kTable4p2d{TableKind::k4p2d, "4p2d", 4, 2, 27, 2, 2, false,
                                  {{0, 1, 3, 0}},   12,     2};

constexpr const Table& table_of(TableKind k) {
  return k == TableKind::k4p2d ? kTable4p2d : kTable6p3d;
}
inline const Table& table_of(const Rules& rules) { return table_of(rules.table); }

// "6p3d" / "4p2d" -> the table, or nullptr.
const Table* table_named(const char* name);

}  // namespace daguai
