// What every statistic shares: the games it covers (a GameFilter evaluated
// once, kept as a bitmap over game ids), result counters, and the small
// derived figures (percentages, averages, dates) that text, JSON and CSV
// print alike. The statistics are in stats_openings.hpp, stats_results.hpp,
// stats_promotions.hpp, stats_games.hpp and stats_endgames.hpp.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "virrey/game/game_record.hpp"
#include "virrey/query/game_filter.hpp"
#include "virrey/rules/variant.hpp"
#include "virrey/store/database.hpp"

namespace virrey::query {

// The games a statistic covers. A filter that only names a variant (or
// nothing) needs no evaluation: every statistic reads the variant from its
// own index entries. Any other filter is run once through for_each_match.
class GameScope {
 public:
  // Every game (of `variant` when given).
  static GameScope everything(std::optional<Variant> variant = std::nullopt);
  static Result<GameScope> from_filter(const store::Database& db, const GameFilter& filter);
  // A set of game ids (any order, duplicates allowed) with their variants.
  static GameScope of_matches(const std::vector<GameMatch>& matches);

  // True when no id set restricts the scope (a variant may).
  bool unrestricted() const { return !restricted_; }
  std::optional<Variant> variant() const { return variant_; }
  bool has_variant(Variant v) const { return !variant_ || *variant_ == v; }
  // The id is in the scope (the variant is the caller's to check).
  bool contains(GameId id) const {
    if (!restricted_) return true;
    return id / 64 < bits_.size() && (bits_[id / 64] >> (id % 64) & 1);
  }
  bool contains(GameId id, Variant v) const { return has_variant(v) && contains(id); }
  // Games per variant in the scope (from the database's counters when
  // unrestricted).
  std::array<std::uint64_t, kVariantCount> games(const store::Database& db) const;
  // The ids of a restricted scope, ascending (empty when unrestricted).
  const std::vector<GameId>& ids() const { return ids_; }

 private:
  std::optional<Variant> variant_;
  bool restricted_ = false;
  std::vector<GameId> ids_;
  std::array<std::uint64_t, kVariantCount> per_variant_{};
  std::vector<std::uint64_t> bits_;
};

// Games by their termination marker.
struct ResultCounts {
  std::uint64_t games = 0;
  std::uint64_t white_wins = 0;
  std::uint64_t draws = 0;
  std::uint64_t black_wins = 0;
  std::uint64_t unfinished = 0;  // '*'
  std::uint64_t plies = 0;       // main-line plies summed

  void add(GameResult result, std::uint64_t game_plies) {
    ++games;
    plies += game_plies;
    switch (result) {
      case GameResult::WhiteWins: ++white_wins; break;
      case GameResult::Draw: ++draws; break;
      case GameResult::BlackWins: ++black_wins; break;
      case GameResult::Unknown: ++unfinished; break;
    }
  }
  void add(const ResultCounts& o);
  std::uint64_t finished() const { return white_wins + draws + black_wins; }
  std::uint64_t decisive() const { return white_wins + black_wins; }
  friend bool operator==(const ResultCounts&, const ResultCounts&) = default;
};

// The results of some games (ascending ids), from their summaries.
Status game_results(const store::Database& db, const std::vector<GameId>& ids, std::vector<GameResult>& out);

// 100 * part / whole; 0 when whole is 0.
double percent(std::uint64_t part, std::uint64_t whole);
// Share of decisive games among finished ones, in percent (0 without any).
double decisive_percent(const ResultCounts& c);
// Average main-line length in plies (0 without games).
double average_plies(const ResultCounts& c);
// Score of one side in percent of its finished games: (wins + draws / 2) /
// (wins + draws + losses); nullopt when no game is finished.
std::optional<double> score_percent(std::uint64_t wins, std::uint64_t draws, std::uint64_t losses);
// A yyyymmdd date as PGN writes it: "2024.05.17", "2024.05.??", "2024.??.??";
// empty for 0 (unknown).
std::string date_text(std::uint32_t yyyymmdd);

// The entry of `variant` in a list kept in variant order (each entry has a
// `variant` member), inserted empty where it belongs when absent: what
// merging one statistic's per-variant parts into another's needs.
template <class Entry>
Entry& variant_entry(std::vector<Entry>& list, Variant variant) {
  auto it = std::find_if(list.begin(), list.end(), [&](const Entry& e) { return e.variant >= variant; });
  if (it == list.end() || it->variant != variant) {
    Entry empty;
    empty.variant = variant;
    it = list.insert(it, std::move(empty));
  }
  return *it;
}

}  // namespace virrey::query
