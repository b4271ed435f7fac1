#include <algorithm>

#include <daguai/learned/learned.hpp>
#include <daguai/players/heuristic.hpp>

namespace daguai {

namespace {

Action heuristic_choice(const PolicyView& view, PolicyScratch& scratch) {
  Rng unused(0);  // the heuristic draws nothing (heuristic.hpp); it takes a stream by signature
  return heuristic_action(view, unused, scratch);
}

}  // namespace

void prepare_decision(const PolicyView& view, const Network* net, PolicyScratch& scratch,
                      Decision* d) {
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

int learned_pick(const float* q, int n, int heuristic, float margin) {
  const int best = int(std::max_element(q, q + n) - q);  // the first of equal maxima
  if (heuristic < 0 || q[best] - q[heuristic] > margin) return best;
  return heuristic;
}

Action learned_action(const PolicyView& view, const Network* net, PolicyScratch& scratch) {
  // R11 decisions: as the heuristic, unless the network was trained for them
  if (!net || !decides(*net, view.phase())) return heuristic_choice(view, scratch);
  thread_local Decision d;
  prepare_decision(view, net, scratch, &d);
  const int n = d.size();
  if (n <= 1) return n == 1 ? d.cands.actions[0] : d.heuristic;
  return d.cands
      .actions[std::size_t(learned_pick(d.q.data(), n, d.cands.heuristic, net->margin()))];
}

}  // namespace daguai
