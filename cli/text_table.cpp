#include "text_table.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "virrey/base/quoted_text.hpp"
#include "virrey/base/utf8.hpp"

namespace virrey::cli {

namespace {

// The code point of the UTF-8 sequence at s[i], and its length (1 for a byte
// that starts none: terminal_text has made text UTF-8 before it is measured).
char32_t code_point(std::string_view s, std::size_t i, std::size_t& len) {
  const DecodedChar d = decode_utf8_at(s, i);
  len = d.bytes;
  return d.code;
}

struct CodeRange {
  char32_t first, last;
};

#include "display_width_table.inc"

template <std::size_t N>
bool in_ranges(const CodeRange (&ranges)[N], char32_t cp) {
  const auto* it = std::upper_bound(std::begin(ranges), std::end(ranges), cp,
                                    [](char32_t c, const CodeRange& r) { return c < r.first; });
  return it != std::begin(ranges) && cp <= std::prev(it)->last;
}

// Terminal columns of a code point, as wcwidth counts them: 0 for combining
// marks and format characters, 2 for East Asian wide and fullwidth
// characters (emoji among them), else 1.
std::size_t columns_of(char32_t cp) {
  if (cp < 0x300) return 1;
  if (in_ranges(kZeroWidth, cp)) return 0;
  return in_ranges(kDoubleWidth, cp) ? 2 : 1;
}

}  // namespace

std::string terminal_text(std::string_view s) {
  const bool plain = std::all_of(s.begin(), s.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x7f;
  });
  return plain ? std::string(s) : quoted_text(as_utf8(s), std::string_view::npos);
}

std::size_t display_width(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0, len = 0; i < s.size(); i += len) n += columns_of(code_point(s, i, len));
  return n;
}

std::string count_of(std::uint64_t n, std::string_view noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

std::string fit_width(std::string_view s, std::size_t max) {
  if (max == 0 || display_width(s) <= max) return std::string(s);
  std::string out;
  std::size_t n = 0;
  for (std::size_t i = 0, len = 0; i < s.size(); i += len) {
    n += columns_of(code_point(s, i, len));
    if (n > max - 1) break;
    out.append(s.substr(i, len));
  }
  return out + "…";
}

void TextTable::add(std::vector<std::string> row) {
  for (std::string& cell : row) cell = terminal_text(cell);
  for (std::size_t c = 0; c + 1 < row.size() && c + 1 < columns_.size(); ++c)
    if (row[c].size() > kMaxCellWidth) row[c] = fit_width(row[c], kMaxCellWidth);
  rows_.push_back(std::move(row));
}

std::string TextTable::render(std::string_view indent, bool titles) const {
  std::vector<std::size_t> w(columns_.size(), 0);
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    w[c] = std::max(columns_[c].width, titles ? display_width(columns_[c].title) : 0);
    for (const auto& row : rows_)
      if (c < row.size()) w[c] = std::max(w[c], display_width(row[c]));
  }
  std::string out;
  auto line = [&](auto cell_of) {
    std::string text(indent);
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      const std::string& cell = cell_of(c);
      const std::size_t pad = w[c] - std::min(w[c], display_width(cell));
      if (c > 0) text += separator_;
      if (columns_[c].align == Align::Right) text.append(pad, ' ');
      text += cell;
      if (columns_[c].align == Align::Left && c + 1 < columns_.size()) text.append(pad, ' ');
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text;
    out += '\n';
  };
  if (titles) line([&](std::size_t c) -> const std::string& { return columns_[c].title; });
  static const std::string empty;
  for (const auto& row : rows_)
    line([&](std::size_t c) -> const std::string& { return c < row.size() ? row[c] : empty; });
  return out;
}

std::string bar(double fraction, int width) {
  static constexpr std::string_view kEighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
  const long eighths = std::lround(std::clamp(fraction, 0.0, 1.0) * width * 8);
  std::string out;
  for (long i = 0; i < eighths / 8; ++i) out += "█";
  out += kEighths[eighths % 8];
  return out;
}

std::string stacked_bar(const std::vector<double>& shares, const std::vector<std::string_view>& glyphs,
                        int width) {
  double total = 0;
  for (double s : shares) total += s;
  std::string out;
  if (total <= 0) return out;
  double cumulative = 0;
  long drawn = 0;
  for (std::size_t i = 0; i < shares.size() && i < glyphs.size(); ++i) {
    cumulative += shares[i];
    const long upto = std::lround(cumulative / total * width);
    for (; drawn < upto; ++drawn) out += glyphs[i];
  }
  return out;
}

}  // namespace virrey::cli
