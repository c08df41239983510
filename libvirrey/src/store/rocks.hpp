// The RocksDB side of the store: Database::Impl and the helpers the store's
// sources share. Private to libvirrey/src/store (the only RocksDB includer).
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/options.h>

#include "virrey/store/database.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store {

// A RocksDB status as an Error; `what` says what was being done.
Error to_error(const rocksdb::Status& s, std::string_view what);
// A RocksDB status's text without the line ending some messages carry.
std::string status_text(const rocksdb::Status& s);

// Options of each family (rocks_options.cpp).
rocksdb::ColumnFamilyOptions family_options(Family f);
rocksdb::DBOptions db_options(OpenMode mode);
// The information log (LOG) of the database in `dir` open for writing, which
// a full disk ends instead of the process (database_log.cpp).
std::shared_ptr<rocksdb::Logger> database_log(const std::string& dir);

// The merge operator that sums TreeCounters (tree_merge.cpp).
std::shared_ptr<rocksdb::MergeOperator> make_tree_merge_operator();

// For a merge operator: an operand with no other and no value beneath it
// is the merged value as it stands, so it keeps its bytes (true; nothing to
// decode and code again). A compaction into the last level meets every
// entry an import wrote as such an operand: about 5 % of the tree's.
inline bool keep_lone_operand(const rocksdb::MergeOperator::MergeOperationInput& in,
                              rocksdb::MergeOperator::MergeOperationOutput* out) {
  if (in.existing_value || in.operand_list.size() != 1) return false;
  out->existing_operand = in.operand_list.front();
  return true;
}

// The smallest string greater than every string with this prefix ("" if none).
std::string prefix_successor(std::string_view prefix);

// The meta entries that hold the counters: next game id (u32), games and
// positions per variant (u64), as key and value.
std::vector<std::pair<std::string, std::string>> counter_entries(
    GameId next_game_id, const std::array<VariantCounts, kVariantCount>& counts);

struct Database::Impl {
  std::string path;
  OpenMode mode = OpenMode::ReadWrite;  // ReadWrite, ReadOnly or Secondary
  std::string secondary_dir;            // removed once the secondary instance is open
  bool registered_writer = false;       // in the registry of databases this process writes
  // The LOCK file, opened for flock (database_open.cpp): shared by a
  // read-only reader while it is open; tried exclusively by a writer, which
  // holds RocksDB's file deletions (`deletions_held`) while readers are open.
  int readers_fd = -1;
  bool deletions_held = false;
  std::unique_ptr<rocksdb::DB> db;
  rocksdb::ColumnFamilyHandle* default_cf = nullptr;
  std::array<rocksdb::ColumnFamilyHandle*, kFamilyCount> cfs{};

  // Meta, read at open and kept current by the writer (under meta_mutex).
  mutable std::mutex meta_mutex;
  std::uint32_t schema_version = 0;
  std::uint32_t hash_table_id = 0;
  std::uint32_t tree_plies = kTreePlies;
  bool material_index = false;  // material_complete_key() is present
  bool material_ordered = false;  // material_ordered_complete_key() is present
  bool summary_features = false;  // MetaKey::SummaryFormat is 2: every summary has mate and time class
  std::uint32_t identity_format = 1;  // MetaKey::IdentityFormat, 1 when absent (identities.hpp)
  bool tags_folded = false;        // MetaKey::TagFolding is 2: tag keys need no other forms (keys.hpp)
  GameId next_game_id = 1;
  std::array<VariantCounts, kVariantCount> counts{};

  ~Impl();
  rocksdb::ColumnFamilyHandle* cf(Family f) const { return cfs[std::size_t(f)]; }
  rocksdb::ReadOptions read_options() const;
  // The options of a scan over the keys with a prefix of this size: the
  // identities' exact 9-byte prefix uses their prefix bloom filters.
  rocksdb::ReadOptions prefix_read_options(Family f, std::size_t prefix_size) const;

  // Visits every entry whose key starts with `prefix`, in key order, from
  // `from` (a key >= prefix; empty: the prefix itself).
  Status scan(Family f, std::string_view prefix,
              const std::function<bool(std::string_view key, std::string_view value)>& visit,
              std::string_view from = {}) const;
  Status get(Family f, std::string_view key, std::string& value, bool& found) const;
  // Applies a small batch atomically and flushes it (no write-ahead log).
  Status write(rocksdb::WriteBatch& batch);
  // Flushes every family together (atomic_flush); `wait`: until on disk.
  Status flush(bool wait);

  // Reads schema, counters and next id from meta.
  Status load_meta();
  // The meta entries of the writer's counters, added to a batch.
  void put_counters(rocksdb::WriteBatch& batch) const;
  // A u32 meta entry (schema version, hash table id, tree plies), added to a batch.
  void put_meta_u32(rocksdb::WriteBatch& batch, MetaKey k, std::uint32_t v) const;
  // Marks the material index complete (material_complete_key), in a batch.
  void mark_material_index(rocksdb::WriteBatch& batch) const;
  // Writes the material dictionary in search order from the plain one, and
  // marks it complete (a database whose index predates it).
  Status order_material_dictionary();
  // Compacts these families down to the last level (merges tree operands,
  // drops overwritten and deleted entries).
  Status compact(const std::vector<Family>& families);
};

// Whether this virrey reads the database as it is: NewerSchema (a newer
// schema or another hash table), OlderSchema (`db upgrade` would bring it
// up to date), or fine.
Status schema_status(const Database::Impl& impl);

// Database::open without the schema checks (for upgrade.cpp and the test
// hooks).
Result<std::unique_ptr<Database::Impl>> open_impl(const std::string& path, OpenOptions options,
                                                  bool check_schema);

}  // namespace virrey::store
