// Argument conversion shared by every binding (the core layer's values: text, integers, cards,
// levels), and the submodule each layer's binding makes. Bindings hold no game logic: they
// convert, release the GIL where a call does real work, and call the engine. A layer's own
// conversions are in its folder (plays/play_args.hpp, game/game_args.hpp).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <daguai/core/cards.hpp>
#include <daguai/core/rules.hpp>
#include <daguai/core/table.hpp>

namespace daguai::bind {

namespace py = pybind11;

// Text argument as UTF-8; CardError naming `what` if it is not a str or holds a lone
// surrogate ("\ud800": not encodable, so pybind11's own cast would raise RuntimeError).
std::string to_text(py::handle obj, const char* what);
// repr(obj) for an error message, cut to 80 characters; "<type>" where repr itself fails
// (a list nested thousands deep: RecursionError; an int of more than 4,300 digits: Python's
// int-to-text limit), so a message about a bad value never raises another error.
std::string shown(py::handle obj);
// Integer argument (int, numpy integer: anything with __index__, not bool) in [lo, hi];
// otherwise E (a ValueError subclass) naming `what` and the bounds.
template <class E>
std::int64_t to_int(py::handle obj, const char* what, std::int64_t lo, std::int64_t hi) {
  const auto fail = [&](const char* why = "") {
    return E(std::string(what) + " must be an integer in [" + std::to_string(lo) + ", " +
             std::to_string(hi) + "], got " + shown(obj) + why);
  };
  if (PyBool_Check(obj.ptr()) || !PyIndex_Check(obj.ptr())) throw fail();
  py::object i = py::reinterpret_steal<py::object>(PyNumber_Index(obj.ptr()));
  if (!i) {  // e.g. a numpy array of more than one element
    PyErr_Clear();
    throw fail();
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow || (v == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    throw fail(" (out of range)");
  }
  if (v < lo || v > hi) throw fail(" (out of range)");
  return std::int64_t(v);
}
// Hand-like argument: a Hand, card text, or an iterable of card strings.
Cards to_cards(py::handle obj, const char* what = "cards");
// The same for cards meant for a table: at most its decks' copies of a face (R18).
Cards to_cards(py::handle obj, const Table& table, const char* what = "cards");
// A 64-bit word of a pickled state (CardError if it is not one).
std::uint64_t state_word(py::handle v, const char* what);
// Level: "2".."9", "T"/"10", "J", "Q", "K", "A".
int to_level(py::handle obj);
// numpy copies of engine vectors: `cols` float columns per row, and one column of T.
inline py::array_t<float> float_rows(const std::vector<float>& v, std::size_t cols) {
  const py::ssize_t rows = py::ssize_t(cols ? v.size() / cols : 0);
  py::array_t<float> a({rows, py::ssize_t(cols)});
  if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), v.size() * sizeof(float));
  return a;
}

template <class T>
py::array_t<T> column(const std::vector<T>& v) {
  py::array_t<T> a(py::ssize_t(v.size()));
  if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), v.size() * sizeof(T));
  return a;
}

// The submodule `_core.<name>` of one engine layer (cpp/bindings/<name>/ binds it), also
// importable by its full name (`import daguai._core.plays`), as stubtest and mypy see it.
py::module_ layer_module(py::module_& core, const char* name, const char* doc);

}  // namespace daguai::bind
