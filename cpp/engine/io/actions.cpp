#include <cctype>
#include <vector>

#include <daguai/core/table.hpp>
#include <daguai/io/actions.hpp>

namespace daguai {

namespace {

// The choice name of rules.wild, from the variant table (rules.cpp).
const char* wild_name(Wild w) { return find_rule_variant("wild")->choices[std::size_t(w)]; }

// Python's repr of simple text, for messages: 'text'.
std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::string cur;
  for (char ch : text) {
    if (std::isspace(static_cast<unsigned char>(ch))) {
      if (!cur.empty()) words.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  return words;
}

std::string join(const std::vector<std::string>& w, std::size_t from, std::size_t to) {
  std::string s;
  for (std::size_t i = from; i < to; ++i) s += (i > from ? " " : "") + w[i];
  return s;
}

Action action_of(const GameState& g, ActionType t) {
  Action a;
  a.type = t;
  a.seat = std::int8_t(g.current_player());
  return a;
}

}  // namespace

Play classify_play(const Cards& c, int level, const Rules& rules, const char* what) {
  Play p;
  if (!classify(c, level, rules, &p))
    throw IllegalPlay(std::string(what) + " '" + cards_text(c) +
                      "' is not a play (R5: a single, pair, "
                      "triple, or a five-card straight, flush, full house, four-plus-one, straight "
                      "flush or five of a kind)");
  return p;
}

Play classify_declared(const Cards& c, const Cards& jokers_as, int level, const Rules& rules) {
  if (rules.wild != Wild::kDeclare)
    throw CardError("jokers_as needs rules with wild='declare' (R6); under '" +
                    std::string(wild_name(rules.wild)) + "' the interpretation is fixed");
  const Cards nat = c.naturals();
  if (Cards::sum_overflows(nat, jokers_as))  // name the face that would get a 4th copy
    for (int f = 0; f < kNumFaces; ++f)
      if (nat.count(f) + jokers_as.count(f) > kMaxCopies)
        throw CardError("jokers_as: a joker cannot stand for " + face_text(f) + ": the play has " +
                        std::to_string(nat.count(f)) + " natural " + face_text(f) +
                        " already (at most 3 copies: three decks, R2)");
  const int copies = table_of(rules).decks;  // R18: two decks, two copies
  if (copies < kMaxCopies)
    for (int f = 0; f < kNumFaces; ++f)
      if (nat.count(f) + jokers_as.count(f) > copies)
        throw CardError("jokers_as: a joker cannot stand for " + face_text(f) + ": at most " +
                        std::to_string(copies) + " copies of a face at table " +
                        table_of(rules).name + " (R18)");
  return declare(c, nat + jokers_as, level, rules);
}

Play read_play(std::string_view cards, const std::optional<std::string>& declared, int level,
               const Rules& rules) {
  const Cards c = parse_cards(cards, table_of(rules));  // R18: the table's copy limit
  if (declared && rules.wild == Wild::kDeclare)         // declare() checks the faces make a reading
    return classify_declared(c, parse_cards(*declared), level, rules);
  Play p;
  if (!classify(c, level, rules, &p)) throw IllegalPlay(quoted(cards) + " is not a play (R5)");
  if (declared) {
    Cards as;
    std::string as_text;
    for (int f : joker_faces(p, level)) {
      as.add(f);
      as_text += (as_text.empty() ? "" : " ") + face_text(f);
    }
    if (!(as == parse_cards(*declared)))
      throw IllegalPlay("the jokers of " + quoted(cards) + " stand for " +
                        quoted(as_text.empty() ? "themselves" : as_text) + " under wild=" +
                        quoted(wild_name(rules.wild)) + ", not " + quoted(*declared));
  }
  return p;
}

Action card_action(const GameState& g, const Cards& c) {
  if (g.match_over()) throw GameError("the match is over: no action is possible");
  Action a = action_of(g, ActionType::kPlay);
  switch (g.phase()) {
    case Phase::kPlay:
      a.play = classify_play(c, g.level_rank(), g.rules(), "play");
      return a;
    case Phase::kTribute:
      a.type = ActionType::kTribute;
      break;
    case Phase::kReturn:
      a.type = g.expects_offer() ? ActionType::kOffer : ActionType::kReturn;
      break;
    case Phase::kTake:
      a.type = ActionType::kTake;
      break;
    case Phase::kMatchOver:
      break;
  }
  a.play = card_play(c);
  return a;
}

Action parse_action(const GameState& g, std::string_view text) {
  if (g.match_over()) throw GameError("the match is over: no action is possible");
  std::vector<std::string> words = split_words(text);
  if (words.empty()) throw GameError("empty action text");
  std::string verb = words[0];
  for (char& ch : verb) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  const std::optional<ActionType> named = action_type_named(verb);
  if (named == ActionType::kPass || named == ActionType::kAntiTribute) {
    if (words.size() != 1) throw GameError(quoted(verb) + " takes no cards: " + quoted(text));
    return action_of(g, *named);
  }
  std::size_t first = 0, last = words.size();
  if (named)
    first = 1;  // play / tribute / return / offer / take
  else
    verb.clear();
  std::optional<std::string> declared;
  for (std::size_t i = first; i < last; ++i)
    if (words[i] == "as") {  // the keyword is lowercase; the ace of spades is written "As"
      declared = join(words, i + 1, words.size());
      if (declared->empty()) throw GameError("'as' names no faces: " + quoted(text));
      last = i;
      break;
    }
  if (first == last) throw GameError("no cards in " + quoted(text));
  const std::string cards = join(words, first, last);
  if (g.phase() == Phase::kPlay) {
    if (!verb.empty() && verb != "play")
      throw GameError("a " + verb + " in the play phase: " + quoted(text));
    Action a = action_of(g, ActionType::kPlay);
    a.play = read_play(cards, declared, g.level_rank(), g.rules());
    return a;
  }
  if (declared) throw GameError("'as' is only for plays: " + quoted(text));
  const Action a = card_action(g, parse_cards(cards));
  if (!verb.empty() && verb != action_name(a.type))
    throw GameError("the decision is a " + std::string(action_name(a.type)) + ", not a " + verb +
                    ": " + quoted(text));
  return a;
}

std::optional<ActionType> action_type_named(std::string_view name) {
  for (int t = 0; t <= int(ActionType::kTake); ++t)
    if (name == action_name(ActionType(t))) return ActionType(t);
  return std::nullopt;
}

}  // namespace daguai
