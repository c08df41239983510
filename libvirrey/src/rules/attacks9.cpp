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
  // Walk each ray from a: every square on it gets the squares walked over so
  // far, and the whole line through a. (The memory is zeroed: squares on no
  // common line keep 0.)
  for (int a = 0; a < 81; ++a)
    for (int d = 0; d < 8; ++d) {
      const u128 line = t->ray[d][a] | t->ray[(d + 4) % 8][a] | (u128(1) << a);
      u128 between = 0;
      for (int f = a % kW + kDirs[d][0], r = a / kW + kDirs[d][1]; inside(f, r);
           f += kDirs[d][0], r += kDirs[d][1]) {
        t->between[a][r * kW + f] = between;
        t->line[a][r * kW + f] = line;
        between |= bit(f, r);
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
