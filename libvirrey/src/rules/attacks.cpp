#include "virrey/rules/attacks.hpp"

#include <array>
#include <cstdint>
#include <new>

#include "slider_magics.hpp"
#include "slider_tables.hpp"
#include "table_memory.hpp"

namespace virrey::detail {

namespace {

using slider::BB;
using slider::bit;
using slider::kBishopDirs;
using slider::kRookDirs;
using slider::leaper;
using slider::slide;

struct Built {
  AttackTables8 tables;
};

void point_at(std::array<Magic, 64>& magics, const SliderSquare* squares, const std::uint64_t* attacks) {
  for (int s = 0; s < 64; ++s)
    magics[s] = Magic{squares[s].mask, squares[s].magic, attacks + squares[s].offset, squares[s].shift};
}

const Built* build() {
  auto* b = new (table_memory(sizeof(Built))) Built;
  AttackTables8& t = b->tables;
  for (int s = 0; s < 64; ++s) {
    Square sq = Square(s);
    t.pawn[0][s] = leaper(sq, {{-1, 1}, {1, 1}});
    t.pawn[1][s] = leaper(sq, {{-1, -1}, {1, -1}});
    t.knight[s] = leaper(sq, {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}});
    t.king[s] = leaper(sq, {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}});
  }
  point_at(t.bishop_magic, kBishopSquares, kBishopAttacks);
  point_at(t.rook_magic, kRookSquares, kRookAttacks);
  // Walk each of the eight rays from a: every square c on it gets the squares
  // walked over so far, and the whole line through a (both ways).
  // (The memory is zeroed: squares on no common line keep 0.)
  for (int a = 0; a < 64; ++a) {
    for (const auto* dirs : {kBishopDirs, kRookDirs}) {
      for (int d = 0; d < 4; ++d) {
        const int df = dirs[d][0], dr = dirs[d][1];
        const int back[1][2] = {{-df, -dr}};
        const BB line = slide(Square(a), 0, dirs + d, 1) | slide(Square(a), 0, back, 1) | BB(1) << a;
        BB between = 0;
        for (int f = a % 8 + df, r = a / 8 + dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
          t.between[a][r * 8 + f] = between;
          t.line[a][r * 8 + f] = line;
          between |= bit(f, r);
        }
      }
    }
  }
  return b;
}

const Built& built() {
  static const Built* const instance = build();  // never freed: used until exit
  return *instance;
}

}  // namespace

const AttackTables8& kTables8 = built().tables;

}  // namespace virrey::detail
