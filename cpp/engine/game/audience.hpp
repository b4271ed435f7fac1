// Who sees what of a log event (R16): the one audience rule of the engine.
//
// Rules implemented here (docs/rules.md):
//   R16  a seat sees its own hand, every play and pass, and the public part of the tribute
//        round; a spectator sees only the public facts; the record (the referee) sees all.
//   R11  the card a receiver returns, the cards a joker-tributer offers and the card the
//        receiver takes are seen only by the two seats of that tribute pair; that the
//        exchange happened (who, to whom) is public. The tribute card and the jokers shown
//        by an anti-tribute are public.
//   R2   each seat is dealt its own hand; the deal shows a seat only its own.
//
// Every place that hides something of an event asks `audience_sees` (the information state
// `infostate.cpp`, the Python codec `daguai/codec.py` through `_core.audience_sees`), so
// the rule is written once. Adding an event kind is one row of kEventKinds.
#pragma once

#include <array>
#include <cstdint>

#include <daguai/game/state.hpp>

namespace daguai {

// An audience: a seat 0..seats-1, or one of these.
constexpr int kSpectator = -1;  // a watcher of the table: public facts only
constexpr int kReferee = -2;    // the record writer: everything (records, positions)

// The private part of an event kind, and who besides the referee sees it.
enum class Secret : std::uint8_t {
  kNone = 0,   // nothing private: every audience sees all of it
  kPair = 1,   // its cards: only `seat` and `other` (the two seats of a tribute pair, R11)
  kOwner = 2,  // its per-seat cards (the deal's hands): only their owner (R2, R16)
};

// One row per EventType (indexed by it): the name of records and the protocol, its
// private part, and whether the event is a decision of a seat (what Game.to_json lists;
// a forced pass is a pass the engine re-makes, decided per event by its flags).
struct EventKind {
  EventType type;
  const char* name;
  Secret secret;
  bool decision;
};

inline constexpr int kNumEventTypes = 11;
inline constexpr std::array<EventKind, kNumEventTypes> kEventKinds{{
    {EventType::kDeal, "deal", Secret::kOwner, false},
    {EventType::kTribute, "tribute", Secret::kNone, true},
    {EventType::kAntiTribute, "anti_tribute", Secret::kNone, true},
    {EventType::kReturn, "return", Secret::kPair, true},
    {EventType::kOffer, "offer", Secret::kPair, true},
    {EventType::kTake, "take", Secret::kPair, true},
    {EventType::kPlay, "play", Secret::kNone, true},
    {EventType::kPass, "pass", Secret::kNone, true},
    {EventType::kRoundEnd, "round_end", Secret::kNone, false},
    {EventType::kForfeit, "forfeit", Secret::kNone, true},
    {EventType::kAutoPass, "auto_pass", Secret::kNone, true},
}};

constexpr const EventKind& event_kind(EventType t) { return kEventKinds[std::size_t(t)]; }

// Does `audience` see the private part of an event of type `t` by `seat` (with `other`, the
// other seat of a pair)? For kOwner events `seat` is the owner of the part asked about.
bool audience_sees(EventType t, int seat, int other, int audience);

// The event as `audience` sees it: a private part it may not see is cleared and flags bit 1
// (value 2) set, "cards hidden". Deals keep their index (their hands live in the deal).
Event for_audience(const Event& e, int audience);

}  // namespace daguai
