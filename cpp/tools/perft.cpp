// Perft for 大怪路子 (like chess perft): count the leaves of the game tree by applying every
// legal action, or the legal plays of one hand. No Python in the loop;
// tests/plays/test_rules_perft_tool.py checks its counts against the Python API and the pinned
// counts of tests/plays/test_rules_perft.py.
//
//   daguai_perft game SEED DEPTH [options]   leaves at DEPTH below the seeded deal (R2, R10)
//                                            of game 0, with --divide per first action
//   daguai_perft hand CARDS LEVEL [options]  legal plays of CARDS at LEVEL (R8: leading, or
//                                            following --top CARDS), per family
//   daguai_perft time [HANDS] [LEVEL]        timing of lead generation and batch classify
// options: --rules KEY=VALUE (any rule variant, as daguai.Rules takes it: wild=declare,
//          wrap_straights=1, table=4p2d, ...), --start fresh|random, --game N, --divide,
//          --top CARDS (hand)
//
// A leaf is a position reached by exactly DEPTH actions (plays, passes, tribute decisions;
// auto_pass off, so a forced pass is an action); a match that ends earlier adds none. Output:
// with --divide one line "<action>: <leaves>" per legal action in legal_actions order, where
// <action> is "<type>[ <cards>][ <kind> <key>]" (kind and key for plays only), then
// "leaves: <total>". Bad arguments: exit 2 with one line on stderr.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <daguai/game/state.hpp>
#include <daguai/plays/moves.hpp>

using namespace daguai;

namespace {

struct Options {
  Rules rules;
  Start start = Start::kFresh;
  std::uint64_t game = 0;
  bool divide = false;
  bool has_top = false;
  std::string top;
};

std::uint64_t parse_u64(const std::string& s, const char* what) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(s, &used, 10);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != s.size() || s[0] == '-')
    throw std::invalid_argument(std::string(what) + " must be a non-negative integer, got '" + s +
                                "'");
  return v;
}

bool parse_flag(const std::string& key, const std::string& v) {
  if (v == "1" || v == "true") return true;
  if (v == "0" || v == "false") return false;
  throw std::invalid_argument(key + " must be 0/1/true/false, got '" + v + "'");
}

// --rules KEY=VALUE through the engine's variant table (core/rules.hpp), so every rule
// variant is known here, read and checked as Python's Rules reads it.
void parse_rule(const std::string& item, Rules* r) {
  const std::size_t eq = item.find('=');
  if (eq == std::string::npos)
    throw std::invalid_argument("--rules wants KEY=VALUE, got '" + item + "'");
  const std::string key = item.substr(0, eq), v = item.substr(eq + 1);
  const RuleVariant* rv = find_rule_variant(key);
  if (rv == nullptr) check_rule_names({key});  // throws, naming the known rules
  std::int64_t value = 0;
  switch (rv->kind) {
    case VariantKind::kChoice:
    case VariantKind::kLevel:
      value = parse_rule_text(*rv, v, v);
      break;
    case VariantKind::kBool:
      value = parse_flag(key, v);
      break;
    case VariantKind::kInt:
      value = std::int64_t(parse_u64(v, key.c_str()));
      break;
  }
  set_rule(r, *rv, value);
}

// Reads the options after the positional arguments.
Options parse_options(const std::vector<std::string>& args, std::size_t from) {
  Options o;
  for (std::size_t i = from; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw std::invalid_argument(a + " needs a value");
      return args[++i];
    };
    if (a == "--divide") {
      o.divide = true;
    } else if (a == "--rules" || a == "--rule") {
      parse_rule(value(), &o.rules);
    } else if (a == "--start") {
      const std::string& v = value();
      if (v != "fresh" && v != "random") throw std::invalid_argument("--start is fresh or random");
      o.start = v == "fresh" ? Start::kFresh : Start::kRandom;
    } else if (a == "--game") {
      o.game = parse_u64(value(), "--game");
    } else if (a == "--top") {
      o.has_top = true;
      o.top = value();
    } else {
      throw std::invalid_argument("unknown option '" + a + "'");
    }
  }
  return o;
}

std::string action_text(const Action& a) {
  std::string s = action_name(a.type);
  if (!a.play.cards.empty()) s += " " + cards_text(a.play.cards);
  if (a.type == ActionType::kPlay)
    s += std::string(" ") + kind_name(a.play.kind()) + " " + std::to_string(a.play.key);
  return s;
}

// Leaves `depth` actions below g. Depth 1 counts the legal actions without applying them.
std::uint64_t perft(const GameState& g, int depth, std::vector<std::vector<Action>>* scratch) {
  if (depth == 0) return 1;
  std::vector<Action>& acts = (*scratch)[std::size_t(depth)];
  acts.clear();
  g.legal_actions(&acts);
  if (depth == 1) return acts.size();
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < acts.size(); ++i) {
    GameState child = g;
    child.apply(acts[i]);
    n += perft(child, depth - 1, scratch);
  }
  return n;
}

int run_game(const std::vector<std::string>& args) {
  if (args.size() < 4) throw std::invalid_argument("usage: daguai_perft game SEED DEPTH [options]");
  const std::uint64_t seed = parse_u64(args[2], "SEED");
  const std::uint64_t depth = parse_u64(args[3], "DEPTH");
  if (depth > 12) throw std::invalid_argument("DEPTH must be at most 12");
  const Options o = parse_options(args, 4);
  const GameState root(o.rules, seed, o.game, /*auto_pass=*/false, /*record=*/false, o.start);
  std::vector<std::vector<Action>> scratch(std::size_t(depth) + 1);
  std::uint64_t total = 0;
  if (o.divide && depth > 0) {
    std::vector<Action> first;
    root.legal_actions(&first);
    for (const Action& a : first) {
      GameState child = root;
      child.apply(a);
      const std::uint64_t n = perft(child, int(depth) - 1, &scratch);
      std::printf("%s: %llu\n", action_text(a).c_str(), static_cast<unsigned long long>(n));
      total += n;
    }
  } else {
    total = perft(root, int(depth), &scratch);
  }
  std::printf("leaves: %llu\n", static_cast<unsigned long long>(total));
  return 0;
}

int run_hand(const std::vector<std::string>& args) {
  if (args.size() < 4)
    throw std::invalid_argument("usage: daguai_perft hand CARDS LEVEL [--top CARDS] [options]");
  const Cards hand = parse_cards(args[2]);
  const int level = parse_level(args[3]);
  const Options o = parse_options(args, 4);
  Play top;
  if (o.has_top && !classify(parse_cards(o.top), level, o.rules, &top))
    throw std::invalid_argument("--top '" + o.top + "' is not a play");
  const PlayCounts c = count_plays(hand, level, o.rules, o.has_top ? &top : nullptr);
  if (o.divide) {
    static const char* const kFamilies[kNumFamilies] = {
        "singles", "pairs", "triples", "five_of_a_kind", "two_rank", "sequences", "flushes"};
    for (int f = 0; f < kNumFamilies; ++f)
      std::printf("%s: %u\n", kFamilies[f], unsigned(c.family[std::size_t(f)]));
  }
  std::printf("leaves: %zu\n", c.total);
  return 0;
}

// Timing of legal-play generation on random 27-card hands (the tool's former job).
int run_time(const std::vector<std::string>& args) {
  const int n_hands = args.size() > 2 ? int(parse_u64(args[2], "HANDS")) : 1000;
  const int level = args.size() > 3 ? parse_level(args[3]) : 0;
  if (n_hands < 1) throw std::invalid_argument("HANDS must be at least 1");
  std::mt19937_64 rng(12345);  // timing input only; the engine has its own generator
  std::vector<int> deck;
  for (int f = 0; f < kNumFaces; ++f)
    for (int k = 0; k < 3; ++k) deck.push_back(f);
  std::vector<Cards> hands;
  for (int i = 0; i < n_hands; ++i) {
    std::shuffle(deck.begin(), deck.end(), rng);
    Cards c;
    for (int k = 0; k < 27; ++k) c.add(deck[std::size_t(k)]);
    hands.push_back(c);
  }
  const Rules rules;
  PlayList buf;
  buf.reserve(1 << 16);
  std::vector<double> ns;
  long total = 0;
  for (const Cards& h : hands) {
    const int reps = 20;
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) {
      buf.clear();
      legal_plays(h, level, rules, nullptr, &buf);
    }
    const auto t1 = std::chrono::steady_clock::now();
    ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / reps);
    total += long(buf.size());
  }
  std::vector<std::uint8_t> faces;  // every 7th legal five-card play, for batch classify
  for (const Cards& h : hands) {
    buf.clear();
    legal_plays(h, level, rules, nullptr, &buf);
    for (std::size_t i = 0; i < buf.size(); i += 7)
      if (buf[i].size() == 5)
        for (int f : cards_faces(buf[i].cards)) faces.push_back(std::uint8_t(f));
  }
  const std::size_t n = faces.size() / 5;
  std::vector<std::uint8_t> kinds(n);
  std::vector<std::uint32_t> keys(n);
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    classify_batch(faces.data(), n, 5, nullptr, 5, level, rules, kinds.data(), keys.data());
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / double(n));
  }
  std::printf("classify_batch: %zu plays, %.2f ns/play\n", n, best);
  std::sort(ns.begin(), ns.end());
  std::printf("leads: %d hands, mean plays %.0f, median %.2f us, p90 %.2f us, ns/play %.2f\n",
              n_hands, double(total) / n_hands, ns[ns.size() / 2] / 1000,
              ns[ns.size() * 9 / 10] / 1000, ns[ns.size() / 2] / (double(total) / n_hands));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv, argv + argc);
  try {
    const std::string mode = args.size() > 1 ? args[1] : "";
    if (mode == "game") return run_game(args);
    if (mode == "hand") return run_hand(args);
    if (mode == "time") return run_time(args);
    throw std::invalid_argument("usage: daguai_perft game|hand|time ... (see cpp/tools/perft.cpp)");
  } catch (const std::exception& e) {  // CardError, GameError, invalid_argument, ...
    std::fprintf(stderr, "daguai_perft: %s\n", e.what());
    return 2;
  }
}
