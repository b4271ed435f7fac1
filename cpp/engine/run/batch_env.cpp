#include <cstring>
#include <string>

#include <daguai/catalog/catalog.hpp>
#include <daguai/run/batch_env.hpp>

namespace daguai {

BatchEnv::BatchEnv(int n, const Rules& rules, std::uint64_t seed, bool matches, bool auto_pass,
                   Start start_kind)
    : rules_(rules),
      seed_(seed),
      matches_(matches),
      auto_pass_(auto_pass),
      start_(start_kind),
      n_(n) {
  if (n < 1) throw GameError("BatchEnv needs n >= 1 environments, got " + std::to_string(n));
  if (!matches_) rules_.max_rounds = 1;  // round episodes: keep the finished round observable
  envs_.reserve(std::size_t(n));
  for (int i = 0; i < n; ++i) {
    envs_.emplace_back(GameState(rules_, seed_, std::uint64_t(i), auto_pass_, false, start_));
    start(envs_.back(), i, 0);
  }
}

void BatchEnv::start(Env& e, int i, std::int64_t episode) {
  e.episode = episode;
  e.decisions.clear();
  e.game = std::uint64_t(episode) * std::uint64_t(n_) + std::uint64_t(i);
  e.g = GameState(rules_, seed_, e.game, auto_pass_, /*record=*/false, start_);
  for (int s = 0; s < seats(); ++s)
    e.rngs[std::size_t(s)] = Rng::stream(seed_, e.game, Stream::kPolicy, std::uint64_t(s));
  advance(e, nullptr);
  refresh(e);
}

void BatchEnv::refresh(Env& e) {
  e.legal.clear();
  e.g.legal_actions(&e.legal);
  e.mask_fresh = false;
}

void BatchEnv::reset() {
  episodes_done_ = 0;
  for (int i = 0; i < size(); ++i) start(envs_[std::size_t(i)], i, 0);
}

void BatchEnv::truncate(int i) {
  Env& e = envs_[std::size_t(i)];
  ++episodes_done_;
  start(e, i, e.episode + 1);
}

void BatchEnv::step(const std::int32_t* actions, bool abstract, float* rewards, std::uint8_t* done,
                    float* final_obs) {
  // Validate all first: an error leaves every environment unchanged.
  for (int i = 0; i < size(); ++i) {
    Env& e = envs_[std::size_t(i)];
    const std::int32_t a = actions[i];
    if (abstract) {
      if (!e.mask_fresh) {
        abstract_mask(e.legal, e.g.level_rank(), e.mask, e.index);
        e.mask_fresh = true;
      }
      if (a < 0 || a >= kNumAbstract)
        throw GameError("environment " + std::to_string(i) + ": abstract action " +
                        std::to_string(a) + " is out of range 0.." +
                        std::to_string(kNumAbstract - 1));
      if (!e.mask[a])
        throw GameError("environment " + std::to_string(i) + ": abstract action " +
                        std::to_string(a) + " is masked out (not legal now)");
    } else if (a < 0 || std::size_t(a) >= e.legal.size()) {
      throw GameError("environment " + std::to_string(i) + ": action index " + std::to_string(a) +
                      " is out of range 0.." + std::to_string(std::int64_t(e.legal.size()) - 1));
    }
  }
  for (int i = 0; i < size(); ++i) {
    Env& e = envs_[std::size_t(i)];
    const std::int32_t k = abstract ? e.index[actions[i]] : actions[i];
    const bool ended = apply(e, i, k, rewards ? rewards + seats() * i : nullptr,
                             final_obs ? final_obs + std::size_t(i) * kObsSize : nullptr);
    if (done) done[i] = ended ? 1 : 0;
  }
}

bool BatchEnv::apply(Env& e, int i, std::int32_t k, float* r, float* final_obs) {
  const Action act = e.legal[std::size_t(k)];
  const std::size_t rounds_before = e.g.results().size();
  const int actor = e.g.current_player();
  e.g.apply(act);
  e.decisions.push_back(k);
  const int seats = this->seats();  // R18: reward rows follow the table
  if (r) std::memset(r, 0, sizeof(float) * std::size_t(seats));
  bool ended = false;
  if (e.g.results().size() > rounds_before) {
    const RoundResult& res = e.g.results().back();
    if (r)
      for (int s = 0; s < seats; ++s) r[s] = float(res.scores[std::size_t(s)]);
    ended = !matches_ || e.g.match_over();
  }
  if (!ended) ended = advance(e, r);
  if (ended) {
    if (final_obs) encode_observation(information_state(e.g, actor), final_obs);
    ++episodes_done_;
    start(e, i, e.episode + 1);
  } else {
    refresh(e);
  }
  return ended;
}

bool BatchEnv::advance(Env& e, float* r) {
  while (!e.g.match_over()) {
    const int seat = e.g.current_player();
    const int k = opponents_[std::size_t(seat)];
    if (k < 0) return false;
    const std::size_t rounds_before = e.g.results().size();
    // a built-in policy's choice among the legal actions: applied without check (state.hpp)
    e.g.apply_trusted(
        choose_action(PolicyId(k), e.g, e.rngs[std::size_t(seat)], scratch_[std::size_t(seat)]));
    if (e.g.results().size() > rounds_before) {
      const RoundResult& res = e.g.results().back();
      if (r)
        for (int s = 0; s < seats(); ++s) r[s] += float(res.scores[std::size_t(s)]);
      if (!matches_ || e.g.match_over()) return true;
    }
  }
  return true;
}

void BatchEnv::check_opponents(const std::array<int, kSeats>& kinds) const {
  int learners = 0;
  for (int s = 0; s < seats(); ++s) {
    const int k = kinds[std::size_t(s)];
    if (k < -1 || (k >= 0 && !is_policy_id(k)))
      throw GameError("BatchEnv: seat " + std::to_string(s) + " has no policy " +
                      std::to_string(k));
    learners += k < 0;
  }
  if (learners == 0)
    throw GameError("BatchEnv: at least one seat must be the learner's (opponents on all " +
                    std::to_string(seats()) + ")");
}

void BatchEnv::set_opponents(const std::array<int, kSeats>& kinds) {
  check_opponents(kinds);
  opponents_ = kinds;
  reset();
}

BatchEnv::Saved BatchEnv::save() const {
  Saved s;
  s.opponents = opponents_;
  s.episodes_done = episodes_done_;
  for (const Env& e : envs_) {
    s.episodes.push_back(e.episode);
    s.decisions.push_back(e.decisions);
  }
  return s;
}

void BatchEnv::restore(const Saved& s) {
  const std::string bad = "BatchEnv: corrupt saved state: ";
  if (s.episodes.size() != envs_.size() || s.decisions.size() != envs_.size())
    throw GameError(bad + "expected " + std::to_string(size()) + " episode numbers and " +
                    std::to_string(size()) + " decision lists (one per environment), got " +
                    std::to_string(s.episodes.size()) + " and " +
                    std::to_string(s.decisions.size()));
  if (s.episodes_done < 0) throw GameError(bad + "negative episodes_done");
  for (int p = seats(); p < kSeats; ++p)
    if (s.opponents[std::size_t(p)] != -1)
      throw GameError(bad + "opponent on a seat the table lacks");
  check_opponents(s.opponents);
  // Replay into copies of the environments: this object changes only once all replayed.
  const std::array<int, kSeats> opponents = opponents_;
  const std::int64_t episodes_done = episodes_done_;
  std::vector<Env> envs = envs_;
  opponents_ = s.opponents;
  try {
    for (int i = 0; i < size(); ++i) {
      const std::int64_t episode = s.episodes[std::size_t(i)];
      if (episode < 0 || episode > (std::int64_t(1) << 40))
        throw GameError(bad + "environment " + std::to_string(i) + " has episode " +
                        std::to_string(episode));
      Env& e = envs[std::size_t(i)];
      start(e, i, episode);
      const auto& ks = s.decisions[std::size_t(i)];
      for (std::size_t d = 0; d < ks.size(); ++d) {
        if (e.g.match_over() || ks[d] < 0 || std::size_t(ks[d]) >= e.legal.size())
          throw GameError(bad + "environment " + std::to_string(i) + ": decision " +
                          std::to_string(d) + " is not a legal index");
        if (apply(e, i, ks[d], nullptr, nullptr))
          throw GameError(bad + "environment " + std::to_string(i) +
                          ": its episode ends at decision " + std::to_string(d) + " of " +
                          std::to_string(ks.size()));
      }
    }
  } catch (...) {
    opponents_ = opponents;
    episodes_done_ = episodes_done;
    throw;
  }
  envs_ = std::move(envs);
  episodes_done_ = s.episodes_done;
}

void BatchEnv::observe(float* obs, std::int8_t* mask, std::int32_t* to_act) {
  for (int i = 0; i < size(); ++i) {
    Env& e = envs_[std::size_t(i)];
    const int seat = e.g.current_player();
    if (to_act) to_act[i] = seat;
    if (obs) encode_observation(information_state(e.g, seat), obs + std::size_t(i) * kObsSize);
    if (mask) {
      if (!e.mask_fresh) {
        abstract_mask(e.legal, e.g.level_rank(), e.mask, e.index);
        e.mask_fresh = true;
      }
      std::memcpy(mask + std::size_t(i) * kNumAbstract, e.mask, kNumAbstract);
    }
  }
}

void BatchEnv::candidates(std::vector<float>* features, std::int64_t* offsets) const {
  std::size_t total = 0;
  for (const Env& e : envs_) total += e.legal.size();
  features->resize(total * kCandFeatures);
  std::size_t row = 0;
  for (int i = 0; i < size(); ++i) {
    const Env& e = envs_[std::size_t(i)];
    offsets[i] = std::int64_t(row);
    for (const Action& a : e.legal)
      encode_candidate(a, e.g.level_rank(), features->data() + (row++) * kCandFeatures);
  }
  offsets[size()] = std::int64_t(row);
}

}  // namespace daguai
