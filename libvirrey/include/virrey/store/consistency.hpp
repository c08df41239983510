// `virrey db check`: verifies every index against the game records. Each
// record is decoded and re-indexed (game_index.hpp); every entry it implies
// must be stored, and every stored index entry must belong to a stored game
// that implies it. The tree is checked by summing every game's contribution.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "virrey/store/database.hpp"

namespace virrey::store {

struct CheckReport {
  std::uint64_t games = 0;
  std::uint64_t entries = 0;          // index entries verified
  std::vector<std::string> problems;  // empty: consistent (at most 100 kept)
  std::uint64_t problem_count = 0;
  bool ok() const { return problem_count == 0; }
};

// `progress` (optional) is called now and then with the games checked so far.
Result<CheckReport> check_database(const Database& db,
                                   const std::function<void(std::uint64_t)>& progress = {});

}  // namespace virrey::store
