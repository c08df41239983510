// OpeningBook: the positions an ECO file names, by the Zobrist hash of each
// variant's position, for naming games' openings by position (classify.hpp).
//
// Two formats are read, told apart entry by entry:
//   pgn-extract's eco.pgn: games whose tags name the opening ([ECO "D37"],
//     [Opening "..."], [Variation "..."], [SubVariation "..."], optionally
//     [Variant "Modern"]) and whose moves are the line, ended by a result;
//     { } and ; comments. The name is "Opening: Variation, SubVariation".
//   Scid's .eco: `CODE "Name" moves *` entries (CODE as "A00", "D37a",
//     "E99c2"), free over lines, # comments to the end of a line.
// Moves are SAN with optional move numbers ("1.d4", "1...d5", "1. d4").
// A line of standard chess names the position in Virrey chess too (the start
// positions are the same; no opening line promotes); Modern lines need a
// [Variant "Modern"] tag. When two lines reach one position, the first in the
// file names it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "virrey/base/error.hpp"
#include "virrey/rules/variant.hpp"
#include "virrey/store/openings.hpp"

namespace virrey::query {

struct OpeningBook {
  std::string source;  // for people: "eco.pgn (2014 lines)"
  std::size_t lines = 0;
  std::vector<store::NamedPosition> positions;  // one per (variant, hash), in file order
  // Per variant: hash -> index into positions.
  std::array<std::unordered_map<std::uint64_t, std::size_t>, kVariantCount> by_hash;
  // Per variant: the fewest men of a named position (0: the variant has none).
  std::array<int, kVariantCount> fewest_men{};

  const store::NamedPosition* find(Variant v, std::uint64_t hash) const {
    const auto& m = by_hash[std::size_t(v)];
    auto it = m.find(hash);
    return it == m.end() ? nullptr : &positions[it->second];
  }
};

// The name of an opening as pgn-extract's tags give it: "Opening", then
// ": Variation", then ", SubVariation" (the parts that are not empty).
std::string join_opening_name(std::string_view opening, std::string_view variation,
                              std::string_view subvariation);

// Parses an ECO file's text; `file` names it in errors, which are
// InvalidArgument errors located as "file:line:column: what".
Result<OpeningBook> parse_opening_book(std::string_view text, std::string_view file);
// Reads and parses a file (Io errors when it cannot be read).
Result<OpeningBook> load_opening_book(const std::string& path);

}  // namespace virrey::query
