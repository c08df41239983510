// Attack sets of every piece kind for each board geometry, and the line and
// between tables used for pins and checks. 8x8 sliders use magic bitboards;
// the tables are built once, when the program starts.
#pragma once

#include <array>
#include <cstdint>

#include "virrey/rules/bitboard.hpp"

namespace virrey {

namespace detail {

struct Magic {
  std::uint64_t mask;
  std::uint64_t magic;
  const std::uint64_t* table;
  unsigned shift;
  std::size_t index(std::uint64_t occ) const { return ((occ & mask) * magic) >> shift; }
};

struct AttackTables8 {
  std::array<std::array<std::uint64_t, 64>, 2> pawn;
  std::array<std::uint64_t, 64> knight;
  std::array<std::uint64_t, 64> king;
  std::array<Magic, 64> bishop_magic;
  std::array<Magic, 64> rook_magic;
  std::array<std::array<std::uint64_t, 64>, 64> between;  // squares strictly between, on a line
  std::array<std::array<std::uint64_t, 64>, 64> line;     // the whole line through both, or 0
};

extern const AttackTables8& kTables8;

}  // namespace detail

template <class G>
struct Attacks;

template <>
struct Attacks<Board8> {
  using BB = std::uint64_t;
  static BB pawn(Color c, Square s) { return detail::kTables8.pawn[index(c)][s]; }
  static BB knight(Square s) { return detail::kTables8.knight[s]; }
  static BB king(Square s) { return detail::kTables8.king[s]; }
  static BB bishop(Square s, BB occ) {
    const auto& m = detail::kTables8.bishop_magic[s];
    return m.table[m.index(occ)];
  }
  static BB rook(Square s, BB occ) {
    const auto& m = detail::kTables8.rook_magic[s];
    return m.table[m.index(occ)];
  }
  static BB queen(Square s, BB occ) { return bishop(s, occ) | rook(s, occ); }
  static BB between(Square a, Square b) { return detail::kTables8.between[a][b]; }
  static BB line(Square a, Square b) { return detail::kTables8.line[a][b]; }
};

}  // namespace virrey
