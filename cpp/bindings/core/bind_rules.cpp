// The rule-variant table (cpp/engine/core/rules.hpp) for Python: RULE_VARIANTS, CoreRules
// built and read by name, and the native enums of the rule choices. Nothing here names a
// single variant: every variant is one row of rule_variants().
#include <pybind11/native_enum.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "convert.hpp"
#include "core/enums.hpp"
#include "guard.hpp"

#include <daguai/core/rules.hpp>

namespace daguai::bind {

namespace {

const RuleVariant& variant(const char* name) {
  const RuleVariant* v = find_rule_variant(name);
  if (!v) throw std::logic_error(std::string("no rule variant ") + name);
  return *v;
}

// The enum of a choice variant: members named after its choices, valued by their index.
template <class E>
void bind_choice_enum(py::module_& m, const char* field) {
  const RuleVariant& v = variant(field);
  py::native_enum<E> e(m, v.enum_name, "enum.IntEnum", v.doc);
  for (std::size_t i = 0; i < v.choices.size(); ++i)
    e.value(member_name(v.choices[i], v.name).c_str(), E(i));
  e.finalize();
}

// The Python value of engine value x of v (choice name, bool, int, level text).
py::object python_value(const RuleVariant& v, std::int32_t x) {
  switch (v.kind) {
    case VariantKind::kChoice:
      return py::str(v.choices[std::size_t(x)]);
    case VariantKind::kBool:
      return py::bool_(x != 0);
    case VariantKind::kLevel:
      return py::str(level_text(x));
    case VariantKind::kInt:
      break;
  }
  return py::int_(x);
}

// Sets variant v of *r from a Python value: a choice name (or its enum member / index), True /
// False, an integer, a level text. The engine validates (rules.hpp set_rule,
// parse_rule_text); this only translates the Python value.
void set_python_rule(Rules* r, const RuleVariant& v, py::handle obj) {
  const std::string text = shown(obj);
  if (v.kind == VariantKind::kBool) {
    if (!PyBool_Check(obj.ptr())) throw_rule_type(v, text);
    set_rule(r, v, obj.ptr() == Py_True);
    return;
  }
  if (py::isinstance<py::str>(obj)) {
    set_rule(r, v, parse_rule_text(v, to_text(obj, v.name), text));
    return;
  }
  if (PyBool_Check(obj.ptr()) || !PyIndex_Check(obj.ptr())) throw_rule_type(v, text);
  const py::object i = py::reinterpret_steal<py::object>(PyNumber_Index(obj.ptr()));
  if (!i) {  // e.g. a numpy array of more than one element
    PyErr_Clear();
    throw_rule_type(v, text);
  }
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow || (x == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    throw_rule_range(v, shown(i));  // beyond 64 bits: beyond every variant
  }
  set_rule(r, v, x);
}

Rules rules_from_kwargs(const py::kwargs& kw) {
  std::vector<std::string> names;
  for (auto item : kw) names.push_back(to_text(item.first, "rule name"));
  check_rule_names(names);
  Rules r;
  for (auto item : kw)
    set_python_rule(&r, *find_rule_variant(to_text(item.first, "rule name")), item.second);
  return r;
}

py::dict variant_record(const RuleVariant& v) {
  py::dict d;
  d["name"] = v.name;
  d["kind"] = variant_kind_name(v.kind);
  d["rule"] = v.rule;
  d["doc"] = py::str(v.doc);
  py::list choices;
  for (const std::string& c : rule_choices(v)) choices.append(c);
  d["choices"] = py::tuple(choices);
  d["enum"] = v.enum_name ? py::object(py::str(v.enum_name)) : py::object(py::none());
  d["default"] = python_value(v, rule_default(v));
  d["lo"] = v.lo;
  d["hi"] = v.hi;
  return d;
}

}  // namespace

void bind_rules(py::module_& m) {
  bind_choice_enum<Wild>(m, "wild");
  bind_choice_enum<JokerPair>(m, "joker_pair");
  bind_choice_enum<LeadAfterOut>(m, "lead_after_out");
  bind_choice_enum<DealerRule>(m, "dealer");
  bind_choice_enum<TributePairing>(m, "tribute_pairing");
  bind_choice_enum<Scoring>(m, "scoring");
  bind_choice_enum<TableKind>(m, "table");

  py::list rows;
  for (const RuleVariant& v : rule_variants()) rows.append(variant_record(v));
  m.attr("RULE_VARIANTS") = py::tuple(rows);

  py::class_<Rules> cls(m, "CoreRules", "The engine's copy of a daguai.Rules (use daguai.Rules).");
  cls.def(py::init(&rules_from_kwargs),
          "Rules by name (RULE_VARIANTS); missing names take their defaults.");
  for (const RuleVariant& v : rule_variants()) {
    const RuleVariant* row = &v;  // the table is static
    cls.def_property_readonly(
        v.name, [row](const Rules& r) { return python_value(*row, row->get(r)); }, v.doc);
  }
  cls.def(
      "to_dict",
      [](const Rules& r) {
        py::dict d;
        for (const RuleVariant& v : rule_variants()) d[v.name] = python_value(v, v.get(r));
        return d;
      },
      "Every variant by name, as daguai.Rules spells it.");
  harden<Rules>(m, "CoreRules");
}

}  // namespace daguai::bind
