#include <cctype>
#include <vector>

#include <daguai/game/action_text.hpp>

namespace daguai {

namespace {

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

std::string action_text(const Action& a) {
  if (a.type == ActionType::kPass || a.type == ActionType::kAntiTribute) return action_name(a.type);
  if (a.type != ActionType::kPlay)
    return std::string(action_name(a.type)) + " " + cards_text(a.play.cards);
  const std::string as = jokers_as_text(a.play);
  return cards_text(a.play.cards) + (as.empty() ? "" : " as" + as);
}

std::string action_repr(const Action& a) {
  std::string s = "Action(" + std::string(action_name(a.type));
  if (a.type != ActionType::kPass && a.type != ActionType::kAntiTribute)
    s += " '" + cards_text(a.play.cards) + "'";
  if (a.type == ActionType::kPlay) {
    const std::string as = jokers_as_text(a.play);
    if (!as.empty()) s += " as" + as;
  }
  return s + ", seat " + std::to_string(a.seat) + ")";
}

}  // namespace daguai
