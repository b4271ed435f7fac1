#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>

#include <daguai/players/learned.hpp>

namespace daguai {

// ---------------------------------------------------------------------------------------
// The weights file (layout: learned.hpp)
// ---------------------------------------------------------------------------------------
std::uint64_t dgn_hash(const char* p, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= std::uint8_t(p[i]);
    h *= 0x100000001b3ULL;
  }
  return h;
}

namespace {

constexpr char kMagic[4] = {'D', 'G', 'N', 'N'};
constexpr std::uint32_t kFormat = 1;
constexpr std::size_t kMaxMeta = 1 << 20;

class Reader {
 public:
  Reader(const std::string& b, std::size_t end) : b_(b), end_(end) {}
  std::uint32_t u32(const char* what) {
    need(4, what);
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k)
      v |= std::uint32_t(std::uint8_t(b_[pos_ + std::size_t(k)])) << (8 * k);
    pos_ += 4;
    return v;
  }
  void floats(std::size_t n, std::vector<float>* out, const char* what) {
    if (n > (end_ - pos_) / 4) throw ModelError(std::string("model file: truncated in ") + what);
    out->resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t v = 0;
      for (int k = 0; k < 4; ++k)
        v |= std::uint32_t(std::uint8_t(b_[pos_ + 4 * i + std::size_t(k)])) << (8 * k);
      float f;
      std::memcpy(&f, &v, 4);
      if (!std::isfinite(f))
        throw ModelError(std::string("model file: non-finite weight in ") + what);
      (*out)[i] = f;
    }
    pos_ += 4 * n;
  }
  std::string bytes(std::size_t n, const char* what) {
    need(n, what);
    std::string s = b_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::size_t pos() const { return pos_; }

 private:
  void need(std::size_t n, const char* what) {
    if (n > end_ - pos_) throw ModelError(std::string("model file: truncated in ") + what);
  }
  const std::string& b_;
  std::size_t end_, pos_ = 0;
};

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
  std::uint64_t stored = 0;
  for (int k = 0; k < 8; ++k)
    stored |= std::uint64_t(std::uint8_t(bytes[body + std::size_t(k)])) << (8 * k);
  if (stored != dgn_hash(bytes.data(), body))
    throw ModelError("model file: corrupt (the hash does not match its contents)");
  Reader r(bytes, body);
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
  if (meta_len > kMaxMeta) throw ModelError("model file: metadata longer than 1 MiB");
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
  n.raw_ = bytes;
  return n;
}

std::size_t Network::parameters() const {
  std::size_t p = w0_state_.size() + w0_action_.size() + b0_.size();
  for (std::size_t k = 0; k < w_.size(); ++k) p += w_[k].size() + b_[k].size();
  return p;
}

void Network::evaluate(const float* state, const float* actions, int n, float* q) const {
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

// ---------------------------------------------------------------------------------------
// Features
// ---------------------------------------------------------------------------------------
namespace {

// The action features of `a` for a seat holding `hand` (learned.hpp layout).
void action_features(const Action& a, const Cards& hand, int level, const Rules& rules,
                     bool heuristic, float* out) {
  encode_candidate(a, level, out);
  const Cards after = a.type == ActionType::kPlay ? hand - a.play.cards : hand;
  put_counts(after, out + kActionHandAfter);
  out[kActionHeuristic] = heuristic ? 1.0f : 0.0f;
  out[kActionLeft] = float(after.size()) / float(kHandSize);
  out[kActionPlan] =
      after.empty() ? 0.0f : float(heuristic_plan(after, level, rules).plays.size()) / 10.0f;
  out[kActionOut] = after.empty() ? 1.0f : 0.0f;
}

Action heuristic_choice(const PolicyView& view, PolicyScratch& scratch) {
  Rng unused(0);  // the heuristic draws nothing (policy.cpp); it takes a stream by signature
  return decide(PolicyId::kHeuristic, view, unused, scratch);
}

// One play decision of a seat as the network sees it: the heuristic's choice, the candidates
// and, with two or more of them, the state features and (with a network) every Q.
struct Decision {
  Action heuristic;
  Candidates cands;
  std::vector<float> state, q;
  int size() const { return int(cands.actions.size()); }
};
void prepare(const PolicyView& view, const Network* net, PolicyScratch& scratch, Decision* d) {
  d->heuristic = heuristic_choice(view, scratch);
  learned_candidates(view, d->heuristic, scratch, &d->cands);
  const int n = d->size();
  if (n <= 1) return;
  d->state.resize(kStateFeatures);
  encode_state_features(view.info(), d->state.data());
  if (!net) return;
  d->q.resize(std::size_t(n));
  net->evaluate(d->state.data(), d->cands.features.data(), n, d->q.data());
}

}  // namespace

void encode_state_features(const InfoState& v, float* out) {
  encode_observation(v, out);
  put_counts(v.unseen, out + kObsSize);
}

void learned_candidates(const PolicyView& view, const Action& heuristic, PolicyScratch& scratch,
                        Candidates* out) {
  const int level = view.level_rank(), seat = view.current_player();
  scratch.actions.clear();
  view.legal_actions(&scratch.actions);
  std::uint8_t mask[kNumAbstract];
  std::int32_t index[kNumAbstract];
  abstract_mask(scratch.actions, level, mask, index);
  const int hid = abstract_id(heuristic, level);
  out->actions.clear();
  out->heuristic = -1;
  for (int id = 0; id < kNumAbstract; ++id) {
    if (!mask[id]) continue;
    if (id == hid) {  // the heuristic's own action stands for its id (its suits, its kickers)
      out->heuristic = int(out->actions.size());
      out->actions.push_back(heuristic);
    } else {
      out->actions.push_back(scratch.actions[std::size_t(index[id])]);
    }
  }
  out->features.resize(out->actions.size() * std::size_t(kActionFeatures));
  const Cards& hand = view.hand(seat);
  for (std::size_t c = 0; c < out->actions.size(); ++c)
    action_features(out->actions[c], hand, level, view.rules(), int(c) == out->heuristic,
                    &out->features[c * std::size_t(kActionFeatures)]);
}

int learned_pick(const float* q, int n, int heuristic, float margin) {
  const int best = int(std::max_element(q, q + n) - q);  // the first of equal maxima
  if (heuristic < 0 || q[best] - q[heuristic] > margin) return best;
  return heuristic;
}

Action learned_action(const PolicyView& view, const Network* net, PolicyScratch& scratch) {
  if (!net || view.phase() != Phase::kPlay)  // R11 decisions: as the heuristic
    return heuristic_choice(view, scratch);
  thread_local Decision d;
  prepare(view, net, scratch, &d);
  const int n = d.size();
  if (n <= 1) return n == 1 ? d.cands.actions[0] : d.heuristic;
  return d.cands
      .actions[std::size_t(learned_pick(d.q.data(), n, d.cands.heuristic, net->margin()))];
}

// ---------------------------------------------------------------------------------------
// The model registry
// ---------------------------------------------------------------------------------------
namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw ModelError("model file: cannot open '" + path + "'");
  f.seekg(0, std::ios::end);
  const std::streamoff size = f.tellg();
  if (size < 0 || size > (std::streamoff(1) << 30))
    throw ModelError("model file: '" + path + "' is not a readable file under 1 GiB");
  f.seekg(0);
  std::string bytes(std::size_t(size), '\0');
  f.read(bytes.data(), size);
  if (!f) throw ModelError("model file: cannot read '" + path + "'");
  return bytes;
}

struct ModelSlot {
  std::string name;                    // set once, before the slot is published
  std::shared_ptr<const Network> net;  // replaced atomically when the file changes
};

struct ModelTable {
  std::mutex mutex;  // guards adding slots, replacing networks and builtin_path
  std::array<ModelSlot, kMaxModels> slots;
  std::atomic<int> count{0};  // slots [0, count) are published (release / acquire)
  std::string builtin_path;
};

ModelTable& models() {
  static ModelTable t;
  return t;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

Network Network::from_file(const std::string& path) { return from_bytes(read_file(path)); }

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
  const std::string bytes = read_file(builtin ? t.builtin_path : name);
  const int n = t.count.load(std::memory_order_relaxed);
  for (int i = 0; i < n; ++i) {
    ModelSlot& slot = t.slots[std::size_t(i)];
    if (slot.name != name) continue;
    // the file was rewritten (a trainer's evaluation model): the new network from now on;
    // a decision in flight keeps the one it holds (shared ownership)
    if (std::atomic_load(&slot.net)->to_bytes() != bytes)
      std::atomic_store(&slot.net, std::make_shared<const Network>(Network::from_bytes(bytes)));
    return kFirstModel + i;
  }
  if (n >= kMaxModels)
    throw ModelError("too many model names (" + std::to_string(kMaxModels) + " per process)");
  ModelSlot& slot = t.slots[std::size_t(n)];
  slot.name = name;
  std::atomic_store(&slot.net, std::make_shared<const Network>(Network::from_bytes(bytes)));
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

// ---------------------------------------------------------------------------------------
// The actors' generator
// ---------------------------------------------------------------------------------------
namespace {

double uniform01(Rng& r) { return double(r.next() >> 11) * 0x1.0p-53; }

// The round's outcome for `seat` after `a` is applied to a copy of `g`, every seat then
// playing the heuristic: (+1 / 0 / -1 for its team, its score change).
std::pair<float, float> branch_value(const GameState& g, const Action& a, int seat,
                                     std::array<PolicyScratch, 6>& scratch) {
  GameState c = g;
  const std::size_t rounds = c.results().size();
  c.apply(a);
  Rng unused(0);  // the heuristic draws nothing
  while (!c.match_over() && c.results().size() == rounds) {
    const int s = c.current_player();
    c.apply(choose_action(PolicyId::kHeuristic, c, unused, scratch[std::size_t(s)]));
  }
  const RoundResult& r = c.results().back();
  const float wl = r.winner < 0 ? 0.0f : (r.winner == team_of(seat) ? 1.0f : -1.0f);
  return {wl, float(r.scores[std::size_t(seat)])};
}

void push_frame(Frames* out, const std::vector<float>& state, const float* action,
                std::pair<float, float> value, std::uint64_t game, int seat) {
  out->state.insert(out->state.end(), state.begin(), state.end());
  out->action.insert(out->action.end(), action, action + kActionFeatures);
  out->target.push_back(value.first);
  out->score.push_back(value.second);
  out->game.push_back(game);
  out->seat.push_back(std::int8_t(seat));
}

}  // namespace

void self_play(const SelfPlayConfig& cfg, Frames* out, std::int64_t* rounds) {
  std::array<PolicyScratch, 6> scratch, branch_scratch;
  Decision d;
  for (std::int64_t i = 0; i < cfg.n; ++i) {
    const std::uint64_t game = cfg.first_game + std::uint64_t(i);
    GameState g(cfg.rules, cfg.seed, game, /*auto_pass=*/false, /*record=*/false,
                cfg.random_start ? Start::kRandom : Start::kFresh);
    const int seats = g.table().seats;
    std::array<Rng, 6> rngs, explore;
    for (int s = 0; s < seats; ++s) {
      rngs[std::size_t(s)] = Rng::stream(cfg.seed, game, Stream::kPolicy, std::uint64_t(s));
      explore[std::size_t(s)] = Rng::stream(cfg.seed, game, Stream::kExplore, std::uint64_t(s));
      scratch[std::size_t(s)].plan.clear();
      scratch[std::size_t(s)].plan_hand = Cards{};
    }
    while (!g.match_over() && g.results().empty()) {
      const int seat = g.current_player();
      const std::size_t s = std::size_t(seat);
      const PolicyId k = cfg.policies[s];
      const std::shared_ptr<const Network> net = model_of(k);
      if (!cfg.record[s] || g.phase() != Phase::kPlay) {
        g.apply(choose_action(k, g, rngs[s], scratch[s]));
        continue;
      }
      if (!net && k != PolicyId::kHeuristic)
        throw ModelError("self_play: a recorded seat plays a model or the heuristic");
      prepare(PolicyView(g), net.get(), scratch[s], &d);
      const Candidates& cands = d.cands;
      const std::vector<float>& q = d.q;
      const int n = d.size();
      if (n <= 1) {
        g.apply(n == 1 ? cands.actions[0] : d.heuristic);
        continue;
      }
      int main = net ? learned_pick(q.data(), n, cands.heuristic, net->margin())
                     : std::max(cands.heuristic, 0);
      Rng& ex = explore[s];
      if (cfg.epsilon > 0 && uniform01(ex) < cfg.epsilon) main = int(ex.bounded(std::uint64_t(n)));
      if (cfg.branch > 0 && uniform01(ex) < cfg.branch) {
        int alt;
        if (net && uniform01(ex) < 0.5) {
          alt = -1;
          for (int c = 0; c < n; ++c)
            if (c != main && (alt < 0 || q[std::size_t(c)] > q[std::size_t(alt)])) alt = c;
        } else {
          alt = int(ex.bounded(std::uint64_t(n - 1)));
          if (alt >= main) ++alt;
        }
        const auto vm = branch_value(g, cands.actions[std::size_t(main)], seat, branch_scratch);
        const auto va = branch_value(g, cands.actions[std::size_t(alt)], seat, branch_scratch);
        push_frame(out, d.state, &cands.features[std::size_t(main) * kActionFeatures], vm, game,
                   seat);
        push_frame(out, d.state, &cands.features[std::size_t(alt) * kActionFeatures], va, game,
                   seat);
      }
      g.apply(cands.actions[std::size_t(main)]);
    }
    if (rounds) ++*rounds;
  }
}

}  // namespace daguai
