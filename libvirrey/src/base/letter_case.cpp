#include "virrey/base/letter_case.hpp"

#include <algorithm>
#include <iterator>

#include "virrey/base/utf8.hpp"

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

std::string folded_text(std::string_view value) {
  // NUL bytes go first: the bytes either side of one may make a letter.
  if (value.find('\0') != std::string_view::npos) {
    std::string without(value);
    std::erase(without, '\0');
    return folded_text(without);
  }
  // Never longer than the value (a space stands for at least one blank), so
  // it is written in place: an append per character cost more than the rest.
  std::string out(value.size(), '\0');
  char* const begin = out.data();
  char* o = begin;
  bool blank = false;
  for (std::size_t i = 0; i < value.size(); ++i) {
    auto c = static_cast<unsigned char>(value[i]);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      blank = true;
      continue;
    }
    if (blank && o != begin) *o++ = ' ';
    blank = false;
    if (c < 0x80) {
      *o++ = char(c >= 'A' && c <= 'Z' ? c | 0x20 : c);
      continue;
    }
    // A capital beyond ASCII to its small form, never longer in UTF-8.
    const DecodedChar d = decode_utf8_at(value, i);
    if (d.bytes == 1) {
      *o++ = char(c);
      continue;
    }
    o += encode_utf8(small_letter(d.code), o);
    i += d.bytes - 1;
  }
  out.resize(std::size_t(o - begin));
  return out;
}

}  // namespace virrey
