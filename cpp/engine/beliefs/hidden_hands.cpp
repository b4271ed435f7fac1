#include <algorithm>
#include <string>

#include <daguai/beliefs/constraints.hpp>
#include <daguai/beliefs/hidden_hands.hpp>
#include <daguai/beliefs/sampler.hpp>
#include <daguai/game/tribute_facts.hpp>

namespace daguai {

namespace {

[[noreturn]] void fail(const std::string& m) { throw PositionError("inconsistent position: " + m); }

std::string seat_text(int s) { return "seat " + std::to_string(s); }

using Counts = std::array<int, kNumFaces>;

// What the history says of the hands: the cards each seat played, how its hand size moved
// (plays, and the cards of the R11 exchange), and per pair the cards exchanged.
struct HistoryFacts {
  std::array<Counts, kSeats> played{};
  std::array<int, kSeats> moved{};  // cards gained (received) minus lost (played, given)
  std::array<int, kMaxTributers> paid = tributer_array(-1), back = tributer_array(-1);
  std::array<Cards, kMaxTributers> offer{};
  unsigned refused = 0;  // tributers that refused (anti_tribute)
};

int pair_of(const Position& pos, int seat, bool as_tributer) {
  for (int i = 0; i < pos.n_pairs && i < kMaxTributers; ++i)
    if ((as_tributer ? pos.tributers : pos.receivers)[std::size_t(i)] == seat) return i;
  return -1;
}

int one_face(const Cards& c) { return c.size() == 1 ? cards_faces(c)[0] : -1; }

// An entry the replay will refuse (a seat outside its pair, a card count) is skipped here:
// the replay names it.
HistoryFacts read_history(const Position& pos, int seats) {
  HistoryFacts h;
  for (std::size_t i = 0; i < pos.history.size(); ++i) {
    const Action& a = pos.history[i].action;
    const int s = a.seat;
    if (s < 0 || s >= seats)
      fail("history entry " + std::to_string(i) + ": seat " + std::to_string(s) +
           " is not a seat (0.." + std::to_string(seats - 1) + ")");
    const bool tributer_side = a.type == ActionType::kTribute || a.type == ActionType::kTake ||
                               a.type == ActionType::kAntiTribute;
    const int j = a.type == ActionType::kPlay || a.type == ActionType::kPass
                      ? -1
                      : pair_of(pos, s, tributer_side);
    const int other = j < 0 ? -1 : (tributer_side ? pos.receivers : pos.tributers)[std::size_t(j)];
    const int f = one_face(a.play.cards);
    if (j >= 0 && (other < 0 || other >= seats)) continue;  // a pair off the table: the replay says
    switch (a.type) {
      case ActionType::kPlay:
        for (int g = 0; g < kNumFaces; ++g)
          h.played[std::size_t(s)][std::size_t(g)] += a.play.cards.count(g);
        h.moved[std::size_t(s)] -= a.play.cards.size();
        break;
      case ActionType::kTribute:
      case ActionType::kReturn:
      case ActionType::kTake:
        if (j < 0 || f < 0) break;
        (a.type == ActionType::kTribute ? h.paid : h.back)[std::size_t(j)] = f;
        // a take moves the card from the receiver to the tributer who takes it
        --h.moved[std::size_t(a.type == ActionType::kTake ? other : s)];
        ++h.moved[std::size_t(a.type == ActionType::kTake ? s : other)];
        break;
      case ActionType::kOffer:
        if (j >= 0) h.offer[std::size_t(j)] = a.play.cards;
        break;
      case ActionType::kAntiTribute:
        if (j >= 0) h.refused |= 1u << s;
        break;
      case ActionType::kPass:
        break;
    }
  }
  return h;
}

// The cards an unknown hand holds for certain now (infostate.hpp "known", for a seat of the
// pair): a receiver the tribute and the offer cards it did not give back, a tributer the
// card that came back, each minus the copies played since.
Counts known_of(const Position& pos, const HistoryFacts& h, int s) {
  Counts need{};
  for (int i = 0; i < pos.n_pairs && i < kMaxTributers; ++i) {
    const int x = h.paid[std::size_t(i)], y = h.back[std::size_t(i)];
    if (x < 0) continue;
    if (pos.tributers[std::size_t(i)] == s && y >= 0) need[std::size_t(y)] = 1;
    if (pos.receivers[std::size_t(i)] == s) {
      for (int f = 0; f < kNumFaces; ++f) need[std::size_t(f)] = h.offer[std::size_t(i)].count(f);
      need[std::size_t(x)] = std::max(need[std::size_t(x)], 1);
      if (y >= 0 && need[std::size_t(y)] > 0) --need[std::size_t(y)];
    }
  }
  for (int f = 0; f < kNumFaces; ++f)
    need[std::size_t(f)] =
        std::max(0, need[std::size_t(f)] - h.played[std::size_t(s)][std::size_t(f)]);
  return need;
}

Cards cards_of(const Counts& c) {
  Cards out;
  for (int f = 0; f < kNumFaces; ++f)
    if (c[std::size_t(f)] > 0) out.add(f, c[std::size_t(f)]);
  return out;
}

int total(const Counts& c) {
  int n = 0;
  for (int v : c) n += v;
  return n;
}

// Take up to `n` cards of the faces [from, to) of `pool` into `hand`, lowest faces first.
int take(Counts* pool, Counts* hand, int from, int to, int n) {
  int got = 0;
  for (int f = from; f < to && got < n; ++f)
    while ((*pool)[std::size_t(f)] > 0 && got < n) {
      --(*pool)[std::size_t(f)];
      ++(*hand)[std::size_t(f)];
      ++got;
    }
  return got;
}

}  // namespace

std::array<Cards, kSeats> fill_hidden_hands(const Rules& rules, const Position& pos,
                                            const std::vector<int>& unknown, std::uint64_t seed) {
  const Table& tb = table_of(rules.table);
  const int seats = tb.seats;
  unsigned open = 0;  // a bit per unknown seat
  for (int s : unknown) {
    if (s < 0 || s >= seats)
      fail("unknown hand of seat " + std::to_string(s) + ": the seats are 0.." +
           std::to_string(seats - 1));
    open |= 1u << s;
  }
  if (pos.n_pairs < 0 || pos.n_pairs > kMaxTributers)
    fail("there are 0 to " + std::to_string(tb.max_tributers) + " tribute pairs, not " +
         std::to_string(pos.n_pairs));
  const HistoryFacts h = read_history(pos, seats);

  // The cards every seat holds for certain, and how many cards each unknown hand holds.
  std::array<Counts, kSeats> known{};
  std::array<int, kSeats> size{};
  Counts unseen{};
  unseen.fill(tb.decks);
  for (int s = 0; s < seats; ++s) {
    const bool is_open = (open >> s) & 1;
    if (is_open) {
      known[std::size_t(s)] = known_of(pos, h, s);
      size[std::size_t(s)] = tb.hand_size + h.moved[std::size_t(s)];
    } else {
      for (int f = 0; f < kNumFaces; ++f)
        known[std::size_t(s)][std::size_t(f)] = pos.hands[std::size_t(s)].count(f);
      size[std::size_t(s)] = pos.hands[std::size_t(s)].size();
    }
    for (int f = 0; f < kNumFaces; ++f)
      unseen[std::size_t(f)] -=
          known[std::size_t(s)][std::size_t(f)] + h.played[std::size_t(s)][std::size_t(f)];
  }
  for (int f = 0; f < kNumFaces; ++f)
    if (unseen[std::size_t(f)] < 0)
      fail("card totals (R2): too many " + face_text(f) +
           " in the given hands, the plays and the cards the exchange left with a seat");
  int hidden = 0;
  for (int s = 0; s < seats; ++s) {
    if (!((open >> s) & 1)) continue;
    const int must = total(known[std::size_t(s)]);
    if (size[std::size_t(s)] < must)
      fail(seat_text(s) + " is left " + std::to_string(size[std::size_t(s)]) +
           " cards by this round's plays and exchanges but holds " + std::to_string(must) +
           " the history shows");
    hidden += size[std::size_t(s)] - must;
  }
  if (hidden != total(unseen))
    fail("the unknown hands need " + std::to_string(hidden) + " cards but " +
         std::to_string(total(unseen)) + " are left");

  // Placeholder hands for the replay: the known cards, jokers enough for a refusal (R11), then
  // the lowest unseen faces. Only the public state the replay reaches is used.
  Position p = pos;
  p.open_hands = open;
  {
    Counts pool = unseen;
    for (int s = 0; s < seats; ++s) {
      if (!((open >> s) & 1)) continue;
      Counts hand = known[std::size_t(s)];
      int room = size[std::size_t(s)] - total(hand);
      if ((h.refused >> s) & 1) {
        const int have =
            hand[kSJ] + hand[kBJ] + h.played[std::size_t(s)][kSJ] + h.played[std::size_t(s)][kBJ];
        const int need = std::max(0, kAntiTributeJokers - have);
        if (take(&pool, &hand, kSJ, kNumFaces, std::min(need, room)) < need)
          fail(seat_text(s) + " refused tribute (anti_tribute) but cannot hold " +
               std::to_string(kAntiTributeJokers) + " jokers (R11)");
        room -= need;
      }
      take(&pool, &hand, 0, kNumFaces, room);
      p.hands[std::size_t(s)] = cards_of(hand);
    }
  }
  const GameState replay(rules, p, false);

  InfoState v;
  v.pub = replay.public_state();
  // Under auto_pass the seat to act holds a play over the top only when to_act is checked:
  // otherwise the validator passes for it, whatever it holds.
  v.pub.auto_pass = pos.auto_pass && pos.to_act >= 0;
  v.seat = -1;
  v.game_index = pos.game;
  v.exchange = replay.exchange();  // every card of the exchange is in the history
  unsigned fixed = 0;              // seats without hidden cards
  Hands given{};
  for (int s = 0; s < seats; ++s) {
    v.known[std::size_t(s)] = cards_of(known[std::size_t(s)]);
    if (v.hidden_count(s) == 0) {
      fixed |= 1u << s;
      given[std::size_t(s)] = v.known[std::size_t(s)];
    }
  }
  v.unseen = cards_of(unseen);
  const Constraints c(v);
  const std::string broken = c.violation_among(fixed, given);
  if (!broken.empty()) fail(broken);
  Hands hands;
  try {
    hands = sample_world_hands(c, seed, 0);
  } catch (const PositionError&) {
    throw;
  } catch (const GameError& ex) {
    fail(std::string("no filling of the unknown hands agrees with the history (") + ex.what() +
         ")");
  }
  Position filled = pos;
  for (int s = 0; s < seats; ++s)
    if ((open >> s) & 1) filled.hands[std::size_t(s)] = hands[std::size_t(s)];
  // the validator accepts it (PositionError otherwise)
  [[maybe_unused]] const GameState accepted(rules, filled, false);
  return filled.hands;
}

}  // namespace daguai
