// GameSummary: the few facts about a game that statistics scan over every
// game (result, length, how it ended, date, Elo), in a fixed 16-byte value so
// a million of them read in milliseconds; and the men left at the end, which
// lets search rule a game out of a position without reading its record.
//
// Layout (big-endian): format (1) = 2 | variant (1) | result (1) | ending (1) |
// plies (2) | date (4, yyyymmdd, 0 for unknown parts) | white elo (2) |
// black elo (2) | promotions (1, capped at 255) | final men (1; 0 in
// summaries written before it was recorded) | mate by (1, piece kinds as
// game::piece_type_bit) | time class (1, game::TimeClass).
//
// Format 1, written by older versions, is the first 16 bytes alone: it
// still decodes, with `features` false (`db upgrade` rewrites it).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "virrey/game/game_record.hpp"
#include "virrey/game/time_control.hpp"
#include "virrey/rules/variant.hpp"

namespace virrey::store {

// How the main line ends on the board (the result tag aside).
enum class Ending : std::uint8_t { Other = 0, Checkmate = 1, Stalemate = 2 };

struct GameSummary {
  Variant variant = Variant::Standard;
  GameResult result = GameResult::Unknown;
  Ending ending = Ending::Other;
  std::uint16_t plies = 0;      // main-line plies (capped at 65535)
  std::uint32_t date = 0;       // yyyymmdd; 0 where the Date tag says ?
  std::uint16_t white_elo = 0;  // 0: no (valid) WhiteElo tag
  std::uint16_t black_elo = 0;
  std::uint8_t promotions = 0;  // main-line promotions, both sides
  // Men on the board after the main line; 0: not recorded. No move adds a
  // man, so a game never passes through a position with fewer.
  std::uint8_t final_men = 0;
  // The two below are recorded (format 2) only when `features` is true.
  bool features = true;
  std::uint8_t mate_by = 0;  // the kinds giving the final checkmate (game::piece_type_bit)
  game::TimeClass time_class = game::TimeClass::Unknown;  // of the TimeControl tag
  friend bool operator==(const GameSummary&, const GameSummary&) = default;
};

constexpr std::size_t kSummarySize = 18;
constexpr std::size_t kSummarySizeV1 = 16;  // format 1

std::string encode_summary(const GameSummary& s);
// The same bytes, without a heap allocation. (A summary without `features`
// is written as format 2 with them 0: only decoding reads format 1.)
std::array<char, kSummarySize> encode_summary_bytes(const GameSummary& s);
std::optional<GameSummary> decode_summary(std::string_view bytes);

// "2024.05.??" -> 20240500; anything unreadable -> 0.
std::uint32_t parse_date(std::string_view date);
// An Elo tag value, 0 when absent or not a number in 1..65535.
std::uint16_t parse_elo(std::string_view value);

}  // namespace virrey::store
