#include <new>

#include "table_memory.hpp"
#include "virrey/rules/attacks.hpp"

namespace virrey::detail {

namespace {

constexpr int kW = 9;
// Rising directions first (the square index grows along them), as the
// ray table's comment in attacks.hpp says.
constexpr int kDirs[8][2] = {{0, 1}, {1, 0}, {1, 1}, {-1, 1}, {0, -1}, {-1, 0}, {-1, -1}, {1, -1}};

u128 bit(int file, int rank) { return u128(1) << (rank * kW + file); }
bool inside(int f, int r) { return f >= 0 && f < kW && r >= 0 && r < kW; }

u128 leaper(int s, std::initializer_list<std::pair<int, int>> steps) {
  u128 out = 0;
  for (auto [df, dr] : steps)
    if (inside(s % kW + df, s / kW + dr)) out |= bit(s % kW + df, s / kW + dr);
  return out;
}

const AttackTables9* build() {
  auto* t = new (table_memory(sizeof(AttackTables9))) AttackTables9;
  for (int s = 0; s < 81; ++s) {
    t->pawn[0][s] = leaper(s, {{-1, 1}, {1, 1}});
    t->pawn[1][s] = leaper(s, {{-1, -1}, {1, -1}});
    t->knight[s] = leaper(s, {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}});
    t->king[s] = leaper(s, {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}});
    for (int d = 0; d < 8; ++d) {
      u128 ray = 0;
      for (int f = s % kW + kDirs[d][0], r = s / kW + kDirs[d][1]; inside(f, r);
           f += kDirs[d][0], r += kDirs[d][1])
        ray |= bit(f, r);
      t->ray[d][s] = ray;
    }
  }
  for (int a = 0; a < 81; ++a)
    for (int b = 0; b < 81; ++b) {
      t->between[a][b] = t->line[a][b] = 0;
      for (int d = 0; d < 8 && a != b; ++d) {
        if (!(t->ray[d][a] & (u128(1) << b))) continue;
        const int back = (d + 4) % 8;
        t->between[a][b] = t->ray[d][a] & t->ray[back][b];
        t->line[a][b] = t->ray[d][a] | t->ray[back][a] | (u128(1) << a);
      }
    }
  return t;
}

const AttackTables9& built() {
  static const AttackTables9* const tables = build();  // never freed: used until exit
  return *tables;
}

}  // namespace

const AttackTables9& kTables9 = built();

}  // namespace virrey::detail
