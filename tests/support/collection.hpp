// Test collections: records from PGN text, files or the generator, stored
// in a temporary database; and for the query tests an independent
// answer to every query: each game replayed with the rules library, its
// positions kept as FEN text (no hashing), its promotions and tags as read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "temp_dir.hpp"
#include "virrey/game/game_record.hpp"
#include "virrey/store/database.hpp"

namespace virrey::testing {

// FEN without the two clock fields: what "the same position" means.
std::string position_key(std::string_view fen);

struct ScannedPromotion {
  std::uint32_t ply;
  Color colour;
  PieceType piece;
  int file;
};

struct ScannedGame {
  store::GameId id = 0;
  game::GameRecord record;
  std::vector<std::string> positions;  // position_key after each ply (0: start)
  std::vector<ScannedPromotion> promotions;
};

struct Collection {
  TempDir dir;
  std::unique_ptr<store::Database> db;
  std::vector<ScannedGame> games;  // by id
  std::string db_path() const { return dir.path() + "/db"; }
};

// Stores the records in a new database at `path` as an import does (every
// record must be stored); with `compact`, leaves table files only, so that
// readers replay no write-ahead log. The one way a test builds a database
// from records.
void store_records(const std::string& path, const std::vector<game::GameRecord>& records,
                   bool compact = false);

// Stores the records (ReadWrite, then reopened for reading) and scans what
// the database holds back.
std::unique_ptr<Collection> make_collection(const std::vector<game::GameRecord>& records);

// The records of a PGN text (every game must be free of errors).
std::vector<game::GameRecord> records_from_pgn(std::string_view pgn, Variant default_variant);
// The games of a PGN file (.zst too) that have no error.
std::vector<game::GameRecord> records_from_file(const std::string& path);
// Generated games (virrey/generate).
std::vector<game::GameRecord> generated(Variant v, std::uint64_t seed, int games);

}  // namespace virrey::testing
