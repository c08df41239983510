// What `db classify` stores: each game's opening as an ECO file names it, and
// the positions that file names (so that the opening explorer can name them).
//
// A value is: the ply where the position occurs (2, big-endian; in the game
// for a game's opening, the line's length for a named position) | the ECO
// code's length (1) | the ECO code | the name (UTF-8, to the end).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "virrey/rules/variant.hpp"

namespace virrey::store {

struct StoredOpening {
  std::string eco;   // "D37", or Scid's extended "D37a"
  std::string name;  // "Queen's Gambit Declined: 4.Bf4"
  std::uint32_t ply = 0;
  friend bool operator==(const StoredOpening&, const StoredOpening&) = default;
};

std::string encode_opening(const StoredOpening& o);
// nullopt for a value that does not decode.
std::optional<StoredOpening> decode_opening(std::string_view value);

// A position an ECO file names, by the hash of the variant's position.
struct NamedPosition {
  Variant variant = Variant::Standard;
  std::uint64_t hash = 0;
  StoredOpening opening;  // ply: the length of the file's line
};

}  // namespace virrey::store
