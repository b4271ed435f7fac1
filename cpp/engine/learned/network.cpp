#include <algorithm>
#include <cstring>

#include <daguai/learned/network.hpp>

namespace daguai {

namespace {

constexpr char kMagic[4] = {'D', 'G', 'N', 'N'};
constexpr std::uint32_t kFormat = 1;

// The largest file the format's limits allow fits under read_model_file's bound.
constexpr std::size_t kMaxFloats =
    std::size_t(kMaxModelWidth) * (kStateFeatures + kActionFeatures + 1) +
    std::size_t(kMaxModelLayers - 1) * kMaxModelWidth * (kMaxModelWidth + 1) + kMaxModelWidth + 1;
static_assert(4 + 4 * (6 + kMaxModelLayers) + 4 + kMaxModelMeta + 4 * kMaxFloats + 8 <=
              kMaxModelFile);

// [out][in] row-major -> [in][out] (input-major: the weights from one input are contiguous).
std::vector<float> transposed(const std::vector<float>& w, int out, int in, int col0, int cols) {
  std::vector<float> t(std::size_t(cols) * std::size_t(out));
  for (int o = 0; o < out; ++o)
    for (int i = 0; i < cols; ++i)
      t[std::size_t(i) * std::size_t(out) + std::size_t(o)] =
          w[std::size_t(o) * std::size_t(in) + std::size_t(col0 + i)];
  return t;
}

// y[0..n) += x * w[0..n): the inner loop of every layer (vectorizes over the outputs; the sum
// over inputs runs in input order, the same on every machine with -ffp-contract=off).
inline void axpy(float* y, float x, const float* w, int n) {
  for (int j = 0; j < n; ++j) y[j] += x * w[j];
}

}  // namespace

Network Network::from_bytes(const std::string& bytes) {
  if (bytes.size() < 4 + 4 * 6 + 8) throw ModelError("model file: too short to be a .dgn file");
  if (std::memcmp(bytes.data(), kMagic, 4) != 0)
    throw ModelError("model file: not a .dgn file (bad magic)");
  const std::size_t body = bytes.size() - 8;
  const std::uint64_t stored = read_le(bytes.data() + body, 8);
  if (stored != dgn_hash(bytes.data(), body))
    throw ModelError("model file: corrupt (the hash does not match its contents)");
  DgnReader r(bytes, body);
  r.bytes(4, "magic");
  if (const std::uint32_t f = r.u32("format"); f != kFormat)
    throw ModelError("model file: format " + std::to_string(f) + ", this engine reads format " +
                     std::to_string(kFormat));
  if (const std::uint32_t v = r.u32("feature version"); v != std::uint32_t(kLearnVersion))
    throw ModelError("model file: made for feature version " + std::to_string(v) +
                     ", this engine computes version " + std::to_string(kLearnVersion));
  const std::uint32_t sd = r.u32("state_dim"), ad = r.u32("action_dim");
  if (sd != std::uint32_t(kStateFeatures) || ad != std::uint32_t(kActionFeatures))
    throw ModelError("model file: input sizes " + std::to_string(sd) + " + " + std::to_string(ad) +
                     ", expected " + std::to_string(kStateFeatures) + " + " +
                     std::to_string(kActionFeatures));
  const std::uint32_t layers = r.u32("layers");
  if (layers < 1 || layers > std::uint32_t(kMaxModelLayers))
    throw ModelError("model file: " + std::to_string(layers) + " hidden layers (1.." +
                     std::to_string(kMaxModelLayers) + " allowed)");
  Network n;
  for (std::uint32_t k = 0; k < layers; ++k) {
    const std::uint32_t w = r.u32("widths");
    if (w < 1 || w > std::uint32_t(kMaxModelWidth))
      throw ModelError("model file: layer width " + std::to_string(w) + " (1.." +
                       std::to_string(kMaxModelWidth) + " allowed)");
    n.widths_.push_back(int(w));
  }
  std::vector<float> margin;
  r.floats(1, &margin, "margin");
  if (margin[0] < 0) throw ModelError("model file: negative margin");
  n.margin_ = margin[0];
  const std::uint32_t meta_len = r.u32("meta length");
  if (meta_len > kMaxModelMeta) throw ModelError("model file: metadata longer than 1 MiB");
  n.meta_ = r.bytes(meta_len, "metadata");
  const int in0 = kStateFeatures + kActionFeatures, h0 = n.widths_[0];
  std::vector<float> w, b;
  r.floats(std::size_t(h0) * std::size_t(in0), &w, "layer 0 weights");
  r.floats(std::size_t(h0), &b, "layer 0 bias");
  n.w0_state_ = transposed(w, h0, in0, 0, kStateFeatures);
  n.w0_action_ = transposed(w, h0, in0, kStateFeatures, kActionFeatures);
  n.b0_ = b;
  for (std::size_t k = 1; k <= n.widths_.size(); ++k) {
    const int in = n.widths_[k - 1], out = k < n.widths_.size() ? n.widths_[k] : 1;
    r.floats(std::size_t(out) * std::size_t(in), &w, "layer weights");
    r.floats(std::size_t(out), &b, "layer bias");
    n.w_.push_back(transposed(w, out, in, 0, in));
    n.b_.push_back(b);
  }
  if (r.pos() != body) throw ModelError("model file: bytes left over after the output layer");
  std::vector<float> w0 = n.w0_state_;
  w0.insert(w0.end(), n.w0_action_.begin(), n.w0_action_.end());
  n.quantized_ = QuantizedNetwork(w0, n.b0_, kStateFeatures + kActionFeatures, kStateFeatures, h0,
                                  n.w_, n.b_, {kObsHand, kActionHandAfter, kNumFaces});
  n.raw_ = bytes;
  return n;
}

std::size_t Network::parameters() const {
  std::size_t p = w0_state_.size() + w0_action_.size() + b0_.size();
  for (std::size_t k = 0; k < w_.size(); ++k) p += w_[k].size() + b_[k].size();
  return p;
}

void Network::evaluate_float(const float* state, const float* actions, int n, float* q) const {
  const int h0 = widths_[0];
  int widest = h0;
  for (int w : widths_) widest = std::max(widest, w);
  thread_local std::vector<float> base, x, y;
  base.assign(b0_.begin(), b0_.end());
  for (int i = 0; i < kStateFeatures; ++i)
    if (state[i] != 0.0f)
      axpy(base.data(), state[i], &w0_state_[std::size_t(i) * std::size_t(h0)], h0);
  x.resize(std::size_t(widest));
  y.resize(std::size_t(widest));
  for (int c = 0; c < n; ++c) {
    const float* a = actions + std::size_t(c) * kActionFeatures;
    std::copy(base.begin(), base.end(), x.begin());
    for (int i = 0; i < kActionFeatures; ++i)
      if (a[i] != 0.0f) axpy(x.data(), a[i], &w0_action_[std::size_t(i) * std::size_t(h0)], h0);
    int in = h0;
    for (int j = 0; j < in; ++j) x[std::size_t(j)] = std::max(x[std::size_t(j)], 0.0f);
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
    q[c] = x[0];
  }
}

Network Network::from_file(const std::string& path) { return from_bytes(read_model_file(path)); }

}  // namespace daguai
