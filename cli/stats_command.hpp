// `virrey stats openings|results|promotions|games|endgames|players`: statistics over a
// database, for people (text: aligned tables, Unicode bars) and pipelines
// (json, csv; field names in the README, "### `virrey stats`").
#pragma once

#include <string>
#include <vector>

#include "engine_options.hpp"
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
  std::string expand;  // a merged partial of the same query whose moves are followed too (--format partial)
};

struct StatsResultsOptions : StatsCommonOptions {
  std::string by = "none";       // none, variant, year, event, player, eco, rating-band, time-control
  std::string sort = "natural";  // natural, games, key
  long limit = 0;                // groups shown (0: all)
  long band = 0;                 // rating band width (0: not given, 200)
};

struct StatsPromotionsOptions : StatsCommonOptions {};

struct StatsGamesOptions : StatsCommonOptions {
  long bin = 0;  // histogram bin width in plies (0: automatic)
};

constexpr long kMaxEndgameMen = 64;  // every square of an 8x8 board
struct StatsEndgamesOptions : StatsCommonOptions {
  long men = 10;  // the balance where a game first has at most this many men
};
int run_stats_endgames(const StatsEndgamesOptions& options);
// The engine and limits select the analysis cache's entries.
struct StatsPlayersOptions : StatsCommonOptions {
  EngineOptions engine;
};

int run_stats_openings(const StatsOpeningsOptions& options);
int run_stats_results(const StatsResultsOptions& options);
int run_stats_promotions(const StatsPromotionsOptions& options);
int run_stats_games(const StatsGamesOptions& options);
// Exit 1 when the cache holds nothing for the games, engine and limits.
int run_stats_players(const StatsPlayersOptions& options);

}  // namespace virrey::cli
