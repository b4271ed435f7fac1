#include <cmath>
#include <limits>

#include <daguai/beliefs/sampler.hpp>
#include <daguai/search/candidates.hpp>
#include <daguai/search/inference.hpp>

namespace daguai {

Inference parse_inference(const std::string& name) {
  if (name == "none") return Inference::kNone;
  if (name == "heuristic") return Inference::kHeuristic;
  if (name == "learned") return Inference::kLearned;
  throw GameError("search: inference must be 'none', 'heuristic' or 'learned', got '" + name + "'");
}

const char* inference_name(Inference m) {
  return m == Inference::kNone ? "none" : m == Inference::kHeuristic ? "heuristic" : "learned";
}

void check_inference_settings(int worlds, double noise, double temperature) {
  if (worlds < 1 || worlds > kMaxInferenceWorlds)
    throw GameError("search: inference_worlds must be in [1, " +
                    std::to_string(kMaxInferenceWorlds) + "], got " + std::to_string(worlds));
  if (!(noise > 0 && noise < 1))
    throw GameError("search: inference_noise must be in (0, 1), got " + std::to_string(noise));
  if (!(temperature >= kMinTemperature && temperature <= kMaxTemperature))
    throw GameError("search: inference_temperature must be in [0.0001, 10000], got " +
                    std::to_string(temperature));
}

namespace {

constexpr double kImpossible = -std::numeric_limits<double>::infinity();

bool is_play_event(const Event& e) {
  return e.type == EventType::kPlay || e.type == EventType::kPass;
}

// The world at the first play of this round: each hand then = its hand now + what it played,
// nothing played, no trick, nobody out; auto_pass as it was then (undoing later switches).
GameState play_start(const InfoState& v, const Hands& hands, std::size_t first) {
  PublicState p = v.pub;
  for (std::size_t i = v.history.size(); i-- > first;)
    if (v.history[i].type == EventType::kAutoPass) p.auto_pass = !(v.history[i].flags & 1);
  Hands start = hands;
  for (int s = 0; s < p.table().seats; ++s) {
    start[std::size_t(s)] += p.played[std::size_t(s)];
    p.cards_left[std::size_t(s)] = std::int8_t(start[std::size_t(s)].size());
  }
  p.phase = Phase::kPlay;
  p.current = v.history[first].seat;
  p.played.fill(Cards{});
  p.forced = PublicState::ForcedLog();
  p.top_seat = -1;
  p.passed = 0;
  p.finish_order.fill(-1);
  p.players_out = 0;
  p.out_mask = 0;
  return GameState(p, start, Exchange{}, 0, 0);
}

// log of the model's probability of the observed decision `a` of the seat to act in g.
double decision_log_factor(const GameState& g, const Action& a, const PlayModel& m, Rng& rng,
                           PolicyScratch& scratch) {
  std::vector<Action> legal;
  g.legal_actions(&legal);
  if (legal.size() <= 1) return 0.0;
  const PolicyView view(g);
  if (m.mode == Inference::kLearned) return m.log_prob(view, a, m.temperature, scratch);
  const double eps = m.noise;
  const Action choice = m.decide(PolicyId::kHeuristic, view, rng, scratch);
  bool same = choice == a;
  if (!same && choice.type == ActionType::kPlay && a.type == ActionType::kPlay) {
    const Cards& hand = g.hand(g.current_player());
    same = left_form(hand, choice.play) == left_form(hand, a.play);
  }
  return same ? std::log1p(-eps) : std::log(eps / double(legal.size() - 1));
}

}  // namespace

double play_log_likelihood(const InfoState& v, const Hands& hands, const PlayModel& model,
                           std::uint64_t seed, PolicyScratch& scratch) {
  if (model.mode == Inference::kNone) return 0.0;
  if (model.mode == Inference::kLearned ? !model.log_prob : !model.decide)
    throw GameError("search: inference has no model of play");
  std::size_t first = v.history.size();
  for (std::size_t i = 0; i < v.history.size(); ++i)
    if (is_play_event(v.history[i])) {
      first = i;
      break;
    }
  if (first == v.history.size() || v.pub.phase != Phase::kPlay) return 0.0;
  GameState g = play_start(v, hands, first);
  Rng rng = Rng::stream(seed, 0, Stream::kPolicy, kInferencePick);
  double ll = 0.0;
  for (std::size_t i = first; i < v.history.size(); ++i) {
    const Event& e = v.history[i];
    if (e.type == EventType::kAutoPass) {
      g.set_auto_pass(e.flags & 1);
      continue;
    }
    if (!is_play_event(e)) return kImpossible;  // a forfeit: the round did not go on
    const bool automatic = e.type == EventType::kPass && (e.flags & 1);
    if (automatic && g.public_state().auto_pass) continue;  // the world made it by itself
    if (g.phase() != Phase::kPlay || g.current_player() != e.seat) return kImpossible;
    Action a;
    a.seat = e.seat;
    a.type = e.type == EventType::kPlay ? ActionType::kPlay : ActionType::kPass;
    if (a.type == ActionType::kPlay) a.play = e.play;
    try {
      if (automatic) {
        g.apply_forced_pass();
        continue;
      }
      if (e.seat != v.seat) ll += decision_log_factor(g, a, model, rng, scratch);
      g.apply(a);
    } catch (const GameError&) {
      return kImpossible;  // the world cannot have made this decision
    }
  }
  return ll;
}

Hands inferred_world_hands(const InfoState& v, const Constraints& c, const PlayModel& model, int m,
                           std::uint64_t seed, std::uint64_t k, PolicyScratch& scratch) {
  if (model.mode == Inference::kNone || m <= 1) return sample_world_hands(c, seed, k);
  std::vector<Hands> drawn(std::size_t(m), Hands{});
  std::vector<double> logw(std::size_t(m), kImpossible);
  double top = kImpossible;
  for (int j = 0; j < m; ++j) {
    const std::uint64_t index = k * std::uint64_t(m) + std::uint64_t(j);
    drawn[std::size_t(j)] = sample_world_hands(c, seed, index);
    logw[std::size_t(j)] = play_log_likelihood(v, drawn[std::size_t(j)], model, index, scratch);
    top = std::max(top, logw[std::size_t(j)]);
  }
  Rng pick = Rng::stream(seed, k, Stream::kSample, kInferencePick);
  if (top == kImpossible) return drawn[std::size_t(pick.bounded(std::uint64_t(m)))];
  double total = 0.0;
  for (double& w : logw) total += (w = std::exp(w - top));
  // a uniform draw in [0, total) with 53 bits, then the first world whose cumulative weight
  // exceeds it
  const double u = double(pick.next() >> 11) * 0x1.0p-53 * total;
  double acc = 0.0;
  for (int j = 0; j < m; ++j) {
    acc += logw[std::size_t(j)];
    if (u < acc) return drawn[std::size_t(j)];
  }
  for (int j = m; j-- > 0;)
    if (logw[std::size_t(j)] > 0) return drawn[std::size_t(j)];
  return drawn[0];
}

}  // namespace daguai
