#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>

#include <daguai/core/errors.hpp>
#include <daguai/game/infostate.hpp>
#include <daguai/learned/network.hpp>
#include <daguai/learned/value.hpp>

namespace daguai {

void encode_world_features(const GameState& g, int seat, float* out) {
  const int seats = g.table().seats;
  if (seat < 0 || seat >= seats)
    throw GameError("world features: seat " + std::to_string(seat) + " is not a seat of the table");
  encode_observation(information_state(g, seat), out);
  std::fill(out + kWorldHands, out + kWorldFeatures, 0.0f);
  for (int k = 1; k < seats; ++k)
    put_counts(g.hand((seat + k) % seats), out + kWorldHands + (k - 1) * 54);
}

namespace {

constexpr char kMagic[4] = {'D', 'G', 'N', 'V'};
constexpr std::uint32_t kFormat = 1;

// The largest file the format's limits allow fits under read_model_file's bound.
constexpr std::size_t kMaxFloats =
    std::size_t(kMaxModelWidth) * (kWorldFeatures + 1) +
    std::size_t(kMaxModelLayers - 1) * kMaxModelWidth * (kMaxModelWidth + 1) + kMaxModelWidth + 1;
static_assert(4 + 4 * (5 + kMaxModelLayers) + kMaxModelMeta + 4 * kMaxFloats + 8 <= kMaxModelFile);

}  // namespace

ValueNet ValueNet::from_bytes(const std::string& bytes) {
  if (bytes.size() < 4 + 4 * 5 + 8) throw ModelError("value file: too short to be a .dgv file");
  if (std::memcmp(bytes.data(), kMagic, 4) != 0)
    throw ModelError("value file: not a .dgv file (bad magic)");
  const std::size_t body = bytes.size() - 8;
  if (read_le(bytes.data() + body, 8) != dgn_hash(bytes.data(), body))
    throw ModelError("value file: corrupt (the hash does not match its contents)");
  DgnReader r(bytes, body);
  r.bytes(4, "magic");
  read_versions(r, "value file", kFormat, std::uint32_t(kValueVersion));
  if (const std::uint32_t d = r.u32("input_dim"); d != std::uint32_t(kWorldFeatures))
    throw ModelError("value file: input size " + std::to_string(d) + ", expected " +
                     std::to_string(kWorldFeatures));
  ValueNet n;
  n.widths_ = read_widths(r, "value file");
  n.meta_ = read_meta(r, "value file");
  int in = kWorldFeatures;
  std::vector<float> w, b;
  for (std::size_t k = 0; k <= n.widths_.size(); ++k) {
    const int out = k < n.widths_.size() ? n.widths_[k] : 1;
    r.floats(std::size_t(out) * std::size_t(in), &w, "layer weights");
    r.floats(std::size_t(out), &b, "layer bias");
    n.w_.push_back(detail::transposed(w, out, in, 0, in));
    n.b_.push_back(b);
    in = out;
  }
  if (r.pos() != body) throw ModelError("value file: bytes left over after the output layer");
  n.raw_ = bytes;
  return n;
}

ValueNet ValueNet::from_file(const std::string& path) {
  return from_bytes(read_model_file(path, kMagic));
}

float ValueNet::evaluate(const float* x0) const {
  int widest = kWorldFeatures;
  for (int w : widths_) widest = std::max(widest, w);
  thread_local std::vector<float> x, y;
  x.assign(x0, x0 + kWorldFeatures);
  y.resize(std::size_t(widest));
  return detail::forward_layers(x, y, kWorldFeatures, w_, b_);
}

float ValueNet::value(const GameState& g, int seat) const {
  thread_local std::array<float, kWorldFeatures> features;
  encode_world_features(g, seat, features.data());
  return evaluate(features.data());
}

namespace {

struct ValueTable {
  std::mutex mutex;
  std::array<std::string, 2> paths;
  std::array<std::shared_ptr<const ValueNet>, 2> nets;
};

ValueTable& values() {
  static ValueTable t;
  return t;
}

}  // namespace

void set_builtin_value(const std::string& path, TableKind table) {
  ValueTable& t = values();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.paths[std::size_t(table)] = path;
  t.nets[std::size_t(table)].reset();
}

std::shared_ptr<const ValueNet> builtin_value(TableKind table) {
  ValueTable& t = values();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto& net = t.nets[std::size_t(table)];
  if (!net && !t.paths[std::size_t(table)].empty())
    net = std::make_shared<const ValueNet>(ValueNet::from_file(t.paths[std::size_t(table)]));
  return net;
}

}  // namespace daguai
