// RocksDB options of the database and of each column family, in one place.
#include <rocksdb/cache.h>
#include <rocksdb/env.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>

#include "material_postings.hpp"
#include "rocks.hpp"

namespace virrey::store {

namespace {

// Readers must not write into the database directory (a LOG file rotated by
// a reader would rename the writer's), so they log nowhere.
class NullLogger final : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char*, va_list) override {}
  void Logv(const rocksdb::InfoLogLevel, const char*, va_list) override {}
};

// A read-only database never flushes or compacts, yet RocksDB starts a
// background thread per pool at open: here none is started.
class NoBackgroundThreadsEnv final : public rocksdb::EnvWrapper {
 public:
  NoBackgroundThreadsEnv() : rocksdb::EnvWrapper(rocksdb::Env::Default()) {}
  const char* Name() const override { return "VirreyReadOnlyEnv"; }
  void IncBackgroundThreadsIfNeeded(int, Priority) override {}
};

// One small block cache for every family of every database the process
// opens. virrey's reads are short queries and scans in key order: a block is
// read again soon or never, so room for sixteen or so blocks is enough, and a small
// cache recycles its memory. (RocksDB's default, 8 MB per family in sixteen
// shards, had a query like `search --fen ... --count` fault in a fresh page
// for nearly every block it decompressed: ten times the page faults, twice
// the time.) One shard: at most a few threads read at once.
const std::shared_ptr<rocksdb::Cache>& block_cache() {
  static const std::shared_ptr<rocksdb::Cache> cache = rocksdb::NewLRUCache(512 << 10, 0);
  return cache;
}

}  // namespace

rocksdb::DBOptions db_options(OpenMode mode) {
  rocksdb::DBOptions o;
  o.create_if_missing = false;
  o.create_missing_column_families = false;
  o.max_background_jobs = 4;
  o.max_subcompactions = 2;
  o.bytes_per_sync = 4 << 20;
  o.keep_log_file_num = 3;
  o.max_log_file_size = 8 << 20;
  o.max_manifest_file_size = 64 << 20;
  // A secondary needs every table file open from the start: the writer may
  // delete files it has compacted away while we read. A read-only open (no
  // writer) opens table files as queries need them: RocksDB opens a quarter
  // of its table cache (max_open_files - 10) up front, so one file here, and
  // a short query pays only for the files it reads.
  o.max_open_files = mode == OpenMode::ReadOnly ? 16 : -1;
  o.table_cache_numshardbits = 2;
  if (mode != OpenMode::ReadWrite) {
    // Readers neither flush nor compact: RocksDB would still start threads
    // for the jobs allowed here.
    o.max_background_jobs = 2;
    if (mode == OpenMode::ReadOnly) {
      static NoBackgroundThreadsEnv env;  // lives as long as the process
      o.env = &env;
    }
    o.max_file_opening_threads = 1;
    o.skip_stats_update_on_db_open = true;
    o.skip_checking_sst_file_sizes_on_db_open = true;
  }
  // Nothing is written through the write-ahead log: import ingests whole
  // table files (ingest_group.hpp), small writes are flushed at once
  // (Database::Impl::write), and the families flush together. So a killed
  // writer leaves the database as of a commit, every family alike, and
  // readers beside a writer open without replaying a log.
  o.atomic_flush = true;
  if (mode != OpenMode::ReadWrite) o.info_log = std::make_shared<NullLogger>();
  return o;
}

rocksdb::ColumnFamilyOptions family_options(Family f) {
  rocksdb::ColumnFamilyOptions o;
  rocksdb::BlockBasedTableOptions table;
  table.block_size = 16 << 10;
  table.format_version = 5;
  table.block_cache = block_cache();
  o.compression = rocksdb::kLZ4Compression;
  o.bottommost_compression = rocksdb::kZSTD;
  o.level_compaction_dynamic_level_bytes = true;
  o.target_file_size_base = 64 << 20;
  o.write_buffer_size = 16 << 20;  // memtables only hold meta and test writes

  switch (f) {
    case Family::Meta: table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10)); break;
    case Family::Games:
      table.block_size = 32 << 10;
      o.compression = rocksdb::kZSTD;  // read a few at a time: compress hard
      break;
    case Family::Summaries: break;
    case Family::Positions:
      // Rice-coded postings do not compress: reading them decompresses nothing.
      table.block_size = 16 << 10;
      o.compression = rocksdb::kNoCompression;
      o.bottommost_compression = rocksdb::kNoCompression;
      break;
    case Family::Tree:
      // Keys are mostly random hash bytes: a restart point (a whole key and
      // an offset) every 64 keys rather than 16 saves a byte per entry.
      table.block_size = 32 << 10;
      table.block_restart_interval = 64;
      o.merge_operator = make_tree_merge_operator();
      break;
    case Family::Tags:
    case Family::Promotions: break;
    case Family::Identities:
      // Import looks every game up here: a prefix bloom filter per table.
      o.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(9));
      table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
      table.whole_key_filtering = false;
      break;
    case Family::Material:
      // zstd at every level: keys and run headers compress (a query reads
      // a balance's runs whole, so the larger blocks cost it nothing). The
      // merge operator joins an import's runs of a balance.
      table.block_size = 32 << 10;
      o.compression = rocksdb::kZSTD;
      o.merge_operator = make_material_merge_operator();
      break;
    case Family::Openings: break;
    case Family::Squares:
      // Read a square at a time, block after block: large blocks, zstd.
      table.block_size = 64 << 10;
      o.compression = rocksdb::kZSTD;
      o.bottommost_compression = rocksdb::kZSTD;
      break;
  }
  // The families an import writes across their whole key range are
  // compacted by the import itself (bulk_load.cpp), never by RocksDB: its
  // leveled compactions would move the sorted runs an import leaves above
  // the last level down into it whenever a run outgrows a tenth of the
  // level below (a tree run of two million games into twenty: a rewrite of
  // the last level inside an import of 200,000 games, 65 s instead of 10).
  // Without automatic compactions RocksDB never stalls a write for the
  // number of level-0 files either; every import bounds it.
  switch (f) {
    case Family::Positions:
    case Family::Tree:
    case Family::Tags:
    case Family::Promotions:
    case Family::Identities:
    case Family::Material: o.disable_auto_compactions = true; break;
    default: break;
  }
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return o;
}

}  // namespace virrey::store
