// The output of `virrey stats`: each statistic as text (aligned tables,
// Unicode bars), json (one object) or csv (a header line, then rows). Field
// names are part of the interface (README, "### `virrey stats`").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "output.hpp"
#include "virrey/query/stats_endgames.hpp"
#include "virrey/analyse/players.hpp"
#include "virrey/query/stats_games.hpp"
#include "virrey/query/stats_openings.hpp"
#include "virrey/query/stats_promotions.hpp"
#include "virrey/query/stats_results.hpp"

namespace virrey::cli {

// format: text, json or csv.
std::string write_openings(const query::OpeningStats& s, Format format);
std::string write_results(const query::ResultStats& s, Format format);
std::string write_promotions(const query::PromotionStats& s, Format format);
std::string write_endgames(const query::EndgameStats& s, Format format);
// bin_width: plies per histogram bin (already chosen, > 0).
std::string write_games(const query::GameStats& s, std::uint32_t bin_width, Format format);
// The players in the table's order.
std::string write_players(const std::vector<analyse::PlayerSummary>& players, Format format);

}  // namespace virrey::cli
