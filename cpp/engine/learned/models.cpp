#include <array>
#include <atomic>
#include <mutex>
#include <vector>

#include <daguai/core/table.hpp>
#include <daguai/learned/format.hpp>
#include <daguai/learned/models.hpp>

namespace daguai {

namespace {

constexpr std::size_t kTables = std::size_t(TableKind::k4p2d) + 1;

struct ModelSlot {
  std::string name;                    // set once, before the slot is published
  std::shared_ptr<const Network> net;  // replaced atomically when the file changes
};

struct ModelTable {
  std::mutex mutex;  // guards adding slots, replacing networks and builtin_path
  std::vector<ModelSlot> slots = std::vector<ModelSlot>(kMaxModels);  // never resized
  std::atomic<int> count{0};  // slots [0, count) are published (release / acquire)
  std::array<std::string, kTables> builtin_paths;  // by TableKind; [k6p3d] names "learned"
  // the slot of "learned" and, per table, the slot of that table's builtin network (-1: none,
  // then "learned" plays the 6p3d one), published like the slots
  std::atomic<int> builtin_slot{-1};
  std::array<std::atomic<int>, kTables> table_slot{-1, -1};
};

ModelTable& models() {
  static ModelTable t;
  return t;
}

// The network of `bytes`: one already loaded under another name if one has these bytes
// (names of copies of one file share its memory), else a new one. Called with t.mutex held.
std::shared_ptr<const Network> network_of(ModelTable& t, const std::string& bytes) {
  const int n = t.count.load(std::memory_order_relaxed);
  for (int i = 0; i < n; ++i) {
    std::shared_ptr<const Network> net = std::atomic_load(&t.slots[std::size_t(i)].net);
    if (net->to_bytes() == bytes) return net;
  }
  return std::make_shared<const Network>(Network::from_bytes(bytes));
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

void set_builtin_model(const std::string& path, TableKind table) {
  ModelTable& t = models();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.builtin_paths[std::size_t(table)] = path;
}

bool has_builtin_model() {
  ModelTable& t = models();
  std::lock_guard<std::mutex> lock(t.mutex);
  return !t.builtin_paths[std::size_t(TableKind::k6p3d)].empty();
}

namespace {

// The slot named `name`, holding the network of `bytes`: added, or its network replaced if
// the file changed (a trainer's evaluation model; a decision in flight keeps the one it
// holds: shared ownership). Called with t.mutex held.
int slot_for(ModelTable& t, const std::string& name, const std::string& bytes) {
  const int n = t.count.load(std::memory_order_relaxed);
  for (int i = 0; i < n; ++i) {
    ModelSlot& slot = t.slots[std::size_t(i)];
    if (slot.name != name) continue;
    if (std::atomic_load(&slot.net)->to_bytes() != bytes)
      std::atomic_store(&slot.net, network_of(t, bytes));
    return i;
  }
  if (n >= kMaxModels)
    throw ModelError("too many model names (" + std::to_string(kMaxModels) + " per process)");
  ModelSlot& slot = t.slots[std::size_t(n)];
  slot.name = name;
  std::atomic_store(&slot.net, network_of(t, bytes));
  t.count.store(n + 1, std::memory_order_release);
  return n;
}

}  // namespace

int find_model_policy(const std::string& name) {
  const bool builtin = name == kBuiltinModel;
  if (!builtin && !ends_with(name, ".dgn")) return -1;
  ModelTable& t = models();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (!builtin) return kFirstModel + slot_for(t, name, read_model_file(name));
  const std::string& main_path = t.builtin_paths[std::size_t(TableKind::k6p3d)];
  if (main_path.empty()) return -1;
  const int i = slot_for(t, name, read_model_file(main_path));
  t.builtin_slot.store(i, std::memory_order_release);
  // the other tables' models, in slots under names no caller can give (not ending in .dgn)
  for (std::size_t k = 1; k < kTables; ++k) {
    if (t.builtin_paths[k].empty()) continue;
    const std::string hidden = std::string(kBuiltinModel) + " at " + table_of(TableKind(k)).name;
    const int j = slot_for(t, hidden, read_model_file(t.builtin_paths[k]));
    t.table_slot[k].store(j, std::memory_order_release);
  }
  return kFirstModel + i;
}

std::shared_ptr<const Network> model_of(PolicyId k, TableKind table) {
  int i = int(k) - kFirstModel;
  ModelTable& t = models();
  if (i < 0 || i >= t.count.load(std::memory_order_acquire)) return nullptr;
  if (table != TableKind::k6p3d && i == t.builtin_slot.load(std::memory_order_acquire)) {
    const int j = t.table_slot[std::size_t(table)].load(std::memory_order_acquire);
    if (j >= 0) i = j;
  }
  return std::atomic_load(&t.slots[std::size_t(i)].net);
}

const char* model_name(PolicyId k) {
  const int i = int(k) - kFirstModel;
  ModelTable& t = models();
  if (i < 0 || i >= t.count.load(std::memory_order_acquire)) return "?";
  return t.slots[std::size_t(i)].name.c_str();
}

}  // namespace daguai
