#include "virrey/base/utf8.hpp"

#include <cstdint>
#include <cstring>

namespace virrey {

std::size_t first_invalid_utf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    // Fast path: eight ASCII bytes at a time.
    if (i + 8 <= n) {
      std::uint64_t word;
      std::memcpy(&word, s + i, 8);
      if ((word & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    const unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len;
    unsigned char lo = 0x80, hi = 0xbf;  // allowed range of the second byte
    if (c >= 0xc2 && c <= 0xdf) {
      len = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
      len = 3;
      if (c == 0xe0)
        lo = 0xa0;  // no overlong forms
      else if (c == 0xed)
        hi = 0x9f;  // no surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      len = 4;
      if (c == 0xf0)
        lo = 0x90;  // no overlong forms
      else if (c == 0xf4)
        hi = 0x8f;  // nothing above U+10FFFF
    } else {
      return i;
    }
    if (i + len > n) return i;
    if (s[i + 1] < lo || s[i + 1] > hi) return i;
    for (std::size_t k = 2; k < len; ++k)
      if ((s[i + k] & 0xc0) != 0x80) return i;
    i += len;
  }
  return std::string_view::npos;
}

std::size_t control_length(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x20 || c == 0x7f) return 1;
  const bool c1 = c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xa0;
  return c1 ? 2 : 0;
}

std::string controls_as_spaces(std::string text) {
  for (std::size_t i = 0; i < text.size(); ++i)
    if (const std::size_t n = control_length(text, i)) text.replace(i, n, " ");
  return text;
}

namespace {

// Windows-1252's characters for the bytes 0x80..0x9F, where it differs from
// Latin-1 (the five bytes it leaves undefined stay Latin-1's C1 controls).
constexpr char16_t kWindows1252[32] = {0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
                                       0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d, 0x017d, 0x008f,
                                       0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
                                       0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178};

void append_code_point(std::string& out, char32_t cp) {
  char bytes[4];
  out.append(bytes, encode_utf8(cp, bytes));
}

}  // namespace

DecodedChar decode_utf8_at(std::string_view text, std::size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  const std::size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
  if (len == 1 || i + len > text.size() || first_invalid_utf8(text.substr(i, len)) != std::string_view::npos)
    return {c, 1};
  char32_t cp = c & (0x7f >> len);
  for (std::size_t k = 1; k < len; ++k) cp = cp << 6 | (static_cast<unsigned char>(text[i + k]) & 0x3f);
  return {cp, len};
}

std::size_t encode_utf8(char32_t c, char* out) {
  if (c < 0x80) {
    out[0] = char(c);
    return 1;
  }
  if (c < 0x800) {
    out[0] = char(0xc0 | (c >> 6));
    out[1] = char(0x80 | (c & 0x3f));
    return 2;
  }
  if (c < 0x10000) {
    out[0] = char(0xe0 | (c >> 12));
    out[1] = char(0x80 | ((c >> 6) & 0x3f));
    out[2] = char(0x80 | (c & 0x3f));
    return 3;
  }
  out[0] = char(0xf0 | (c >> 18));
  out[1] = char(0x80 | ((c >> 12) & 0x3f));
  out[2] = char(0x80 | ((c >> 6) & 0x3f));
  out[3] = char(0x80 | (c & 0x3f));
  return 4;
}

std::string as_utf8(std::string_view s) {
  if (first_invalid_utf8(s) == std::string_view::npos) return std::string(s);
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out += char(c);
      continue;
    }
    const std::size_t len = c >= 0xf0 && c < 0xf5   ? 4
                            : c >= 0xe0 && c < 0xf0 ? 3
                            : c >= 0xc2 && c < 0xe0 ? 2
                                                    : 0;
    // Well-formed as first_invalid_utf8 judges: no overlong form, surrogate
    // or code point above U+10FFFF passes as UTF-8.
    const bool ok =
        len > 0 && i + len <= s.size() && first_invalid_utf8(s.substr(i, len)) == std::string_view::npos;
    if (ok) {
      out.append(s.substr(i, len));
      i += len - 1;
    } else {
      append_code_point(out, c < 0xa0 ? kWindows1252[c - 0x80] : char32_t(c));
    }
  }
  return out;
}

bool is_text_as_read(std::string_view text) {
  if (!is_utf8(text)) return false;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (control_length(text, i)) return false;
  return true;
}

std::string text_as_read(std::string_view text) { return controls_as_spaces(as_utf8(text)); }

}  // namespace virrey
