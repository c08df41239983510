// Search: a page of the games that match a GameFilter (game_filter.hpp), in
// id or date order, or only their number; and the position a game reached at
// a ply, for showing a match.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "virrey/game/game_record.hpp"
#include "virrey/query/game_filter.hpp"
#include "virrey/rules/position.hpp"
#include "virrey/store/database.hpp"

namespace virrey::query {

enum class SortOrder : std::uint8_t {
  Id,    // import order
  Date,  // the Date tag, oldest first; games without a date last; then by id
};

struct SearchOptions {
  std::size_t limit = 50;  // 0: no limit
  std::size_t offset = 0;
  SortOrder sort = SortOrder::Id;
  bool count_only = false;        // only SearchResult::total
  MatchCounts* counts = nullptr;  // when set: candidates checked and matched
};

struct SearchResult {
  std::vector<GameMatch> games;  // the page
  // Every match counted: set with count_only, with SortOrder::Date, and
  // whenever the page ends before `limit` (then total = offset + page).
  std::optional<std::uint64_t> total;
  bool more = false;  // a match exists after the page
};

// Ids sort early and stop at the page's end; dates and counts read every
// match.
Result<SearchResult> search(const store::Database& db, const GameFilter& filter,
                            const SearchOptions& options);

// A game's main line after some plies.
struct PlyView {
  std::uint32_t ply = 0;
  Setup position;
  std::string last_move;  // "6...Nf6": the move that led here; empty at ply 0
};

// The position after `ply` plies (0: the start). InvalidArgument when the
// game is shorter; the record needs its main line.
Result<PlyView> position_at(const game::GameRecord& record, std::uint32_t ply);

}  // namespace virrey::query
