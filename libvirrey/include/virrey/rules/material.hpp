// A material signature: how many men of each type each side has, kings
// included, packed in one 64-bit key (4 bits a count, saturating at 15).
// Frozen: the material index stores these keys. Nibble (type - 1) of the low
// 32 bits holds White's count of that type, of the high 32 bits Black's, so
// the types are P N B R Q K V M from the lowest nibble up.
#pragma once

#include <cstdint>
#include <string>

#include "virrey/rules/bitboard.hpp"
#include "virrey/rules/position.hpp"
#include "virrey/rules/types.hpp"

namespace virrey {

class Material {
 public:
  static constexpr int kMaxCount = 15;

  constexpr Material() = default;
  constexpr explicit Material(std::uint64_t key) : key_(key) {}

  constexpr std::uint64_t key() const { return key_; }
  constexpr int count(Color c, PieceType pt) const { return int(key_ >> shift(c, pt) & 0xf); }
  // Sets a count, saturating at kMaxCount (a set-up position may hold more).
  constexpr void set(Color c, PieceType pt, int n) {
    const std::uint64_t v = std::uint64_t(n < 0 ? 0 : n > kMaxCount ? kMaxCount : n);
    key_ = (key_ & ~(std::uint64_t(0xf) << shift(c, pt))) | v << shift(c, pt);
  }
  // The men of one side, king included.
  constexpr int men(Color c) const {
    int n = 0;
    for (int t = 1; t < kPieceTypeCount; ++t) n += count(c, PieceType(t));
    return n;
  }
  constexpr int men() const { return men(Color::White) + men(Color::Black); }
  // White's men become Black's and the other way round.
  constexpr Material flipped() const { return Material(key_ >> 32 | key_ << 32); }
  friend constexpr bool operator==(Material, Material) = default;

  // The plain form: White's men, a dash, Black's, strongest first ("KQVPP-KR").
  std::string to_string() const {
    std::string s;
    for (Color c : {Color::White, Color::Black}) {
      if (c == Color::Black) s += '-';
      for (PieceType pt : kWriteOrder)
        for (int i = 0; i < count(c, pt); ++i) s += piece_letter(pt);
    }
    return s;
  }

  // The order the plain form writes piece types in.
  static constexpr PieceType kWriteOrder[8] = {PieceType::King,   PieceType::Queen,  PieceType::Minister,
                                               PieceType::Viceroy, PieceType::Rook,   PieceType::Bishop,
                                               PieceType::Knight, PieceType::Pawn};

 private:
  static constexpr int shift(Color c, PieceType pt) { return index(c) * 32 + (index(pt) - 1) * 4; }
  std::uint64_t key_ = 0;
};

// A box of balances: for each side and piece type, the least and the most
// men of that type (kings included).
struct MaterialBounds {
  std::uint8_t lo[2][kPieceTypeCount]{};
  std::uint8_t hi[2][kPieceTypeCount]{};

  MaterialBounds() {
    for (auto& side : hi)
      for (auto& n : side) n = Material::kMaxCount;
  }
  bool contains(Material m) const {
    for (Color c : {Color::White, Color::Black})
      for (int t = 1; t < kPieceTypeCount; ++t) {
        const int n = m.count(c, PieceType(t));
        if (n < lo[index(c)][t] || n > hi[index(c)][t]) return false;
      }
    return true;
  }
  // The same box with White's and Black's bounds swapped.
  MaterialBounds flipped() const {
    MaterialBounds b;
    for (int t = 0; t < kPieceTypeCount; ++t)
      for (int side = 0; side < 2; ++side) {
        b.lo[side][t] = lo[1 - side][t];
        b.hi[side][t] = hi[1 - side][t];
      }
    return b;
  }
};

// The material of a position.
template <class G>
Material material_of(const Position<G>& p) {
  Material m;
  for (Color c : {Color::White, Color::Black})
    for (int t = 1; t < kPieceTypeCount; ++t) m.set(c, PieceType(t), popcount(p.pieces(c, PieceType(t))));
  return m;
}

}  // namespace virrey
