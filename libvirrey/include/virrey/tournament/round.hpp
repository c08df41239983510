// The Round tag in its usual forms: "5" (round), "5.3" (round and board),
// "5.3.1" (round, board and the game of a match or a play-off), "?" (not
// known) and "-" (not applicable). Anything else is an error naming what
// could not be read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace virrey::tournament {

struct RoundTag {
  enum class Kind : std::uint8_t { Numbered, Unknown, NotApplicable };
  Kind kind = Kind::Unknown;
  int round = 0;                 // >= 1 when Numbered
  std::optional<int> board;      // "5.3": 3
  std::optional<int> sub_game;   // "5.3.1": 1

  bool numbered() const { return kind == Kind::Numbered; }
  friend bool operator==(const RoundTag&, const RoundTag&) = default;
};

// Why a Round tag does not read.
struct RoundError {
  enum class Code : std::uint8_t {
    Empty,        // "" (the tag is there but holds nothing)
    NotANumber,   // a part that is not digits: "5a", "R5", "5."
    Zero,         // a part that is 0: rounds and boards count from 1
    TooLarge,     // a part beyond 9999
    TooManyParts  // more than three parts: "1.2.3.4"
  };
  Code code = Code::NotANumber;
  std::string message;  // for people: quotes the tag
};

// Reads a Round tag's value. Leading and trailing spaces are ignored.
std::variant<RoundTag, RoundError> parse_round(std::string_view text);

// "5", "5.3", "5.3.1", "?" or "-": the tag written back in its usual form.
std::string round_text(const RoundTag& round);

}  // namespace virrey::tournament
