#include <array>
#include <atomic>
#include <memory>
#include <mutex>

#include <daguai/catalog/over_model.hpp>

namespace daguai {

namespace {

// Entries are written once under the mutex and published by `count` (release), so readers on
// the hot path (decide) need no lock.
struct OverModelTable {
  std::mutex mutex;
  std::atomic<int> count{0};
  std::array<std::unique_ptr<const OverModel>, kMaxOverModels> entries;
};

OverModelTable& table() {
  static OverModelTable t;
  return t;
}

PolicyId search_named(const std::string& name, const std::string& search) {
  const auto& c = policy_catalog();
  std::string searches;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (c[i].kind != PolicyKind::kSearch) continue;
    if (search == c[i].name) return PolicyId(i);
    searches += (searches.empty() ? "" : ", ") + std::string(c[i].name);
  }
  throw GameError("policy '" + name + "': '" + search +
                  "' is not a search policy (SEARCH@MODEL takes one of " + searches + ")");
}

}  // namespace

PolicyId over_model_policy(const std::string& name) {
  const std::size_t at = name.find('@');
  const PolicyId search = search_named(name, name.substr(0, at));
  const std::string model_name = at == std::string::npos ? "" : name.substr(at + 1);
  const int model = find_model_policy(model_name);
  if (model < 0)
    throw GameError("policy '" + name + "': '" + model_name +
                    "' is not a model (SEARCH@MODEL takes learned or the path of a .dgn file)");
  OverModelTable& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  const int n = t.count.load(std::memory_order_relaxed);
  for (int i = 0; i < n; ++i)
    if (t.entries[std::size_t(i)]->name == name) return PolicyId(kFirstOverModel + i);
  if (n == kMaxOverModels)
    throw GameError("policy '" + name + "': this process has " + std::to_string(kMaxOverModels) +
                    " SEARCH@MODEL names already");
  t.entries[std::size_t(n)] =
      std::make_unique<const OverModel>(OverModel{search, PolicyId(model), name});
  t.count.store(n + 1, std::memory_order_release);
  return PolicyId(kFirstOverModel + n);
}

const OverModel* over_model(PolicyId id) {
  const int i = int(id) - kFirstOverModel;
  OverModelTable& t = table();
  if (i < 0 || i >= t.count.load(std::memory_order_acquire)) return nullptr;
  return t.entries[std::size_t(i)].get();
}

}  // namespace daguai
