#include "infostate.hpp"

#include <algorithm>

#include "audience.hpp"

namespace daguai {

namespace {

Cards full_deck(const Table& t) {  // R2, R18: `decks` copies of each face
  Cards c;
  for (int f = 0; f < kNumFaces; ++f) c.add(f, t.decks);
  return c;
}

Cards one(int f) {
  Cards c;
  c.add(f);
  return c;
}

// `c` in s's hand, minus copies of those faces that s played since (see the header).
void add_known(InfoState& v, int s, const Cards& c) {
  for (int f = 0; f < kNumFaces; ++f) {
    const int n = c.count(f) - v.played[std::size_t(s)].count(f);
    if (n > 0) v.known[std::size_t(s)].add(f, n);
  }
}

}  // namespace

void InfoState::legal_plays(PlayList* out) const {
  daguai::legal_plays(hand, level_rank, rules, has_top ? &top : nullptr, out);
}

InfoState information_state(const GameState& g, int seat, bool with_history, bool with_legal) {
  const int seats = g.table().seats;
  if (seat < 0 || seat >= seats)
    throw GameError("no seat " + std::to_string(seat) + ": seats are 0.." +
                    std::to_string(seats - 1));
  InfoState v;
  v.seat = seat;
  v.rules = g.rules();
  v.phase = g.phase();
  v.current = g.current_player();
  v.round = g.round();
  v.dealer = g.dealer();
  v.level_rank = g.level_rank();
  v.levels = {g.level(0), g.level(1)};
  for (int s = 0; s < kSeats; ++s) {
    v.scores[std::size_t(s)] = g.score(s);
    v.played[std::size_t(s)] = g.played(s);
    v.cards_left[std::size_t(s)] = g.cards_left(s);
  }
  v.final_failures = {g.final_failures(0), g.final_failures(1)};
  v.auto_pass = g.auto_pass();
  v.hand = g.hand(seat);
  v.finish_order = g.finish_order();
  v.players_out = g.players_out();
  for (int i = 0; i < v.players_out; ++i) v.out_mask |= 1u << v.finish_order[std::size_t(i)];
  v.has_top = g.has_top();
  if (v.has_top) {
    v.top = g.top();
    v.top_seat = g.top_seat();
  }
  v.passed = g.passed_mask();
  v.n_pairs = g.tribute_pairs();
  v.pair_step = g.pair_step();
  v.known[std::size_t(seat)] = v.hand;
  for (int i = 0; i < v.n_pairs; ++i) {
    const int t = g.tributer(i), r = g.receiver(i);
    v.tributers[std::size_t(i)] = std::int8_t(t);
    v.receivers[std::size_t(i)] = std::int8_t(r);
    const int tf = g.tribute_face(i);
    v.tribute_face[std::size_t(i)] = tf;
    if (tf == -2 && t != seat) {  // refusal: the jokers were shown, all of them
      Cards j;
      j.add(kSJ, g.hand(t).sj() + g.played(t).sj());
      j.add(kBJ, g.hand(t).bj() + g.played(t).bj());
      add_known(v, t, j);
      v.jokers_known[std::size_t(t)] = true;
    }
    // the rest of the exchange is private to the pair (R11, the one audience rule)
    if (!audience_sees(EventType::kReturn, t, r, seat)) continue;
    const int rf = g.return_face(i);
    v.return_face[std::size_t(i)] = rf;
    v.offer[std::size_t(i)] = g.offer(i);
    if (seat == t && tf >= 0) {
      // r holds the tribute and the offer cards it kept, unless it gave them back to me
      Cards kept = one(tf) + g.offer(i);
      if (rf >= 0 && kept.count(rf)) kept.remove(rf);
      add_known(v, r, kept);
    }
    if (seat == r && rf >= 0) add_known(v, t, one(rf));
  }
  Cards unseen = full_deck(g.table()) - v.hand;
  for (int s = 0; s < kSeats; ++s) {
    unseen -= v.played[std::size_t(s)];
    if (s != seat) unseen -= v.known[std::size_t(s)];
  }
  v.unseen = unseen;
  if (with_legal && seat == v.current) g.legal_actions(&v.legal);
  g.forced_passes().for_each_from(0, [&](const ForcedPass& fp) { v.forced.push_back(fp); });
  if (with_history && g.recording()) {
    g.log().for_each_from(g.round_log_start(),
                          [&](const Event& e) { v.history.push_back(for_audience(e, seat)); });
  }
  return v;
}

}  // namespace daguai
