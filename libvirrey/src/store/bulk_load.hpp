// Bulk loading: how an import's table files find their place among the
// database's (bulk_load.cpp has the why and the figures).
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "rocks.hpp"

namespace virrey::store {

class BulkLoad {
 public:
  // Notes which table files the database holds: every later one is the
  // import's own.
  BulkLoad(Database::Impl& d, std::size_t merge_own_files);
  ~BulkLoad();  // waits for a merge still running
  BulkLoad(const BulkLoad&) = delete;
  BulkLoad& operator=(const BulkLoad&) = delete;

  // Before each ingest: begins bulk loading when the ingest could start a
  // compaction under the usual options.
  Status before_ingest();
  // After each ingest: lets a family whose import dwarfs what it held
  // compact into its last level, and merges the import's own level-0 files
  // of a family that has piled up too many of them, in the background.
  Status after_ingest();
  // When the import ends (or fails): merges the import's level-0 files of
  // each family into one, compacts a family left with too many level-0 files
  // into its last level, and restores the usual options.
  Status end();

  // A family's sorted runs above its last level an import leaves at most
  // (each level-0 file is one, each level below holding files another).
  static constexpr std::size_t kRunsKept = 3;
  // The import's run takes in the next older one while kTierRatio times its
  // size is at least that run's.
  static constexpr std::uint64_t kTierRatio = 2;

  // Compacts into its last level each family that imports tier (RocksDB's
  // own compactions off) holding more than kRunsKept runs above it: what a
  // merge of shards, which ingests each source as a run, leaves.
  static Status settle(Database::Impl& d);

  // Merges into one run the level-0 files of each family that imports tier
  // when it holds more of them than an import leaves: what an import killed
  // while it merged its own files left. Called when an import ends.
  static Status merge_level0_left(Database::Impl& d);

  // Joins runs of small neighbouring table files of the families keyed by
  // game id, which no compaction ever meets (bulk_load.cpp). Called when an
  // import ends; a join that fails leaves the files as they were.
  static void join_small_files(Database::Impl& d);

 private:
  void start_merge(std::vector<Family> families);
  void wait_for_merge();

  Database::Impl& d_;
  std::size_t merge_own_files_;
  std::uint64_t newest_before_ = 0;  // table files numbered above are the import's
  bool active_ = false;
  std::vector<bool> compacting_;  // by family: auto compactions into the last level on
  std::thread merger_;
  std::atomic<bool> merging_{false};
};

}  // namespace virrey::store
