// Bulk loading. An import ingests a table file per family every few seconds
// (importer.cpp). In the families keyed by hashes or by value (positions,
// tree, tags, material...) each such file spans the family's whole key range,
// so a compaction of level 0 into the last level rewrites that level entire.
// Under RocksDB's usual options (a compaction every four level-0 files) an
// import into a database of a million games rewrote it after every fourth
// ingest; with a fixed higher trigger, once or twice an import: the cost of
// an import grew with what the database held.
//
// So level 0 holds the import's own files, tiered:
// - Bulk loading begins before the ingest that would start a compaction
//   under the usual options (counting the level-0 runs earlier imports
//   left), so a small import never changes an option.
// - While it lasts, a family compacts into its last level only once the
//   import's own level-0 data is twice what lies below and in the older
//   level-0 runs (an import into an empty or small database): it is then the
//   import's data that such a compaction mostly writes.
// - Otherwise the import's files pile up in level 0, and are merged among
//   themselves, in the background, once 96 of them are there (an import of
//   more than about a million and a half games; ImportOptions).
// - At the end, a family left with no more than kRunsKept runs above its
//   last level is left as it is (an import that ingested a few times).
//   Otherwise its own files are merged into one sorted run, which takes in
//   the next older run while it holds at least half as much (runs grow by
//   doubling: an entry is merged about log2 of the imports that follow it),
//   and more while over kRunsKept runs would be left above the last level.
//   The runs go into the last level once they hold more than twice what it
//   does (it is compressed harder), and so do the entries of a family that
//   compacted as it went (they would otherwise lie on several levels). The
//   stored entries are so rewritten each time a family triples, not every
//   few imports: a million games imported into 23.65 million ran at 0.96
//   times the speed of the same import into an empty database; every third
//   import rewrote them before (174 s against 45 at 21 million).
// RocksDB's own compactions are off in these families (rocks_options.cpp):
// its leveled compactions would move a run that outgrew a tenth of the level
// below into the last level in the middle of an import.
// A run is a level-0 file, or a level between 0 and the last that holds
// files: RocksDB ingests a file into the deepest level it overlaps nothing
// in, so in a database whose last level is large (its levels above are then
// in use for compactions) the first files of an import after a compaction
// land in the empty levels 5, 4... above the last one, not in level 0. A
// query reads every run (more read slows it: with twenty-odd level-0 files
// the material index answered `V>=2` in 140 ms, not 40; on 20 million games,
// a position lookup meeting runs in levels 0, 4 and 5 took 1.6 times as long
// as on a million, 1.3 times with the last level alone).
//
// The families keyed by game id (records, summaries) are another matter: an
// ingested file of new games overlaps nothing stored, so it goes straight to
// the last level and no compaction ever touches it. A table file per segment
// (some 20,000 games) adds up: 1,318 files each on 20 million games, and
// every open of the database reads the list of files and checks it against
// the directory: a search there took about 36 ms, twice the same search on
// 1.4 million games, and 16 ms once the files were joined. So when an
// import ends, runs of kJoinFiles or more neighbouring files under
// kSmallFileBytes are joined into one; a record is rewritten once or twice
// in all.
#include "bulk_load.hpp"

#include <chrono>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "virrey/base/log.hpp"

namespace virrey::store {

namespace {

constexpr int kBulkLevel0Files = 32;        // the trigger of a family compacting into its last level
constexpr int kBulkLevel0Stop = 100000;     // never stall an ingest for level 0's sake
constexpr std::uint64_t kSmallFileBytes = std::uint64_t(32) << 20;
constexpr std::size_t kJoinFiles = 8;

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

void wait_for_running_compactions(Database::Impl& d) {
  std::uint64_t running = 0;
  while (d.db->GetIntProperty(rocksdb::DB::Properties::kNumRunningCompactions, &running) && running > 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

// Merges these files of a family, none in its last level, into one run at
// this level (the deepest of theirs): one file in level 0, where a query
// opens every file; below, files of the usual size, of which a query opens
// the one that holds its key (a file's index block is read whole when it is
// opened: some 700 KB for a run of two million games' positions in one file,
// 70 KB in files of 64 MB).
Status merge_into_one(Database::Impl& d, Family f, const std::vector<std::string>& files, int level) {
  rocksdb::CompactionOptions co;
  co.compression = family_options(f).compression;
  co.output_file_size_limit =
      level == 0 ? std::numeric_limits<std::uint64_t>::max() : family_options(f).target_file_size_base;
  rocksdb::Status s = d.db->CompactFiles(co, d.cf(f), files, level);
  if (!s.ok()) return to_error(s, fmt::format("merging table files of {}", d.path));
  return {};
}

// A sorted run above a family's last level: a level-0 file, or the files of
// a level below 0 (the comment at the top).
struct SortedRun {
  std::vector<std::string> files;  // by name
  std::uint64_t bytes = 0;
  int level = 0;  // the deepest of its files
};

struct Survey {
  SortedRun own;                        // the import's files above the last level, maybe several runs
  std::vector<std::string> own_level0;  // of them, those in level 0
  std::size_t own_runs = 0;
  std::vector<SortedRun> older;  // the older runs above the last level, newest first
  std::uint64_t older_bytes = 0;
  std::uint64_t lower_bytes = 0;  // in the last level
};

// A family's runs above its last level: the import's own (its files numbered
// above `newest_before`) and the older ones.
Survey survey(const Database::Impl& d, Family f, std::uint64_t newest_before) {
  Survey s;
  rocksdb::ColumnFamilyMetaData md;
  d.db->GetColumnFamilyMetaData(d.cf(f), &md);
  const int last = int(md.levels.size()) - 1;
  std::vector<std::pair<std::uint64_t, SortedRun>> older_level0;  // by newest sequence number
  for (const rocksdb::LevelMetaData& level : md.levels) {
    bool own_here = false;
    SortedRun older_here;
    for (const rocksdb::SstFileMetaData& file : level.files) {
      const std::string name = file.db_path + file.name;
      if (level.level == last) {
        s.lower_bytes += file.size;
      } else if (file.file_number > newest_before) {
        if (level.level == 0 || !own_here) ++s.own_runs;
        own_here = true;
        s.own.files.push_back(name);
        s.own.bytes += file.size;
        s.own.level = std::max(s.own.level, level.level);
        if (level.level == 0) s.own_level0.push_back(name);
      } else if (level.level == 0) {
        older_level0.push_back({file.largest_seqno, SortedRun{{name}, file.size, 0}});
        s.older_bytes += file.size;
      } else {
        older_here.files.push_back(name);
        older_here.bytes += file.size;
        older_here.level = level.level;
        s.older_bytes += file.size;
      }
    }
    if (level.level == 0) {
      std::sort(older_level0.begin(), older_level0.end(),
                [](const auto& a, const auto& b) { return a.first > b.first; });
      for (auto& r : older_level0) s.older.push_back(std::move(r.second));
    } else if (!older_here.files.empty()) {
      s.older.push_back(std::move(older_here));
    }
  }
  return s;
}

// The runs the import's own run is merged with, or none when the family is to
// be compacted into its last level.
std::optional<SortedRun> plan_merge(const Survey& s) {
  // The runs above the last level hold more than twice what it does: into
  // the last level with them (a rewrite of the family each time it has
  // tripled). Twice, because the last level is compressed harder: a second
  // import as large as the first should not rewrite it.
  if (s.own.bytes + s.older_bytes > 2 * s.lower_bytes) return std::nullopt;
  // The import's run takes in the next older while it holds at least half
  // as much (runs grow by doubling, an entry is merged about log2 times),
  // and more while too many runs would be left.
  SortedRun merged = s.own;
  std::size_t taken = 0;
  while (taken < s.older.size() && (BulkLoad::kTierRatio * merged.bytes >= s.older[taken].bytes ||
                                    s.older.size() - taken + 1 > BulkLoad::kRunsKept)) {
    const SortedRun& r = s.older[taken++];
    merged.files.insert(merged.files.end(), r.files.begin(), r.files.end());
    merged.bytes += r.bytes;
    merged.level = std::max(merged.level, r.level);
  }
  return merged;
}

}  // namespace

BulkLoad::BulkLoad(Database::Impl& d, std::size_t merge_own_files)
    : d_(d),
      merge_own_files_(std::max<std::size_t>(merge_own_files, 2)),
      compacting_(kFamilies.size(), false) {
  if (d_.mode != OpenMode::ReadWrite || !d_.db) return;
  for (const FamilyInfo& fi : kFamilies) {
    if (!d_.cf(fi.family)) continue;
    rocksdb::ColumnFamilyMetaData md;
    d_.db->GetColumnFamilyMetaData(d_.cf(fi.family), &md);
    for (const rocksdb::LevelMetaData& level : md.levels)
      for (const rocksdb::SstFileMetaData& file : level.files)
        newest_before_ = std::max<std::uint64_t>(newest_before_, file.file_number);
  }
}

BulkLoad::~BulkLoad() { wait_for_merge(); }

Status BulkLoad::before_ingest() {
  if (active_ || d_.mode != OpenMode::ReadWrite || !d_.db) return {};
  bool would_compact = false;
  for (const FamilyInfo& fi : kFamilies) {
    if (!d_.cf(fi.family)) continue;
    std::string files;
    if (!d_.db->GetProperty(d_.cf(fi.family), "rocksdb.num-files-at-level0", &files)) continue;
    if (std::strtoull(files.c_str(), nullptr, 10) + 1 >=
        std::uint64_t(family_options(fi.family).level0_file_num_compaction_trigger))
      would_compact = true;
  }
  if (!would_compact) return {};
  active_ = true;  // (ended even if beginning fails half way)
  const auto bulk = level0_options(kBulkLevel0Files, kBulkLevel0Stop, kBulkLevel0Stop, false);
  for (const FamilyInfo& fi : kFamilies)
    if (d_.cf(fi.family))
      if (Status s = set_options(d_, fi.family, bulk); !s) return s;
  return after_ingest();
}

Status BulkLoad::after_ingest() {
  if (!active_) return {};
  std::vector<Family> to_merge;
  for (const FamilyInfo& fi : kFamilies) {
    const Family f = fi.family;
    if (!d_.cf(f) || compacting_[std::size_t(f)]) continue;
    const Survey s = survey(d_, f, newest_before_);
    if (s.own.bytes >= 2 * (s.lower_bytes + s.older_bytes)) {
      compacting_[std::size_t(f)] = true;
      if (Status st = set_options(d_, f, {{"disable_auto_compactions", "false"}}); !st) return st;
    } else if (s.own_level0.size() >= merge_own_files_) {
      to_merge.push_back(f);
    }
  }
  if (!to_merge.empty() && !merging_.load()) start_merge(std::move(to_merge));
  return {};
}

void BulkLoad::start_merge(std::vector<Family> families) {
  if (merger_.joinable()) merger_.join();  // (finished: merging_ is false)
  merging_ = true;
  merger_ = std::thread([this, families = std::move(families)] {
    for (Family f : families) {
      // The files as they are now: later ingests go on beside the merge.
      const Survey s = survey(d_, f, newest_before_);
      if (s.own_level0.size() < 2) continue;
      // A merge that fails leaves the files as they were, for the end.
      if (Status st = merge_into_one(d_, f, s.own_level0, 0); !st) log::debug(st.error().message);
    }
    merging_ = false;
  });
}

void BulkLoad::wait_for_merge() {
  if (merger_.joinable()) merger_.join();
}

Status BulkLoad::settle(Database::Impl& d) {
  if (d.mode != OpenMode::ReadWrite || !d.db) return {};
  std::vector<Family> crowded;
  for (const FamilyInfo& fi : kFamilies)
    if (d.cf(fi.family) && family_options(fi.family).disable_auto_compactions &&
        survey(d, fi.family, std::numeric_limits<std::uint64_t>::max()).older.size() > kRunsKept)
      crowded.push_back(fi.family);
  return d.compact(crowded);
}

Status BulkLoad::merge_level0_left(Database::Impl& d) {
  if (d.mode != OpenMode::ReadWrite || !d.db) return {};
  for (const FamilyInfo& fi : kFamilies) {
    if (!d.cf(fi.family) || !family_options(fi.family).disable_auto_compactions) continue;
    rocksdb::ColumnFamilyMetaData md;
    d.db->GetColumnFamilyMetaData(d.cf(fi.family), &md);
    if (md.levels.empty() || md.levels[0].files.size() <= kRunsKept) continue;
    std::vector<std::string> files;
    for (const rocksdb::SstFileMetaData& file : md.levels[0].files) files.push_back(file.db_path + file.name);
    if (Status s = merge_into_one(d, fi.family, files, 0); !s) return s;
  }
  return {};
}

void BulkLoad::join_small_files(Database::Impl& d) {
  if (d.mode != OpenMode::ReadWrite || !d.db) return;
  for (Family f : {Family::Games, Family::Summaries}) {
    if (!d.cf(f)) continue;
    rocksdb::ColumnFamilyMetaData md;
    d.db->GetColumnFamilyMetaData(d.cf(f), &md);
    for (const rocksdb::LevelMetaData& level : md.levels) {
      if (level.level == 0) continue;
      // Files of a level below 0 are listed in key order.
      std::vector<std::vector<std::string>> runs(1);
      for (const rocksdb::SstFileMetaData& file : level.files) {
        if (file.size < kSmallFileBytes && !file.being_compacted)
          runs.back().push_back(file.db_path + file.name);
        else if (!runs.back().empty())
          runs.emplace_back();
      }
      for (const std::vector<std::string>& run : runs) {
        if (run.size() < kJoinFiles) continue;
        rocksdb::CompactionOptions co;
        co.compression = level.level + 1 == int(md.levels.size()) ? family_options(f).bottommost_compression
                                                                  : family_options(f).compression;
        co.output_file_size_limit = 2 * kSmallFileBytes;
        const rocksdb::Status s = d.db->CompactFiles(co, d.cf(f), run, level.level);
        if (!s.ok()) log::debug("joining the small table files of {}: {}", d.path, s.ToString());
      }
    }
  }
}

Status BulkLoad::end() {
  if (!active_) return {};
  active_ = false;
  wait_for_merge();
  // No compaction starts from here on, and the running ones end first: the
  // level-0 files are then this function's.
  for (const FamilyInfo& fi : kFamilies)
    if (d_.cf(fi.family))
      if (Status s = set_options(d_, fi.family, {{"disable_auto_compactions", "true"}}); !s) return s;
  wait_for_running_compactions(d_);

  std::vector<Family> to_last_level;
  std::vector<std::pair<Family, SortedRun>> to_merge;
  for (const FamilyInfo& fi : kFamilies) {
    const Family f = fi.family;
    if (!d_.cf(f)) continue;
    const Survey s = survey(d_, f, newest_before_);
    if (s.own.files.empty()) continue;
    // A family left with no more runs above its last level than an import
    // leaves is left as it is (an import into an empty database that
    // ingested a few times): merging them would cost the import a pass over
    // its own entries and spare a query only a file or two.
    if (s.own_runs + s.older.size() <= kRunsKept) continue;
    // A family that compacted as it went has its entries on several levels:
    // they go to the last.
    if (compacting_[std::size_t(f)] && s.own_runs >= 2) {
      to_last_level.push_back(f);
      continue;
    }
    std::optional<SortedRun> merged = plan_merge(s);
    if (!merged)
      to_last_level.push_back(f);
    else if (merged->files.size() > s.own.files.size() || s.own_runs >= 2)
      to_merge.emplace_back(f, std::move(*merged));
  }
  // The families' merges side by side (a merge runs on one thread; the
  // opening tree's, of many small entries, is the longest: 13 s for a
  // million games' run with two million's before it).
  std::vector<Status> merged(to_merge.size());
  {
    std::vector<std::jthread> mergers;
    for (std::size_t i = 0; i < to_merge.size(); ++i)
      mergers.emplace_back([&, i] {
        merged[i] = merge_into_one(d_, to_merge[i].first, to_merge[i].second.files, to_merge[i].second.level);
      });
  }
  for (std::size_t i = 0; i < to_merge.size(); ++i)
    if (!merged[i]) {
      log::debug(merged[i].error().message);
      to_last_level.push_back(to_merge[i].first);  // compacted instead
    }
  Status compacted = d_.compact(to_last_level);
  // The usual options again, whatever the merges came to.
  for (const FamilyInfo& fi : kFamilies) {
    if (!d_.cf(fi.family)) continue;
    const rocksdb::ColumnFamilyOptions usual = family_options(fi.family);
    if (Status s = set_options(
            d_, fi.family,
            level0_options(usual.level0_file_num_compaction_trigger, usual.level0_slowdown_writes_trigger,
                           usual.level0_stop_writes_trigger, !usual.disable_auto_compactions));
        !s)
      return s;
  }
  return compacted;
}

}  // namespace virrey::store
