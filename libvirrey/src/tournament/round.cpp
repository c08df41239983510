#include "virrey/tournament/round.hpp"

#include <fmt/format.h>

#include "text.hpp"

namespace virrey::tournament {

namespace {

constexpr int kMaxPart = 9999;

}  // namespace

std::variant<RoundTag, RoundError> parse_round(std::string_view text) {
  const std::string_view t = trim(text);
  auto fail = [&](RoundError::Code code, std::string_view why) -> std::variant<RoundTag, RoundError> {
    return RoundError{code, fmt::format("Round \"{}\" {}", text, why)};
  };
  if (t.empty()) return fail(RoundError::Code::Empty, "is empty");
  if (t == "?") return RoundTag{RoundTag::Kind::Unknown, 0, std::nullopt, std::nullopt};
  if (t == "-") return RoundTag{RoundTag::Kind::NotApplicable, 0, std::nullopt, std::nullopt};
  int parts[3] = {0, 0, 0};
  int count = 0;
  std::size_t i = 0;
  while (true) {
    if (count == 3) return fail(RoundError::Code::TooManyParts, "has more than three parts (round.board.game)");
    std::size_t digits = 0;
    long value = 0;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') {
      if (value <= kMaxPart) value = value * 10 + (t[i] - '0');
      ++i;
      ++digits;
    }
    if (digits == 0) return fail(RoundError::Code::NotANumber, "is not a round number (5, 5.3 or 5.3.1)");
    if (value == 0) return fail(RoundError::Code::Zero, "counts from 0 (rounds and boards count from 1)");
    if (value > kMaxPart) return fail(RoundError::Code::TooLarge, "is beyond round 9999");
    parts[count++] = static_cast<int>(value);
    if (i == t.size()) break;
    if (t[i] != '.') return fail(RoundError::Code::NotANumber, "is not a round number (5, 5.3 or 5.3.1)");
    ++i;
  }
  RoundTag r;
  r.kind = RoundTag::Kind::Numbered;
  r.round = parts[0];
  if (count >= 2) r.board = parts[1];
  if (count >= 3) r.sub_game = parts[2];
  return r;
}

std::string round_text(const RoundTag& round) {
  switch (round.kind) {
    case RoundTag::Kind::Unknown: return "?";
    case RoundTag::Kind::NotApplicable: return "-";
    case RoundTag::Kind::Numbered: break;
  }
  std::string s = std::to_string(round.round);
  if (round.board) s += fmt::format(".{}", *round.board);
  if (round.sub_game) s += fmt::format(".{}", *round.sub_game);
  return s;
}

}  // namespace virrey::tournament
