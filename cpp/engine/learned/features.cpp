#include <cstdint>
#include <cstring>

#include <daguai/learned/features.hpp>
#include <daguai/players/planner.hpp>

namespace daguai {

namespace {

// The seat's hand once `a` is made: less a play's cards, a tribute or a returned card (R11);
// with the card taken from an offer; unchanged by a pass, an offer (its cards stay until one is
// taken) and an anti-tribute.
Cards hand_after(const Action& a, const Cards& hand) {
  switch (a.type) {
    case ActionType::kPlay:
    case ActionType::kTribute:
    case ActionType::kReturn:
      return hand - a.play.cards;
    case ActionType::kTake:
      return hand + a.play.cards;
    default:
      return hand;
  }
}

// The action features of `a` for a seat holding `hand` (learned.hpp layout).
void action_features(const Action& a, const Cards& hand, int level, const Rules& rules,
                     bool heuristic, float* out) {
  encode_candidate(a, level, out);
  const Cards after = hand_after(a, hand);
  put_counts(after, out + kActionHandAfter);
  out[kActionHeuristic] = heuristic ? 1.0f : 0.0f;
  out[kActionLeft] = float(after.size()) / float(kHandSize);
  out[kActionPlan] = after.empty() ? 0.0f : float(heuristic_plan_size(after, level, rules)) / 10.0f;
  out[kActionOut] = after.empty() ? 1.0f : 0.0f;
}

}  // namespace

void encode_state_features(const InfoState& v, float* out) {
  encode_observation(v, out);
  put_counts(v.unseen, out + kObsSize);
}

namespace {

// The candidates of the seat to act, one per legal abstract id: `heuristic`'s own action for
// its id when given, the id's canonical action (abstract_mask) otherwise; `ids`, when given,
// gets each candidate's abstract id.
void candidates_of(const PolicyView& view, const Action* heuristic, PolicyScratch& scratch,
                   Candidates* out, std::vector<int>* ids) {
  const int level = view.level_rank(), seat = view.current_player();
  // the mask padded to whole words of 8 ids (the padding stays 0), read a word at a time: a
  // decision has a few legal ids of the 444
  constexpr int kWords = (kNumAbstract + 7) / 8;
  std::uint8_t mask[8 * kWords];
  std::memset(mask + kNumAbstract, 0, 8 * kWords - kNumAbstract);
  std::int32_t index[kNumAbstract];
  // In the play phase the legal actions are read as their plays (a lead has about a thousand;
  // an Action is made for the candidates alone): the same ids and canonical actions.
  const bool play = view.phase() == Phase::kPlay;
  if (play) {
    scratch.plays.clear();
    view.legal_plays(&scratch.plays);
    abstract_mask(scratch.plays, view.can_pass(), level, mask, index);
  } else {
    scratch.actions.clear();
    view.legal_actions(&scratch.actions);
    abstract_mask(scratch.actions, level, mask, index);
  }
  auto canonical = [&](int id) {
    const std::size_t k = std::size_t(index[id]);
    if (!play) return scratch.actions[k];
    return k < scratch.plays.size() ? play_action(seat, scratch.plays[k]) : pass_action(seat);
  };
  const int hid = heuristic ? abstract_id(*heuristic, level) : -1;
  out->actions.clear();
  out->heuristic = -1;
  if (ids) ids->clear();
  for (int w = 0; w < kWords; ++w) {
    std::uint64_t bits;  // byte i is 1 where id 8w + i is legal (abstract_mask's 0 or 1)
    std::memcpy(&bits, mask + 8 * w, sizeof bits);
    for (; bits != 0; bits &= bits - 1) {  // ascending ids
      const int id = 8 * w + (__builtin_ctzll(bits) >> 3);
      if (ids) ids->push_back(id);
      if (id == hid) {  // the heuristic's own action stands for its id (its suits, its kickers)
        out->heuristic = int(out->actions.size());
        out->actions.push_back(*heuristic);
      } else {
        out->actions.push_back(canonical(id));
      }
    }
  }
  out->features.resize(out->actions.size() * std::size_t(kActionFeatures));
  const Cards& hand = view.hand(seat);
  for (std::size_t c = 0; c < out->actions.size(); ++c)
    action_features(out->actions[c], hand, level, view.rules(), int(c) == out->heuristic,
                    &out->features[c * std::size_t(kActionFeatures)]);
}

}  // namespace

void learned_candidates(const PolicyView& view, const Action& heuristic, PolicyScratch& scratch,
                        Candidates* out) {
  candidates_of(view, &heuristic, scratch, out, nullptr);
}

void canonical_candidates(const PolicyView& view, PolicyScratch& scratch, Candidates* out,
                          std::vector<int>* ids) {
  candidates_of(view, nullptr, scratch, out, ids);
}

}  // namespace daguai
