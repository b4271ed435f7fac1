#include <algorithm>
#include <cstring>

#include <daguai/io/encode.hpp>

namespace daguai {

const std::vector<ObsSlice>& obs_slices() {
  static const std::vector<ObsSlice> kSlices = {
      {"hand", kObsHand, 54, "own face counts (0..3), face id order"},
      {"played", kObsPlayed, 6 * 54,
       "cards played this round, 54 counts per relative seat (0 = me)"},
      {"top_cards", kObsTopCards, 54, "face counts of the play to beat (zeros when leading)"},
      {"top_kind", kObsTopKind, 9, "one-hot Kind of the play to beat"},
      {"top_key", kObsTopKey, 1, "key of the play to beat scaled to [0, 1] within its size"},
      {"top_seat", kObsTopSeat, 6, "one-hot relative seat that made the play to beat"},
      {"leading", kObsLeading, 1, "1 if the player to act leads a new trick"},
      {"passed", kObsPassed, 6, "1 per relative seat that passed since the play to beat"},
      {"cards_left", kObsCounts, 6,
       "cards left / 27 per relative seat (28/27 between tribute and return)"},
      {"out", kObsOut, 6, "finishing position / 6 per relative seat (0 = still playing)"},
      {"levels", kObsLevels, 26, "one-hot level of my team (13), then of the other team (13)"},
      {"level_rank", kObsLevelRank, 13, "one-hot level rank L of the round"},
      {"dealer", kObsDealer, 6, "one-hot relative seat of the dealer"},
      {"phase", kObsPhase, 5, "one-hot phase: tribute, return, take, play, match_over"},
      {"to_act", kObsToAct, 6, "one-hot relative seat of the player to act"},
      {"tribute", kObsTribute, 54, "tribute cards paid this round (public, R11/R16)"},
      {"exchange", kObsExchange, 54, "cards returned / taken to or by me this round (private)"},
      {"scores", kObsScores, 2, "match score of my seat, of the next seat (an opponent), / 100"},
  };
  return kSlices;
}

namespace {

// The four 2-bit counts of a rank byte as floats, in face order (Cards layout).
struct ByteCounts {
  float v[256][4]{};
  constexpr ByteCounts() {
    for (int b = 0; b < 256; ++b)
      for (int i = 0; i < 4; ++i) v[b][i] = float((b >> (2 * i)) & 3);
  }
};
constexpr ByteCounts kByteCounts{};

}  // namespace

// 54 face counts, read from the rank bytes (Cards layout): four faces a byte, then the jokers.
void put_counts(const Cards& c, float* out) {
  for (int b = 0; b < 8; ++b) std::memcpy(out + 4 * b, kByteCounts.v[(c.lo >> (8 * b)) & 0xFF], 16);
  for (int b = 0; b < 5; ++b)
    std::memcpy(out + 32 + 4 * b, kByteCounts.v[(c.hi >> (8 * b)) & 0xFF], 16);
  out[52] = float(c.sj());
  out[53] = float(c.bj());
}

namespace {

// A key scaled to [0, 1], monotone within a size (flushes by their top card).
inline float scaled_key(const Play& p) {
  if (p.size() <= 3) return float(p.key >> 1) / 14.0f;
  const std::uint32_t kind = p.key >> 20, sub = p.key & 0xFFFFF;
  const std::uint32_t v = kind == 1 ? (sub >> 16) : sub;  // flush: the top power
  return (float(kind) + float(v) / 15.0f) / 6.0f;
}

}  // namespace

void encode_observation(const InfoState& v, float* obs) {
  std::memset(obs, 0, sizeof(float) * kObsSize);
  const int seat = v.seat;
  // R18: relative seats modulo the table's seats; at 4p2d the slots of relative seats 4 and 5
  // stay zero (the shape is the same for both tables).
  const Table& tb = v.table();
  const int seats = tb.seats;
  auto rel = [&](int s) { return tb.distance(seat, s); };
  put_counts(v.hand, obs + kObsHand);
  for (int s = 0; s < seats; ++s)
    put_counts(v.pub.played[std::size_t(s)], obs + kObsPlayed + 54 * rel(s));
  if (v.pub.has_top()) {
    const Play& t = v.pub.top;
    put_counts(t.cards, obs + kObsTopCards);
    obs[kObsTopKind + int(t.kind())] = 1;
    obs[kObsTopKey] = scaled_key(t);
    obs[kObsTopSeat + rel(v.pub.top_seat)] = 1;
    for (int s = 0; s < seats; ++s)
      if ((v.pub.passed >> s) & 1) obs[kObsPassed + rel(s)] = 1;
  } else {
    obs[kObsLeading] = v.pub.phase == Phase::kPlay ? 1.0f : 0.0f;
  }
  for (int s = 0; s < seats; ++s)
    obs[kObsCounts + rel(s)] = float(v.pub.cards_left[std::size_t(s)]) / float(kHandSize);
  for (int i = 0; i < v.pub.players_out; ++i)
    obs[kObsOut + rel(v.pub.finish_order[std::size_t(i)])] = float(i + 1) / 6.0f;
  obs[kObsLevels + v.pub.levels[std::size_t(team_of(seat))]] = 1;
  obs[kObsLevels + 13 + v.pub.levels[std::size_t(1 - team_of(seat))]] = 1;
  obs[kObsLevelRank + v.pub.level_rank()] = 1;
  obs[kObsDealer + rel(v.pub.dealer)] = 1;
  obs[kObsPhase + int(v.pub.phase)] = 1;
  if (v.pub.current >= 0) obs[kObsToAct + rel(v.pub.current)] = 1;
  for (int i = 0; i < v.pub.n_pairs; ++i)
    if (v.pub.tribute_face[std::size_t(i)] >= 0)
      obs[kObsTribute + v.pub.tribute_face[std::size_t(i)]] += 1;
  for (int i = 0; i < v.pub.n_pairs; ++i)  // return_face is only set in the viewer's own pair
    if (v.exchange.return_face[std::size_t(i)] >= 0)
      obs[kObsExchange + v.exchange.return_face[std::size_t(i)]] += 1;
  obs[kObsScores] = float(v.pub.scores[std::size_t(seat)]) / 100.0f;
  obs[kObsScores + 1] = float(v.pub.scores[std::size_t(tb.next(seat))]) / 100.0f;
}

void encode_candidate(const Action& a, int level, float* out) {
  (void)level;
  std::memset(out, 0, sizeof(float) * kCandFeatures);
  put_counts(a.play.cards, out);
  if (a.type == ActionType::kPlay) {
    out[54 + int(a.play.kind())] = 1;
    out[63] = scaled_key(a.play);
    out[64] = float(a.play.jokers()) / 5.0f;
  }
  out[65] = a.type == ActionType::kPass ? 1.0f : 0.0f;
  out[66] = float(a.play.cards.size()) / 5.0f;
}

namespace {

int single_face_of(const Cards& c) {
  for (int f = 0; f < kNumFaces; ++f)
    if (c.count(f)) return f;
  return 0;
}

// The powers of the ranks (R4) at a level as two multipliers, byte 7 - i of `lo` the power of
// rank i, of `hi` the power of rank 8 + i: byte 7 of count bytes (Cards::byte_counts) times
// the multiplier is the sum of count x power over the bytes. No byte of the product carries:
// an action holds at most five cards and a rank's power is at most 12, so every byte's sum of
// products is at most 60.
struct PowerWeights {
  std::uint64_t lo = 0, hi = 0;
  explicit PowerWeights(int level) {
    for (int i = 0; i < 8; ++i) lo |= std::uint64_t(rank_power(i, level)) << (8 * (7 - i));
    for (int i = 0; i < kNumRanks - 8; ++i)
      hi |= std::uint64_t(rank_power(8 + i, level)) << (8 * (7 - i));
  }
};

// Canonical order within an abstract id: smaller is preferred. The sum of the card powers
// (R4: jokers 13 and 14), then the level cards, then the BJs.
inline std::uint64_t canonical_score(const Play& p, const PowerWeights& w, int level) {
  const int natural = int((Cards::byte_counts(p.cards.lo) * w.lo) >> 56) +
                      int((Cards::byte_counts(p.cards.hi & Cards::kHiNatural) * w.hi) >> 56);
  const int sum = natural + p.cards.sj() * kSJPower + p.cards.bj() * kBJPower;
  const int level_cards = p.cards.rank_count(level);
  return (std::uint64_t(sum) << 40) | (std::uint64_t(level_cards) << 32) |
         (std::uint64_t(p.cards.bj()) << 28);
}

// The abstract id of a play of the play phase (the id does not depend on the level).
inline int play_abstract_id(const Play& p) {
  const int j = p.jokers();
  const bool joker_only = j == p.size();
  switch (p.kind()) {
    case Kind::kSingle:
      return 1 + int(p.key >> 1);
    case Kind::kPair:
      if (joker_only) return 42 + (2 - p.cards.sj());  // SJ SJ 42, SJ BJ 43, BJ BJ 44
      return 16 + int(p.key >> 1) * 2 + std::min(j, 1);
    case Kind::kTriple:
      if (joker_only) return 84 + (3 - p.cards.sj());
      return 45 + int(p.key >> 1) * 3 + std::min(j, 2);
    default:
      break;
  }
  const int sub = int(p.key & 0xFFFFF);
  switch (p.kind()) {
    case Kind::kStraight:
      return 88 + sub * 3 + std::min(j, 2);
    case Kind::kFlush:
      return 127 + (sub >> 16) * 3 + std::min(j, 2);
    case Kind::kFullHouse:
      return 166 + sub * 4 + std::min(j, 3);
    case Kind::kFourPlusOne:
      return 218 + sub * 4 + std::min(j, 3);
    case Kind::kStraightFlush:
      return 270 + sub * 4 + std::min(j, 3);
    case Kind::kFiveOfAKind:
      return joker_only ? 387 : 322 + sub * 5 + std::min(j, 4);
    default:
      break;
  }
  return 0;
}

// abstract_id's body, inlined into abstract_mask's loop.
inline int abstract_id_of(const Action& a) {
  switch (a.type) {
    case ActionType::kPass:
      return 0;
    case ActionType::kTribute:
    case ActionType::kReturn:
    case ActionType::kTake:
      return 388 + single_face_of(a.play.cards);
    case ActionType::kAntiTribute:
      return 442;
    case ActionType::kOffer:
      return 443;
    case ActionType::kPlay:
      break;
  }
  return play_abstract_id(a.play);
}

// abstract_mask's loop over n decisions: id_at(k) is decision k's abstract id, play_at(k) its
// play (read only for ids that more than one decision shares).
template <class IdAt, class PlayAt>
void mask_decisions(std::size_t n, IdAt&& id_at, PlayAt&& play_at, int level, std::uint8_t* mask,
                    std::int32_t* index) {
  std::memset(mask, 0, kNumAbstract);  // 0: unseen, 1: one action seen, 2: best[id] is scored
  std::memset(index, 0xFF, sizeof(std::int32_t) * kNumAbstract);  // -1
  std::uint64_t best[kNumAbstract];
  const PowerWeights power(level);
  for (std::size_t k = 0; k < n; ++k) {
    const int id = id_at(k);
    if (!mask[id]) {  // the first of an id: scored only if another action shares the id
      mask[id] = 1;
      index[id] = std::int32_t(k);
      continue;
    }
    if (mask[id] == 1) {
      best[id] = canonical_score(play_at(std::size_t(index[id])), power, level);
      mask[id] = 2;
    }
    const std::uint64_t score = canonical_score(play_at(k), power, level);
    if (score < best[id]) {  // the first in the documented order wins ties
      best[id] = score;
      index[id] = std::int32_t(k);
    }
  }
  for (int i = 0; i < kNumAbstract; ++i) mask[i] = mask[i] != 0;
}

}  // namespace

int abstract_id(const Action& a, int level) {
  (void)level;
  return abstract_id_of(a);
}

void abstract_mask(const std::vector<Action>& actions, int level, std::uint8_t* mask,
                   std::int32_t* index) {
  mask_decisions(
      actions.size(), [&](std::size_t k) { return abstract_id_of(actions[k]); },
      [&](std::size_t k) -> const Play& { return actions[k].play; }, level, mask, index);
}

void abstract_mask(const PlayList& plays, bool pass, int level, std::uint8_t* mask,
                   std::int32_t* index) {
  // the legal actions of the play phase are the plays in this order, then the pass
  // (GameState::legal_actions): the pass is decision plays.size(), of id 0, which no play has
  static const Play kNoPlay{};
  const std::size_t n = plays.size();
  mask_decisions(
      n + (pass ? 1 : 0), [&](std::size_t k) { return k < n ? play_abstract_id(plays[k]) : 0; },
      [&](std::size_t k) -> const Play& { return k < n ? plays[k] : kNoPlay; }, level, mask, index);
}

Action action_from_abstract(const std::vector<Action>& legal, int level, int id) {
  if (id < 0 || id >= kNumAbstract)
    throw GameError("abstract action id must be an integer in [0, " +
                    std::to_string(kNumAbstract - 1) + "], got " + std::to_string(id));
  std::uint8_t mask[kNumAbstract];
  std::int32_t index[kNumAbstract];
  abstract_mask(legal, level, mask, index);
  if (!mask[id])
    throw GameError("abstract action " + std::to_string(id) + " is masked out (not legal now)");
  return legal[std::size_t(index[id])];
}

}  // namespace daguai
