// The learned player's inputs: features of (information state, candidate action).
//
// Everything read is what the seat may know (R16): the InfoState of the seat
// (game/infostate.hpp), its own legal decisions, and the heuristic's choice, which is itself
// a function of that view.
//
// Candidates: in the play phase, one legal action per abstract id (io/encode.hpp: the
// canonical action of the id; plays that differ only in suits, kickers or which joker share
// it), so an opening lead of ~500 legal actions has ~60-120 candidates.
#pragma once

#include <vector>

#include <daguai/io/encode.hpp>
#include <daguai/players/policy.hpp>

namespace daguai {

constexpr int kLearnVersion = 1;
// ---- state features: float32[kStateFeatures] ----------------------------------------------
//   [0, 633)    the observation tensor (encode.hpp, OBS_VERSION 1)
//   [633, 687)  unseen face counts: cards the seat cannot see (others' hands, unknown)
constexpr int kStateFeatures = kObsSize + 54;
// ---- action features: float32[kActionFeatures] per candidate ------------------------------
//   [0, 67)     the candidate features (encode.hpp: counts, kind, key, jokers, pass, size)
//   [67, 121)   face counts of the hand after the decision (R11: less the card paid or
//               returned, with the card taken)
//   121         1 if it is the heuristic's choice (the same abstract id)
//   122         cards left after the decision / 27
//   123         plays in the heuristic's plan (配牌) of the hand after the decision / 10
//   124         1 if the decision empties the hand (the seat goes out)
constexpr int kActionHandAfter = kCandFeatures;
constexpr int kActionHeuristic = kActionHandAfter + 54;
constexpr int kActionLeft = kActionHeuristic + 1;
constexpr int kActionPlan = kActionLeft + 1;
constexpr int kActionOut = kActionPlan + 1;
constexpr int kActionFeatures = kActionOut + 1;  // 125

// The features of the seat to act (v must be the seat's view and the seat to act).
void encode_state_features(const InfoState& v, float* out);

// Candidates of the seat to act (the play phase, and the R11 decisions when the network makes
// them) with their action features. `heuristic` is the heuristic's decision; `index` of the
// candidate with its abstract id (or -1).
struct Candidates {
  std::vector<Action> actions;
  std::vector<float> features;  // actions.size() x kActionFeatures
  int heuristic = -1;
};
void learned_candidates(const PolicyView& view, const Action& heuristic, PolicyScratch& scratch,
                        Candidates* out);
// The same without the heuristic: every candidate is its id's canonical action (abstract_mask,
// as io's action_from_abstract), column kActionHeuristic is 0 and `heuristic` -1; `ids` gets
// each candidate's abstract id (ascending). The one-pass student's per-candidate inputs.
void canonical_candidates(const PolicyView& view, PolicyScratch& scratch, Candidates* out,
                          std::vector<int>* ids);

}  // namespace daguai
