// Hand (Cards), card text, counts arrays, CardError.
#include <pybind11/stl.h>

#include <functional>

#include "convert.hpp"
#include "guard.hpp"

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

const Play* optional_top(py::handle top, int level, const Rules& rules, Play* storage) {
  if (top.is_none()) return nullptr;
  *storage = to_play(top, level, rules, "top");
  return storage;
}

int to_level(py::handle obj) {
  if (py::isinstance<py::str>(obj)) return parse_level(to_text(obj, "level"));
  throw CardError("level must be a string: one of 2 3 4 5 6 7 8 9 T (or 10) J Q K A; got " +
                  shown(obj));
}

namespace {

std::size_t hash_cards(const Cards& c) {
  return std::hash<std::uint64_t>{}(c.lo * 0x9E3779B97F4A7C15ULL ^ (c.hi + 0x632BE59BD9B4E019ULL));
}

Cards from_state(std::uint64_t lo, std::uint64_t hi) {
  if (hi & ~Cards::kHiValid) throw CardError("corrupt Hand state: unused bits set");
  return Cards{lo, hi};
}

}  // namespace

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

namespace {

// Hand's constructors: from text, faces, counts.
void bind_hand_builders(py::class_<Cards>& hand) {
  hand.def(py::init<>())
      .def(py::init([](py::handle src) { return to_cards(src, "Hand"); }), py::arg("cards"))
      .def_static(
          "parse", [](py::handle t) { return parse_cards(to_text(t, "text")); }, py::arg("text"),
          "Parse card text (R2 notation; also 10, ♠♥♦♣, any case).")
      .def_static(
          "from_counts",
          [](py::object obj) {
            py::array raw = py::array::ensure(obj);
            if (!raw || raw.ndim() != 1 || raw.shape(0) != kNumFaces)
              throw CardError("from_counts needs a 1-d array of 54 counts (one per face)");
            const char kind = raw.dtype().kind();
            if (kind == 'f') {  // whole numbers only: name the first that is not
              auto f = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(raw);
              for (int i = 0; i < kNumFaces; ++i) {
                const double v = f.at(i);
                if (v != double(static_cast<long long>(v)))
                  throw CardError("count " + std::string(py::str(py::float_(v))) + " for " +
                                  face_text(i) + " is not a whole number");
              }
            } else if (kind != 'i' && kind != 'u' && kind != 'b') {
              throw CardError("from_counts needs integer counts, got dtype " +
                              std::string(py::str(raw.dtype())));
            }
            auto a =
                py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(raw);
            return cards_from_counts(a.data(), int(a.size()));  // checks R2 (cards.hpp)
          },
          py::arg("counts"), "Hand from 54 face counts (face id order).")
      .def_static(
          "from_faces",
          [](py::handle faces) {
            if (py::isinstance<py::str>(faces) || !py::hasattr(faces, "__iter__"))
              throw CardError("from_faces needs an iterable of face ids (0..53), got " +
                              std::string(py::str(py::type::of(faces).attr("__name__"))));
            Cards c;
            for (py::handle item : faces) {
              add_copy(&c, int(to_int<CardError>(item, "face id", 0, kNumFaces - 1)));
            }
            return c;
          },
          py::arg("faces"), "Hand from face ids (0..53).");
}

// Reading a Hand: counts, card texts, face ids, a face's count.
void bind_hand_reading(py::class_<Cards>& hand) {
  hand.def(
          "counts",
          [](const Cards& c) {
            py::array_t<std::uint8_t> out(kNumFaces);
            cards_to_counts(c, out.mutable_data());
            return out;
          },
          "The 54 face counts as a uint8 array (face id order).")
      .def(
          "cards",
          [](const Cards& c) {
            std::vector<std::string> out;
            for (int f : cards_faces(c)) out.push_back(face_text(f));
            return out;
          },
          "Card strings in canonical order, one per card.")
      .def("faces", &cards_faces, "Face ids in ascending order, one per card.")
      .def(
          "count",
          [](const Cards& c, py::handle face) {
            if (PyIndex_Check(face.ptr()) && !PyBool_Check(face.ptr()))  // int, numpy integers
              return c.count(int(to_int<CardError>(face, "face", 0, kNumFaces - 1)));
            return c.count(parse_face(to_text(face, "face")));
          },
          py::arg("face"), "Copies of one face (text or id).")
      .def_property_readonly("jokers", &Cards::jokers, "Number of jokers (SJ + BJ).");
}

// Hand as a multiset: length, equality, hashing, membership, +, -, iteration, state words.
void bind_hand_operators(py::class_<Cards>& hand) {
  hand.def("__len__", &Cards::size)
      .def("__bool__", [](const Cards& c) { return !c.empty(); })
      .def("__str__", &cards_text)
      .def("__repr__", [](const Cards& c) { return "Hand('" + cards_text(c) + "')"; })
      .def(
          "__eq__",
          [](const Cards& a, py::handle b) {
            return py::isinstance<Cards>(b) && a == b.cast<Cards>();
          },
          py::is_operator())
      .def(
          "__ne__",
          [](const Cards& a, py::handle b) {
            return !(py::isinstance<Cards>(b) && a == b.cast<Cards>());
          },
          py::is_operator())
      .def("__hash__", &hash_cards)
      .def(
          "__contains__",
          [](const Cards& a, py::handle b) {
            if (PyIndex_Check(b.ptr()) && !PyBool_Check(b.ptr()))  // a face id (int, numpy integer)
              return a.count(int(to_int<CardError>(b, "face", 0, kNumFaces - 1))) > 0;
            return a.contains(to_cards(b));
          })
      .def(
          "__le__", [](const Cards& a, const Cards& b) { return b.contains(a); }, py::is_operator())
      .def(
          "__lt__", [](const Cards& a, const Cards& b) { return b.contains(a) && !(a == b); },
          py::is_operator())
      .def(
          "__gt__", [](const Cards& a, const Cards& b) { return a.contains(b) && !(a == b); },
          py::is_operator())
      .def(
          "__ge__", [](const Cards& a, const Cards& b) { return a.contains(b); }, py::is_operator())
      .def(
          "__add__",
          [](const Cards& a, py::handle bo) {
            return add_cards(a, to_cards(bo));  // checks R2 (cards.hpp)
          },
          py::is_operator())
      .def(
          "__sub__",
          [](const Cards& a, py::handle bo) {
            const Cards b = to_cards(bo);
            if (!a.contains(b))
              throw CardError("cannot remove '" + cards_text(b) + "': not all in hand '" +
                              cards_text(a) + "'");
            return a - b;
          },
          py::is_operator())
      .def("__iter__",
           [](const Cards& c) {
             py::list l;
             for (int f : cards_faces(c)) l.append(face_text(f));
             return l.attr("__iter__")();
           })
      .def_property_readonly(
          "bits", [](const Cards& c) { return py::make_tuple(c.lo, c.hi); },
          "The packed (lo, hi) 64-bit words (docs/rules.md, Cards layout).")
      .def_static(
          "from_bits",
          [](py::handle lo, py::handle hi) {
            return from_state(state_word(lo, "Hand"), state_word(hi, "Hand"));
          },
          py::arg("lo"), py::arg("hi"), "Hand from the packed (lo, hi) words.");
}

}  // namespace

void bind_cards(py::module_& m) {
  py::register_exception<CardError>(m, "CardError", PyExc_ValueError);

  m.attr("NUM_FACES") = kNumFaces;
  m.attr("SJ") = kSJ;
  m.attr("BJ") = kBJ;

  m.def(
      "face_text",
      [](py::handle f) { return face_text(int(to_int<CardError>(f, "face", 0, kNumFaces - 1))); },
      py::arg("face"), "Text of a face id (0..53), e.g. 'As', 'SJ'.");
  m.def(
      "parse_face", [](py::handle t) { return parse_face(to_text(t, "text")); }, py::arg("text"),
      "Face id of one card token.");
  m.def(
      "parse_level", [](py::handle l) { return to_level(l); }, py::arg("level"),
      "Rank index 0..12 of a level text.");
  m.def(
      "level_text",
      [](py::handle r) { return level_text(int(to_int<CardError>(r, "rank", 0, kNumRanks - 1))); },
      py::arg("rank"), "Level text of a rank index 0..12.");
  m.def(
      "face_power",
      [](py::handle face, py::handle level) {
        const int f = int(to_int<CardError>(face, "face", 0, kNumFaces - 1));
        return face_power(f, to_level(level));
      },
      py::arg("face"), py::arg("level"), "Single power (R4) of a face at a level: 0..14.");

  py::class_<Cards> hand(m, "Hand",
                         R"doc(A multiset of cards (R2): 54 faces, 0..3 copies each. Immutable.

Build from card text (``Hand("As Ah SJ 3c")``), a list of card strings, another Hand,
or ``Hand.from_counts(counts54)``. ``str(h)`` is the canonical text (faces in id order).)doc");
  bind_hand_builders(hand);
  bind_hand_reading(hand);
  bind_hand_operators(hand);
  // Pickling through a module function (works for every protocol, validates the state). The
  // module holds the function; __reduce__ refers to it directly (a borrowed handle).
  m.def(
      "_hand_from_state",
      [](py::args a) {
        if (a.size() != 2)
          throw CardError("corrupt Hand state: expected 2 words, got " + std::to_string(a.size()));
        return from_state(state_word(a[0], "Hand"), state_word(a[1], "Hand"));
      },
      "Unpickling helper: a Hand from its packed words (validated).");
  const py::handle from_words = m.attr("_hand_from_state");
  m.attr("Hand").attr("__reduce__") = py::cpp_function(
      [from_words](const Cards& c) {
        return py::make_tuple(from_words, py::make_tuple(c.lo, c.hi));
      },
      py::name("__reduce__"), py::is_method(m.attr("Hand")));
  py::implicitly_convertible<py::str, Cards>();
  harden<Cards>(m, "Hand");
}

}  // namespace daguai::bind
