#include "virrey/base/letter_case.hpp"

#include <algorithm>
#include <array>

namespace virrey {

namespace {

// A run of capitals and where their small forms are: `alternate` runs pair
// each capital (first, first + 2, ...) with the code point after it; the
// others shift every code point of the run by `shift`.
struct CaseRun {
  char32_t first, last;
  int shift;
  bool alternate;
};

constexpr std::array<CaseRun, 32> kRuns = {{
    // Latin Extended-A (U+0130, the dotted capital I, left out).
    {0x0100, 0x012e, 1, true},
    {0x0132, 0x0136, 1, true},
    {0x0139, 0x0147, 1, true},
    {0x014a, 0x0176, 1, true},
    {0x0178, 0x0178, 0x00ff - 0x0178, false},  // Ÿ -> ÿ
    {0x0179, 0x017d, 1, true},
    // Latin Extended-B: the Vietnamese horned letters, the caron and
    // comma-below letters (Romanian ș ț), Livonian and the like.
    {0x01a0, 0x01a4, 1, true},
    {0x01af, 0x01af, 1, false},
    {0x01cd, 0x01db, 1, true},
    {0x01de, 0x01ee, 1, true},
    {0x01f8, 0x021e, 1, true},
    {0x0222, 0x0232, 1, true},
    // Greek.
    {0x0386, 0x0386, 0x03ac - 0x0386, false},
    {0x0388, 0x038a, 0x03ad - 0x0388, false},
    {0x038c, 0x038c, 0x03cc - 0x038c, false},
    {0x038e, 0x038f, 0x03cd - 0x038e, false},
    {0x0391, 0x03a1, 0x20, false},
    {0x03a3, 0x03ab, 0x20, false},
    {0x03c2, 0x03c2, 1, false},  // final sigma -> sigma
    // Cyrillic.
    {0x0400, 0x040f, 0x50, false},
    {0x0410, 0x042f, 0x20, false},
    {0x0460, 0x0480, 1, true},
    {0x048a, 0x04be, 1, true},
    {0x04c0, 0x04c0, 0x04cf - 0x04c0, false},
    {0x04c1, 0x04cd, 1, true},
    {0x04d0, 0x052e, 1, true},
    // Armenian.
    {0x0531, 0x0556, 0x30, false},
    // Latin Extended Additional (Vietnamese, Welsh ...).
    {0x1e00, 0x1e94, 1, true},
    {0x1ea0, 0x1efe, 1, true},
    // Latin-1's capitals (U+00C0..U+00DE but ×), for completeness of the table.
    {0x00c0, 0x00d6, 0x20, false},
    {0x00d8, 0x00de, 0x20, false},
    // ASCII.
    {0x0041, 0x005a, 0x20, false},
}};

bool in_run(const CaseRun& r, char32_t c) {
  return c >= r.first && c <= r.last && (!r.alternate || (c - r.first) % 2 == 0);
}

}  // namespace

char32_t small_letter(char32_t c) {
  if (c < 0x41) return c;
  for (const CaseRun& r : kRuns)
    if (in_run(r, c)) return char32_t(int(c) + r.shift);
  return c;
}

std::vector<char32_t> letters_folding_to(char32_t small) {
  std::vector<char32_t> out;
  for (const CaseRun& r : kRuns) {
    const int from = int(small) - r.shift;
    if (from > 0 && char32_t(from) != small && in_run(r, char32_t(from))) out.push_back(char32_t(from));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace virrey
