#include <daguai/beliefs/sampler.hpp>

namespace daguai {

namespace {

bool constraints_hold(const InfoState& v, const std::array<Cards, kSeats>& hands) {
  for (int s = 0; s < kSeats; ++s)
    if (v.jokers_known[std::size_t(s)] &&
        hands[std::size_t(s)].jokers() != v.known[std::size_t(s)].jokers())
      return false;
  bool ok = true;
  v.pub.forced.for_each_from(0, [&](const ForcedPass& fp) {
    if (!ok || fp.seat == v.seat) return;  // the viewer's own hand is exact
    const Cards then =
        hands[std::size_t(fp.seat)] + (v.pub.played[std::size_t(fp.seat)] - fp.played_before);
    if (has_legal_follow(then, v.pub.level_rank(), v.pub.rules, fp.top)) ok = false;
  });
  return ok;
}

}  // namespace

bool consistent(const InfoState& v, const std::array<Cards, kSeats>& hands) {
  Cards all;
  for (int s = 0; s < kSeats; ++s) {
    const Cards& h = hands[std::size_t(s)];
    if (h.size() != v.pub.cards_left[std::size_t(s)] || !h.contains(v.known[std::size_t(s)]))
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
  return GameState(v.pub, hands, v.exchange, seed, game);
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
  if (v.pub.phase == Phase::kMatchOver) throw GameError("sample_worlds: the match is over");
  std::vector<GameState> out;
  out.reserve(std::size_t(n));
  for (int k = 0; k < n; ++k)
    out.push_back(
        make_world(v, sample_world_hands(v, seed, std::uint64_t(k)), seed, std::uint64_t(k)));
  return out;
}

}  // namespace daguai
