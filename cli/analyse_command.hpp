// `virrey analyse`: engine analysis of PGN files or of a database's games:
// annotated PGN, one JSON object per move, or a summary per game and player.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "filter_options.hpp"
#include "output.hpp"

namespace virrey::cli {

struct AnalyseOptions {
  std::vector<std::string> inputs;  // PGN files; none: the games of --db
  std::string db;                   // the database (games and the cache)
  FilterOptions filter;             // with --db; --variant: also the default variant of inputs
  std::string engine;               // empty: the variant's Debian engine
  std::string protocol;             // uci or xboard; empty: uci for --engine
  std::uint64_t nodes = 0;
  int depth = 0;
  std::uint32_t movetime = 0;
  int hash = 0;
  std::vector<std::string> engine_options;  // NAME=VALUE
  double engine_timeout = 10;               // seconds beyond the search's own limit
  int jobs = 1;
  std::string plies;  // A-B
  std::string side;   // white, black
  Format format = Format::Pgn;
  bool summary = false;  // also the summary, on stderr
  bool cached = false;   // only what the database's cache holds: no engine search
  std::string output;
  int batch = 0;  // games analysed together (0: 8 per job)
};

int run_analyse(const AnalyseOptions& options);

}  // namespace virrey::cli
