// A game's result, the one result type of the library: what a termination
// marker or a Result tag says (1-0, 0-1, 1/2-1/2, *).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace virrey {

enum class GameResult : std::uint8_t { WhiteWins, BlackWins, Draw, Unknown };

// "1-0", "0-1", "1/2-1/2", "*".
constexpr std::string_view result_text(GameResult r) {
  switch (r) {
    case GameResult::WhiteWins: return "1-0";
    case GameResult::BlackWins: return "0-1";
    case GameResult::Draw: return "1/2-1/2";
    case GameResult::Unknown: break;
  }
  return "*";
}

// The result a PGN token writes, exactly as the standard spells it.
constexpr std::optional<GameResult> parse_result(std::string_view text) {
  if (text == "1-0") return GameResult::WhiteWins;
  if (text == "0-1") return GameResult::BlackWins;
  if (text == "1/2-1/2") return GameResult::Draw;
  if (text == "*") return GameResult::Unknown;
  return std::nullopt;
}

constexpr bool is_result_token(std::string_view text) { return parse_result(text).has_value(); }

}  // namespace virrey
