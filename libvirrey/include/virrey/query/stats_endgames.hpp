// Endgame statistics, per variant: the material balance each game has when
// its main line first comes down to at most N men (kings and pawns
// included), with the results of the games that reach each balance so.
// Games that never come down to N men are not in any row.
//
// Men only decrease along a game (a capture takes one, a promotion keeps
// the count) and a balance holds in one run of plies, so a game's balance
// at N men is, of its balances with at most N men, the one that holds
// first. The material index holds every game's balances with the ply where
// each begins; a database without it replays every game of the scope.
#pragma once

#include <cstdint>
#include <vector>

#include "virrey/query/stats.hpp"
#include "virrey/rules/material.hpp"

namespace virrey::query {

struct EndgameRow {
  Material material;
  ResultCounts results;  // plies unused (0)
  friend bool operator==(const EndgameRow&, const EndgameRow&) = default;
};

struct VariantEndgames {
  Variant variant = Variant::Standard;
  std::uint64_t games = 0;    // games of the variant in scope
  std::uint64_t reached = 0;  // of them, games that come down to N men or fewer
  // Most games first, ties by the balance's text (Material::to_string).
  std::vector<EndgameRow> rows;
  ResultCounts total() const;  // the rows summed
  friend bool operator==(const VariantEndgames&, const VariantEndgames&) = default;
};

enum class EndgameSource : std::uint8_t { Index, Replay };

struct EndgameStats {
  int men = 10;
  EndgameSource source = EndgameSource::Index;
  // Every variant of the scope with at least one game, in Variant order.
  std::vector<VariantEndgames> variants;
};

// `men`: at least 2 (the two kings).
Result<EndgameStats> endgame_stats(const store::Database& db, const GameScope& scope, int men);

// Adds the games of another database (a shard) of the same query.
void merge_endgame_stats(EndgameStats& into, const EndgameStats& from);

// Puts rows in their order: most games first, then by balance text.
void sort_endgame_rows(std::vector<EndgameRow>& rows);

// White's score in percent of the finished games of a row (nullopt: none finished).
std::optional<double> white_score_percent(const ResultCounts& c);

}  // namespace virrey::query
