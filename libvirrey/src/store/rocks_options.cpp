// RocksDB options of the database and of each column family, in one place.
#include <rocksdb/env.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/memtablerep.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>

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
  // writer) opens table files as queries need them: searches start fast.
  o.max_open_files = mode == OpenMode::ReadOnly ? 10000 : -1;
  if (mode != OpenMode::ReadWrite) {
    o.max_file_opening_threads = 1;
    o.skip_stats_update_on_db_open = true;
    o.skip_checking_sst_file_sizes_on_db_open = true;
  }
  // Writes skip the write-ahead log (see Database::Impl::write): the
  // families are flushed together, so a killed writer leaves the database as
  // of its last flush, every family at the same write, and readers beside a
  // writer open without replaying a log.
  o.atomic_flush = true;
  if (mode != OpenMode::ReadWrite) o.info_log = std::make_shared<NullLogger>();
  // Bulk import: the writer has one thread, and bounded memory overall.
  // Vector memtables (family_options) take no concurrent writes.
  o.allow_concurrent_memtable_write = false;
  o.db_write_buffer_size = std::size_t(1) << 30;
  return o;
}

rocksdb::ColumnFamilyOptions family_options(Family f, bool writer) {
  rocksdb::ColumnFamilyOptions o;
  rocksdb::BlockBasedTableOptions table;
  table.block_size = 16 << 10;
  table.format_version = 5;
  o.compression = rocksdb::kLZ4Compression;
  o.bottommost_compression = rocksdb::kZSTD;
  o.level_compaction_dynamic_level_bytes = true;
  o.target_file_size_base = 64 << 20;
  o.write_buffer_size = 64 << 20;
  o.max_write_buffer_number = 3;

  switch (f) {
    case Family::Meta:
      table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
      o.write_buffer_size = 4 << 20;
      break;
    case Family::Games:
      table.block_size = 32 << 10;
      o.compression = rocksdb::kZSTD;  // records are most of a database's bytes
      break;
    case Family::Summaries:
      break;
    case Family::Positions:
    case Family::Tree:
      o.write_buffer_size = 128 << 20;
      table.block_size = 32 << 10;
      if (f == Family::Tree) o.merge_operator = make_tree_merge_operator();
      break;
    case Family::Tags:
    case Family::Promotions:
      break;
    case Family::Identities:
      // Import looks every game up here: a prefix bloom filter per table.
      o.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(9));
      table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
      table.whole_key_filtering = false;
      break;
  }
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  // The writer never reads the index families while importing: appending to
  // a vector and sorting at flush beats inserting into a skip list (half of
  // import time). Families it reads (meta, games, identities) keep the list.
  const bool write_only = f == Family::Summaries || f == Family::Positions || f == Family::Tree ||
                          f == Family::Tags || f == Family::Promotions;
  if (writer && write_only) o.memtable_factory = std::make_shared<rocksdb::VectorRepFactory>();
  return o;
}

}  // namespace virrey::store
