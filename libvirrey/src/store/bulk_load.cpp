// Bulk loading. An import ingests a table file per family every few seconds
// (importer.cpp). In the families keyed by hashes or by value (positions,
// tree, tags, material...) each such file spans the family's whole key range,
// so every compaction of level 0 rewrites the family's last level entire:
// with RocksDB's usual trigger of four files, an import into a database of a
// million games rewrote it after every fourth ingest. While an import runs,
// level 0 is compacted only once kBulkLevel0Files files have piled up there;
// when it ends, each family's level-0 files are merged into one at level 0
// (as much work as the import's own entries; a family whose merge fails is
// compacted into the last level), and the usual options return. A query
// after an import so reads at most one level-0 file a family, as few as it
// did before, and more read slows it: the material index with twenty-odd
// level-0 files answered `V>=2` in 140 ms, not 40. An import of fewer
// ingests than the usual trigger never begins bulk loading (importer.cpp).
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <unordered_map>

#include <fmt/format.h>

#include "rocks.hpp"

namespace virrey::store {

namespace {

constexpr int kBulkLevel0Files = 32;

Status set_options(Database::Impl& d, Family f, const std::unordered_map<std::string, std::string>& options) {
  rocksdb::Status s = d.db->SetOptions(d.cf(f), options);
  if (!s.ok()) return to_error(s, fmt::format("setting the compaction options of {}", d.path));
  return {};
}

// RocksDB's options for level 0 (its file count that starts a compaction,
// slows and stops writes) and for automatic compactions.
std::unordered_map<std::string, std::string> level0_options(int compaction, int slowdown, int stop,
                                                            bool auto_compactions) {
  return {{"level0_file_num_compaction_trigger", std::to_string(compaction)},
          {"level0_slowdown_writes_trigger", std::to_string(slowdown)},
          {"level0_stop_writes_trigger", std::to_string(stop)},
          {"disable_auto_compactions", auto_compactions ? "false" : "true"}};
}

// Merges each family's level-0 files into one there; a family whose merge
// fails is compacted into the last level instead.
Status merge_level0(Database::Impl& d) {
  // No compaction starts from here on in the families to merge, and the
  // running ones end first: their level-0 files are then this function's.
  std::vector<Family> to_merge;
  for (const FamilyInfo& fi : kFamilies) {
    if (!d.cf(fi.family)) continue;
    rocksdb::ColumnFamilyMetaData md;
    d.db->GetColumnFamilyMetaData(d.cf(fi.family), &md);
    if (md.levels.empty() || md.levels[0].files.size() < 2) continue;
    if (Status s = set_options(d, fi.family, {{"disable_auto_compactions", "true"}}); !s) return s;
    to_merge.push_back(fi.family);
  }
  std::uint64_t running = 0;
  while (d.db->GetIntProperty(rocksdb::DB::Properties::kNumRunningCompactions, &running) && running > 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));

  std::vector<Family> piled_up;
  for (Family f : to_merge) {
    const rocksdb::ColumnFamilyOptions usual = family_options(f);
    rocksdb::ColumnFamilyMetaData md;
    d.db->GetColumnFamilyMetaData(d.cf(f), &md);
    if (md.levels.empty() || md.levels[0].files.size() < 2) continue;  // compacted meanwhile
    std::vector<std::string> names;
    for (const rocksdb::SstFileMetaData& file : md.levels[0].files) names.push_back(file.db_path + file.name);
    rocksdb::CompactionOptions co;
    co.compression = usual.compression;
    co.output_file_size_limit = std::numeric_limits<std::uint64_t>::max();
    if (!d.db->CompactFiles(co, d.cf(f), names, 0).ok())
      piled_up.push_back(f);  // into the last level instead
  }
  return d.compact(piled_up);
}

}  // namespace

Status Database::Impl::begin_bulk_load() {
  if (mode != OpenMode::ReadWrite || !db) return {};
  const auto bulk = level0_options(kBulkLevel0Files, 2 * kBulkLevel0Files, 3 * kBulkLevel0Files, true);
  for (const FamilyInfo& fi : kFamilies)
    if (cf(fi.family))
      if (Status s = set_options(*this, fi.family, bulk); !s) return s;
  return {};
}

Status Database::Impl::end_bulk_load() {
  if (mode != OpenMode::ReadWrite || !db) return {};
  Status merged = merge_level0(*this);
  // The usual options again, whatever the merge came to.
  for (const FamilyInfo& fi : kFamilies) {
    if (!cf(fi.family)) continue;
    const rocksdb::ColumnFamilyOptions usual = family_options(fi.family);
    if (Status s = set_options(
            *this, fi.family,
            level0_options(usual.level0_file_num_compaction_trigger, usual.level0_slowdown_writes_trigger,
                           usual.level0_stop_writes_trigger, !usual.disable_auto_compactions));
        !s)
      return s;
  }
  return merged;
}

}  // namespace virrey::store
