// The plays layer's conversions (plays/bind_plays.cpp defines them), for every binding of
// that layer or above: a Play argument, an optional top to beat, plays as numpy rows.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>

#include "convert.hpp"

#include <daguai/plays/pattern.hpp>

namespace daguai::bind {

// A Play, or card text / Hand classified at (level, rules); raises if not a play.
Play to_play(py::handle obj, int level, const Rules& rules, const char* what = "play");
// None -> nullptr, else the play `top` classified at (level, rules), kept in *storage.
const Play* optional_top(py::handle top, int level, const Rules& rules, Play* storage);
// Plays as a numpy array of PLAY_DTYPE rows (a copy).
py::array plays_array(const Play* plays, std::size_t n);

}  // namespace daguai::bind
