// The test collection of the stats tests: generated Standard, Virrey and
// Modern games (with some tags removed, re-spelt or added so that every
// grouping has unknown and case-folded values), stored in a temporary
// database, and each game replayed here with the rules library, independently
// of the store's indexes: the reference every statistic is compared with.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "collection.hpp"
#include "virrey/game/game_record.hpp"
#include "virrey/rules/types.hpp"
#include "virrey/store/database.hpp"
#include "virrey/store/game_summary.hpp"

namespace virrey::stats_test {

struct RefPromotion {
  std::uint32_t ply = 0;  // 1-based
  Color colour = Color::White;
  PieceType piece = PieceType::None;
  int file = 0;
  bool captured_later = false;
  bool gave_mate = false;
};

// One game as the reference sees it.
struct RefGame {
  store::GameId id = 0;
  game::GameRecord record;
  std::vector<std::string> keys;  // position before each move, then the final one (FEN, no clocks)
  std::vector<std::string> uci;   // main-line moves
  std::vector<std::string> san;
  std::vector<RefPromotion> promotions;
  store::Ending ending = store::Ending::Other;
  std::uint32_t white_elo = 0, black_elo = 0;  // 0: none
  std::uint32_t date = 0;                      // yyyymmdd, 0 parts unknown
};

class Collection {
 public:
  ~Collection();
  std::string db_path() const { return dir_ + "/stats.db"; }
  std::unique_ptr<store::Database> db;  // open for reading
  std::vector<RefGame> games;           // in id order

  static Collection& shared();  // built once per test process

 private:
  Collection() = default;
  std::string dir_;
  friend std::unique_ptr<Collection> build();
};

using virrey::testing::position_key;  // a FEN without its two clock fields (collection.hpp)

}  // namespace virrey::stats_test
