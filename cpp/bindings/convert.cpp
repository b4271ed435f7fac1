// The core layer's conversions (convert.hpp) and the layers' submodules.
#include "convert.hpp"

namespace daguai::bind {

std::string shown(py::handle obj) {
  try {
    std::string s = py::str(py::repr(obj));
    if (s.size() > 80) {
      std::size_t cut = 77;
      while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
      s = s.substr(0, cut) + "...";
    }
    return s;
  } catch (const py::error_already_set&) {
    return "<" + std::string(py::str(py::type::of(obj).attr("__name__"))) + ">";
  }
}

std::string to_text(py::handle obj, const char* what) {
  if (!py::isinstance<py::str>(obj))
    throw CardError(std::string(what) + " must be text (a str), got " +
                    std::string(py::str(py::type::of(obj).attr("__name__"))));
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(obj.ptr(), &size);
  if (!data) {  // lone surrogates cannot be encoded
    PyErr_Clear();
    throw CardError(std::string(what) + " is not valid text: " + shown(obj) +
                    " holds a lone surrogate (\\ud800-\\udfff)");
  }
  return std::string(data, std::size_t(size));
}

Cards to_cards(py::handle obj, const char* what) { return to_cards(obj, kTable6p3d, what); }

Cards to_cards(py::handle obj, const Table& table, const char* what) {
  if (py::isinstance<Cards>(obj)) {
    const Cards c = obj.cast<Cards>();
    check_copies(c, table);
    return c;
  }
  if (py::isinstance<py::str>(obj)) return parse_cards(to_text(obj, what), table);
  if (py::isinstance<py::bytes>(obj) || py::isinstance<py::dict>(obj) || obj.is_none() ||
      !py::hasattr(obj, "__iter__"))
    throw CardError(std::string(what) +
                    " must be a Hand, card text like 'As Th SJ', or a list of "
                    "card strings; got " +
                    std::string(py::str(py::type::of(obj).attr("__name__"))));
  Cards c;
  for (py::handle item : obj) {
    if (!py::isinstance<py::str>(item))
      throw CardError(std::string(what) + ": every card must be a string like 'As', got " +
                      shown(item));
    add_copy(&c, parse_face(to_text(item, what)), table);  // R2, R18: cards.hpp
  }
  return c;
}

int to_level(py::handle obj) {
  if (py::isinstance<py::str>(obj)) return parse_level(to_text(obj, "level"));
  throw CardError("level must be a string: one of 2 3 4 5 6 7 8 9 T (or 10) J Q K A; got " +
                  shown(obj));
}

std::uint64_t state_word(py::handle v, const char* what) {
  if (!py::isinstance<py::int_>(v) || py::isinstance<py::bool_>(v))
    throw CardError(std::string("corrupt ") + what + " state: expected an integer, got " +
                    shown(v));
  const unsigned long long x = PyLong_AsUnsignedLongLong(v.ptr());
  if (x == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    throw CardError(std::string("corrupt ") + what + " state: " + std::string(py::str(v)) +
                    " is not a 64-bit word");
  }
  return std::uint64_t(x);
}

py::module_ layer_module(py::module_& core, const char* name, const char* doc) {
  py::module_ sub = core.def_submodule(name, doc);
  py::module_::import("sys").attr("modules")[sub.attr("__name__")] = sub;
  return sub;
}

}  // namespace daguai::bind
