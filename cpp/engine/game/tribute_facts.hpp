// What a tribute makes known about the tributer's dealt hand (R11, R18): the one atom of the
// tribute constraints, shared by the position validator (position.cpp) and the belief
// constraints of a view (beliefs/constraints.hpp), so that a world the sampler deals is a
// position the validator accepts.
//
// R11: a tributer pays a card of the highest single power in its new hand, so that hand held
//      no card of higher power than the tribute (cards of equal power, e.g. another suit
//      of a level card, are allowed).
// R18: at 4p2d jokers are never tribute cards: only the natural cards are capped.
#pragma once

#include <daguai/core/cards.hpp>
#include <daguai/core/table.hpp>

namespace daguai {

// R11 anti_tribute (抗贡): a tributer may refuse when its new hand holds this many jokers.
constexpr int kAntiTributeJokers = 3;

// Every copy (all 3 count bits) of each face a hand that paid `tribute_face` cannot have
// held at the deal: the faces of power above it (natural faces only when the table's jokers
// are not tribute cards).
Cards cards_above_tribute(int tribute_face, int level, const Table& table);

// The number of cards of `hand` above the tribute (0 for a hand that may have paid it).
inline int count_above(const Cards& hand, const Cards& above) {
  const Cards c{hand.lo & above.lo, hand.hi & above.hi};
  return c.size();
}

}  // namespace daguai
