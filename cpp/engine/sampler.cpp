#include "sampler.hpp"

namespace daguai {

namespace {

bool constraints_hold(const InfoState& v, const std::array<Cards, kSeats>& hands) {
  for (int s = 0; s < kSeats; ++s)
    if (v.jokers_known[std::size_t(s)] &&
        hands[std::size_t(s)].jokers() != v.known[std::size_t(s)].jokers())
      return false;
  for (const ForcedPass& fp : v.forced) {
    if (fp.seat == v.seat) continue;  // the viewer's own hand is exact
    const Cards then =
        hands[std::size_t(fp.seat)] + (v.played[std::size_t(fp.seat)] - fp.played_before);
    if (has_legal_follow(then, v.level_rank, v.rules, fp.top)) return false;
  }
  return true;
}

}  // namespace

bool consistent(const InfoState& v, const std::array<Cards, kSeats>& hands) {
  Cards all;
  for (int s = 0; s < kSeats; ++s) {
    const Cards& h = hands[std::size_t(s)];
    if (h.size() != v.cards_left[std::size_t(s)] || !h.contains(v.known[std::size_t(s)]))
      return false;
    if (s != v.seat && Cards::sum_overflows(all, h)) return false;
    if (s != v.seat) all += h - v.known[std::size_t(s)];
  }
  return hands[std::size_t(v.seat)] == v.hand && all == v.unseen && constraints_hold(v, hands);
}

int sample_hands(const InfoState& v, Rng& rng, std::array<Cards, kSeats>* hands) {
  std::uint8_t deck[kDeckSize];
  int n = 0;
  for (int f = 0; f < kNumFaces; ++f)
    for (int c = v.unseen.count(f); c > 0; --c) deck[n++] = std::uint8_t(f);
  for (int attempt = 1; attempt <= kMaxAttempts; ++attempt) {
    rng.shuffle(deck, n);
    int k = 0;
    for (int s = 0; s < kSeats; ++s) {
      Cards h = v.known[std::size_t(s)];
      if (s != v.seat)
        for (int m = v.hidden_count(s); m > 0; --m) h.add(deck[k++]);
      (*hands)[std::size_t(s)] = h;
    }
    if (constraints_hold(v, *hands)) return attempt;
  }
  throw GameError("sample_worlds: the view of seat " + std::to_string(v.seat) +
                  " has constraints (forced passes, " +
                  "refusals) too tight to sample by rejection in " + std::to_string(kMaxAttempts) +
                  " attempts");
}

GameState make_world(const InfoState& v, const std::array<Cards, kSeats>& hands, std::uint64_t seed,
                     std::uint64_t game) {
  GameState g;
  g.rules_ = v.rules;
  g.table_ = &table_of(v.rules);
  g.seed_ = seed;
  g.game_ = game;
  g.auto_pass_ = g.initial_auto_pass_ = v.auto_pass;
  g.record_ = false;
  g.round_ = v.round;
  g.dealer_ = v.dealer;
  g.level_ = v.levels;
  g.score_ = v.scores;
  g.final_failures_ = v.final_failures;
  g.phase_ = v.phase;
  g.current_ = v.current;
  g.hands_ = hands;
  g.played_ = v.played;
  g.top_ = v.top;
  g.top_seat_ = v.has_top ? v.top_seat : -1;
  g.passed_ = v.passed;
  g.order_ = v.finish_order;
  g.n_out_ = v.players_out;
  g.out_mask_ = v.out_mask;
  g.n_pairs_ = v.n_pairs;
  g.pair_step_ = v.pair_step;
  g.trib_ = v.tributers;
  g.recv_ = v.receivers;
  g.tribute_face_ = v.tribute_face;
  g.return_face_ = v.return_face;
  g.offer_ = v.offer;
  for (const ForcedPass& fp : v.forced) g.forced_.push_back(fp);
  return g;
}

std::array<Cards, kSeats> sample_world_hands(const InfoState& v, std::uint64_t seed,
                                             std::uint64_t k) {
  Rng r = Rng::stream(seed, 0, Stream::kSample, k);
  std::array<Cards, kSeats> hands{};
  sample_hands(v, r, &hands);
  return hands;
}

std::vector<GameState> sample_worlds(const InfoState& v, int n, std::uint64_t seed) {
  if (n <= 0) throw GameError("sample_worlds: n must be >= 1, got " + std::to_string(n));
  if (v.phase == Phase::kMatchOver) throw GameError("sample_worlds: the match is over");
  std::vector<GameState> out;
  out.reserve(std::size_t(n));
  for (int k = 0; k < n; ++k)
    out.push_back(
        make_world(v, sample_world_hands(v, seed, std::uint64_t(k)), seed, std::uint64_t(k)));
  return out;
}

}  // namespace daguai
