#include <algorithm>
#include <cstring>

#include <daguai/learned/network.hpp>

namespace daguai {

namespace {

constexpr char kMagic[4] = {'D', 'G', 'N', 'N'};
// Format 2 adds the `decides` word after the margin (format.hpp); format 1 is still read.
constexpr std::uint32_t kFormat = 2;

// The largest file the format's limits allow fits under read_model_file's bound.
constexpr std::size_t kMaxFloats =
    std::size_t(kMaxModelWidth) * (kStateFeatures + kActionFeatures + 1) +
    std::size_t(kMaxModelLayers - 1) * kMaxModelWidth * (kMaxModelWidth + 1) + kMaxModelWidth + 1;
static_assert(4 + 4 * (6 + kMaxModelLayers) + 8 + kMaxModelMeta + 4 * kMaxFloats + 8 <=
              kMaxModelFile);

using detail::axpy;
using detail::transposed;

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
  const std::uint32_t format =
      read_versions(r, "model file", kFormat, std::uint32_t(kLearnVersion), 1);
  const std::uint32_t sd = r.u32("state_dim"), ad = r.u32("action_dim");
  if (sd != std::uint32_t(kStateFeatures) || ad != std::uint32_t(kActionFeatures))
    throw ModelError("model file: input sizes " + std::to_string(sd) + " + " + std::to_string(ad) +
                     ", expected " + std::to_string(kStateFeatures) + " + " +
                     std::to_string(kActionFeatures));
  Network n;
  n.widths_ = read_widths(r, "model file");
  std::vector<float> margin;
  r.floats(1, &margin, "margin");
  if (margin[0] < 0) throw ModelError("model file: negative margin");
  n.margin_ = margin[0];
  if (format >= 2) {
    const std::uint32_t decides = r.u32("decides");
    if (decides & ~kDecidesR11)
      throw ModelError("model file: unknown decision bits " + std::to_string(decides) +
                       " (bit 0, the R11 decisions, is the only one)");
    n.r11_ = (decides & kDecidesR11) != 0;
  }
  n.meta_ = read_meta(r, "model file");
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
    for (int j = 0; j < h0; ++j) x[std::size_t(j)] = std::max(x[std::size_t(j)], 0.0f);
    q[c] = detail::forward_layers(x, y, h0, w_, b_);
  }
}

Network Network::from_file(const std::string& path) { return from_bytes(read_model_file(path)); }

}  // namespace daguai
