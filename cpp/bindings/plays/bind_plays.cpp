// _core.plays: the plays layer (cpp/engine/plays/): Kind, Play; classify / interpretations /
// beats; legal plays as objects, numpy rows or counts; min_plays (bind_analysis.cpp).
#include <pybind11/native_enum.h>
#include <pybind11/stl.h>

#include <bit>
#include <cstddef>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <string>

#include "convert.hpp"
#include "guard.hpp"
#include "plays/play_args.hpp"

#include <daguai/plays/moves.hpp>
#include <daguai/plays/play_text.hpp>

namespace daguai::bind {

// numpy mirror of Play (pattern.hpp "Play layout").
struct PlayRow {
  std::uint64_t lo, hi;
  std::uint32_t key;
  std::uint8_t kind, size, jokers, level;
};
static_assert(sizeof(PlayRow) == sizeof(Play) && offsetof(PlayRow, key) == offsetof(Play, key) &&
                  offsetof(PlayRow, kind) == offsetof(Play, info),
              "PlayRow must mirror Play");
static_assert(std::endian::native == std::endian::little,
              "Play.info byte order assumes little-endian");

namespace {

thread_local PlayList tl_plays;

// The arguments every generation call takes, converted in one order (level, hand, top) so
// that a bad one is named the same way by each: the level, the hand and the top to beat
// (None: leading).
struct HandQuery {
  int lv = 0;
  Cards hand;
  Play tp;
  bool has_top = false;
  const Play* top() const { return has_top ? &tp : nullptr; }
};

HandQuery read_query(py::handle hand, py::handle level, py::handle top, const Rules& rules) {
  HandQuery q;
  q.lv = to_level(level);
  q.hand = to_cards(hand, table_of(rules), "hand");
  q.has_top = optional_top(top, q.lv, rules, &q.tp) != nullptr;
  return q;
}

// The legal plays of (hand, level, top) converted from Python, generated into this thread's
// buffer with the GIL released (pure C++ on local data); valid until the thread's next call.
const PlayList& legal_plays_of(py::handle hand, py::handle level, py::handle top,
                               const Rules& rules) {
  const HandQuery q = read_query(hand, level, top, rules);
  PlayList& buf = tl_plays;
  buf.clear();
  {
    py::gil_scoped_release nogil;
    legal_plays(q.hand, q.lv, rules, q.top(), &buf);
  }
  return buf;
}

void check_level(const Play& p, int level, const char* what) {
  if (p.level() != level)
    throw CardError(std::string(what) + " was classified at level " + level_text(p.level()) +
                    " but is used at level " + level_text(level));
}

py::array_t<PlayRow> rows_from(const Play* plays, std::size_t n) {
  py::array_t<PlayRow> out(static_cast<py::ssize_t>(n));
  if (n) std::memcpy(out.mutable_data(), plays, n * sizeof(Play));
  return out;
}

Play play_from_row(const PlayRow& r) {
  Play p;
  std::memcpy(&p, &r, sizeof(Play));
  return p;
}

Play play_from_state(py::handle lo, py::handle hi, py::handle key, py::handle kind, py::handle size,
                     py::handle jokers, py::handle level) {
  Play p;
  p.cards = Cards{state_word(lo, "Play"), state_word(hi, "Play")};
  const std::uint64_t k = state_word(key, "Play");
  if (k >> 32) throw CardError("corrupt Play state: key " + std::to_string(k) + " is not 32-bit");
  p.key = std::uint32_t(k);
  const std::uint64_t kd = state_word(kind, "Play"), sz = state_word(size, "Play"),
                      jk = state_word(jokers, "Play"), lv = state_word(level, "Play");
  // the level byte: the level rank, and bit 7 for a two-deck table's play (pattern.hpp)
  if (kd >= std::uint64_t(kNumKinds) || sz > 5 || jk > 5 || lv > 0xFF ||
      (lv & 0x7F) >= std::uint64_t(kNumRanks))
    throw CardError("corrupt Play state");
  p.info = play_info(Kind(kd), int(sz), int(jk), int(lv & 0x7F), (lv & 0x80) ? 2 : kMaxCopies);
  validate_play(p);
  return p;
}

// The PLAY_DTYPE rows of an array, or CardError (another dtype, not 1-d).
py::array_t<PlayRow, py::array::c_style> play_rows(py::object obj, const char* what) {
  py::array a = py::array::ensure(obj);
  if (!a || a.ndim() != 1 || !a.dtype().equal(py::dtype::of<PlayRow>()))
    throw CardError(std::string(what) +
                    " needs a 1-d array of dtype PLAY_DTYPE (from legal_plays_array)");
  return py::array_t<PlayRow, py::array::c_style>::ensure(a);
}

}  // namespace

Play to_play(py::handle obj, int level, const Rules& rules, const char* what) {
  if (py::isinstance<Play>(obj)) {
    const Play p = obj.cast<Play>();
    check_level(p, level, what);
    check_copies(p.cards, table_of(rules));  // a 6p3d play read at 4p2d (R18)
    return p;
  }
  return classify_play(to_cards(obj, table_of(rules), what), level, rules, what);
}

py::array plays_array(const Play* plays, std::size_t n) { return rows_from(plays, n); }

const Play* optional_top(py::handle top, int level, const Rules& rules, Play* storage) {
  if (top.is_none()) return nullptr;
  *storage = to_play(top, level, rules, "top");
  return storage;
}

namespace {

// Kind and Play (R5-R7), with Play's validated pickling.
void bind_play_type(py::module_& m) {
  py::native_enum<Kind>(m, "Kind", "enum.IntEnum",
                        "Combination type (R5), in order of 5-card strength.")
      .value("SINGLE", Kind::kSingle)
      .value("PAIR", Kind::kPair)
      .value("TRIPLE", Kind::kTriple)
      .value("STRAIGHT", Kind::kStraight)
      .value("FLUSH", Kind::kFlush)
      .value("FULL_HOUSE", Kind::kFullHouse)
      .value("FOUR_PLUS_ONE", Kind::kFourPlusOne)
      .value("STRAIGHT_FLUSH", Kind::kStraightFlush)
      .value("FIVE_OF_A_KIND", Kind::kFiveOfAKind)
      .finalize();

  py::class_<Play>(m, "Play",
                   R"doc(A classified play (R5-R7): its cards, kind, comparison key and level.

Two plays of the same size compare by ``key`` (higher beats). ``jokers_as`` lists the faces
the jokers stand for (R6), ``interpreted`` the play as natural cards.)doc")
      .def_property_readonly(
          "cards", [](const Play& p) { return p.cards; }, "The cards played (a Hand).")
      .def_property_readonly(
          "kind", [](const Play& p) { return p.kind(); }, "The Kind.")
      .def_property_readonly(
          "key", [](const Play& p) { return p.key; },
          "Comparison key (docs/rules.md); same size: higher beats.")
      .def_property_readonly(
          "size", [](const Play& p) { return int(p.size()); }, "Number of cards.")
      .def_property_readonly(
          "jokers", [](const Play& p) { return int(p.jokers()); }, "Number of jokers.")
      .def_property_readonly(
          "level", [](const Play& p) { return level_text(p.level()); },
          "The level the key was computed for.")
      .def_property_readonly(
          "jokers_as",
          [](const Play& p) {
            std::vector<std::string> out;
            for (int f : joker_faces(p, p.level())) out.push_back(face_text(f));
            return out;
          },
          "Faces the jokers stand for (SJs first, then BJs); empty for singles and joker-only "
          "plays.")
      .def_property_readonly("interpreted", &interpreted_cards,
                             "The play as natural cards (jokers replaced by what they stand for).")
      .def("describe", &describe, "Kind and ranks in reading order, e.g. 'straight 23456'.")
      .def(
          "beats",
          [](const Play& a, py::handle other) {
            if (!py::isinstance<Play>(other))
              throw IllegalPlay("Play.beats needs another Play (other), got " +
                                std::string(py::str(py::type::of(other).attr("__name__"))));
            return beats(a, other.cast<Play>());
          },
          py::arg("other"), "R7: same size and strictly higher key.")
      .def("__len__", [](const Play& p) { return int(p.size()); })
      .def("__str__", [](const Play& p) { return cards_text(p.cards); })
      .def("__repr__", &play_repr)
      .def(
          "__eq__",
          [](const Play& a, py::handle b) {
            return py::isinstance<Play>(b) && a == b.cast<Play>() &&
                   a.level() == b.cast<Play>().level();
          },
          py::is_operator())
      .def(
          "__ne__",
          [](const Play& a, py::handle b) {
            return !(py::isinstance<Play>(b) && a == b.cast<Play>() &&
                     a.level() == b.cast<Play>().level());
          },
          py::is_operator())
      .def("__hash__", [](const Play& p) {
        return std::hash<std::uint64_t>{}((p.cards.lo * 0x9E3779B97F4A7C15ULL) ^ p.cards.hi ^
                                          (std::uint64_t(p.key) << 20) ^
                                          (std::uint64_t(p.level()) << 60));
      });
  // Pickling through a module function (every protocol; the state is validated). The
  // module holds the function; __reduce__ refers to it directly (a borrowed handle).
  m.def(
      "_play_from_state",
      [](py::args a) {
        if (a.size() != 7)
          throw CardError("corrupt Play state: expected 7 fields, got " + std::to_string(a.size()));
        return play_from_state(a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
      },
      "Unpickling helper: a validated Play.");
  const py::handle from_state = m.attr("_play_from_state");
  m.attr("Play").attr("__reduce__") = py::cpp_function(
      [from_state](const Play& p) {
        return py::make_tuple(
            from_state, py::make_tuple(p.cards.lo, p.cards.hi, p.key, int(p.kind()), int(p.size()),
                                       int(p.jokers()), int(p.info >> 24)));
      },
      py::name("__reduce__"), py::is_method(m.attr("Play")));
  harden<Play>(m, "Play");
}

// Reading plays: classify, read_play, interpretations, beats, compare.
void bind_classification(py::module_& m) {
  m.def(
      "classify",
      [](py::handle cards, py::handle level, const Rules& rules,
         py::handle jokers_as) -> py::object {
        const int lv = to_level(level);
        const Cards c = to_cards(cards, table_of(rules));
        if (!jokers_as.is_none())
          return py::cast(classify_declared(c, to_cards(jokers_as, "jokers_as"), lv, rules));
        Play p;
        if (!classify(c, lv, rules, &p)) return py::none();
        return py::cast(p);
      },
      py::arg("cards"), py::arg("level"), py::arg("rules"), py::arg("jokers_as") = py::none(),
      "Classify cards (R5-R7); None if they form no play.");

  m.def(
      "read_play",
      [](py::handle cards, py::handle declared, py::handle level, const Rules& rules) {
        const int lv = to_level(level);
        const std::string text =
            py::isinstance<py::str>(cards) ? to_text(cards, "cards") : cards_text(to_cards(cards));
        std::optional<std::string> as;
        if (!declared.is_none()) as = to_text(declared, "'as'");
        return read_play(text, as, lv, rules);
      },
      py::arg("cards"), py::arg("declared"), py::arg("level"), py::arg("rules"),
      "A play from card text and, optionally, the faces its jokers stand for (actions.hpp).");

  m.def(
      "interpretations",
      [](py::handle cards, py::handle level, const Rules& rules) {
        return interpretations(to_cards(cards, table_of(rules)), to_level(level), rules);
      },
      py::arg("cards"), py::arg("level"), py::arg("rules"),
      "Every interpretation the cards can form (R6), increasing key order.");

  m.def(
      "beats",
      [](py::handle a, py::handle b, py::handle level, const Rules& rules) {
        const int lv = to_level(level);
        return beats(to_play(a, lv, rules, "play"), to_play(b, lv, rules, "top"));
      },
      py::arg("a"), py::arg("b"), py::arg("level"), py::arg("rules"),
      "R7: whether a beats b (False when the sizes differ).");

  m.def(
      "compare",
      [](py::handle a, py::handle b, py::handle level, const Rules& rules) {
        const int lv = to_level(level);
        const Play pa = to_play(a, lv, rules, "play"), pb = to_play(b, lv, rules, "top");
        if (pa.size() != pb.size())
          throw IllegalPlay("cannot compare a " + std::to_string(pa.size()) + "-card play with a " +
                            std::to_string(pb.size()) +
                            "-card play (R7: only plays of equal size compare)");
        return pa.key > pb.key ? 1 : (pa.key < pb.key ? -1 : 0);
      },
      py::arg("a"), py::arg("b"), py::arg("level"), py::arg("rules"),
      "Three-way comparison of plays of equal size: 1, 0 (tie) or -1.");
}

// Legal plays of a hand (R7, R8): as objects, as numpy rows, counted, or one by index.
void bind_generation(py::module_& m) {
  py::list families;
  for (const char* name : kFamilyNames) families.append(name);
  m.attr("FAMILIES") = py::tuple(families);  // count_plays' families, in order (moves.hpp)
  m.def(
      "legal_plays",
      [](py::handle hand, py::handle level, py::handle top, const Rules& rules) {
        const PlayList& buf = legal_plays_of(hand, level, top, rules);
        py::list out(buf.size());
        for (std::size_t i = 0; i < buf.size(); ++i) out[i] = py::cast(buf[i]);
        return out;
      },
      py::arg("hand"), py::arg("level"), py::arg("top"), py::arg("rules"),
      "Every distinct legal play (as Play objects).");

  m.def(
      "legal_plays_array",
      [](py::handle hand, py::handle level, py::handle top, const Rules& rules) {
        const PlayList& buf = legal_plays_of(hand, level, top, rules);
        return rows_from(buf.data(), buf.size());
      },
      py::arg("hand"), py::arg("level"), py::arg("top"), py::arg("rules"),
      "Every distinct legal play as a numpy structured array (PLAY_DTYPE).");

  m.def(
      "count_plays",
      [](py::handle hand, py::handle level, py::handle top, const Rules& rules) {
        const HandQuery q = read_query(hand, level, top, rules);
        const int lv = q.lv;
        const Cards& h = q.hand;
        const Play* t = q.top();
        PlayCounts c;
        {
          py::gil_scoped_release nogil;  // pure C++ on local data
          c = count_plays(h, lv, rules, t);
        }
        py::tuple fam(kNumFamilies);
        for (int f = 0; f < kNumFamilies; ++f) fam[std::size_t(f)] = c.family[std::size_t(f)];
        return py::make_tuple(c.total, fam);
      },
      py::arg("hand"), py::arg("level"), py::arg("top"), py::arg("rules"),
      "(total, per-family counts) of the legal plays, without generating them.");

  m.def(
      "play_at",
      [](py::handle hand, py::handle level, py::handle top, const Rules& rules,
         py::handle index_obj) {
        py::ssize_t index = py::ssize_t(to_int<CardError>(
            index_obj, "play index", -(std::int64_t(1) << 40), std::int64_t(1) << 40));
        const HandQuery q = read_query(hand, level, top, rules);
        const int lv = q.lv;
        const Cards& h = q.hand;
        const Play* t = q.top();
        const PlayCounts c = count_plays(h, lv, rules, t);
        if (index < 0) index += py::ssize_t(c.total);
        if (index < 0) throw py::index_error("play index out of range");
        return play_at(h, lv, rules, t, c, std::size_t(index));
      },
      py::arg("hand"), py::arg("level"), py::arg("top"), py::arg("rules"), py::arg("index"),
      "legal_plays(...)[index], generating only that play.");
}

// A uniformly drawn legal play (R17), and checking a play against a hand.
void bind_draws(py::module_& m) {
  m.def(
      "sample_play",
      [](py::handle hand, py::handle level, py::handle top, const Rules& rules,
         Rng& rng) -> py::object {
        const HandQuery q = read_query(hand, level, top, rules);
        const int lv = q.lv;
        const Cards& h = q.hand;
        const Play* t = q.top();
        Play pick;
        // The GIL stays held; the guard keeps another thread's draws off this rng meanwhile.
        const Guard guard(&rng);
        const bool ok = sample_play(h, lv, rules, t, rng, &pick);
        return ok ? py::cast(pick) : py::none();
      },
      py::arg("hand"), py::arg("level"), py::arg("top"), py::arg("rules"), py::arg("rng"),
      "A uniformly drawn legal play (one draw from rng), or None if there is none.");

  m.def(
      "check_play",
      [](py::handle hand, py::handle play, py::handle level, py::handle top, const Rules& rules) {
        // not read_query: the play is read before the top, so a bad play is named first
        const int lv = to_level(level);
        const Cards h = to_cards(hand, table_of(rules), "hand");
        const Play p = to_play(play, lv, rules, "play");
        Play tp;
        const Play* t = optional_top(top, lv, rules, &tp);
        check_play(h, p, lv, rules, t);
        return p;
      },
      py::arg("hand"), py::arg("play"), py::arg("level"), py::arg("top"), py::arg("rules"),
      "Validate a play from a hand (in hand, allowed interpretation, beats top); returns the "
      "Play.");
}

// The batch loops check every face id as they classify (a bad id counts in a nibble no face
// reaches, pattern.cpp): when one throws, the documented error (plays.py _face_rows) names the
// first id out of range 0..53 of the arrays in turn, if there is one; else its own error stands.
// Call from a catch block.
[[noreturn]] void throw_face_range(const char* what,
                                   std::initializer_list<const py::array*> arrays) {
  for (const py::array* a : arrays) {
    const auto* f = static_cast<const std::uint8_t*>(a->data());
    const py::ssize_t k = a->shape(1), n = a->shape(0) * k;
    for (py::ssize_t i = 0; i < n; ++i)
      if (f[i] >= kNumFaces)
        throw CardError(std::string(what) + ": face id " + std::to_string(f[i]) + " (row " +
                        std::to_string(i / k) + ") is out of range 0..53");
  }
  throw;
}

// PLAY_DTYPE rows to and from Play objects, and the batch classifiers.
void bind_play_arrays(py::module_& m) {
  m.attr("PLAY_DTYPE") = py::dtype::of<PlayRow>();

  m.def(
      "plays_from_array",
      [](py::object obj) {
        const auto rows = play_rows(obj, "plays_from_array");
        std::vector<Play> out;
        out.reserve(std::size_t(rows.shape(0)));
        const PlayRow* d = rows.data();
        for (py::ssize_t i = 0; i < rows.shape(0); ++i) {
          out.push_back(play_from_row(d[i]));
          validate_play(out.back());
        }
        return out;
      },
      py::arg("rows"), "Play objects from PLAY_DTYPE rows.");

  m.def(
      "plays_to_array",
      [](py::handle seq) {
        if (py::isinstance<py::str>(seq) || !py::hasattr(seq, "__iter__"))
          throw CardError("plays_to_array needs an iterable of Play objects, got " +
                          std::string(py::str(py::type::of(seq).attr("__name__"))));
        std::vector<Play> plays;
        for (py::handle item : seq) {
          if (!py::isinstance<Play>(item))
            throw CardError("plays_to_array: item " + std::to_string(plays.size()) +
                            " is not a Play, got " +
                            std::string(py::str(py::type::of(item).attr("__name__"))));
          plays.push_back(item.cast<Play>());
        }
        return rows_from(plays.data(), plays.size());
      },
      py::arg("plays"), "PLAY_DTYPE rows from Play objects.");

  m.def(
      "counts_from_array",
      [](py::object obj) {
        const auto rows = play_rows(obj, "play_counts");
        for (py::ssize_t i = 0; i < rows.shape(0); ++i)
          if (rows.data()[i].hi & ~Cards::kHiValid)
            throw CardError("play_counts: row " + std::to_string(i) + " is corrupt");
        const py::ssize_t n = rows.shape(0);
        py::array_t<std::uint8_t> out({n, py::ssize_t(kNumFaces)});
        std::uint8_t* o = out.mutable_data();
        const PlayRow* d = rows.data();
        {
          py::gil_scoped_release nogil;  // reads rows, writes out; both owned by this call
          for (py::ssize_t i = 0; i < n; ++i)
            cards_to_counts(Cards{d[i].lo, d[i].hi}, o + i * kNumFaces);
        }
        return out;
      },
      py::arg("rows"), "An (n, 54) uint8 array of face counts from PLAY_DTYPE rows.");

  m.def(
      "classify_many",
      [](py::array_t<std::uint8_t, py::array::c_style> faces, py::handle level,
         const Rules& rules) {
        if (faces.ndim() != 2 || faces.shape(1) < 1 || faces.shape(1) > 5)
          throw CardError("classify_many needs an (n, k) uint8 array of face ids with k in 1..5");
        const int lv = to_level(level);
        const py::ssize_t n = faces.shape(0);
        const int k = int(faces.shape(1));
        py::array_t<std::uint8_t> kinds(n);
        py::array_t<std::uint32_t> keys(n);
        const std::uint8_t* f = faces.data();
        std::uint8_t* ko = kinds.mutable_data();
        std::uint32_t* kk = keys.mutable_data();
        try {
          py::gil_scoped_release nogil;  // inputs converted; outputs owned by this call
          classify_batch(f, std::size_t(n), k, nullptr, k, lv, rules, ko, kk);
        } catch (const std::exception&) {
          throw_face_range("classify_many", {&faces});
        }
        return py::make_tuple(kinds, keys);
      },
      py::arg("faces"), py::arg("level"), py::arg("rules"),
      "Classify n plays of k face ids: (kinds uint8 (255 = no play), keys uint32).");

  m.def(
      "beats_many",
      [](py::array_t<std::uint8_t, py::array::c_style> a,
         py::array_t<std::uint8_t, py::array::c_style> b, py::handle level, const Rules& rules) {
        if (a.ndim() != 2 || b.ndim() != 2 || a.shape(0) != b.shape(0) || a.shape(1) < 1 ||
            a.shape(1) > 5 || b.shape(1) < 1 || b.shape(1) > 5)
          throw CardError(
              "beats_many needs two (n, k) uint8 face-id arrays with the same n, k in 1..5");
        const int lv = to_level(level);
        const py::ssize_t n = a.shape(0);
        const int ka = int(a.shape(1)), kb = int(b.shape(1));
        py::array_t<bool> out(n);
        bool* o = out.mutable_data();
        const std::uint8_t* pa = a.data();
        const std::uint8_t* pb = b.data();
        try {
          py::gil_scoped_release nogil;  // inputs converted; output owned by this call
          beats_batch(pa, pb, std::size_t(n), ka, kb, lv, rules, o);
        } catch (const std::exception&) {
          throw_face_range("beats_many", {&a, &b});
        }
        return out;
      },
      py::arg("a"), py::arg("b"), py::arg("level"), py::arg("rules"),
      "Row-wise R7 comparison of two face-id arrays (classifies both). Raises if a row is not a "
      "play.");
}

}  // namespace

void bind_analysis(py::module_& m);  // bind_analysis.cpp

void bind_plays(py::module_& core) {
  py::module_ m = layer_module(core, "plays", "Plays: classification, comparison, generation.");
  PYBIND11_NUMPY_DTYPE(PlayRow, lo, hi, key, kind, size, jokers, level);
  py::register_exception<IllegalPlay>(m, "IllegalPlayError", PyExc_ValueError);
  bind_play_type(m);
  bind_classification(m);
  bind_generation(m);
  bind_draws(m);
  bind_play_arrays(m);
  bind_analysis(m);
}

}  // namespace daguai::bind
