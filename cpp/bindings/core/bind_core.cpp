// _core.core: the core layer (cpp/engine/core/): cards (bind_cards.cpp), the rule variants
// (bind_rules.cpp), the tables (R18) and the project's generator (R17).
#include <pybind11/stl.h>

#include "convert.hpp"
#include "guard.hpp"

#include <daguai/core/errors.hpp>
#include <daguai/core/rng.hpp>
#include <daguai/core/table.hpp>

namespace daguai::bind {

void bind_cards(py::module_& m);  // bind_cards.cpp
void bind_rules(py::module_& m);  // bind_rules.cpp

namespace {

void bind_rng(py::module_& m) {
  py::class_<Rng>(m, "Rng", "The project's generator (R17): xoshiro256** seeded by SplitMix64.")
      .def(py::init([](py::handle seed) { return Rng(state_word(seed, "seed")); }),
           py::arg("seed") = 0)
      .def(
          "next",
          [](Rng& r) {
            const Guard guard(&r);
            return r.next();
          },
          "The next 64-bit output.")
      .def(
          "bounded",
          [](Rng& r, py::handle n_obj) {
            const Guard guard(&r);
            const std::uint64_t n = state_word(n_obj, "n");
            if (n == 0) throw CardError("bounded(n) needs n >= 1");
            return r.bounded(n);
          },
          py::arg("n"), "A uniform integer in [0, n).")
      .def(
          "state",
          [](const Rng& r) {
            const Guard guard(&r);
            const std::uint64_t* s = r.state();
            return py::make_tuple(s[0], s[1], s[2], s[3]);
          },
          "The four state words.");
  harden<Rng>(m, "Rng");
}

void bind_tables(py::module_& m) {
  m.attr("MAX_SEATS") = kSeats;  // the widest table (R18): arrays are sized for it
  m.def(
      "table_info",
      [](const std::string& name) {
        const Table* t = table_named(name.c_str());
        if (!t) throw GameError("no table '" + name + "': the tables are 6p3d and 4p2d (R18)");
        py::dict d;
        d["name"] = t->name;
        d["seats"] = t->seats;
        d["decks"] = t->decks;
        d["hand_size"] = t->hand_size;
        d["team_size"] = t->team_size;
        d["max_tributers"] = t->max_tributers;
        d["joker_tribute"] = t->joker_tribute;
        d["stake"] = py::list(py::make_tuple(t->stake[0], t->stake[1], t->stake[2], t->stake[3]));
        d["forfeit_leaver"] = t->forfeit_leaver;
        d["early_leaver"] = t->early_leaver;
        return d;
      },
      py::arg("name"),
      "The table descriptor (cpp/engine/core/table.hpp) of '6p3d' or '4p2d' as a dict.");
}

}  // namespace

void bind_core(py::module_& core) {
  py::module_ m = layer_module(core, "core", "Cards, rule variants, tables, the generator.");
  py::register_exception<GameError>(m, "IllegalActionError", PyExc_ValueError);
  bind_cards(m);
  bind_rules(m);
  bind_rng(m);
  bind_tables(m);
}

}  // namespace daguai::bind
