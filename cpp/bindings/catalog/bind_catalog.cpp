// _core.catalog: the catalog layer (cpp/engine/catalog/): every policy by name and kind, the
// id of a name (a model file is loaded), and the analysis of a decision (bind_analyze.cpp).
#include <pybind11/stl.h>

#include "convert.hpp"

#include <daguai/catalog/catalog.hpp>
#include <daguai/learned/models.hpp>

namespace daguai::bind {

void bind_analyze(py::module_& m);  // bind_analyze.cpp

void bind_catalog(py::module_& core) {
  py::module_ m = layer_module(core, "catalog", "Every policy by name, kind and id; analyze.");
  m.def(
      "policy_names",
      []() {
        py::list l;
        for (const PolicyEntry& e : policy_catalog()) l.append(e.name);
        if (has_builtin_model()) l.append(kBuiltinModel);
        return l;
      },
      "The C++ policies, by id (cpp/engine/catalog/policies.def), then 'learned' when the "
      "shipped model is present (engine/learned/models.hpp).");
  m.def(
      "policy_entries",
      []() {
        py::list l;
        for (const PolicyEntry& e : policy_catalog()) {
          py::dict d;
          d["name"] = e.name;
          d["kind"] = policy_kind_name(e.kind);
          d["rollouts"] =
              e.kind == PolicyKind::kSearch ? py::object(py::int_(e.budget.rollouts)) : py::none();
          // the model it reads: its incumbent's, or the one its inference reads
          const char* model = e.incumbent_model                           ? e.incumbent_model
                              : e.budget.inference == Inference::kLearned ? kBuiltinModel
                                                                          : nullptr;
          d["model"] = model ? py::object(py::str(model)) : py::none();
          l.append(d);
        }
        if (has_builtin_model()) {
          py::dict d;
          d["name"] = kBuiltinModel;
          d["kind"] = policy_kind_name(PolicyKind::kModel);
          d["rollouts"] = py::none();
          d["model"] = kBuiltinModel;
          l.append(d);
        }
        return l;
      },
      "policy_names() with what each is (cpp/engine/catalog/catalog.hpp PolicyEntry): kind 'rule', "
      "'search' (with its budget in rollouts per decision) or 'model', and the model it reads "
      "('learned': the shipped network of the game's table; None: none).");

  m.def(
      "policy_id", [](py::handle name) { return int(parse_policy(to_text(name, "policy"))); },
      py::arg("name"),
      "The id of a policy name (a built-in name, 'learned' or a .dgn path: the model is "
      "loaded); IllegalActionError for an unknown name, ModelError for a bad file.");
  bind_analyze(m);
}

}  // namespace daguai::bind
