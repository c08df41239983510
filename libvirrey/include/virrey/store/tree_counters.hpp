// TreeCounters: what the opening tree knows about one move from one position,
// summed over games by a merge operator, so import never reads before it
// writes. Its name carries the version of the value layout: a layout change
// is a new name (and a new schema version).
//
// Value layouts, named by the first byte:
//   1      nine LEB128 varints in field order, the date as yyyymmdd
//   2      the same, the date packed: (yyyy * 13 + mm) * 32 + dd
//   3 4 5  one finished game won by White, drawn, won by Black: three
//          varints, White's rating + 1 (0: none), Black's alike, the packed
//          date. Most entries past the first moves are one game's.
// Layout 1 is written only for dates that do not pack (and was the only
// layout of schema 2, whose values a compaction may still meet while `db
// upgrade` replaces them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace virrey::store {

constexpr std::string_view kTreeMergeOperatorName = "virrey.tree.v2";

struct TreeCounters {
  std::uint64_t games = 0;
  std::uint64_t white_wins = 0;
  std::uint64_t draws = 0;
  std::uint64_t black_wins = 0;  // games - the three: unfinished ('*')
  std::uint64_t white_elo_sum = 0;
  std::uint64_t white_elo_games = 0;  // games with a White Elo
  std::uint64_t black_elo_sum = 0;
  std::uint64_t black_elo_games = 0;
  std::uint32_t last_date = 0;  // yyyymmdd of the latest dated game (0: none)

  void add(const TreeCounters& o);
  friend bool operator==(const TreeCounters&, const TreeCounters&) = default;
};

std::string encode_tree_counters(const TreeCounters& c);
std::optional<TreeCounters> decode_tree_counters(std::string_view bytes);

}  // namespace virrey::store
