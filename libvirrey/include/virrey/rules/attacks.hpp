// Attack sets of every piece kind for each board geometry, and the line and between tables used
// for pins and checks. 8x8 sliders use magic bitboards, their tables made when virrey is built and
// compiled in (src/rules/slider_tables.hpp); the other tables are filled when the program starts.
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

// 9x9 boards: no magics for 128-bit words; sliders scan precomputed rays and
// stop at the first blocker (lowest bit on rising rays, highest on falling).
struct AttackTables9 {
  static constexpr int kSquares = 81;
  std::array<std::array<u128, kSquares>, 2> pawn;
  std::array<u128, kSquares> knight;
  std::array<u128, kSquares> king;
  // Rays by direction: 0-3 rise (N, E, NE, NW), 4-7 fall (S, W, SW, SE).
  std::array<std::array<u128, kSquares>, 8> ray;
  std::array<std::array<u128, kSquares>, kSquares> between;
  std::array<std::array<u128, kSquares>, kSquares> line;
};

extern const AttackTables9& kTables9;

inline Square msb(u128 b) {
  auto hi = std::uint64_t(b >> 64);
  return hi ? Square(127 - std::countl_zero(hi)) : Square(63 - std::countl_zero(std::uint64_t(b)));
}

template <int Dir>
inline u128 ray_attacks9(Square s, u128 occ) {
  const u128 ray = kTables9.ray[Dir][s];
  const u128 blockers = ray & occ;
  if (!blockers) return ray;
  const Square first = Dir < 4 ? lsb(blockers) : msb(blockers);
  return ray ^ kTables9.ray[Dir][first];
}

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

template <>
struct Attacks<Board9> {
  using BB = u128;
  static BB pawn(Color c, Square s) { return detail::kTables9.pawn[index(c)][s]; }
  static BB knight(Square s) { return detail::kTables9.knight[s]; }
  static BB king(Square s) { return detail::kTables9.king[s]; }
  static BB bishop(Square s, BB occ) {
    using detail::ray_attacks9;
    return ray_attacks9<2>(s, occ) | ray_attacks9<3>(s, occ) | ray_attacks9<6>(s, occ) |
           ray_attacks9<7>(s, occ);
  }
  static BB rook(Square s, BB occ) {
    using detail::ray_attacks9;
    return ray_attacks9<0>(s, occ) | ray_attacks9<1>(s, occ) | ray_attacks9<4>(s, occ) |
           ray_attacks9<5>(s, occ);
  }
  static BB queen(Square s, BB occ) { return bishop(s, occ) | rook(s, occ); }
  static BB between(Square a, Square b) { return detail::kTables9.between[a][b]; }
  static BB line(Square a, Square b) { return detail::kTables9.line[a][b]; }
};

// What a piece of a type attacks from a square, given the board's occupancy
// (a pawn's captures, of colour c; the king and the viceroy step alike).
template <class G>
inline Bitboard<G> piece_attacks(PieceType pt, Color c, Square s, Bitboard<G> occ) {
  using A = Attacks<G>;
  switch (pt) {
    case PieceType::Pawn: return A::pawn(c, s);
    case PieceType::Knight: return A::knight(s);
    case PieceType::Bishop: return A::bishop(s, occ);
    case PieceType::Rook: return A::rook(s, occ);
    case PieceType::Queen: return A::queen(s, occ);
    case PieceType::Minister: return A::bishop(s, occ) | A::knight(s);
    case PieceType::King:
    case PieceType::Viceroy: return A::king(s);
    default: return 0;
  }
}

}  // namespace virrey
