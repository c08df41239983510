// `virrey stats openings|results|promotions|games|endgames`: statistics over a
// database, for people (text: aligned tables, Unicode bars) and pipelines
// (json, csv; field names in the README, "### `virrey stats`").
#pragma once

#include <string>
#include <vector>

#include "filter_options.hpp"

#include "output.hpp"

namespace virrey::cli {

struct StatsCommonOptions {
  std::string db;                // empty: $VIRREY_DB, else ./virrey.db
  Format format = Format::Text;  // text, json, csv
  FilterOptions filter;          // which games (openings: no position filter)
};

struct StatsOpeningsOptions : StatsCommonOptions {
  std::string fen;                 // the root; empty: the variant's start position
  std::vector<std::string> moves;  // SAN from the root
  int depth = 1;
  long min_games = 1;
  long top = 0;  // moves per position (0: all)
};

struct StatsResultsOptions : StatsCommonOptions {
  std::string by = "none";       // none, variant, year, event, player, eco
  std::string sort = "natural";  // natural, games, key
  long limit = 0;                // groups shown (0: all)
};

struct StatsPromotionsOptions : StatsCommonOptions {};

struct StatsGamesOptions : StatsCommonOptions {
  long bin = 0;  // histogram bin width in plies (0: automatic)
};

// --- endgames ---
constexpr long kMaxEndgameMen = 64;  // every square of an 8x8 board
struct StatsEndgamesOptions : StatsCommonOptions {
  long men = 10;  // the balance where a game first has at most this many men
};
int run_stats_endgames(const StatsEndgamesOptions& options);
// --- end endgames ---

int run_stats_openings(const StatsOpeningsOptions& options);
int run_stats_results(const StatsResultsOptions& options);
int run_stats_promotions(const StatsPromotionsOptions& options);
int run_stats_games(const StatsGamesOptions& options);

}  // namespace virrey::cli
