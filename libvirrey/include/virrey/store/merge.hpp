// `virrey db merge`: folds databases (shards) into one. The games of each
// source are appended in source order, renumbered after the games already
// there, so merging shards A, B, C gives the database that importing A's,
// B's and C's inputs one after another gives: the same game ids, indexes and
// tree counters, and a game equal to one stored before is counted as a
// duplicate and not stored, as an import counts it.
//
// A source none of whose games is stored already is copied: every family
// is read in key order with its game ids shifted, written as table files
// and ingested with the counters and the source's input records in one
// atomic step (tree values are merge operands, summed by the tree's merge
// operator). A source that repeats stored games is imported game by game
// (GameImporter), which drops the duplicates. Either way the destination is
// consistent after a failure at any point, and a rerun completes the merge
// (what was merged before is then counted as duplicates).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "virrey/base/error.hpp"
#include "virrey/store/database.hpp"

namespace virrey::store {

struct MergeOptions {
  int threads = 1;  // indexing threads when a source is imported game by game
};

struct MergeSource {
  std::string path;
  std::uint64_t games = 0;       // games the source holds
  std::uint64_t stored = 0;      // of them, stored in the destination
  std::uint64_t duplicates = 0;  // equal to a game stored before
  bool copied = false;           // copied as table files (else imported game by game)
};

struct MergeReport {
  std::vector<MergeSource> sources;
  std::uint64_t stored = 0, duplicates = 0;
};

// `dest` open ReadWrite. A source must be a virrey database of this schema
// with the same tree depth, and not the destination itself. The game-id
// space is checked before a source is merged: a source that would take
// the destination past kMaxGameId is refused (ErrorKind::InvalidArgument),
// with the sources before it merged. `progress`: games merged so far.
Result<MergeReport> merge_databases(Database& dest, const std::vector<std::string>& sources,
                                    const MergeOptions& options = {},
                                    const std::function<void(std::uint64_t)>& progress = {});

}  // namespace virrey::store
