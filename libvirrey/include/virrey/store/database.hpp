// Database: the one facade over a virrey database (a RocksDB directory). It
// opens for writing (one process at a time) or for reading beside a running
// writer, and offers the reads that search, stats and export need. No RocksDB
// type appears here; errors are values (error.hpp).
//
// Readers see one consistent state: the database as of the writer's last
// commit when they opened it (read-only and secondary opens; an import
// commits every few seconds), or their own writes (a read-write open). A game
// is always stored whole with all its index entries and the counters.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "virrey/base/error.hpp"
#include "virrey/game/game_record.hpp"
#include "virrey/importers/fingerprint.hpp"
#include "virrey/rules/material.hpp"
#include "virrey/rules/types.hpp"
#include "virrey/rules/variant.hpp"
#include "virrey/store/game_codec.hpp"
#include "virrey/store/game_summary.hpp"
#include "virrey/store/openings.hpp"
#include "virrey/store/schema.hpp"
#include "virrey/store/tree_counters.hpp"

namespace virrey::store {

enum class OpenMode : std::uint8_t {
  ReadWrite,  // creates the database when the path is missing or an empty directory
  ReadOnly,   // a snapshot; no writer may run meanwhile
  Secondary,  // a snapshot beside a running writer (RocksDB secondary instance)
  Read,       // ReadOnly when no process writes the database, Secondary otherwise
};

struct OpenOptions {
  OpenMode mode = OpenMode::Read;
  // ReadWrite: create the database when missing (else NotADatabase).
  bool create = true;
};

// The database path: `flag` when given, else $VIRREY_DB, else "virrey.db".
std::string default_database_path(std::string_view flag);

// Bytes of every file under a database directory (logs included), as `du`.
std::uint64_t directory_bytes(const std::string& path);

struct VariantCounts {
  std::uint64_t games = 0;
  std::uint64_t positions = 0;  // position index entries
};

struct FamilySize {
  std::string_view name;
  std::uint64_t bytes = 0;         // table files on disk
  std::uint64_t entries = 0;       // keys in table files (tree: before merging operands)
  std::uint32_t files = 0;         // table files
  std::uint32_t level0_files = 0;  // of them, not yet compacted below level 0
};

struct DatabaseInfo {
  std::string path;
  std::uint32_t schema_version = 0;
  std::uint32_t hash_table_id = 0;
  std::uint32_t tree_plies = 0;
  GameId next_game_id = 1;
  std::array<VariantCounts, kVariantCount> counts{};
  std::vector<FamilySize> families;  // in kFamilies order
  std::uint64_t total_bytes = 0;     // every file of the directory
};

// A game whose main line may reach a position.
struct PositionHit {
  GameId game = 0;
};

struct TreeMove {
  Move move{};
  TreeCounters counters;
};

struct PromotionFilter {
  std::optional<Variant> variant;
  std::optional<PieceType> piece;
  std::optional<Color> colour;
  std::optional<int> file;  // 0 = a-file
};

struct PromotionHit {
  Variant variant = Variant::Standard;
  PieceType piece = PieceType::None;
  Color colour = Color::White;
  int file = 0;
  GameId game = 0;
  std::uint32_t ply = 0;
  std::uint8_t flags = 0;  // PromotionFlag bits (game_index.hpp)
};

// A game that reaches a material balance, and the plies where it holds:
// first_ply .. first_ply + plies - 1.
struct MaterialHit {
  GameId game = 0;
  std::uint32_t first_ply = 0;
  std::uint32_t plies = 1;
};

enum class TagMatch : std::uint8_t { Exact, Prefix };

// An input imported to its end, found again by its fingerprint.
struct InputRecord {
  std::string name;  // path as given
  std::uint64_t games_read = 0;
  std::uint64_t games_stored = 0;
  std::int64_t unix_time = 0;  // when its import finished
  // Its probe (importers/fingerprint.hpp); none in records written before
  // probes were kept.
  std::optional<importers::InputProbe> probe;
  std::uint64_t games_rejected = 0;  // games with errors (0 in records written before it was kept)
};

// What the calling thread read from the database's table files since
// start_read_counting() (for `search --explain`): data, index and filter
// blocks read from files, and blocks found in the block cache instead.
struct ReadCounts {
  std::uint64_t bytes = 0;   // block bytes read from table files
  std::uint64_t blocks = 0;  // blocks read from table files
  std::uint64_t cache_hits = 0;
};
void start_read_counting();
ReadCounts read_counts();

// Content fingerprint of an input (importers/fingerprint.hpp).
using Fingerprint = importers::Fingerprint;

// Where an engine result is cached.
struct AnalysisKey {
  Variant variant = Variant::Standard;
  std::uint64_t position = 0;  // the position's Zobrist hash
  std::uint64_t engine = 0;    // hash of engine name, version, options and limits
};

// Callbacks return false to stop the iteration early.
template <class... Args>
using Visit = std::function<bool(Args...)>;

class Database {
 public:
  static Result<std::unique_ptr<Database>> open(const std::string& path, OpenOptions options = {});
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  const std::string& path() const;
  bool writable() const;

  // --- counts and layout ------------------------------------------------
  std::array<VariantCounts, kVariantCount> counts() const;
  std::uint32_t tree_plies() const;
  Result<DatabaseInfo> info() const;

  // --- games ------------------------------------------------------------
  // main_line_plies, main_line_min_men: as decode_game's (game_codec.hpp).
  Result<game::GameRecord> game(GameId id, unsigned parts = kDecodeAll,
                                std::uint32_t main_line_plies = kWholeMainLine,
                                int main_line_min_men = 0) const;
  Result<GameSummary> summary(GameId id) const;
  // Games in id order from `first` on.
  Status for_each_game(const Visit<GameId, const game::GameRecord&>& visit, unsigned parts = kDecodeAll,
                       GameId first = 1) const;
  Status for_each_summary(const Visit<GameId, const GameSummary&>& visit, GameId first = 1) const;

  // --- indexes ----------------------------------------------------------
  // Games whose main line may reach the position (variant + Zobrist hash), by
  // game id, each once: every game that reaches it, and now and then one
  // whose position only shares part of the hash. Confirm by replay.
  Status for_each_position(Variant v, std::uint64_t hash, const Visit<const PositionHit&>& visit) const;
  // The moves played from a position (plies < tree_plies()), by move bytes.
  Result<std::vector<TreeMove>> tree_moves(Variant v, std::uint64_t hash) const;
  // Games with a tag value (normalised here): exactly, or starting with it.
  // By value, then by game id (an exact value's: by game id). In a database
  // written before MetaKey::TagFolding, every form the value may have there
  // is read (keys.hpp: tag_key_forms).
  Status for_each_tag(TagField field, std::string_view value, TagMatch match,
                      const Visit<GameId, std::string_view /*normalised value*/>& visit) const;
  // Games with lo <= value and value <= hi, where a value that starts with hi
  // counts as <= hi (dates: "2001" .. "2003.06" takes all of June 2003).
  // Empty lo or hi leaves that side open.
  Status for_each_tag_range(TagField field, std::string_view lo, std::string_view hi,
                            const Visit<GameId, std::string_view>& visit) const;
  // Every promotion that passes the filter, in key order (variant, piece,
  // colour, file, game, ply).
  Status for_each_promotion(const PromotionFilter& filter, const Visit<const PromotionHit&>& visit) const;

  // The material index (material balances as rules/material.hpp keys): false
  // for a database written before it, until `db upgrade` builds it.
  bool has_material_index() const;
  // The material dictionary is complete in search order too, so a search by
  // counts seeks (false for a database written before it, until `db upgrade`).
  bool has_material_order() const;
  // Every game summary records the final mate and the time class (false for
  // a database written before they were, until `db upgrade` rewrites them).
  bool has_summary_features() const;
  // The balances some game of the variant reaches, by key.
  Status for_each_material(Variant v, const Visit<std::uint64_t>& visit) const;
  // The balances of the variant within a box, by key; seeks over the rest
  // when the dictionary in search order is complete, else filters them all.
  Status for_each_material_within(Variant v, const MaterialBounds& box,
                                  const Visit<std::uint64_t>& visit) const;
  // The games that reach a balance, by game id.
  Status for_each_material_game(Variant v, std::uint64_t material,
                                const Visit<const MaterialHit&>& visit) const;
  // The games of several balances (in key order), balance by balance, read
  // through one iterator.
  Status for_each_material_games(Variant v, const std::vector<std::uint64_t>& materials,
                                 const Visit<std::uint64_t, const MaterialHit&>& visit) const;
  // The games of every balance within a box that `accept`s, balance by
  // balance, each balance's in id order: one pass that seeks over the
  // balances outside the box and reads the postings of those inside as it
  // meets them.
  Status for_each_material_games_within(Variant v, const MaterialBounds& box,
                                        const std::function<bool(std::uint64_t)>& accept,
                                        const Visit<std::uint64_t, const MaterialHit&>& visit) const;

  // --- openings (`db classify`) --------------------------------------------
  // The game's opening; nullopt when it has none (not classified, or no
  // position of the ECO file occurs in it).
  Result<std::optional<StoredOpening>> opening(GameId id) const;
  // Every classified game, by id.
  Status for_each_opening(const Visit<GameId, const StoredOpening&>& visit) const;
  // The name the ECO file gives a position; nullopt when it names none.
  Result<std::optional<StoredOpening>> named_position(Variant v, std::uint64_t hash) const;
  // What the ECO file of the last classification was ("eco.pgn: 2014 lines");
  // nullopt when the database was never classified.
  Result<std::optional<std::string>> opening_source() const;
  // Replaces the named positions and the source description, in one atomic write.
  Status put_named_positions(std::string_view source, const std::vector<NamedPosition>& positions);
  // Sets (or, for nullopt, clears) games' openings, in one atomic write.
  Status put_openings(const std::vector<std::pair<GameId, std::optional<StoredOpening>>>& openings);
  // The first game an import naming openings (`import --openings`) stored
  // and has not classified yet: set as such an import starts, cleared once
  // its games are classified, so that the next one classifies from there
  // when an import was killed between the two.
  Result<std::optional<GameId>> openings_pending() const;
  Status set_openings_pending(std::optional<GameId> first);

  // --- imported inputs (meta) --------------------------------------------
  Result<std::optional<InputRecord>> find_input(const Fingerprint& fp) const;
  Status record_input(const Fingerprint& fp, const InputRecord& record);
  // Many at once, in one write (an import of thousands of small files
  // would otherwise flush once per file).
  Status record_inputs(const std::vector<std::pair<Fingerprint, InputRecord>>& records);
  // Every recorded input, by fingerprint.
  Status for_each_input(const Visit<const Fingerprint&, const InputRecord&>& visit) const;

  // --- the analysis cache (meta) ------------------------------------------
  // Engine results by variant, position hash and a hash of the engine, its
  // version and limits. The value is the analyse layer's: it holds the full
  // position and engine description, so that a reader can tell a hash
  // collision from a hit.
  Result<std::optional<std::string>> find_analysis(const AnalysisKey& key) const;
  // Whether the cache holds any result at all (of any engine).
  Result<bool> has_analyses() const;
  // Stores these results in one atomic write.
  Status put_analyses(const std::vector<std::pair<AnalysisKey, std::string>>& entries);

  // --- maintenance --------------------------------------------------------
  // Compacts every family (merges tree operands, drops overwritten data).
  Status compact();

  // Internal: the RocksDB side, for the store's own sources.
  struct Impl;
  Impl& impl() const { return *impl_; }

 private:
  explicit Database(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace virrey::store
