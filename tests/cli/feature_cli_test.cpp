// The game-feature filters and the rating-band and time-control groupings
// end to end: `virrey import` of the hand-made games of feature_pgn.hpp,
// then search, stats and stats merge as a user runs them; bad values exit 2
// with a message naming the option and the bad part.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "feature_pgn.hpp"
#include "run_virrey.hpp"

namespace virrey::testing {
namespace {

const std::vector<std::string> kEvents = {"Fool's mate",  "Discovered mate", "Double check mate",
                                          "Pawn mate",    "Stalemate",       "Unfinished",
                                          "Viceroy mate", "Minister mate"};

class FeatureCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    std::ofstream(dir_->path() + "/standard.pgn") << kFeatureStandardPgn;
    std::ofstream(dir_->path() + "/virrey.pgn") << kFeatureVirreyPgn;
    std::ofstream(dir_->path() + "/modern.pgn") << kFeatureModernPgn;
    for (const char* f : {"standard.pgn", "virrey.pgn", "modern.pgn"}) {
      RunResult r = run({"import", dir_->path() + "/" + f, "--db", db()});
      ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    }
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string db() { return dir_->path() + "/db"; }
  static RunResult run(const std::vector<std::string>& args) { return run_virrey(args, dir_->path()); }

  // The events of the games `search --format csv` lists.
  static std::set<std::string> events(std::vector<std::string> args) {
    args.insert(args.begin(), {"search", "--db", db(), "--format", "csv"});
    RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::set<std::string> out;
    for (const std::string& e : kEvents)
      if (r.out.find(e) != std::string::npos) out.insert(e);
    return out;
  }

  static TempDir* dir_;
};

TempDir* FeatureCli::dir_ = nullptr;

using Events = std::set<std::string>;

TEST_F(FeatureCli, SearchByEndingAndMatingPiece) {
  EXPECT_EQ(events({"--ending", "checkmate"}), (Events{"Fool's mate", "Discovered mate", "Double check mate",
                                                       "Pawn mate", "Viceroy mate", "Minister mate"}));
  EXPECT_EQ(events({"--ending", "stalemate"}), (Events{"Stalemate"}));
  EXPECT_EQ(events({"--ending", "other"}), (Events{"Unfinished"}));
  EXPECT_EQ(events({"--mate-by", "V"}), (Events{"Viceroy mate"}));
  EXPECT_EQ(events({"--mate-by", "m"}), (Events{"Minister mate"}));
  EXPECT_EQ(events({"--mate-by", "Q"}), (Events{"Fool's mate"}));
  // The rook that the knight uncovered; both checkers of the double check.
  EXPECT_EQ(events({"--mate-by", "R"}), (Events{"Discovered mate", "Double check mate"}));
  EXPECT_EQ(events({"--mate-by", "N"}), (Events{"Double check mate"}));
  EXPECT_EQ(events({"--mate-by", "P"}), (Events{"Pawn mate"}));
  // The bishop holds the king's way out but gives no check.
  EXPECT_EQ(events({"--mate-by", "B"}), Events{});
  EXPECT_EQ(events({"--mate-by", "K"}), Events{});
}

TEST_F(FeatureCli, SearchByLengthRatingClockAndTermination) {
  EXPECT_EQ(events({"--plies", "4-"}), (Events{"Fool's mate"}));
  EXPECT_EQ(events({"--plies", "2"}), (Events{"Unfinished"}));
  EXPECT_EQ(events({"--plies=-1", "--variant", "standard"}),
            (Events{"Discovered mate", "Double check mate", "Pawn mate", "Stalemate"}));
  // Both rated 2000-2199: none (the stalemate's 1999, the minister mate's
  // 2399); their average: 2000 and 2199; either: also the discovered mate's 2199.
  EXPECT_EQ(events({"--elo", "2000-2199"}), Events{});
  EXPECT_EQ(events({"--elo", "2000-2199", "--elo-of", "average"}), (Events{"Stalemate", "Minister mate"}));
  EXPECT_EQ(events({"--elo", "2000-2199", "--elo-of", "either"}),
            (Events{"Discovered mate", "Stalemate", "Minister mate"}));
  EXPECT_EQ(events({"--elo", "2200-"}), (Events{}));
  EXPECT_EQ(events({"--elo=-1100"}), (Events{"Viceroy mate"}));
  EXPECT_EQ(events({"--time-control", "blitz"}), (Events{"Discovered mate"}));
  EXPECT_EQ(events({"--time-control", "correspondence"}), (Events{"Double check mate"}));
  EXPECT_EQ(events({"--time-control", "ultrabullet"}), (Events{"Viceroy mate"}));
  EXPECT_EQ(events({"--time-control", "40/7200:3600"}), (Events{"Stalemate"}));
  EXPECT_EQ(events({"--termination", "TIME FORFEIT"}), (Events{"Unfinished"}));
  EXPECT_EQ(events({"--termination", "normal", "--time-control", "rapid"}), (Events{"Minister mate"}));
}

// A Termination of "-" (or "?", or empty) is unknown and matches no value,
// "-" included, as the other tags' filters have it.
TEST(FeatureTags, AnUnknownTerminationMatchesNothing) {
  TempDir dir;
  std::string pgn;
  int round = 0;  // (games alike in their roster and moves would be duplicates)
  for (const char* termination : {"-", "?", "", "Normal"})
    pgn += "[Event \"E\"]\n[Site \"S\"]\n[Date \"2020.01.01\"]\n[Round \"" + std::to_string(++round) +
           "\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[Termination \"" + termination +
           "\"]\n\n1. e4 e5 1-0\n\n";
  std::ofstream(dir / "t.pgn") << pgn;
  const std::string db = dir / "db";
  ASSERT_EQ(run_virrey({"import", dir / "t.pgn", "--db", db}, dir.path()).exit_code, 0);
  for (const char* value : {"-", "?", "Normal"}) {
    const RunResult r = run_virrey({"search", "--db", db, "--termination", value, "--count"}, dir.path());
    EXPECT_EQ(r.out, std::string(value) == "Normal" ? "1\n" : "0\n") << value;
  }
}

// A share of nothing is no value: the unfinished game alone has no decisive
// share, and no games have no average length.
TEST_F(FeatureCli, SharesOfNothingAreNull) {
  RunResult r = run({"stats", "results", "--db", db(), "--format", "json", "--termination", "TIME FORFEIT"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"unfinished_pct\":100.00,\"decisive_pct\":null,\"avg_plies\":2.00"),
            std::string::npos)
      << r.out;
  r = run({"stats", "results", "--db", db(), "--format", "csv", "--player", "nobody"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\ntotal,,all,0,0,0,0,0,,,,,,,"), std::string::npos) << r.out;
  r = run({"stats", "games", "--db", db(), "--format", "json", "--player", "nobody"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"length\":{\"mean\":null,\"min\":null,\"p10\":null"), std::string::npos) << r.out;
}

TEST_F(FeatureCli, StatsTakeTheFilters) {
  RunResult r = run({"stats", "results", "--db", db(), "--format", "csv", "--ending", "checkmate"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Six checkmates: five won by White, one by Black.
  EXPECT_NE(r.out.find(",6,5,0,1,"), std::string::npos) << r.out;
}

TEST_F(FeatureCli, ResultsByRatingBandAndTimeControl) {
  RunResult r = run({"stats", "results", "--db", db(), "--by", "rating-band", "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* band : {"1000-1199", "1400-1599", "2000-2199", "2200-2399"})
    EXPECT_NE(r.out.find(band), std::string::npos) << band << "\n" << r.out;
  RunResult hundred = run({"stats", "results", "--db", db(), "--by", "rating-band", "--band", "100"});
  ASSERT_EQ(hundred.exit_code, 0) << hundred.err;
  EXPECT_NE(hundred.out.find("2100-2199"), std::string::npos) << hundred.out;
  RunResult t = run({"stats", "results", "--db", db(), "--by", "time-control", "--format", "json"});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  // In the classes' order, fastest first.
  std::size_t at = 0;
  for (const char* cls : {"ultrabullet", "\"bullet", "blitz", "rapid", "classical", "correspondence"}) {
    const std::size_t next = t.out.find(cls, at);
    ASSERT_NE(next, std::string::npos) << cls << "\n" << t.out;
    at = next;
  }
}

TEST_F(FeatureCli, PartialResultsMerge) {
  for (const char* by : {"rating-band", "time-control"}) {
    RunResult p = run({"stats", "results", "--db", db(), "--by", by, "--format", "partial"});
    ASSERT_EQ(p.exit_code, 0) << p.err;
    const std::string file = dir_->path() + "/" + by + ".partial";
    std::ofstream(file) << p.out;
    RunResult merged = run({"stats", "merge", file, "--format", "csv"});
    ASSERT_EQ(merged.exit_code, 0) << merged.err;
    RunResult direct = run({"stats", "results", "--db", db(), "--by", by, "--format", "csv"});
    EXPECT_EQ(merged.out, direct.out) << by;
  }
  // Bands of different widths are different queries.
  RunResult a = run({"stats", "results", "--db", db(), "--by", "rating-band", "--format", "partial"});
  RunResult b =
      run({"stats", "results", "--db", db(), "--by", "rating-band", "--band", "100", "--format", "partial"});
  std::ofstream(dir_->path() + "/a.partial") << a.out;
  std::ofstream(dir_->path() + "/b.partial") << b.out;
  EXPECT_EQ(run({"stats", "merge", dir_->path() + "/a.partial", dir_->path() + "/b.partial"}).exit_code, 2);
}

TEST_F(FeatureCli, BadValuesNameTheOptionAndThePart) {
  struct Bad {
    std::vector<std::string> args;
    std::string said;
  };
  const std::vector<Bad> bad = {
      {{"--mate-by", "X"}, "--mate-by 'X'"},
      {{"--ending", "mated"}, "--ending 'mated'"},
      {{"--plies", "9-3"}, "9 is after 3"},
      {{"--elo", "2400-2000"}, "--elo '2400-2000'"},
      {{"--elo", "12a"}, "--elo '12a'"},
      {{"--elo", "2000-", "--elo-of", "all"}, "--elo-of 'all'"},
      {{"--elo-of", "either"}, "--elo-of needs --elo"},
      {{"--time-control", "blits"}, "--time-control 'blits'"},
      {{"--ending", "stalemate", "--mate-by", "Q"}, "--mate-by needs --ending checkmate"},
  };
  for (const Bad& b : bad) {
    std::vector<std::string> args = {"search", "--db", db()};
    args.insert(args.end(), b.args.begin(), b.args.end());
    RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << b.said;
    EXPECT_NE(r.err.find(b.said), std::string::npos) << r.err;
    args[0] = "stats";
    args.insert(args.begin() + 1, "games");
    EXPECT_EQ(run(args).exit_code, 2) << b.said;
  }
  RunResult band = run({"stats", "results", "--db", db(), "--by", "year", "--band", "100"});
  EXPECT_EQ(band.exit_code, 2);
  EXPECT_NE(band.err.find("--band 100 needs --by rating-band"), std::string::npos) << band.err;
  EXPECT_EQ(run({"stats", "results", "--db", db(), "--by", "rating-band", "--band", "-5"}).exit_code, 2);
}

TEST_F(FeatureCli, AnalyseKeepsItsPliesAndNamesTheGameLengthOtherwise) {
  RunResult r = run({"analyse", "--help"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("judge only the moves at plies"), std::string::npos);
  EXPECT_NE(r.out.find("--game-plies"), std::string::npos);
  RunResult s = run({"search", "--help"});
  EXPECT_NE(s.out.find("--plies"), std::string::npos);
}

}  // namespace
}  // namespace virrey::testing
