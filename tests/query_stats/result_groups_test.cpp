// `stats results --by rating-band` and `--by time-control` on the hand-made
// games of feature_pgn.hpp, against tables worked out by hand from their
// tags; and the partial results of two shards merged equal the whole.
#include <gtest/gtest.h>

#include <map>

#include "collection.hpp"
#include "feature_pgn.hpp"
#include "store_hooks.hpp"
#include "temp_dir.hpp"
#include "virrey/query/stats_results.hpp"

namespace virrey::testing {
namespace {

using query::ResultGrouping;

// The seven games, their ratings, averages (rounded down), results, plies
// and time-control classes:
//   Fool's mate        1500 1600 -> 1550  0-1      4  60+0          bullet
//   Discovered mate    2400 2199 -> 2299  1-0      1  180+2 (260)   blitz
//   Double check mate  2200    - -> none  1-0      1  -             correspondence
//   Stalemate          1999 2001 -> 2000  1/2-1/2  1  40/7200:3600  classical
//   Unfinished            -    - -> none  *        2  ?             (unknown)
//   Viceroy mate       1000 1100 -> 1050  1-0      1  15+0          ultrabullet
//   Minister mate      2000 2399 -> 2199  1-0      1  600+5 (800)   rapid
std::vector<game::GameRecord> games() {
  std::vector<game::GameRecord> all = records_from_pgn(kFeatureStandardPgn, Variant::Standard);
  for (auto& r : records_from_pgn(kFeatureVirreyPgn, Variant::Virrey)) all.push_back(std::move(r));
  for (auto& r : records_from_pgn(kFeatureModernPgn, Variant::Modern)) all.push_back(std::move(r));
  return all;
}

// key -> games, white wins, draws, black wins, unfinished, plies.
using Row = std::array<std::uint64_t, 6>;
using Table = std::vector<std::pair<std::string, Row>>;

Table table_of(const query::ResultStats& s) {
  Table out;
  for (const auto& g : s.groups)
    out.push_back({g.key,
                   {g.counts.games, g.counts.white_wins, g.counts.draws, g.counts.black_wins,
                    g.counts.unfinished, g.counts.plies}});
  return out;
}

Table grouped(const store::Database& db, ResultGrouping by, std::uint32_t band = 200) {
  query::ResultQuery q;
  q.by = by;
  q.band = band;
  auto s = query::result_stats(db, query::GameScope::everything(), q);
  EXPECT_TRUE(s);
  return s ? table_of(*s) : Table{};
}

TEST(ResultGroups, RatingBandsOfTwoHundred) {
  auto c = make_collection(games());
  const Table want = {
      {"1000-1199", {1, 1, 0, 0, 0, 1}},  // Viceroy mate
      {"1400-1599", {1, 0, 0, 1, 0, 4}},  // Fool's mate
      {"2000-2199", {2, 1, 1, 0, 0, 2}},  // Stalemate (2000), Minister mate (2199)
      {"2200-2399", {1, 1, 0, 0, 0, 1}},  // Discovered mate (2299)
      {"", {3, 2, 0, 0, 1, 4}},           // Double check mate, Pawn mate, Unfinished: a rating missing
  };
  EXPECT_EQ(grouped(*c->db, ResultGrouping::RatingBand), want);
}

TEST(ResultGroups, RatingBandsOfOtherWidths) {
  auto c = make_collection(games());
  const Table hundred = {
      {"1000-1099", {1, 1, 0, 0, 0, 1}}, {"1500-1599", {1, 0, 0, 1, 0, 4}}, {"2000-2099", {1, 0, 1, 0, 0, 1}},
      {"2100-2199", {1, 1, 0, 0, 0, 1}}, {"2200-2299", {1, 1, 0, 0, 0, 1}}, {"", {3, 2, 0, 0, 1, 4}},
  };
  EXPECT_EQ(grouped(*c->db, ResultGrouping::RatingBand, 100), hundred);
  const Table thousand = {
      {"1000-1999", {2, 1, 0, 1, 0, 5}},  // 1050, 1550
      {"2000-2999", {3, 2, 1, 0, 0, 3}},  // 2000, 2199, 2299
      {"", {3, 2, 0, 0, 1, 4}},
  };
  EXPECT_EQ(grouped(*c->db, ResultGrouping::RatingBand, 1000), thousand);
}

TEST(ResultGroups, TimeControlClassesInTheirOrder) {
  auto c = make_collection(games());
  const Table want = {
      {"ultrabullet", {1, 1, 0, 0, 0, 1}},
      {"bullet", {1, 0, 0, 1, 0, 4}},
      {"blitz", {1, 1, 0, 0, 0, 1}},
      {"rapid", {1, 1, 0, 0, 0, 1}},
      {"classical", {1, 0, 1, 0, 0, 1}},
      {"correspondence", {1, 1, 0, 0, 0, 1}},
      {"", {2, 1, 0, 0, 1, 3}},  // Pawn mate, Unfinished
  };
  EXPECT_EQ(grouped(*c->db, ResultGrouping::TimeControl), want);
}

TEST(ResultGroups, ShardPartialsMergeIntoTheWhole) {
  auto all = games();
  std::vector<game::GameRecord> first(all.begin(), all.begin() + 3), second(all.begin() + 3, all.end());
  auto a = make_collection(first), b = make_collection(second), whole = make_collection(all);
  for (ResultGrouping by : {ResultGrouping::RatingBand, ResultGrouping::TimeControl}) {
    auto pa = query::result_partial(*a->db, query::GameScope::everything(), by);
    auto pb = query::result_partial(*b->db, query::GameScope::everything(), by);
    ASSERT_TRUE(pa && pb);
    query::merge_result_partial(*pa, *pb, 3);
    query::ResultQuery q;
    q.by = by;
    EXPECT_EQ(table_of(query::finish_results(*pa, q)), grouped(*whole->db, by)) << int(by);
  }
}

// Player groups of names written in capitals and small letters beyond
// Latin-1: one group each, labelled as the group's first game writes the
// name, in a database written before such letters were lower-cased in its
// tag index (whose keys then sort the capitals first) as in a new one.
TEST(ResultGroups, PlayerLabelsOfOlderDatabasesAreTheFirstGamesSpelling) {
  std::string pgn;
  const char* players[][2] = {{"иванов, Иван", "Petrov"},
                              {"ИВАНОВ, ИВАН", "Petrov"},
                              {"Məmmədyarov", "ǆurić"},
                              {"MƏMMƏDYAROV", "ǄURIĆ"}};
  for (const auto& p : players)
    pgn += "[Event \"e\"]\n[White \"" + std::string(p[0]) + "\"]\n[Black \"" + p[1] +
           "\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n";
  TempDir dir;
  const std::string path = dir.path() + "/db";
  store_records(path, records_from_pgn(pgn, Variant::Standard));
  auto labels = [&] {
    auto db = store::Database::open(path, {store::OpenMode::ReadOnly, true});
    EXPECT_TRUE(db);
    query::ResultQuery q;
    q.by = ResultGrouping::Player;
    auto s = query::result_stats(**db, query::GameScope::everything(), q);
    EXPECT_TRUE(s);
    std::map<std::string, std::pair<std::string, std::uint64_t>> out;  // key -> label, games
    for (const auto& g : s->groups) out[g.key] = {g.label, g.counts.games};
    return out;
  };
  const std::map<std::string, std::pair<std::string, std::uint64_t>> want = {
      {"иванов, иван", {"иванов, Иван", 2}},
      {"petrov", {"Petrov", 2}},
      {"məmmədyarov", {"Məmmədyarov", 2}},
      {"ǆurić", {"ǆurić", 2}}};
  EXPECT_EQ(labels(), want);
  ASSERT_TRUE(store::testing::tags_folded_as_latin1(path));
  EXPECT_EQ(labels(), want);
}

TEST(ResultGroups, GroupingNames) {
  EXPECT_EQ(query::parse_grouping("rating-band"), ResultGrouping::RatingBand);
  EXPECT_EQ(query::parse_grouping("time-control"), ResultGrouping::TimeControl);
  EXPECT_EQ(query::grouping_name(ResultGrouping::TimeControl), "time-control");
}

}  // namespace
}  // namespace virrey::testing
