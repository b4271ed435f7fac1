// Native enums from the engine's names (bind_rules.cpp, game/bind_game.cpp): a Python member
// name is the engine's text upper-cased.
#pragma once

#include <pybind11/native_enum.h>

#include <cctype>
#include <string>
#include <string_view>

#include "convert.hpp"

namespace daguai::bind {

// A Python enum member name: the text upper-cased; `prefix_` first when the text does not
// start with a letter ("6p3d" of `table` -> TABLE_6P3D).
inline std::string member_name(std::string_view text, std::string_view prefix) {
  std::string out;
  if (text.empty() || !std::isalpha(static_cast<unsigned char>(text[0])))
    out.append(prefix).push_back('_');
  out.append(text);
  for (char& c : out) c = char(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// An engine enum whose values are 0, 1, ... and whose name function answers "?" past the last.
template <class E>
void bind_named_enum(py::module_& m, const char* name, const char* (*text)(E), const char* doc) {
  py::native_enum<E> e(m, name, "enum.IntEnum", doc);
  for (int i = 0; i < 256 && std::string_view(text(E(i))) != "?"; ++i)
    e.value(member_name(text(E(i)), name).c_str(), E(i));
  e.finalize();
}

}  // namespace daguai::bind
