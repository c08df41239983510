// Running an import: the inputs checked by the ingest pipeline and their good
// games stored, inputs imported before recognised by content and skipped, the
// inputs read recorded for next time. What a caller prints is its own.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/base/error.hpp"
#include "virrey/rules/types.hpp"
#include "virrey/store/database.hpp"
#include "virrey/validate/finding.hpp"

namespace virrey::import {

struct Options {
  std::vector<std::string> inputs;              // paths or "-"; none means standard input
  Variant default_variant = Variant::Standard;  // of games without a Variant tag
  int threads = 1;                              // checking and indexing threads
  double commit_seconds = 2.0;                  // store::ImportOptions::commit_seconds
  bool force = false;                           // read inputs imported before again
  bool compact = false;                         // compact the database at the end
  // Games with errors, written here byte for byte as read (none when null).
  // An input whose rejected games could not all be written (a full disk) is
  // not recorded as imported: importing it again writes them.
  std::FILE* rejects = nullptr;
  // The errors of rejected games and the inputs' problems, as they are met.
  std::function<void(std::string_view file, const validate::Finding&)> on_finding;
  // Now and then, games read and bytes read so far.
  std::function<void(std::uint64_t games, std::uint64_t bytes)> on_progress;
  // Once, when reading ends: before the last commit, the input records and the compaction.
  std::function<void()> on_read_end;
};

struct InputSummary {
  std::string name;             // as given
  bool skipped = false;         // imported before: not read
  bool read = false;            // read to its end (it is recorded when it has a fingerprint)
  std::uint64_t games = 0;      // games read from it
  std::uint64_t raw_bytes = 0;  // bytes taken from it, every pass counted
};

struct Summary {
  std::uint64_t read = 0, stored = 0, rejected = 0, duplicates = 0, positions = 0;
  double seconds = 0;                // from the first game read to the end
  std::vector<std::string> skipped;  // inputs imported before, in the order given
  std::uint64_t skipped_rejected = 0;  // games the skipped inputs had with errors when they were imported
  std::vector<InputSummary> inputs;  // every input, in the order given
  bool read_all = true;              // every input was opened and read to its end (or skipped)
  int rejects_errno = 0;             // the system's reason the first failed write of a rejected game gave
};

// Imports into `db` (open ReadWrite). An error is a failed database read or
// write; games committed before it are kept, whole.
Result<Summary> run(store::Database& db, const Options& options);

}  // namespace virrey::import
