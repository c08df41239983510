// Text for people: aligned tables and Unicode bars, shared by the writers of
// cli/ (JSON and CSV are in output.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace virrey::cli {

// Text as a terminal is to show it, the one way every text output writes
// what it read: bytes that are not UTF-8 as their Windows-1252 characters
// (as_utf8), control characters (C0, DEL and C1, tabs and line breaks among
// them) written \xNN as messages quote them (quoted_text), so that no tag
// value moves the cursor, rings or changes colours.
std::string terminal_text(std::string_view s);

// Display width of UTF-8 text in terminal columns: a code point each, East
// Asian wide characters two, combining marks none.
std::size_t display_width(std::string_view s);
// At most `max` columns (0: no limit), the last one an ellipsis when cut.
std::string fit_width(std::string_view s, std::size_t max);

// "1 game", "2 games": a count and its noun (plural with an s).
std::string count_of(std::uint64_t n, std::string_view noun);

// Columns are separated by two spaces (or `separator`); numbers are
// right-aligned. A column is as wide as its widest cell, at least `width`.
// The last column is not padded; trailing spaces are dropped. A cell of
// another column is cut to kMaxCellWidth code points (an ellipsis last):
// one long tag value would otherwise pad every row to its width.
class TextTable {
 public:
  enum class Align : bool { Left, Right };
  struct Column {
    std::string title;
    Align align = Align::Right;
    std::size_t width = 0;
  };
  explicit TextTable(std::vector<Column> columns, std::string_view separator = "  ")
      : columns_(std::move(columns)), separator_(separator) {}
  static constexpr std::size_t kMaxCellWidth = 60;
  void add(std::vector<std::string> row);
  // Every line starts with `indent` and ends with '\n'.
  std::string render(std::string_view indent = "") const { return render(indent, true); }
  // The rows without the title line (nor its widths).
  std::string render_rows(std::string_view indent = "") const { return render(indent, false); }

 private:
  std::string render(std::string_view indent, bool titles) const;
  std::vector<Column> columns_;
  std::string separator_;
  std::vector<std::vector<std::string>> rows_;
};

// A horizontal bar of fraction (0..1) of `width` cells, in eighths of a cell.
std::string bar(double fraction, int width);
// A bar of `width` cells split among shares drawn with the given glyphs (one
// code point each); rounding keeps the total width.
std::string stacked_bar(const std::vector<double>& shares, const std::vector<std::string_view>& glyphs,
                        int width);

}  // namespace virrey::cli
