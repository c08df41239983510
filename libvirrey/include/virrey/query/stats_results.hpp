// Result statistics: how many games ended 1-0, 1/2-1/2, 0-1 or '*', the
// decisive rate and the average length, over the whole scope and grouped by
// variant, year, event, player, ECO code, opening, rating band or time control.
//
// Variant and year come from the game summaries; event, player and ECO from
// the tag index, so groups are the normalised tag values (case and blanks
// folded), labelled with the value as written in the group's first game.
// Games without the tag (or with "?") form the group with an empty key. A
// game counts for both of its players; a player's group also carries the
// player's own score.
//
// Rating bands and time-control classes come from the summaries too. A
// rating band holds the games whose average rating, (White + Black) / 2
// rounded down, is in [lo, lo + width): key "2000-2199" for width 200; games
// missing a rating form the unknown group. Time-control classes are
// game/time_control.hpp's (key "blitz", ...); games without a readable
// TimeControl tag form the unknown group. (Summaries written before the time
// class was recorded send their games to the record's tag.)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "virrey/query/stats.hpp"

namespace virrey::query {

enum class ResultGrouping : std::uint8_t {
  None,
  Variant,
  Year,
  Event,
  Player,
  Eco,
  RatingBand,
  TimeControl,
  // ECO code and name: the opening `db classify` stored, else the ECO and
  // Opening tags (keyed "B90 Sicilian: Najdorf"; "" when a game has neither).
  Opening,
};
// "none", "variant", "year", "event", "player", "eco", "rating-band", "time-control", "opening".
std::string_view grouping_name(ResultGrouping g);
// An opening group's key: "B90 Sicilian: Najdorf" (either part may be missing).
std::string opening_group_key(std::string_view eco, std::string_view name);
std::optional<ResultGrouping> parse_grouping(std::string_view text);

enum class GroupOrder : std::uint8_t {
  Natural,  // variant, year, band, class by key; ECO by code; event and player by games
  Games,    // most games first, then by key
  Key,      // by key
};

struct ResultQuery {
  ResultGrouping by = ResultGrouping::None;
  GroupOrder order = GroupOrder::Natural;
  std::size_t limit = 0;  // groups shown (0: all); the total counts every game
  std::uint32_t band = 200;  // rating band width (RatingBand), at least 1
};

// A player's games from the player's side.
struct PlayerScore {
  std::uint64_t as_white = 0;
  std::uint64_t as_black = 0;
  std::uint64_t wins = 0;
  std::uint64_t draws = 0;
  std::uint64_t losses = 0;
  std::uint64_t unfinished = 0;
  friend bool operator==(const PlayerScore&, const PlayerScore&) = default;
};

struct ResultGroup {
  std::string key;    // variant cli name, "2024", normalised tag value, "2000-2199", "blitz"; "" = unknown
  std::string label;  // for people: as written in a game ("?" for unknown)
  ResultCounts counts;
  std::optional<PlayerScore> player;  // by player only
};

struct ResultStats {
  ResultGrouping by = ResultGrouping::None;
  ResultCounts total;
  std::size_t group_count = 0;      // before the limit
  std::vector<ResultGroup> groups;  // in the query's order, at most `limit`
};

Result<ResultStats> result_stats(const store::Database& db, const GameScope& scope, const ResultQuery& query);

// Every group before ordering, each with its label and the game it was
// first seen in: what shards' results are merged from.
struct ResultPartialGroup {
  std::string key, label;
  ResultCounts counts;
  PlayerScore player;
  // Where the group was first seen: the pass (by player: 0 the White tags,
  // 1 the Black tags, 2 games without one; else 0) and the game.
  std::uint32_t first_pass = 0;
  GameId first_game = 0;
};
struct ResultPartial {
  ResultGrouping by = ResultGrouping::None;
  ResultCounts total;
  std::vector<ResultPartialGroup> groups;  // by key
};
Result<ResultPartial> result_partial(const store::Database& db, const GameScope& scope, ResultGrouping by,
                                     std::uint32_t band = 200);
// Adds a shard's groups (game ids shifted by `id_shift`, as for promotions).
void merge_result_partial(ResultPartial& into, const ResultPartial& from, GameId id_shift);
// The statistic the groups give under the query's order and limit.
ResultStats finish_results(ResultPartial partial, const ResultQuery& query);

}  // namespace virrey::query
