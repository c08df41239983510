#include "virrey/validate/finding.hpp"

#include <array>

namespace virrey::validate {

std::string_view code_name(Code code) {
  static constexpr std::array<std::string_view, kCodeCount> names = {
      "syntax",           "illegal-move",    "ambiguous-move",  "wrong-promotion",
      "unknown-variant",  "bad-fen",         "result-mismatch", "missing-tag",
      "bad-tag",          "duplicate-game",  "missing-result",  "promotion-normalized",
      "check-mark",       "null-move",       "encoding",        "oversized-game",
      "io-error",         "castling-zeros",  "disambiguation",  "missing-check-mark",
      "move-number",      "long-line",       "capture-mark",    "player-twice-in-round",
      "repeated-pairing", "player-name",     "player-rating",   "round-tag",
      "missing-round",    "board-twice",     "event-date",      "date-order",
      "unplayed-result",  "unfinished-game", "self-pairing",    "drawn-by-rule",
  };
  return names[std::size_t(code)];
}

std::string_view severity_name(Severity s) { return s == Severity::Error ? "error" : "warning"; }

}  // namespace virrey::validate
