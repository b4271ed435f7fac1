// Argument conversion shared by the bind_*.cpp files. Bindings hold no game logic: they
// convert, release the GIL where a call does real work, and call the engine.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "cards.hpp"
#include "pattern.hpp"
#include "rules.hpp"

namespace daguai::bind {

namespace py = pybind11;

// Hand-like argument: a Hand, card text, or an iterable of card strings.
Cards to_cards(py::handle obj, const char* what = "cards");
// A 64-bit word of a pickled state (CardError if it is not one).
std::uint64_t state_word(py::handle v, const char* what);
// Level: "2".."9", "T"/"10", "J", "Q", "K", "A".
int to_level(py::handle obj);
// A Play, or card text / Hand classified at (level, rules); raises if not a play.
Play to_play(py::handle obj, int level, const Rules& rules, const char* what = "play");

void bind_cards(py::module_& m);
void bind_plays(py::module_& m);
void bind_game(py::module_& m);
void bind_analysis(py::module_& m);
void bind_sim(py::module_& m);
void bind_rl(py::module_& m);
void bind_position(py::module_& m);
void bind_infostate(py::module_& m);
void bind_search(py::module_& m);

}  // namespace daguai::bind
