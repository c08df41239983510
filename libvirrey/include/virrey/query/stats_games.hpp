// Game statistics, per variant: the distribution of main-line lengths (exact,
// per ply, with percentiles and histogram bins) and how the games ended on
// the board (checkmate, stalemate, other), crossed with their results. One
// pass over the game summaries.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "virrey/query/stats.hpp"
#include "virrey/store/game_summary.hpp"

namespace virrey::query {

class LengthDistribution {
 public:
  void add(std::uint32_t plies);
  void add(std::uint32_t plies, std::uint64_t games);  // `games` games of that length
  void add(const LengthDistribution& o);
  std::uint64_t games() const { return games_; }
  double mean() const { return games_ ? double(sum_) / double(games_) : 0.0; }
  std::uint32_t min() const;
  std::uint32_t max() const;
  // The smallest length L such that at least q (0..1) of the games have
  // length <= L (nearest rank); 0 without games.
  std::uint32_t quantile(double q) const;
  std::uint64_t count(std::uint32_t plies) const { return plies < by_ply_.size() ? by_ply_[plies] : 0; }
  friend bool operator==(const LengthDistribution&, const LengthDistribution&) = default;

 private:
  std::vector<std::uint64_t> by_ply_;  // games per exact length
  std::uint64_t games_ = 0;
  std::uint64_t sum_ = 0;
};

struct LengthBin {
  std::uint32_t from = 0;  // plies, inclusive
  std::uint32_t to = 0;    // inclusive
  std::uint64_t games = 0;
};

// The bin width: `width` when given, else a round width (1, 2, 5, 10, 20,
// 50, ... plies) that covers 0 to the longest game in at most `max_bins` bins.
std::uint32_t histogram_width(const LengthDistribution& d, std::uint32_t width, std::size_t max_bins);
// Bins of `width` plies (multiples of it) from the shortest game's bin to the
// longest game's.
std::vector<LengthBin> length_histogram(const LengthDistribution& d, std::uint32_t width);

constexpr int kEndingCount = 3;                 // store::Ending: other, checkmate, stalemate
std::string_view ending_name(store::Ending e);  // "other", "checkmate", "stalemate"

struct VariantGameStats {
  Variant variant = Variant::Standard;
  ResultCounts results;
  // [ending][result]: store::Ending by GameResult.
  std::array<std::array<std::uint64_t, 4>, kEndingCount> endings{};
  LengthDistribution lengths;

  std::uint64_t ending_count(store::Ending e) const;
};

struct GameStats {
  std::vector<VariantGameStats> variants;  // variants with games, in Variant order
  VariantGameStats total;                  // every variant (its `variant` is meaningless)
};

Result<GameStats> game_stats(const store::Database& db, const GameScope& scope);

// Adds the statistics of other games (another shard's) to `into`.
void merge_game_stats(GameStats& into, const GameStats& from);

}  // namespace virrey::query
