// GameImporter: stores checked games in large atomic commits. Games are
// indexed on worker threads and written by one writer thread, so checking,
// indexing and writing overlap. Every commit holds whole games with all their
// index entries and the updated counters: a killed import leaves a database
// with no partial game, and importing the same games again stores none of
// them twice (a game equal to a stored one is counted as a duplicate).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "virrey/game/game_record.hpp"
#include "virrey/store/database.hpp"
#include "virrey/store/game_index.hpp"

namespace virrey::store {

struct ImportOptions {
  int threads = 1;                 // indexing threads
  std::size_t batch_games = 2048;  // games indexed together
  // Games are committed (made durable and visible to readers, atomically)
  // when this much time has passed since the last commit, or about 96 MB of
  // index entries have gathered, and at the end. A killed import loses what
  // it had not committed; its rerun adds it.
  double commit_seconds = 2.0;
  // A family whose table files of this import pile up this many in level 0
  // (an import into a larger database, of more than about a million and a
  // half games) has them merged into one in the background.
  std::size_t merge_level0_files = 96;
};

struct ImportTotals {
  std::uint64_t stored = 0;
  std::uint64_t duplicates = 0;  // equal to a stored game, or earlier in this import
  std::uint64_t positions = 0;   // position index entries written
};

// A game indexed and encoded, ready for GameImporter::add: the work that
// needs only the game, which a caller may do on its own threads (import
// does it on the checking threads, where the record is still in cache).
struct PreparedGame {
  Result<GameIndex> index = Error{};
  Result<std::string> record = Error{};  // the stored game record
};
// With a complete trace of the record's main line holding its move numbers
// (what the validator records with CheckOptions::trace_main_line), nothing
// is replayed; else the record is.
PreparedGame prepare_game(const game::GameRecord& record, const game::MainLineTrace* trace = nullptr);

class GameImporter {
 public:
  // `db` must be open ReadWrite and outlive the importer.
  GameImporter(Database& db, ImportOptions options = {});
  ~GameImporter();  // finishes (errors are then dropped: call finish())
  GameImporter(const GameImporter&) = delete;
  GameImporter& operator=(const GameImporter&) = delete;

  // Queues a game that the validator found free of errors. Blocks while the
  // writer is a few batches behind. Fails once a write has failed.
  Status add(game::GameRecord record);
  Status add(PreparedGame game);
  // Writes what is queued and waits for it; the totals of the whole import.
  Result<ImportTotals> finish();
  // What is committed so far (any thread).
  ImportTotals committed() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace virrey::store
