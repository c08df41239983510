// GameRecord: one game as virrey keeps it after checking: tags in their
// order, variant and start position, the main line as moves, and the whole
// movetext (canonical SAN, NAGs, comments, variations) as a flat list of
// items that the PGN writer and the store both read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/base/game_result.hpp"
#include "virrey/rules/types.hpp"
#include "virrey/rules/variant.hpp"

namespace virrey::game {

struct TagPair {
  std::string name;
  std::string value;
};

enum class ItemKind : std::uint8_t { Move, Nag, Comment, BeginVariation, EndVariation };

struct MovetextItem {
  ItemKind kind = ItemKind::Move;
  std::uint8_t nag = 0;   // Nag
  std::uint32_t ply = 0;  // Move: 1-based ply from the start position
  Move move{};            // Move
  std::string text;       // Move: canonical SAN; Comment: its text
};

// The longest main line a game may have: the database reads no longer one
// back, and the checker rejects a longer one (an `oversized-game` error).
// Far beyond any game played: FIDE's 75-move rule ends every game of
// standard chess within 17,697 plies.
constexpr std::uint32_t kMaxMainLinePlies = 1'000'000;

// [BishopSwap "Yes"]: the tag that allows the bishop swap in Modern chess.
constexpr std::string_view kBishopSwapTag = "BishopSwap";
constexpr bool allows_bishop_swap(Variant v, std::string_view bishop_swap_value) {
  return v == Variant::Modern && bishop_swap_value == "Yes";
}

struct GameRecord {
  Variant variant = Variant::Standard;
  std::vector<TagPair> tags;  // as read, in order
  std::string start_fen;      // empty: the variant's start position
  Color start_side = Color::White;
  int start_fullmove = 1;
  std::vector<Move> main_line;
  std::vector<MovetextItem> movetext;
  GameResult result = GameResult::Unknown;  // the termination marker
  // The movetext was not read (an unknown variant, a FEN that is no legal
  // position): whether the game has moves is not known. Not stored.
  bool moves_unread = false;

  // The value of a tag, or an empty view.
  std::string_view tag(std::string_view name) const;
  bool has_tag(std::string_view name) const;
  // Whether the game allows the Modern chess bishop swap.
  bool bishop_swap() const { return allows_bishop_swap(variant, tag(kBishopSwapTag)); }
  // "6." or "6..." label of a ply, and its full label with SAN ("6...Nf6").
  std::string move_number_text(std::uint32_t ply, bool black_dots) const;
  bool white_moves_at(std::uint32_t ply) const;
  // Back to a default record, keeping the buffers of its lists.
  void clear();
};

}  // namespace virrey::game
