#include <algorithm>

#include <daguai/game/audience.hpp>
#include <daguai/game/infostate.hpp>

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
    const int n = c.count(f) - v.pub.played[std::size_t(s)].count(f);
    if (n > 0) v.known[std::size_t(s)].add(f, n);
  }
}

}  // namespace

void InfoState::legal_plays(PlayList* out) const {
  daguai::legal_plays(hand, pub.level_rank(), pub.rules, pub.has_top() ? &pub.top : nullptr, out);
}

InfoState information_state(const GameState& g, int seat, bool with_history, bool with_legal) {
  const int seats = g.table().seats;
  if (seat < 0 || seat >= seats)
    throw GameError("no seat " + std::to_string(seat) + ": seats are 0.." +
                    std::to_string(seats - 1));
  InfoState v;
  v.pub = g.public_state();
  v.seat = seat;
  v.game_index = g.game_index();
  if (!g.results().empty()) {
    v.has_last_result = true;
    v.last_result = g.results().back();
  }
  v.hand = g.hand(seat);
  v.known[std::size_t(seat)] = v.hand;
  for (int i = 0; i < v.pub.n_pairs; ++i) {
    const int t = v.pub.tributers[std::size_t(i)], r = v.pub.receivers[std::size_t(i)];
    const int tf = v.pub.tribute_face[std::size_t(i)];
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
    v.exchange.return_face[std::size_t(i)] = rf;
    v.exchange.offer[std::size_t(i)] = g.offer(i);
    if (seat == t && tf >= 0) {
      // r holds the tribute and the offer cards it kept, unless it gave them back to me. The
      // offer comes from r's hand after the tribute, so it may hold the tribute card itself:
      // r holds at least as many copies of a face as either shows, not their sum.
      Cards kept = g.offer(i);
      if (!kept.count(tf)) kept.add(tf);
      if (rf >= 0 && kept.count(rf)) kept.remove(rf);
      add_known(v, r, kept);
    }
    if (seat == r && rf >= 0) add_known(v, t, one(rf));
  }
  Cards unseen = full_deck(g.table()) - v.hand;
  for (int s = 0; s < kSeats; ++s) {
    unseen -= v.pub.played[std::size_t(s)];
    if (s != seat) unseen -= v.known[std::size_t(s)];
  }
  v.unseen = unseen;
  if (with_legal && seat == v.pub.current) g.legal_actions(&v.legal);
  if (with_history && g.recording()) {
    g.log().for_each_from(g.round_log_start(),
                          [&](const Event& e) { v.history.push_back(for_audience(e, seat)); });
  }
  return v;
}

}  // namespace daguai
