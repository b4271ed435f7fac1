#include <daguai/game/tribute_facts.hpp>

namespace daguai {

Cards cards_above_tribute(int tribute_face, int level, const Table& table) {
  const int paid = face_power(tribute_face, level);
  const int faces = table.joker_tribute ? kNumFaces : kNumNatural;  // R18: naturals at 4p2d
  Cards above;
  for (int f = 0; f < faces; ++f)
    if (face_power(f, level) > paid) above.add(f, 3);  // both count bits: a mask of the face
  return above;
}

}  // namespace daguai
