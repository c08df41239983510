// Text for people: aligned tables and Unicode bars, shared by the writers of
// cli/ (JSON and CSV are in output.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace virrey::cli {

// Display width of UTF-8 text: its code points.
std::size_t display_width(std::string_view s);

// Columns are separated by two spaces; numbers are right-aligned. The last
// column is not padded.
class TextTable {
 public:
  enum class Align : bool { Left, Right };
  struct Column {
    std::string title;
    Align align = Align::Right;
  };
  explicit TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // Every line starts with `indent` and ends with '\n'.
  std::string render(std::string_view indent = "") const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// A horizontal bar of fraction (0..1) of `width` cells, in eighths of a cell.
std::string bar(double fraction, int width);
// A bar of `width` cells split among shares drawn with the given glyphs (one
// code point each); rounding keeps the total width.
std::string stacked_bar(const std::vector<double>& shares, const std::vector<std::string_view>& glyphs,
                        int width);

}  // namespace virrey::cli
