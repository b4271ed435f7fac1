// The learned player: a small Q-network (network.hpp) over the features of each candidate
// (features.hpp), with the docs in docs/learning.md "The learned player"; its models are
// registered as policies in models.hpp, its self-play generator is a runner
// (run/self_play.hpp).
//
// Q(s, a) is the expected outcome of the round for the seat to act (R13: +1 its team wins,
// -1 it loses, 0 a draw) if it makes decision a now and plays on as the behaviour policy
// does (Deep Monte-Carlo, as DouZero / DanZero). Everything read is what the seat may know
// (R16): the InfoState of the seat (infostate.hpp), its own legal decisions, and the
// heuristic's choice, which is itself a function of that view.
//
// Candidates: in the play phase, one legal action per abstract id (encode.hpp: the canonical
// action of the id; plays that differ only in suits, kickers or which joker share it), so an
// opening lead of ~500 legal actions has ~60-120 candidates. The learned policy plays the
// candidate of highest Q (ties: the first in abstract-id order). In the tribute, return and
// take phases (R11: paying, anti-tribute, returning, offering, taking) it plays as the
// heuristic does, unless the network's file says it was trained on those decisions too
// (Network::decides_r11; then they are candidates as play decisions are, one per abstract id).
//
#pragma once

#include <vector>

#include <daguai/learned/features.hpp>
#include <daguai/learned/network.hpp>

namespace daguai {

// The index of the candidate the learned policy plays: the one of highest Q, but the
// heuristic's candidate unless another beats it by more than `margin` (the network's
// switching rule, stored in its file: deviate from the hand-written player only where the
// network is confident; ties: the first in abstract-id order).
int learned_pick(const float* q, int n, int heuristic, float margin);

// Whether network `net` makes the decisions of `phase` (play: always; R11: decides_r11).
inline bool decides(const Network& net, Phase phase) {
  return phase == Phase::kPlay || (net.decides_r11() && phase != Phase::kMatchOver);
}

// The decision of the learned policy with network `net` (nullptr: the heuristic's).
Action learned_action(const PolicyView& view, const Network* net, PolicyScratch& scratch);

// One play decision of a seat as the network sees it: the heuristic's choice, the candidates
// and, with two or more of them, the state features and (with a network) every Q.
struct Decision {
  Action heuristic;
  Candidates cands;
  std::vector<float> state, q;
  int size() const { return int(cands.actions.size()); }
};
void prepare_decision(const PolicyView& view, const Network* net, PolicyScratch& scratch,
                      Decision* d);

}  // namespace daguai
