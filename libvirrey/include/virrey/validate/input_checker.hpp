// Checks every game of a list of inputs (paths or "-"), on several threads if
// asked, and hands each game's report to the caller in input order. Memory is
// bounded by a few batches of games, never by the size of an input. Games
// seen earlier in the run are flagged as duplicates. The callbacks may run on
// any of the threads, but never two at once, and always in input order; an
// exception thrown by one stops every thread and leaves check_inputs.
#pragma once

#include <any>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/pgn/game_splitter.hpp"
#include "virrey/validate/game_checker.hpp"

namespace virrey::validate {

struct InputCheckOptions {
  CheckOptions check;
  int threads = 1;
  pgn::SplitterOptions splitter;
  bool keep_raw = false;  // fill GameReport::raw (for a rejects file)
  // Warn (DuplicateGame) about a game equal to an earlier one of the inputs.
  // Import, which counts duplicates against the database, turns it off.
  bool flag_duplicates = true;
};

struct GameReport {
  std::string_view file;  // the input's display name
  std::uint64_t number = 0;
  pgn::Location start;
  CheckedGame game;
  std::string raw;  // the game's bytes as read, when keep_raw
  std::any attachment;  // what InputCallbacks::checked left for `game`
};

struct InputCallbacks {
  // Called on the checking thread as soon as a game is checked (games in
  // any order, several at once): work on the game that may run in parallel,
  // its result left in GameReport::attachment. The report's other fields
  // but `game`, `number` and `start` are filled later.
  std::function<void(GameReport&)> checked;
  // Called for every game in input order, one at a time.
  std::function<void(GameReport&)> game;
  // An input that could not be opened or read to its end (code IoError), or
  // a game skipped for its size (OversizedGame); `file` names the input.
  std::function<void(std::string_view file, const Finding&)> problem;
  // Called now and then with bytes read so far (for a progress display).
  std::function<void(std::uint64_t games, std::uint64_t bytes)> progress;
};

// Returns false when some input could not be opened or read.
bool check_inputs(const std::vector<std::string>& paths, const InputCheckOptions& options,
                  const InputCallbacks& callbacks);

}  // namespace virrey::validate
