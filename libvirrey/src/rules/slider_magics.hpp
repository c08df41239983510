// How the 8x8 slider attack tables are made: the squares that matter to a
// slider, its attacks by walking rays, and magic multipliers that map every
// occupancy of those squares to a slot of the table. The tables are made once,
// when virrey is built (tools/gen_slider_tables.cpp), and compiled in as
// constants (slider_tables.hpp); start-up only points at them.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "virrey/rules/attacks.hpp"

namespace virrey::detail::slider {

using BB = std::uint64_t;

inline BB bit(int file, int rank) { return BB(1) << (rank * 8 + file); }

// Attacks of a slider on an empty-or-occupied board by walking its rays.
inline BB slide(Square s, BB occ, const int (*dirs)[2], int count = 4) {
  BB out = 0;
  for (int d = 0; d < count; ++d) {
    int f = s % 8 + dirs[d][0], r = s / 8 + dirs[d][1];
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      out |= bit(f, r);
      if (occ & bit(f, r)) break;
      f += dirs[d][0];
      r += dirs[d][1];
    }
  }
  return out;
}

inline constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
inline constexpr int kRookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

inline BB leaper(Square s, std::initializer_list<std::pair<int, int>> steps) {
  BB out = 0;
  for (auto [df, dr] : steps) {
    int f = s % 8 + df, r = s / 8 + dr;
    if (f >= 0 && f < 8 && r >= 0 && r < 8) out |= bit(f, r);
  }
  return out;
}

// xorshift64*: a fixed seed makes the magic search, and so the tables, the
// same on every run.
struct Prng {
  BB s;
  BB next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
  BB sparse() { return next() & next() & next(); }
};

// The squares whose occupancy matters to a slider on s (its rays without
// the board's edge squares).
inline BB relevant_mask(int s, const int (*dirs)[2]) {
  BB edges = ((0xffULL | 0xff00000000000000ULL) & ~(0xffULL << (s / 8 * 8))) |
             ((0x0101010101010101ULL | 0x8080808080808080ULL) & ~(0x0101010101010101ULL << (s % 8)));
  return slide(Square(s), 0, dirs) & ~edges;
}

// Entries of the attack table of one slider kind.
inline std::size_t table_entries(const int (*dirs)[2]) {
  std::size_t total = 0;
  for (int s = 0; s < 64; ++s) total += std::size_t(1) << std::popcount(relevant_mask(s, dirs));
  return total;
}

// Gives each square its magic multiplier and fills its attack table: the
// known multiplier when it works, else one searched for. `storage` holds
// table_entries(dirs) zeroed entries.
inline void init_magics(std::array<Magic, 64>& magics, BB* storage, const int (*dirs)[2],
                        const std::array<BB, 64>& known) {
  std::array<BB, 64> masks{};
  for (int s = 0; s < 64; ++s) masks[s] = relevant_mask(s, dirs);
  Prng prng{0x9e3779b97f4a7c15ULL};
  std::vector<BB> occupancy, reference;  // the search's scratch: allocated only if it runs
  std::vector<int> epoch;
  int attempt = 0;
  std::size_t offset = 0;
  for (int s = 0; s < 64; ++s) {
    Magic& m = magics[s];
    m.mask = masks[s];
    int bits = std::popcount(m.mask);
    m.shift = 64 - bits;
    m.table = storage + offset;
    BB* table = storage + offset;
    // The known magic fills the table straight away, from the rays: a slot
    // hit twice with different attacks (never, for a good magic) sends the
    // square to the search below.
    std::array<BB, 4> rays{};
    for (int d = 0; d < 4; ++d) rays[d] = slide(Square(s), 0, dirs + d, 1);
    auto attacks = [&](BB occ) {
      BB out = 0;
      for (int d = 0; d < 4; ++d) {
        BB ray = rays[d], blockers = ray & occ;
        if (blockers) {
          const bool upward = dirs[d][1] > 0 || (dirs[d][1] == 0 && dirs[d][0] > 0);
          const int first = upward ? std::countr_zero(blockers) : 63 - std::countl_zero(blockers);
          ray &= upward ? (BB(2) << first) - 1 : ~((BB(1) << first) - 1);
        }
        out |= ray;
      }
      return out;
    };
    m.magic = known[s];
    bool good = true;
    BB sub = 0;
    do {  // Carry-Rippler enumeration of every subset of the mask.
      BB& slot = table[m.index(sub)];
      const BB a = attacks(sub);
      if (slot != 0 && slot != a) good = false;
      slot = a;
      sub = (sub - m.mask) & m.mask;
    } while (sub && good);
    if (good) {
      offset += std::size_t(1) << bits;
      continue;
    }
    occupancy.resize(4096);
    reference.resize(4096);
    epoch.resize(4096, 0);
    int size = 0;
    sub = 0;
    do {
      occupancy[size] = sub;
      reference[size] = attacks(sub);
      ++size;
      sub = (sub - m.mask) & m.mask;
    } while (sub);
    for (bool first = true;; first = false) {
      if (first) {
        m.magic = known[s];
      } else {
        do m.magic = prng.sparse();
        while (std::popcount((m.magic * m.mask) >> 56) < 6);
      }
      ++attempt;
      bool ok = true;
      for (int i = 0; i < size && ok; ++i) {
        std::size_t idx = m.index(occupancy[i]);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          table[idx] = reference[i];
        } else if (table[idx] != reference[i]) {
          ok = false;
        }
      }
      if (ok) break;
    }
    offset += std::size_t(1) << bits;
  }
}

}  // namespace virrey::detail::slider
