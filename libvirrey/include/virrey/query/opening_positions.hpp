// An opening explorer as the positions it lists: the root and every position
// below it to the query's depth, each with every move played from it (an
// explorer of min_games 1 and max_moves 0). This is what partial statistics
// hold: shards' explorers merge by position rather than by order of moves,
// so a position one shard reaches by another move order (a transposition
// across shards) still adds its games there, as in one database.
//
// Exact as long as each shard reaches each position of the merged tree
// within the depth asked by some route: a position one shard meets only at
// a different number of plies from the root (1. Nf3 Nf6 2. Ng1 Ng8) may be
// listed by it to a lesser depth.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "virrey/query/stats_openings.hpp"

namespace virrey::query {

struct OpeningPositions {
  OpeningStats root;  // everything but its moves (its opening's name too)
  int depth = 1;      // plies below the root
  // By Zobrist hash: the moves played from the position, with their counts.
  std::map<std::uint64_t, std::vector<std::pair<Move, store::TreeCounters>>> positions;
  // By Zobrist hash: the name `db classify` gives a position a move reaches.
  std::map<std::uint64_t, std::string> names;
};

// The positions of an explorer made to `depth` with min_games 1 and
// max_moves 0. InvalidArgument when its root FEN does not read.
Result<OpeningPositions> opening_positions(const OpeningStats& stats, int depth);

// `from`'s counts added to `into`'s (the same query on another shard).
void merge_opening_positions(OpeningPositions& into, const OpeningPositions& from);

// The explorer again, to the depth, every move with its SAN and UCI; pass it
// to finish_openings. InvalidArgument for a move not legal in its position
// or a root that does not read.
Result<OpeningStats> opening_tree(const OpeningPositions& positions);

}  // namespace virrey::query
