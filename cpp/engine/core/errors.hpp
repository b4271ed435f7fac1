#pragma once
// The engine's error for a decision or argument the rules do not allow. Lives in the core layer
// so that every layer (the thread pool included) can raise it without seeing the game state.

#include <stdexcept>

namespace daguai {

// A decision out of turn, in the wrong phase, or not allowed by the rules -> Python
// IllegalActionError (a ValueError).
struct GameError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

}  // namespace daguai
