// `virrey stats endgames` as a process, on four hand-made Virrey games whose
// figures are worked out below; bad --men values; a database without the
// material index (the same output, and a warning).
#include <gtest/gtest.h>

#include "run_virrey.hpp"
#include "store_hooks.hpp"
#include "temp_dir.hpp"

namespace virrey::testing {
namespace {

// Each game starts from White Ke1 Rd1 Vh1 against Black Ke8 Ra8 Nd2: 6 men,
// the balance KVR-KRN. In the first three 1. Rxd2 leaves KVR-KR (5 men); the
// fourth keeps all six men to its end.
constexpr const char* kGames = R"([Event "Endgames"]
[Result "1-0"]
[Variant "Virrey"]
[SetUp "1"]
[FEN "r3k3/8/8/8/8/8/3n4/3RK2V w - - 0 1"]

1. Rxd2 Ra7 1-0

[Event "Endgames"]
[Result "1/2-1/2"]
[Variant "Virrey"]
[SetUp "1"]
[FEN "r3k3/8/8/8/8/8/3n4/3RK2V w - - 0 1"]

1. Rxd2 Ra7 1/2-1/2

[Event "Endgames"]
[Result "0-1"]
[Variant "Virrey"]
[SetUp "1"]
[FEN "r3k3/8/8/8/8/8/3n4/3RK2V w - - 0 1"]

1. Rxd2 Ra7 0-1

[Event "Endgames"]
[Result "1-0"]
[Variant "Virrey"]
[SetUp "1"]
[FEN "r3k3/8/8/8/8/8/3n4/3RK2V w - - 0 1"]

1. Rc1 Ra7 1-0
)";

constexpr const char* kCsvHeader =
    "variant,variant_games,balance,men,games,pct,white_wins,draws,black_wins,unfinished,white_score_pct\n";

class StatsEndgamesCli : public ::testing::Test {
 protected:
  TempDir dir;
  std::string db;
  void SetUp() override {
    write_file(dir / "games.pgn", kGames);
    db = dir / "games.db";
    auto r = run_virrey_words("import --db " + db + " " + (dir / "games.pgn"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  RunResult stats(const std::string& words) {
    return run_virrey_words("stats endgames --db " + db + " " + words);
  }
};

TEST_F(StatsEndgamesCli, ThreeGamesReachKvrKrWithEachResult) {
  // At 5 men: games 1-3 (1-0, 1/2-1/2, 0-1), all in KVR-KR; game 4 never.
  // 3 of 4 games = 75%; White's score (1 + 0.5) / 3 = 50%.
  auto r = stats("--men 5 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string(kCsvHeader) +
                       "virrey,4,,,3,100.00,1,1,1,0,50.00\n"
                       "virrey,4,KVR-KR,5,3,100.00,1,1,1,0,50.00\n");

  r = stats("--men 5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Endgames · virrey · 3 of 4 games reach 5 men or fewer (75.0%)\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("KVR-KR"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("50.0%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("█ White wins"), std::string::npos) << r.out;

  r = stats("--men 5 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"men\":5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"games\":4,\"reached\":3,\"reached_pct\":75.00"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("{\"balance\":\"KVR-KR\",\"men\":5,\"games\":3,\"pct\":100.00,\"white_wins\":1,"
                       "\"draws\":1,\"black_wins\":1,\"unfinished\":0,\"white_score_pct\":50.00}"),
            std::string::npos)
      << r.out;
}

TEST_F(StatsEndgamesCli, WhenTheStartPositionQualifiesEveryGameCountsAtPlyZero) {
  // 6 men (and the default 10): every game at its start, KVR-KRN; results
  // 1-0, 1/2-1/2, 0-1, 1-0: White's score (2 + 0.5) / 4 = 62.5%.
  for (const std::string men : {"--men 6", ""}) {
    auto r = stats(men + " --format csv");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, std::string(kCsvHeader) +
                         "virrey,4,,,4,100.00,2,1,1,0,62.50\n"
                         "virrey,4,KVR-KRN,6,4,100.00,2,1,1,0,62.50\n")
        << men;
  }
}

TEST_F(StatsEndgamesCli, NoGameComesDownToFourMen) {
  auto r = stats("--men 4 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // A share of no games is no value: an empty field, as the score.
  EXPECT_EQ(r.out, std::string(kCsvHeader) + "virrey,4,,,0,,0,0,0,0,\n");
  r = stats("--men 4");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("0 of 4 games reach 4 men or fewer (0.0%)"), std::string::npos) << r.out;
}

TEST_F(StatsEndgamesCli, FiltersChooseTheGames) {
  // The games won by White: game 1 reaches KVR-KR, game 4 does not.
  auto r = stats("--men 5 --result 1-0 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string(kCsvHeader) +
                       "virrey,2,,,1,100.00,1,0,0,0,100.00\n"
                       "virrey,2,KVR-KR,5,1,100.00,1,0,0,0,100.00\n");
  // The games that reach KVR-KR at all (--material): games 1-3.
  r = stats("--men 6 --material KVR-KR --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string(kCsvHeader) +
                       "virrey,3,,,3,100.00,1,1,1,0,50.00\n"
                       "virrey,3,KVR-KRN,6,3,100.00,1,1,1,0,50.00\n");
  r = stats("--variant standard --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kCsvHeader);
  r = stats("--variant standard");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "No games.\n");
}

TEST_F(StatsEndgamesCli, BadMenExitsTwo) {
  for (const std::string men : {"0", "1", "-3", "65", "ten", ""}) {
    auto r = stats("--men " + men);
    EXPECT_EQ(r.exit_code, 2) << men << "\n" << r.out;
    EXPECT_FALSE(r.err.empty()) << men;
    EXPECT_TRUE(r.out.empty()) << men;
  }
  auto r = stats("--men 1");
  EXPECT_NE(r.err.find("--men 1 is out of range (2 to 64)"), std::string::npos) << r.err;
}

TEST_F(StatsEndgamesCli, ADatabaseWithoutTheMaterialIndexReplaysWithAWarning) {
  std::vector<std::string> before;
  for (const std::string words : {"--men 5", "--men 5 --format json", "--format csv"}) {
    auto r = stats(words);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err.find("no material index"), std::string::npos) << r.err;
    before.push_back(r.out);
  }
  ASSERT_TRUE(store::testing::drop_material_index(db));
  std::size_t i = 0;
  for (const std::string words : {"--men 5", "--men 5 --format json", "--format csv"}) {
    auto r = stats(words);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("has no material index (`virrey db upgrade` builds it): replaying every game"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.out, before[i++]) << words;
  }
}

}  // namespace
}  // namespace virrey::testing
