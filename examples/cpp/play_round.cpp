// A C++ frontend of the installed engine: deal a seeded round, play it with uniformly random
// legal decisions from the engine's own generator (R17), and print the finishing order.
//   play_round [seed]
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <daguai/game/state.hpp>

int main(int argc, char** argv) {
  const std::uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 7;
  daguai::GameState game(daguai::Rules{}, seed);
  daguai::Rng rng = daguai::Rng::stream(seed, 0, daguai::Stream::kPolicy, 0);
  std::printf("seat %d deals; seat 0 holds %s\n", game.dealer(),
              daguai::cards_text(game.hand(0)).c_str());

  std::vector<daguai::Action> actions;
  int decisions = 0;
  while (game.results().size() == 0) {  // the first round only
    actions.clear();                    // legal_actions appends
    game.legal_actions(&actions);
    game.apply(actions[rng.bounded(actions.size())]);
    ++decisions;
  }
  const daguai::RoundResult& r = game.results()[0];
  std::printf("%d decisions; finishing order:", decisions);
  for (auto seat : r.order) std::printf(" %d", int(seat));
  std::printf("; winner: %s\n", r.winner < 0 ? "draw" : (r.winner == 0 ? "team A" : "team B"));
  return 0;
}
