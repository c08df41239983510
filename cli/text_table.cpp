#include "text_table.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "output.hpp"

namespace virrey::cli {

std::size_t display_width(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xc0) != 0x80;
  return n;
}

std::string count_of(std::uint64_t n, std::string_view noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

std::string fit_width(std::string_view s, std::size_t max) {
  if (max == 0 || display_width(s) <= max) return std::string(s);
  std::string out;
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if ((c & 0xc0) != 0x80 && ++n > max - 1) break;
    out += char(c);
  }
  return out + "…";
}

void TextTable::add(std::vector<std::string> row) {
  // Tag values that are not UTF-8 (Latin-1 files) are shown as the JSON shows them.
  for (std::string& cell : row)
    if (std::any_of(cell.begin(), cell.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
      cell = as_utf8(cell);
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
