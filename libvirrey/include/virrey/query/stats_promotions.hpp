// Promotion statistics, per variant: counts by piece, destination file and
// colour (the full cube and its margins), how often a promoted piece was
// captured later or took part in the final mate, and for viceroys the game
// figures: games with one, most in one game, the average ply of the first,
// and the score of the side that made the game's first viceroy against the
// other.
//
// Everything comes from the promotion index (one entry per promotion with
// its flags) and, for the first-viceroy score, the game summaries. A filter
// chooses games; every promotion of a chosen game counts.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "virrey/query/stats.hpp"

namespace virrey::query {

// Promotions of one piece, colour and file.
struct PromotionCell {
  PieceType piece = PieceType::None;
  Color colour = Color::White;
  int file = 0;  // 0 = a-file
  std::uint64_t count = 0;
  std::uint64_t captured_later = 0;  // the promoted piece was captured later
  std::uint64_t gave_mate = 0;       // it checked the king in the final mate
  friend bool operator==(const PromotionCell&, const PromotionCell&) = default;
};

struct ViceroyStats {
  std::uint64_t promotions = 0;
  std::uint64_t games = 0;           // games with at least one viceroy
  std::uint64_t max_in_game = 0;     // both sides together
  GameId max_game = 0;               // the first game with that many
  std::uint64_t first_ply_sum = 0;   // ply of each game's first viceroy, summed
  std::uint64_t captured_later = 0;  // viceroys captured later in their game
  std::uint64_t gave_mate = 0;       // viceroys giving the final mate (with other checkers maybe)
  // The side that made the game's first viceroy, from its own point of view.
  std::uint64_t first_by_white = 0;
  std::uint64_t first_by_black = 0;
  std::uint64_t first_wins = 0;
  std::uint64_t first_draws = 0;
  std::uint64_t first_losses = 0;
  std::uint64_t first_unfinished = 0;
  friend bool operator==(const ViceroyStats&, const ViceroyStats&) = default;
};

struct VariantPromotions {
  Variant variant = Variant::Standard;
  std::uint64_t games = 0;  // games of the variant in scope
  std::uint64_t promotions = 0;
  std::uint64_t games_with_promotion = 0;
  std::uint64_t max_in_game = 0;     // promotions of any piece, both sides
  std::vector<PromotionCell> cells;  // non-empty cells, by piece, colour, file
  ViceroyStats viceroy;

  // Margins of the cube.
  std::uint64_t by_piece(PieceType p, std::optional<Color> c = std::nullopt) const;
  std::uint64_t by_file(int file, std::optional<Color> c = std::nullopt) const;
  std::uint64_t by_colour(Color c) const;
  std::vector<PieceType> pieces() const;  // those promoted to, in PieceType order
  int files() const;                      // board width of the variant
};

struct PromotionStats {
  // Every variant of the scope with at least one game, in Variant order.
  std::vector<VariantPromotions> variants;
};

Result<PromotionStats> promotion_stats(const store::Database& db, const GameScope& scope);

// Adds the promotions of other games (a shard whose game ids follow those
// of `into`'s games, `id_shift` ids on: game ids in `from` are shifted so).
void merge_promotion_stats(PromotionStats& into, const PromotionStats& from, GameId id_shift);

double average_first_viceroy_ply(const ViceroyStats& v);  // 0 without viceroys
std::optional<double> first_viceroy_score_percent(const ViceroyStats& v);

}  // namespace virrey::query
