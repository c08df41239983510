#include "virrey/base/quoted_text.hpp"

#include <fmt/format.h>

#include "virrey/base/utf8.hpp"

namespace virrey {

namespace {

// The bidirectional embeddings, overrides and isolates (U+202A..U+202E,
// U+2066..U+2069): shown, they would turn the rest of a terminal's line
// around, so a name could read as another.
bool turns_text_around(char32_t c) { return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069); }

// Length of the well-formed UTF-8 sequence at text[i] that is neither a C1
// control character nor one that turns text around, or 0.
std::size_t printable_sequence(std::string_view text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  const std::size_t n = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  if (control_length(text, i)) return 0;
  if (first_invalid_utf8(text.substr(i, n)) != std::string_view::npos) return 0;
  return turns_text_around(decode_utf8_at(text, i).code) ? 0 : n;
}

}  // namespace

std::string quoted_text(std::string_view text, std::size_t max_bytes) {
  const std::string_view shown = text.substr(0, max_bytes);
  std::string out;
  out.reserve(shown.size() + 16);
  for (std::size_t i = 0; i < shown.size();) {
    const auto c = static_cast<unsigned char>(shown[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
      ++i;
    } else if (const std::size_t n = c >= 0x80 ? printable_sequence(shown, i) : 0) {
      out.append(shown.substr(i, n));
      i += n;
    } else {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    }
  }
  if (text.size() > shown.size()) out += fmt::format("... ({} bytes)", text.size());
  return out;
}

}  // namespace virrey
