// `virrey analyse`: engine analysis of PGN files or of a database's games:
// annotated PGN, one JSON object per move, or a summary per game and player.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine_options.hpp"
#include "filter_options.hpp"
#include "output.hpp"

namespace virrey::cli {

struct AnalyseOptions {
  std::vector<std::string> inputs;  // PGN files; none: the games of --db
  std::string db;                   // the database (games and the cache)
  FilterOptions filter;             // with --db; --variant: also the default variant of inputs
  std::vector<std::string> filters_given;  // the filters' option names given, but --variant
  EngineOptions engine;             // the engine and limits
  int jobs = 1;
  std::string plies;  // A-B
  std::string side;   // white, black
  Format format = Format::Pgn;
  bool summary = false;  // also the summary, on stderr
  bool cached = false;   // only what the database's cache holds: no engine search
  std::string output;
  int batch = 0;  // games analysed together (0: one per job)
};

int run_analyse(const AnalyseOptions& options);

}  // namespace virrey::cli
