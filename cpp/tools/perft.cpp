// Native timing and perft for the legal-play generator (no Python in the loop).
//   daguai_perft [hands] [level]   random 27-card hands from a fixed seed
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "moves.hpp"

using namespace daguai;

int main(int argc, char** argv) {
  const int n_hands = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int level = argc > 2 ? std::atoi(argv[2]) : 0;
  std::mt19937_64 rng(12345);  // timing input only; the engine has its own generator
  std::vector<int> deck;
  for (int f = 0; f < kNumFaces; ++f)
    for (int k = 0; k < 3; ++k) deck.push_back(f);
  std::vector<Cards> hands;
  for (int i = 0; i < n_hands; ++i) {
    std::shuffle(deck.begin(), deck.end(), rng);
    Cards c;
    for (int k = 0; k < 27; ++k) c.add(deck[k]);
    hands.push_back(c);
  }
  Rules rules;
  PlayList buf;
  buf.reserve(1 << 16);
  std::vector<double> ns;
  long total = 0;
  for (const Cards& h : hands) {
    const int reps = 20;
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) {
      buf.clear();
      legal_plays(h, level, rules, nullptr, &buf);
    }
    auto t1 = std::chrono::steady_clock::now();
    ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / reps);
    total += long(buf.size());
  }
  // batch classification of random legal 5-card plays
  {
    std::vector<std::uint8_t> faces;
    for (const Cards& h : hands) {
      buf.clear();
      legal_plays(h, level, rules, nullptr, &buf);
      for (std::size_t i = 0; i < buf.size(); i += 7) {
        if (buf[i].size() != 5) continue;
        for (int f : cards_faces(buf[i].cards)) faces.push_back(std::uint8_t(f));
      }
    }
    const std::size_t n = faces.size() / 5;
    std::vector<std::uint8_t> kinds(n);
    std::vector<std::uint32_t> keys(n);
    double best = 1e30;
    for (int r = 0; r < 5; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      classify_batch(faces.data(), n, 5, nullptr, 5, level, rules, kinds.data(), keys.data());
      auto t1 = std::chrono::steady_clock::now();
      best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / double(n));
    }
    std::printf("classify_batch: %zu plays, %.2f ns/play\n", n, best);
  }
  std::sort(ns.begin(), ns.end());
  std::printf("leads: %d hands, mean plays %.0f, median %.2f us, p90 %.2f us, ns/play %.2f\n",
              n_hands, double(total) / n_hands, ns[ns.size() / 2] / 1000,
              ns[ns.size() * 9 / 10] / 1000, ns[ns.size() / 2] / (double(total) / n_hands));
  return 0;
}
