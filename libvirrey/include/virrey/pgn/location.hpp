// Location: where a byte sits in an input, as people count it. Lines and
// columns are 1-based; columns count bytes (not characters) from the start of
// the line. A line ends at LF, CRLF or a lone CR. A UTF-8 byte-order mark at
// the start of a line is not counted as columns.
#pragma once

#include <compare>
#include <cstdint>

namespace virrey::pgn {

struct Location {
  std::uint64_t line = 1;
  std::uint64_t column = 1;

  friend constexpr bool operator==(Location, Location) = default;
  // In reading order: by line, then column.
  friend constexpr auto operator<=>(Location, Location) = default;
};

}  // namespace virrey::pgn
