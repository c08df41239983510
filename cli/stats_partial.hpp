// Partial statistics: `virrey stats NAME ... --format partial` writes what
// one database (a shard) knows of a statistic, exactly, as JSON Lines;
// `virrey stats merge PARTIAL...` folds partials of the same query, in the
// order given, into the output one database holding the shards' games in
// that order would give (game ids shifted as `db merge` shifts them).
//
//   line 1   {"virrey_partial":2,"statistic":NAME,"query":{...},"id_span":N,"records":R}
//            query: the options that shape the output, the filter among them;
//            id_span: the shard's game ids in use (its next game id - 1);
//            records: how many lines follow (a file cut short is refused)
//   then     the statistic's records, one object per line (stats_partial.cpp)
//
// A statistic plugs in by a codec (its records, how they fold, how the
// folded statistic is written) and one line in the codec list there.
#pragma once

#include <string>
#include <vector>

#include "output.hpp"
#include "stats_command.hpp"
#include "virrey/query/stats_endgames.hpp"
#include "virrey/analyse/players.hpp"
#include "virrey/query/stats_games.hpp"
#include "virrey/query/stats_openings.hpp"
#include "virrey/query/stats_promotions.hpp"
#include "virrey/query/stats_results.hpp"

namespace virrey::cli {

// The partial of each statistic; `id_span` from the database it was made on.
std::string partial_games(const query::GameStats& s, const StatsGamesOptions& o, store::GameId id_span);
std::string partial_promotions(const query::PromotionStats& s, const StatsPromotionsOptions& o,
                               store::GameId id_span);
std::string partial_results(const query::ResultPartial& s, const StatsResultsOptions& o,
                            store::GameId id_span);
// `analysed`: whether the database holds engine analysis at all.
std::string partial_players(const analyse::PlayerTable& s, bool analysed, const StatsPlayersOptions& o,
                            store::GameId id_span);
Result<std::string> partial_openings(const query::OpeningStats& s, const StatsOpeningsOptions& o,
                                     store::GameId id_span);
// The explorer of a (merged) openings partial of the query `o` asks, for
// --expand: its moves are followed beside the database's own.
Result<query::OpeningStats> read_openings_guide(const std::string& path, const StatsOpeningsOptions& o);

std::string partial_endgames(const query::EndgameStats& s, const StatsEndgamesOptions& o,
                             store::GameId id_span);

struct StatsMergeOptions {
  std::vector<std::string> partials;  // files, '-' for standard input
  Format format = Format::Text;       // text, json, csv (or partial: the fold, as a partial)
};

// `virrey stats merge`. Exit 0; 2: partials of different statistics or
// queries, or a line that is not a partial's; 3: a file cannot be read.
int run_stats_merge(const StatsMergeOptions& options);

}  // namespace virrey::cli
