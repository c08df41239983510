// Hooks for tests that change a database in ways the import never does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "virrey/base/error.hpp"
#include "virrey/rules/variant.hpp"
#include "virrey/store/schema.hpp"

namespace virrey::store::testing {

// Rewrites the schema version in meta (a database "from a newer virrey").
Status set_schema_version(const std::string& path, std::uint32_t version);

// Stores these bytes as the schema version in meta (garbage, for the open
// to refuse).
Status set_schema_version_bytes(const std::string& path, const std::string& bytes);

// Deletes one game record but none of its index entries (a broken database
// for `db check` to find).
Status delete_game_record(const std::string& path, std::uint32_t id);

// Adds `game` to the position index under `hash`, as if it reached that
// position (what a hash collision looks like; no import writes it).
Status put_position_entry(const std::string& path, Variant v, std::uint64_t hash, std::uint32_t game);

// Sets the next game id in meta (a database near the end of the 32-bit
// game-id space, without billions of games).
Status set_next_game_id(const std::string& path, std::uint32_t id);

// Writes one entry as given (an older schema's layout, say).
Status put_raw_entry(const std::string& path, Family family, const std::string& key,
                     const std::string& value);

// Drops the material index: a database as virrey wrote
// it before the material index existed.
Status drop_material_index(const std::string& path);

// Drops the material dictionary in search order and its mark: a database
// as virrey wrote it before the dictionary had that order.
Status drop_material_order(const std::string& path);

// Rekeys the material postings as virrey wrote them before they were kept
// in search order (keys.hpp: kind 1, with the dictionary of kind 0, and of
// kind 3 when `search_order_dictionary`; else without kind 3's mark either).
Status key_material_postings_by_balance(const std::string& path, bool search_order_dictionary);

// Drops the mark that every game summary records the mate and the time
// class: a database as virrey wrote it before they were recorded.
Status drop_summary_format(const std::string& path);

// Keys every game's identity by its tags as read and drops the roster
// rule's mark: a database as virrey wrote it before the roster rule.
Status identities_as_read(const std::string& path);

// Writes every tag value of Latin-1's characters beyond ASCII in Latin-1
// bytes (record, tag keys and identity, whose roster values are then hashed
// as those bytes) and marks the identities of IdentityFormat 2: a database
// as virrey wrote it from a Latin-1 PGN before tags were read as UTF-8.
// Returns the games rewritten.
Result<std::uint64_t> tags_stored_as_latin1(const std::string& path);

// Keys every tag as virrey did before letters beyond Latin-1 were
// lower-cased (ASCII and Latin-1 capitals alone) and drops the mark that
// they are: a database as virrey wrote it then.
Status tags_folded_as_latin1(const std::string& path);

// The numbers of a family's table files below level 0 (those a compaction
// into the last level would replace), in ascending order.
Result<std::vector<std::uint64_t>> files_below_level0(const std::string& path, Family family);

// Moves a family's level-0 files to this level below, merged (where
// ingestion puts the table files of an import into a large database whose
// levels above the last are empty).
Status move_level0_files(const std::string& path, Family family, int level);

// Writes a family's entries (as read, merged) again `runs` times, each time
// as one ingested table file: as many sorted runs above the last level as an
// import killed while it merged its own leaves.
Status add_runs_of_the_same_entries(const std::string& path, Family family, int runs);

// A family's sorted runs above its last level (each level-0 file one, each
// level below holding files another), and the bytes there and in the last.
struct RunsAboveLastLevel {
  std::size_t runs = 0;
  std::size_t level0_files = 0;
  std::uint64_t above_bytes = 0;
  std::uint64_t last_bytes = 0;
};
Result<RunsAboveLastLevel> runs_above_last_level(const std::string& path, Family family);

// Opens the database at `path` with RocksDB alone (every part, no writes)
// and closes it: RocksDB before 8.3 then leaves one more empty log behind.
Status open_and_close_with_rocksdb(const std::string& path);

// A RocksDB database at `path` with none of virrey's parts: another
// program's, with an entry in RocksDB's default part, or (without) a
// creation killed before virrey's parts were made.
Status make_bare_rocksdb(const std::string& path, bool with_entry);
// Another program's RocksDB database with a part named `family` holding an
// entry, and an entry in its default part when `default_entry`.
Status make_rocksdb_with_family(const std::string& path, const std::string& family, bool default_entry);
// The parts (column families) of a RocksDB database, as RocksDB lists them.
std::vector<std::string> rocksdb_parts(const std::string& path);

}  // namespace virrey::store::testing
