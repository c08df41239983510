// `virrey event`: the tournaments of PGN inputs or of a database, as
// standings with tie-breaks and crosstables (text, JSON, CSV, TRF, HTML), and
// an arbiter's TRF compared with the games.
#pragma once

#include <string>
#include <vector>

#include "filter_options.hpp"
#include "output.hpp"

namespace virrey::cli {

struct EventOptions {
  std::vector<std::string> inputs;  // PGN files or "-"; none with --db
  std::string db;                   // read the games of this database (with the filters)
  bool use_db = false;              // --db was given
  FilterOptions filter;             // --db: which games; --event also picks a tournament of the inputs
  std::vector<std::string> filters_given;  // the filters' option names given, but --variant and --event
  std::string system = "auto";      // auto, round-robin, double-round-robin, swiss, knockout
  std::string tiebreaks;            // comma-separated names, in order
  Format format = Format::Text;
  std::string output;               // empty or "-": standard output
  std::string trf;                  // an arbiter's TRF to compare with the games
  int threads = 1;
};

int run_event(const EventOptions& options);

}  // namespace virrey::cli
