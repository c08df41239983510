#include "virrey/game/game_record.hpp"

namespace virrey::game {

std::string_view GameRecord::tag(std::string_view name) const {
  for (const auto& t : tags)
    if (t.name == name) return t.value;
  return {};
}

bool GameRecord::has_tag(std::string_view name) const {
  for (const auto& t : tags)
    if (t.name == name) return true;
  return false;
}

void GameRecord::clear() {
  variant = Variant::Standard;
  tags.clear();
  start_fen.clear();
  start_side = Color::White;
  start_fullmove = 1;
  main_line.clear();
  movetext.clear();
  result = GameResult::Unknown;
  moves_unread = false;
}

bool GameRecord::white_moves_at(std::uint32_t ply) const {
  const std::uint32_t index = ply - 1 + (start_side == Color::Black ? 1 : 0);
  return index % 2 == 0;
}

std::string GameRecord::move_number_text(std::uint32_t ply, bool black_dots) const {
  const std::uint32_t index = ply - 1 + (start_side == Color::Black ? 1 : 0);
  std::string out = std::to_string(std::uint32_t(start_fullmove) + index / 2);
  out += index % 2 == 0 ? "." : (black_dots ? "..." : "");
  return out;
}

}  // namespace virrey::game
