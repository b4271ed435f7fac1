#include <stdexcept>

#include <daguai/run/columns.hpp>

namespace daguai {

const char* column_type_name(ColumnType t) {
  switch (t) {
    case ColumnType::kUint64:
      return "uint64";
    case ColumnType::kInt8:
      return "int8";
    case ColumnType::kInt32:
      return "int32";
  }
  return "?";
}

std::size_t column_type_size(ColumnType t) {
  switch (t) {
    case ColumnType::kUint64:
      return sizeof(std::uint64_t);
    case ColumnType::kInt8:
      return sizeof(std::int8_t);
    case ColumnType::kInt32:
      return sizeof(std::int32_t);
  }
  return 0;
}

namespace {

// Element j of row `row` of a k-wide column of T.
template <class T>
T& at(void* data, std::int64_t row, int k, int j = 0) {
  return static_cast<T*>(data)[row * k + j];
}

// Rounds drawn (winner -1) and won per team over the match, forfeits left out (R14).
struct RoundCounts {
  std::int32_t draws = 0;
  std::int32_t wins[2] = {0, 0};
};
RoundCounts round_counts(const GameState& g) {
  RoundCounts c;
  g.results().for_each_from(0, [&](const RoundResult& r) {
    if (r.forfeit_seat >= 0) return;
    if (r.winner < 0)
      ++c.draws;
    else
      ++c.wins[r.winner];
  });
  return c;
}

using G = const GameState&;
using T = const GameTally&;
constexpr auto kU64 = ColumnType::kUint64;
constexpr auto kI8 = ColumnType::kInt8;
constexpr auto kI32 = ColumnType::kInt32;
constexpr auto kScalar = ColumnWidth::kScalar;

// The one place a result column is declared (docs/development.md "Where to add what").
const ResultColumn kResultColumns[] = {
    {"seed", kU64, kScalar, false, "the run's seed (the same in every row)",
     [](void* d, std::int64_t i, int k, G, T t) { at<std::uint64_t>(d, i, k) = t.seed; }},
    {"game", kU64, kScalar, false, "the game index i",
     [](void* d, std::int64_t i, int k, G, T t) { at<std::uint64_t>(d, i, k) = t.game; }},
    {"dealer", kI8, kScalar, false, "dealer of the first round (R10)",
     [](void* d, std::int64_t i, int k, G, T t) {
       at<std::int8_t>(d, i, k) = std::int8_t(t.first_dealer);
     }},
    {"level", kI8, kScalar, false, "level rank of the first round (0 = 2 .. 12 = A)",
     [](void* d, std::int64_t i, int k, G, T t) {
       at<std::int8_t>(d, i, k) = std::int8_t(t.first_level);
     }},
    {"order", kI8, ColumnWidth::kSeats, false,
     "finishing order of the (last) round: the seat finishing k+1-th",
     [](void* d, std::int64_t i, int k, G g, T) {
       const RoundResult& last = g.results().back();
       for (int j = 0; j < k; ++j) at<std::int8_t>(d, i, k, j) = last.order[std::size_t(j)];
     }},
    {"winner", kI8, kScalar, false,
     "rounds: the winning team or -1 (draw, R9); matches: the match winner or -1",
     [](void* d, std::int64_t i, int k, G g, T t) {
       const RoundResult& last = g.results().back();
       at<std::int8_t>(d, i, k) =
           t.matches ? (last.match_over ? last.match_winner : std::int8_t(-1)) : last.winner;
     }},
    {"n_tributers", kI8, kScalar, false, "tributers of the (last) round (R11)",
     [](void* d, std::int64_t i, int k, G g, T) {
       at<std::int8_t>(d, i, k) = g.results().back().n_tributers;
     }},
    {"tributers", kI8, ColumnWidth::kTributers, false,
     "their seats, -1 padded; tributers[k] pays the k-th receiver",
     [](void* d, std::int64_t i, int k, G g, T) {
       const RoundResult& last = g.results().back();
       for (int j = 0; j < k; ++j)
         at<std::int8_t>(d, i, k, j) = j < last.n_tributers ? last.tributers[std::size_t(j)] : -1;
     }},
    {"levels", kI8, ColumnWidth::kTeams, false,
     "level ranks of team A and team B after the round / the match",
     [](void* d, std::int64_t i, int k, G g, T) {
       for (int j = 0; j < k; ++j) at<std::int8_t>(d, i, k, j) = std::int8_t(g.level(j));
     }},
    {"scores", kI32, ColumnWidth::kSeats, false,
     "each seat's score: the round's change (R13) / the match totals",
     [](void* d, std::int64_t i, int k, G g, T) {
       for (int j = 0; j < k; ++j) at<std::int32_t>(d, i, k, j) = std::int32_t(g.score(j));
     }},
    {"plays", kI32, kScalar, false, "plays made",
     [](void* d, std::int64_t i, int k, G, T t) { at<std::int32_t>(d, i, k) = t.plays; }},
    {"passes", kI32, kScalar, false, "passes decided (auto_pass passes are not decisions)",
     [](void* d, std::int64_t i, int k, G, T t) { at<std::int32_t>(d, i, k) = t.passes; }},
    {"rounds", kI32, kScalar, false, "rounds played (1 for rounds)",
     [](void* d, std::int64_t i, int k, G g, T) {
       at<std::int32_t>(d, i, k) = std::int32_t(g.results().size());
     }},
    {"draws", kI32, kScalar, true, "matches only: drawn rounds",
     [](void* d, std::int64_t i, int k, G g, T) {
       at<std::int32_t>(d, i, k) = round_counts(g).draws;
     }},
    {"wins", kI32, ColumnWidth::kTeams, true, "matches only: rounds won by team A and team B",
     [](void* d, std::int64_t i, int k, G g, T) {
       const RoundCounts c = round_counts(g);
       for (int j = 0; j < k; ++j) at<std::int32_t>(d, i, k, j) = c.wins[j];
     }},
};

}  // namespace

std::span<const ResultColumn> result_columns() { return kResultColumns; }

int column_width(const ResultColumn& c, const Table& tb) {
  switch (c.width) {
    case ColumnWidth::kScalar:
      return 1;
    case ColumnWidth::kSeats:
      return tb.seats;
    case ColumnWidth::kTributers:
      return tb.max_tributers;
    case ColumnWidth::kTeams:
      return 2;
  }
  throw std::logic_error("column_width: unknown width");
}

int column_shape(const ResultColumn& c, const Table& tb) {
  return c.width == ColumnWidth::kScalar ? 0 : column_width(c, tb);
}

void fill_row(const ResultArrays& out, std::int64_t row, const GameState& g, const GameTally& t) {
  const Table& tb = g.table();
  for (std::size_t c = 0; c < out.size() && c < std::size(kResultColumns); ++c)
    if (out[c]) {
      const ResultColumn& col = kResultColumns[c];
      col.fill(out[c], row, column_width(col, tb), g, t);
    }
}

}  // namespace daguai
