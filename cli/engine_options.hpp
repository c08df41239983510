// The engine and search limits of `analyse`, which also select the analysis
// cache's entries that `stats players` reads: as option text, and their
// conversion to the analyse layer's options.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "virrey/analyse/analyser.hpp"
#include "virrey/base/error.hpp"

namespace virrey::cli {

struct EngineOptions {
  std::string engine;    // empty: the variant's Debian engine
  std::string protocol;  // uci or xboard; empty: uci for --engine
  std::uint64_t nodes = 0;
  int depth = 0;
  std::uint32_t movetime = 0;
  int hash = 0;
  std::vector<std::string> engine_options;  // NAME=VALUE
  double engine_timeout = 10;               // seconds beyond the search's own limit
};

// The default limit when none is given.
constexpr std::uint64_t kDefaultNodes = 100000;

// The engine and limits of analyse::Options (the rest left at its defaults),
// or a usage error naming the option.
Result<analyse::Options> analysis_options(const EngineOptions& options);

// Whether an engine searching with `hash_mb` MB of hash fits this machine's
// memory (an XBoard engine's `memory` has no range to check it against: more
// than the machine holds, and it fails at every position); logs why not.
// Only for a run that searches: the cache's entries of a larger machine's
// hash are still read.
bool hash_fits_memory(int hash_mb);

}  // namespace virrey::cli
