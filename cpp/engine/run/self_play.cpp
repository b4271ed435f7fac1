#include <daguai/catalog/catalog.hpp>
#include <daguai/learned/learned.hpp>
#include <daguai/learned/models.hpp>
#include <daguai/run/self_play.hpp>

namespace daguai {

namespace {

double uniform01(Rng& r) { return double(r.next() >> 11) * 0x1.0p-53; }

// The round's outcome for `seat` after `a` is applied to a copy of `g`, every seat s then
// playing policy[s] from its stream rngs[s] (a copy: both branches of a pair start from the
// same streams, R17): (+1 / 0 / -1 for its team, its score change).
std::pair<float, float> branch_value(const GameState& g, const Action& a, int seat,
                                     const std::array<PolicyId, kSeats>& policy,
                                     std::array<Rng, kSeats> rngs,
                                     std::array<PolicyScratch, kSeats>& scratch) {
  GameState c = g;
  const std::size_t rounds = c.results().size();
  c.apply_trusted(a);  // a candidate: a legal action of g (state.hpp)
  while (!c.match_over() && c.results().size() == rounds) {
    const std::size_t s = std::size_t(c.current_player());
    c.apply_trusted(choose_action(policy[s], c, rngs[s], scratch[s]));  // a policy's choice
  }
  const RoundResult& r = c.results().back();
  const float wl = r.winner < 0 ? 0.0f : (r.winner == team_of(seat) ? 1.0f : -1.0f);
  return {wl, float(r.scores[std::size_t(seat)])};
}

// The seats' continuation policies of a game: one from the pool, drawn per seat from
// Rng::stream(seed, game, kContinuation, seat) when the pool has two or more.
std::array<PolicyId, kSeats> draw_continuation(const SelfPlayConfig& cfg, std::uint64_t game,
                                               int seats) {
  const std::vector<PolicyId>& pool = cfg.continuation;
  std::array<PolicyId, kSeats> out{};
  out.fill(pool.empty() ? PolicyId::kHeuristic : pool[0]);
  if (pool.size() < 2) return out;
  for (int s = 0; s < seats; ++s) {
    Rng r = Rng::stream(cfg.seed, game, Stream::kContinuation, std::uint64_t(s));
    out[std::size_t(s)] = pool[std::size_t(r.bounded(pool.size()))];
  }
  return out;
}

// The R11 decisions draw from streams of their own (exploration: seat + kSeats; play-outs: from
// b = kR11Branches on), so recording them leaves the play decisions' draws as they were.
constexpr std::uint64_t kR11Branches = std::uint64_t(1) << 32;

// The play-out streams of the game's b-th branched decision (R16: one per seat).
std::array<Rng, kSeats> continuation_streams(const SelfPlayConfig& cfg, std::uint64_t game,
                                             std::uint64_t b) {
  std::array<Rng, kSeats> out;
  for (std::size_t s = 0; s < out.size(); ++s)
    out[s] = Rng::stream(cfg.seed, game, Stream::kContinuation, 6 * (b + 1) + s);
  return out;
}

void check_continuation(const SelfPlayConfig& cfg) {
  if (cfg.continuation.empty()) throw GameError("self_play: the continuation pool is empty");
  for (const PolicyId k : cfg.continuation) {
    if (is_search_policy(k))
      throw GameError(std::string("self_play: a continuation cannot be a search policy (") +
                      policy_name(k) + ")");
    if (!is_policy_id(int(k))) throw GameError("self_play: unknown continuation policy");
    if (policy_kind(k) == PolicyKind::kModel) model_of(k, cfg.rules.table);  // its table
  }
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
  check_continuation(cfg);
  std::array<PolicyScratch, kSeats> scratch, branch_scratch;
  Decision d;
  for (std::int64_t i = 0; i < cfg.n; ++i) {
    const std::uint64_t game = cfg.first_game + std::uint64_t(i);
    GameState g(cfg.rules, cfg.seed, game, /*auto_pass=*/false, /*record=*/false,
                cfg.random_start ? Start::kRandom : Start::kFresh);
    const int seats = g.table().seats;
    const std::array<PolicyId, kSeats> cont = draw_continuation(cfg, game, seats);
    std::uint64_t branched = 0, branched_r11 = kR11Branches;
    std::array<Rng, kSeats> rngs, explore, explore_r11;
    for (int s = 0; s < seats; ++s) {
      rngs[std::size_t(s)] = Rng::stream(cfg.seed, game, Stream::kPolicy, std::uint64_t(s));
      explore[std::size_t(s)] = Rng::stream(cfg.seed, game, Stream::kExplore, std::uint64_t(s));
      explore_r11[std::size_t(s)] =
          Rng::stream(cfg.seed, game, Stream::kExplore, std::uint64_t(kSeats + s));
      scratch[std::size_t(s)].forget_plan();
    }
    while (!g.match_over() && g.results().empty()) {
      const int seat = g.current_player();
      const std::size_t s = std::size_t(seat);
      const PolicyId k = cfg.policies[s];
      const std::shared_ptr<const Network> net = model_of(k, g.rules().table);
      const bool r11 = g.phase() != Phase::kPlay;
      if (!cfg.record[s] || (r11 && !cfg.r11)) {
        g.apply_trusted(choose_action(k, g, rngs[s], scratch[s]));  // a policy's choice
        continue;
      }
      if (!net && k != PolicyId::kHeuristic)
        throw ModelError("self_play: a recorded seat plays a model or the heuristic");
      prepare_decision(PolicyView(g), net.get(), scratch[s], &d);
      const Candidates& cands = d.cands;
      const std::vector<float>& q = d.q;
      const int n = d.size();
      if (n <= 1) {
        g.apply_trusted(n == 1 ? cands.actions[0] : d.heuristic);  // legal by construction
        continue;
      }
      int main = net && decides(*net, g.phase())
                     ? learned_pick(q.data(), n, cands.heuristic, net->margin())
                     : std::max(cands.heuristic, 0);
      Rng& ex = r11 ? explore_r11[s] : explore[s];
      if (cfg.epsilon > 0 && uniform01(ex) < cfg.epsilon) main = int(ex.bounded(std::uint64_t(n)));
      if (r11 || (cfg.branch > 0 && uniform01(ex) < cfg.branch)) {
        int alt;
        if (net && uniform01(ex) < 0.5) {
          alt = -1;
          for (int c = 0; c < n; ++c)
            if (c != main && (alt < 0 || q[std::size_t(c)] > q[std::size_t(alt)])) alt = c;
        } else {
          alt = int(ex.bounded(std::uint64_t(n - 1)));
          if (alt >= main) ++alt;
        }
        const std::array<Rng, kSeats> crn =
            continuation_streams(cfg, game, r11 ? branched_r11++ : branched++);
        const auto vm =
            branch_value(g, cands.actions[std::size_t(main)], seat, cont, crn, branch_scratch);
        const auto va =
            branch_value(g, cands.actions[std::size_t(alt)], seat, cont, crn, branch_scratch);
        push_frame(out, d.state, &cands.features[std::size_t(main) * kActionFeatures], vm, game,
                   seat);
        push_frame(out, d.state, &cands.features[std::size_t(alt) * kActionFeatures], va, game,
                   seat);
      }
      g.apply_trusted(cands.actions[std::size_t(main)]);  // a candidate: legal
    }
    if (rounds) ++*rounds;
  }
}

SelfPlayConfig self_play_config(const Rules& rules, std::uint64_t seed, std::uint64_t first_game,
                                std::int64_t n, const std::vector<std::string>& policies,
                                const std::vector<bool>& record, double epsilon, double branch,
                                bool random_start, const std::vector<std::string>& continuation,
                                bool r11) {
  const Table& tb = table_of(rules);
  if (policies.size() != std::size_t(tb.seats) || record.size() != std::size_t(tb.seats))
    throw GameError("_self_play needs one policy and one record flag per seat");
  if (n < 0 || n > kMaxSelfPlayGames) throw GameError("_self_play: n out of range");
  if (!(epsilon >= 0 && epsilon <= 1)) throw GameError("_self_play: epsilon must be in [0, 1]");
  if (!(branch >= 0 && branch <= 1)) throw GameError("_self_play: branch must be in [0, 1]");
  if (continuation.empty() || continuation.size() > std::size_t(kMaxContinuation))
    throw GameError("_self_play: the continuation pool has 1 to " +
                    std::to_string(kMaxContinuation) + " policies");
  SelfPlayConfig cfg;
  cfg.rules = rules;
  cfg.seed = seed;
  cfg.first_game = first_game;
  cfg.n = n;
  cfg.epsilon = epsilon;
  cfg.branch = branch;
  cfg.random_start = random_start;
  cfg.r11 = r11;
  cfg.continuation.clear();
  for (const std::string& name : continuation) cfg.continuation.push_back(parse_policy(name));
  for (int s = 0; s < tb.seats; ++s) {
    cfg.policies[std::size_t(s)] = parse_policy(policies[std::size_t(s)]);
    cfg.record[std::size_t(s)] = record[std::size_t(s)];
  }
  return cfg;
}

}  // namespace daguai
