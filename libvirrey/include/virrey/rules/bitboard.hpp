// Board geometry as a compile-time parameter, and the bit operations on the
// bitboard type each geometry uses: 64-bit words for 8x8 boards (Standard,
// Virrey), 128-bit words for 9x9 (Modern). Bit i is the square
// rank * width + file.
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include "virrey/rules/types.hpp"

namespace virrey {

__extension__ typedef unsigned __int128 u128;

template <int W, int H, class BB>
struct Geometry {
  static constexpr int width = W;
  static constexpr int height = H;
  static constexpr int squares = W * H;
  using Bitboard = BB;

  static constexpr BB one = 1;
  static constexpr BB all = squares == int(sizeof(BB) * 8) ? ~BB(0) : (one << squares) - 1;

  static constexpr BB file_mask(int file) {
    BB b = 0;
    for (int r = 0; r < H; ++r) b |= one << (r * W + file);
    return b;
  }
  static constexpr BB rank_mask(int rank) {
    BB b = 0;
    for (int f = 0; f < W; ++f) b |= one << (rank * W + f);
    return b;
  }
  static constexpr BB first_file = file_mask(0);
  static constexpr BB last_file = file_mask(W - 1);
};

using Board8 = Geometry<8, 8, std::uint64_t>;
using Board9 = Geometry<9, 9, u128>;

template <class G>
using Bitboard = typename G::Bitboard;

template <class G>
constexpr int file_of(Square s) {
  return s % G::width;
}
template <class G>
constexpr int rank_of(Square s) {
  return s / G::width;
}
template <class G>
constexpr Square make_square(int file, int rank) {
  return Square(rank * G::width + file);
}
template <class G>
constexpr bool on_board(int file, int rank) {
  return file >= 0 && file < G::width && rank >= 0 && rank < G::height;
}
// Rank counted from the given side: 0 is its own back rank.
template <class G>
constexpr int relative_rank(Color c, Square s) {
  return c == Color::White ? rank_of<G>(s) : G::height - 1 - rank_of<G>(s);
}

template <class G>
constexpr Bitboard<G> square_bb(Square s) {
  return G::one << s;
}

inline int popcount(std::uint64_t b) { return std::popcount(b); }
inline int popcount(u128 b) {
  return std::popcount(std::uint64_t(b)) + std::popcount(std::uint64_t(b >> 64));
}
inline Square lsb(std::uint64_t b) { return Square(std::countr_zero(b)); }
inline Square lsb(u128 b) {
  auto lo = std::uint64_t(b);
  return lo ? Square(std::countr_zero(lo)) : Square(64 + std::countr_zero(std::uint64_t(b >> 64)));
}
template <class BB>
inline Square pop_lsb(BB& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}
template <class BB>
constexpr bool more_than_one(BB b) {
  return (b & (b - 1)) != 0;
}

// Shifts of a whole set one step in a direction, dropping what leaves the board.
template <class G>
constexpr Bitboard<G> north(Bitboard<G> b) {
  return (b << G::width) & G::all;
}
template <class G>
constexpr Bitboard<G> south(Bitboard<G> b) {
  return b >> G::width;
}
template <class G>
constexpr Bitboard<G> east(Bitboard<G> b) {
  return (b << 1) & ~G::first_file & G::all;
}
template <class G>
constexpr Bitboard<G> west(Bitboard<G> b) {
  return (b >> 1) & ~G::last_file;
}
template <class G>
constexpr Bitboard<G> forward(Color c, Bitboard<G> b) {
  return c == Color::White ? north<G>(b) : south<G>(b);
}

// "e4"-style name of a square; files a.., ranks 1..
template <class G>
std::string square_name(Square s) {
  std::string name(1, char('a' + file_of<G>(s)));
  name += std::to_string(rank_of<G>(s) + 1);
  return name;
}

}  // namespace virrey
