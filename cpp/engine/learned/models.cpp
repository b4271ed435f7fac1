#include <atomic>
#include <mutex>
#include <vector>

#include <daguai/learned/format.hpp>
#include <daguai/learned/models.hpp>

namespace daguai {

namespace {

struct ModelSlot {
  std::string name;                    // set once, before the slot is published
  std::shared_ptr<const Network> net;  // replaced atomically when the file changes
};

struct ModelTable {
  std::mutex mutex;  // guards adding slots, replacing networks and builtin_path
  std::vector<ModelSlot> slots = std::vector<ModelSlot>(kMaxModels);  // never resized
  std::atomic<int> count{0};  // slots [0, count) are published (release / acquire)
  std::string builtin_path;
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

void set_builtin_model(const std::string& path) {
  ModelTable& t = models();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.builtin_path = path;
}

bool has_builtin_model() {
  ModelTable& t = models();
  std::lock_guard<std::mutex> lock(t.mutex);
  return !t.builtin_path.empty();
}

int find_model_policy(const std::string& name) {
  const bool builtin = name == kBuiltinModel;
  if (!builtin && !ends_with(name, ".dgn")) return -1;
  ModelTable& t = models();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (builtin && t.builtin_path.empty()) return -1;
  const std::string bytes = read_model_file(builtin ? t.builtin_path : name);
  const int n = t.count.load(std::memory_order_relaxed);
  for (int i = 0; i < n; ++i) {
    ModelSlot& slot = t.slots[std::size_t(i)];
    if (slot.name != name) continue;
    // the file was rewritten (a trainer's evaluation model): the new network from now on;
    // a decision in flight keeps the one it holds (shared ownership)
    if (std::atomic_load(&slot.net)->to_bytes() != bytes)
      std::atomic_store(&slot.net, network_of(t, bytes));
    return kFirstModel + i;
  }
  if (n >= kMaxModels)
    throw ModelError("too many model names (" + std::to_string(kMaxModels) + " per process)");
  ModelSlot& slot = t.slots[std::size_t(n)];
  slot.name = name;
  std::atomic_store(&slot.net, network_of(t, bytes));
  t.count.store(n + 1, std::memory_order_release);
  return kFirstModel + n;
}

std::shared_ptr<const Network> model_of(PolicyId k) {
  const int i = int(k) - kFirstModel;
  ModelTable& t = models();
  if (i < 0 || i >= t.count.load(std::memory_order_acquire)) return nullptr;
  return std::atomic_load(&t.slots[std::size_t(i)].net);
}

const char* model_name(PolicyId k) {
  const int i = int(k) - kFirstModel;
  ModelTable& t = models();
  if (i < 0 || i >= t.count.load(std::memory_order_acquire)) return "?";
  return t.slots[std::size_t(i)].name.c_str();
}

}  // namespace daguai
