// R17: the one random generator of the project. Specified in docs/game.md ("Randomness") so
// that a program in another language reproduces every deal from a seed.
//
//   SplitMix64 (Steele, Lea, Flood 2014)  -> seeds and stream keys
//   xoshiro256** (Blackman, Vigna 2018)   -> the stream
//   bounded(n): Lemire's multiply-shift with rejection (unbiased)
//   shuffle: Fisher-Yates from the last element down, j = bounded(i + 1)
#pragma once

#include <cstdint>

namespace daguai {

__extension__ typedef unsigned __int128 uint128;  // GCC/Clang; __extension__ keeps -Wpedantic quiet

// One SplitMix64 step: advances *state and returns the output.
constexpr std::uint64_t splitmix64(std::uint64_t* state) {
  std::uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
// SplitMix64's output for state x (one step from x).
constexpr std::uint64_t mix64(std::uint64_t x) { return splitmix64(&x); }

// Stream purposes (the `purpose` argument of Rng::stream).
enum class Stream : std::uint64_t {
  kDeal = 1,          // index = round number: the shuffle of that round
  kFirstDealer = 2,   // index = 0: the first round's dealer (R10)
  kPolicy = 3,        // index = seat: a built-in policy's choices (kIncumbentIndex: the
                      // search's incumbent, drawn from the search's own seed)
  kStart = 4,         // index = 0: a random start state (Start::kRandom, docs/game.md)
  kSample = 5,        // index = world k: sample_worlds' k-th world (seed = its seed, game = 0)
  kExplore = 6,       // index = seat: the learner's exploration in self-play (learned.hpp)
  kContinuation = 7,  // self-play's continuation policies (run/self_play.hpp): index = seat
                      // for the draw from the pool, 6 (b + 1) + seat for branch b's play-out
  kRolloutModel = 8,  // index = seat: the model's first decisions of a search's rollout in
                      // world k (seed = the race's, game = k; search.cpp, model_plies)
};

// Stream::kPolicy's index of the search's incumbent (search.cpp): past every seat, so it never
// meets a seat's own stream.
constexpr std::uint64_t kIncumbentIndex = 99;

class Rng {
 public:
  // xoshiro256** seeded with four SplitMix64 outputs starting from `seed`.
  explicit constexpr Rng(std::uint64_t seed = 0) { reseed(seed); }

  // The stream for (seed, game, purpose, index): key = mix64(mix64(mix64(seed ^ mix64(game))
  // ^ purpose) ^ index), then Rng(key). Depends on nothing else, so results never depend on
  // batch size, thread count or the decisions taken.
  static constexpr Rng stream(std::uint64_t seed, std::uint64_t game, Stream purpose,
                              std::uint64_t index) {
    const std::uint64_t k1 = mix64(seed ^ mix64(game));
    const std::uint64_t k2 = mix64(k1 ^ std::uint64_t(purpose));
    return Rng(mix64(k2 ^ index));
  }

  constexpr void reseed(std::uint64_t seed) {
    std::uint64_t sm = seed;
    for (auto& w : s_) w = splitmix64(&sm);
  }

  constexpr std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform integer in [0, n), n >= 1 (Lemire 2019, with rejection: unbiased).
  constexpr std::uint64_t bounded(std::uint64_t n) {
    std::uint64_t x = next();
    uint128 m = uint128(x) * n;
    std::uint64_t l = std::uint64_t(m);
    if (l < n) {
      const std::uint64_t t = (0 - n) % n;
      while (l < t) {
        x = next();
        m = uint128(x) * n;
        l = std::uint64_t(m);
      }
    }
    return std::uint64_t(m >> 64);
  }

  // Fisher-Yates: for i = n-1 down to 1, swap a[i] with a[bounded(i + 1)].
  template <class T>
  constexpr void shuffle(T* a, int n) {
    for (int i = n - 1; i > 0; --i) {
      const int j = int(bounded(std::uint64_t(i) + 1));
      T tmp = a[i];
      a[i] = a[j];
      a[j] = tmp;
    }
  }

  const std::uint64_t* state() const { return s_; }
  // The generator at a state() read earlier (pickling); all-zero is no xoshiro state.
  static constexpr Rng from_state(const std::uint64_t (&s)[4]) {
    Rng r;
    for (int i = 0; i < 4; ++i) r.s_[i] = s[i];
    return r;
  }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4]{};
};

}  // namespace daguai
