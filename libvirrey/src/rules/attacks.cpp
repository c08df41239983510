#include "virrey/rules/attacks.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <new>

#include <vector>

#include "magics8.hpp"
#include "table_memory.hpp"

namespace virrey::detail {

namespace {

using BB = std::uint64_t;

BB bit(int file, int rank) { return BB(1) << (rank * 8 + file); }

// Attacks of a slider on an empty-or-occupied board by walking its rays.
BB slide(Square s, BB occ, const int (*dirs)[2], int count = 4) {
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

constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
constexpr int kRookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

BB leaper(Square s, std::initializer_list<std::pair<int, int>> steps) {
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

// Finds a magic multiplier for each square and fills its attack table.
// The squares whose occupancy matters to a slider on s (its rays without
// the board's edge squares).
BB relevant_mask(int s, const int (*dirs)[2]) {
  BB edges = ((0xffULL | 0xff00000000000000ULL) & ~(0xffULL << (s / 8 * 8))) |
             ((0x0101010101010101ULL | 0x8080808080808080ULL) & ~(0x0101010101010101ULL << (s % 8)));
  return slide(Square(s), 0, dirs) & ~edges;
}

// Entries of the attack table of one slider kind.
std::size_t table_entries(const int (*dirs)[2]) {
  std::size_t total = 0;
  for (int s = 0; s < 64; ++s) total += std::size_t(1) << std::popcount(relevant_mask(s, dirs));
  return total;
}

// `storage` holds table_entries(dirs) zeroed entries.
void init_magics(std::array<Magic, 64>& magics, BB* storage, const int (*dirs)[2],
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

struct Built {
  AttackTables8 tables;
  BB* bishop_storage = nullptr;
  BB* rook_storage = nullptr;
};

const Built* build() {
  const std::size_t bishops = table_entries(kBishopDirs), rooks = table_entries(kRookDirs);
  const std::size_t head = (sizeof(Built) + 63) / 64 * 64;
  auto* memory = static_cast<unsigned char*>(table_memory(head + (bishops + rooks) * sizeof(BB)));
  auto* b = new (memory) Built;
  b->bishop_storage = reinterpret_cast<BB*>(memory + head);
  b->rook_storage = b->bishop_storage + bishops;
  AttackTables8& t = b->tables;
  for (int s = 0; s < 64; ++s) {
    Square sq = Square(s);
    t.pawn[0][s] = leaper(sq, {{-1, 1}, {1, 1}});
    t.pawn[1][s] = leaper(sq, {{-1, -1}, {1, -1}});
    t.knight[s] = leaper(sq, {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}});
    t.king[s] = leaper(sq, {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}});
  }
  init_magics(t.bishop_magic, b->bishop_storage, kBishopDirs, kBishopMagics);
  init_magics(t.rook_magic, b->rook_storage, kRookDirs, kRookMagics);
  for (int a = 0; a < 64; ++a) {
    for (int c = 0; c < 64; ++c) {
      t.between[a][c] = t.line[a][c] = 0;
      if (a == c) continue;
      BB ab = BB(1) << a, cb = BB(1) << c;
      for (const auto* dirs : {kBishopDirs, kRookDirs}) {
        if (slide(Square(a), 0, dirs) & cb) {
          t.line[a][c] = (slide(Square(a), 0, dirs) & slide(Square(c), 0, dirs)) | ab | cb;
          t.between[a][c] = slide(Square(a), cb, dirs) & slide(Square(c), ab, dirs);
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
