// IngestGroup: index entries of many games gathered in memory, sorted, written
// as one table file per family and ingested into the database in one atomic
// step (RocksDB IngestExternalFiles). Bulk import this way skips the memtable
// and its sorting entirely; game records, keyed by increasing ids, go straight
// to the last level. A killed process leaves either all files of a group in
// the database or none.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "huge_page_allocator.hpp"
#include "rocks.hpp"

namespace virrey::store {

// At most what a group gathers before it is ingested (an import also ingests
// every few seconds): what a killed import or upgrade loses, and how far
// readers lag behind it. Each ingest adds a sorted run to the families keyed
// by hash, which an import ending with more than three merges (bulk_load.hpp):
// at 96 MB a collection of some 130,000 games goes in four ingests (at 48 MB,
// seven), and an import holds about half a gigabyte.
constexpr std::size_t kIngestGroupBytes = std::size_t(96) << 20;

// The options a table file of family `f` is written with (its compression
// among them), for every writer of files to ingest.
rocksdb::Options table_file_options(Family f);

class IngestGroup {
 public:
  explicit IngestGroup(Database::Impl& d);

  // Keys must be unique within a family and group (a later put of the same
  // key replaces the earlier one); a merge operand is one value per key.
  void put(Family f, std::string_view key, std::string_view value);
  void merge(Family f, std::string_view key, std::string_view value);

  // Puts into different families may run on different threads at once.
  std::size_t bytes() const;
  bool empty() const { return bytes() == 0; }

  // Writes and ingests everything gathered, then starts empty again.
  Status ingest();

  // The directory of the table files being written, under the database (a
  // killed import may leave files there; a writer's open removes them).
  static std::string temp_dir(const std::string& db_path);

 private:
  struct Entry {
    // The key's first 16 bytes as big-endian words: most comparisons end here.
    std::uint64_t prefix, prefix2;
    std::uint32_t offset;  // into Run::data: key, then value
    std::uint32_t key_size;
    std::uint32_t value_size;
    bool merge;
  };
  struct Run {
    std::basic_string<char, std::char_traits<char>, HugePageAllocator<char>> data;
    std::vector<Entry, HugePageAllocator<Entry>> entries;
    std::size_t bytes = 0;  // gathered, with the entries' own size
  };
  void add(Family f, std::string_view key, std::string_view value, bool merge);
  Status write_run(Family f, Run& run, const std::string& path);

  Database::Impl& d_;
  std::array<Run, kFamilyCount> runs_;
  std::uint64_t files_ = 0;
};

}  // namespace virrey::store
