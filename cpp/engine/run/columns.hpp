// The result columns of a simulation, declared once: name, dtype, width
// (scalar, per seat, per tributer, per team: R18 widths follow the table), match-only flag,
// one line of doc and the function that fills a game's row. The rollouts (rollout.cpp) and
// the Python slow path (bind_sim.cpp `_ResultRows.fill`) fill rows through fill_row; the
// bindings allocate one numpy array per column from this table; daguai.results.COLUMNS is
// read from it (`_core.result_columns()`). Adding a column is one row of kResultColumns
// (columns.cpp) and, if it needs a count the game does not keep, one field of GameTally.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <daguai/game/state.hpp>

namespace daguai {

enum class ColumnType : std::uint8_t { kUint64 = 0, kInt8 = 1, kInt32 = 2 };
const char* column_type_name(ColumnType t);  // numpy's names: "uint64", "int8", "int32"
std::size_t column_type_size(ColumnType t);

// A row's width: 1-D (kScalar) or (n, k) with k the table's seats, max tributers or teams.
enum class ColumnWidth : std::uint8_t { kScalar = 0, kSeats = 1, kTributers = 2, kTeams = 3 };

// What a finished game leaves besides its state: the run's seed and the game index, the
// first round's dealer and level, the decisions counted on the way (R17: a game is
// (seed, game)), and whether the run plays matches.
struct GameTally {
  std::uint64_t seed = 0;
  std::uint64_t game = 0;
  int first_dealer = 0;
  int first_level = 0;
  std::int32_t plays = 0;   // plays made
  std::int32_t passes = 0;  // passes decided (auto_pass passes are not decisions)
  bool matches = false;
};

struct ResultColumn {
  const char* name;
  ColumnType dtype;
  ColumnWidth width;
  bool matches_only;  // present only in match mode
  const char* doc;    // one line (docs/simulation.md "Columns")
  // Writes row `row` (width k = column_width, k >= 1) of `data` for the finished game g.
  void (*fill)(void* data, std::int64_t row, int k, const GameState& g, const GameTally& t);
};

// Every column, in the order of a result (the order of its dict and of its files).
std::span<const ResultColumn> result_columns();

// Whether a run has the column (match-only columns only in match mode).
inline bool column_present(const ResultColumn& c, bool matches) {
  return matches || !c.matches_only;
}
// Elements per row: 1 for kScalar, else the table's seats / max_tributers / 2 teams (R18).
int column_width(const ResultColumn& c, const Table& tb);
// 0 for a 1-D column, else column_width (the numpy shape's second axis).
int column_shape(const ResultColumn& c, const Table& tb);

// One pointer per column of result_columns() (same index); a null pointer, or no entry, skips a
// column.
using ResultArrays = std::vector<void*>;

// Fills row `row` of every non-null column from a finished game (g.results() non-empty).
void fill_row(const ResultArrays& out, std::int64_t row, const GameState& g, const GameTally& t);

}  // namespace daguai
