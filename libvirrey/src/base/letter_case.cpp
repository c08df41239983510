#include "virrey/base/letter_case.hpp"

#include <algorithm>
#include <iterator>

namespace virrey {

namespace {

struct CasePair {
  char32_t capital, small;
};

constexpr CasePair kPairs[] = {
#include "letter_case_table.inc"
};

}  // namespace

char32_t small_letter(char32_t c) {
  if (c < 0x80) return c >= 'A' && c <= 'Z' ? c + 0x20 : c;
  const auto it = std::lower_bound(std::begin(kPairs), std::end(kPairs), c,
                                   [](const CasePair& p, char32_t x) { return p.capital < x; });
  return it != std::end(kPairs) && it->capital == c ? it->small : c;
}

std::vector<char32_t> letters_folding_to(char32_t small) {
  std::vector<char32_t> out;
  if (small >= 'a' && small <= 'z') out.push_back(small - 0x20);
  for (const CasePair& p : kPairs)
    if (p.small == small) out.push_back(p.capital);
  return out;  // in code point order, as the table is
}

}  // namespace virrey
