#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>

#include <daguai/core/errors.hpp>
#include <daguai/game/infostate.hpp>
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

// y[0..n) += x * w[0..n), in index order (-ffp-contract=off: the same sums everywhere).
inline void axpy(float* y, float x, const float* w, int n) {
  for (int j = 0; j < n; ++j) y[j] += x * w[j];
}

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
  if (const std::uint32_t f = r.u32("format"); f != kFormat)
    throw ModelError("value file: format " + std::to_string(f) + ", this engine reads format " +
                     std::to_string(kFormat));
  if (const std::uint32_t v = r.u32("feature version"); v != std::uint32_t(kValueVersion))
    throw ModelError("value file: made for feature version " + std::to_string(v) +
                     ", this engine computes version " + std::to_string(kValueVersion));
  if (const std::uint32_t d = r.u32("input_dim"); d != std::uint32_t(kWorldFeatures))
    throw ModelError("value file: input size " + std::to_string(d) + ", expected " +
                     std::to_string(kWorldFeatures));
  const std::uint32_t layers = r.u32("layers");
  if (layers < 1 || layers > std::uint32_t(kMaxModelLayers))
    throw ModelError("value file: " + std::to_string(layers) + " hidden layers (1.." +
                     std::to_string(kMaxModelLayers) + " allowed)");
  ValueNet n;
  for (std::uint32_t k = 0; k < layers; ++k) {
    const std::uint32_t w = r.u32("widths");
    if (w < 1 || w > std::uint32_t(kMaxModelWidth))
      throw ModelError("value file: layer width " + std::to_string(w) + " (1.." +
                       std::to_string(kMaxModelWidth) + " allowed)");
    n.widths_.push_back(int(w));
  }
  const std::uint32_t meta_len = r.u32("meta length");
  if (meta_len > kMaxModelMeta) throw ModelError("value file: metadata longer than 1 MiB");
  n.meta_ = r.bytes(meta_len, "metadata");
  int in = kWorldFeatures;
  std::vector<float> w, b;
  for (std::size_t k = 0; k <= n.widths_.size(); ++k) {
    const int out = k < n.widths_.size() ? n.widths_[k] : 1;
    r.floats(std::size_t(out) * std::size_t(in), &w, "layer weights");
    r.floats(std::size_t(out), &b, "layer bias");
    std::vector<float> t(w.size());  // [out][in] -> [in][out]
    for (int o = 0; o < out; ++o)
      for (int i = 0; i < in; ++i)
        t[std::size_t(i) * std::size_t(out) + std::size_t(o)] =
            w[std::size_t(o) * std::size_t(in) + std::size_t(i)];
    n.w_.push_back(std::move(t));
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
  int in = kWorldFeatures;
  for (std::size_t k = 0; k < w_.size(); ++k) {
    const int out = int(b_[k].size());
    std::copy(b_[k].begin(), b_[k].end(), y.begin());
    for (int i = 0; i < in; ++i)
      if (x[std::size_t(i)] != 0.0f)
        axpy(y.data(), x[std::size_t(i)], &w_[k][std::size_t(i) * std::size_t(out)], out);
    const bool hidden = k + 1 < w_.size();
    for (int j = 0; j < out; ++j)
      x[std::size_t(j)] = hidden ? std::max(y[std::size_t(j)], 0.0f) : y[std::size_t(j)];
    in = out;
  }
  return x[0];
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
