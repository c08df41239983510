// `virrey db squares` end to end: the square index built, extended by the
// imports and merges that follow, checked by `db check` and dropped; and
// pattern searches that read it find what pgn-extract finds, and what a
// database without it finds by replaying games.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "run_virrey.hpp"

namespace virrey::testing {
namespace {

const std::string kSamples = std::string(VIRREY_SOURCE_DIR) + "/sample-data/";

const std::vector<std::vector<std::string>> kPatterns = {
    {"--fenpattern", "*/*/*/*/???PP??\?/*/*/*"},
    {"--fenpattern", "?????rk?/?????ppp/*/*/*/*/*/*", "--either-colour"},
    {"--fenpattern", "8/8/*/*/*/*/*/*"},
    {"--pattern", "Vd5"},
    {"--pattern", "V?? !q*"},
    {"--pattern", "Me5"},
    {"--pattern", "Ke1 Pe4", "--to-move", "black", "--pattern-plies", "1-30"},
};

class SquareIndexCli : public ::testing::Test {
 protected:
  TempDir dir;
  std::string db = dir / "db";
  std::string plain = dir / "plain";  // the same games, no square index

  RunResult virrey(std::vector<std::string> args) { return run_virrey(args, dir.path()); }
  void import_both(const std::string& file) {
    for (const std::string* d : {&db, &plain}) {
      const RunResult r = virrey({"import", kSamples + file, "--db", *d});
      ASSERT_LE(r.exit_code, 1) << r.err;
    }
  }
  // Every pattern finds the same games, at the same plies, with and without
  // the index; the database with it answers from it.
  void expect_same_answers(bool indexed) {
    for (const auto& p : kPatterns) {
      std::vector<std::string> args = {"search", "--limit", "0", "--format", "csv", "--db"};
      auto with = args, without = args;
      with.push_back(db);
      without.push_back(plain);
      with.insert(with.end(), p.begin(), p.end());
      without.insert(without.end(), p.begin(), p.end());
      const RunResult a = virrey(with), b = virrey(without);
      EXPECT_EQ(a.exit_code, 0) << a.err;
      EXPECT_EQ(a.out, b.out) << p[1];
      with.push_back("--explain");
      const RunResult plan = virrey(with);
      if (p[1] == "*/*/*/*/???PP??\?/*/*/*") {
        EXPECT_EQ(plan.err.find("square") != std::string::npos, indexed) << plan.err;
      }
    }
    const RunResult check = virrey({"db", "check", "--db", db});
    EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  }
};

TEST_F(SquareIndexCli, BuiltExtendedByImportsAndMergesThenDropped) {
  import_both("virrey-games.pgn");
  RunResult built = virrey({"db", "squares", "--db", db, "--format", "json"});
  ASSERT_EQ(built.exit_code, 0) << built.err;
  EXPECT_NE(built.out.find("\"square_index\":true"), std::string::npos) << built.out;
  EXPECT_EQ(built.out.find("\"games\":0,"), std::string::npos) << built.out;
  expect_same_answers(true);

  // An import extends it.
  import_both("standard-games.pgn");
  expect_same_answers(true);
  // Run again: nothing left to add.
  built = virrey({"db", "squares", "--db", db});
  ASSERT_EQ(built.exit_code, 0) << built.err;
  EXPECT_NE(built.out.find("0 games added"), std::string::npos) << built.out;

  // A merge extends it.
  const std::string shard = dir / "shard";
  ASSERT_LE(virrey({"import", kSamples + "modern-club.pgn", "--db", shard}).exit_code, 1);
  ASSERT_EQ(virrey({"db", "merge", shard, "--db", db}).exit_code, 0);
  ASSERT_LE(virrey({"import", kSamples + "modern-club.pgn", "--db", plain}).exit_code, 1);
  expect_same_answers(true);

  // Dropped: searches replay again, and find the same.
  const RunResult dropped = virrey({"db", "squares", "--drop", "--db", db});
  ASSERT_EQ(dropped.exit_code, 0) << dropped.err;
  EXPECT_NE(dropped.out.find("square index removed"), std::string::npos) << dropped.out;
  expect_same_answers(false);
  // Dropped again: nothing was there to remove, and it says so.
  const RunResult again = virrey({"db", "squares", "--drop", "--db", db, "--format", "json"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("\"square_index\":false,\"removed\":false"), std::string::npos) << again.out;
}

TEST_F(SquareIndexCli, NotADatabase) {
  const std::string file = dir / "games.pgn";
  ASSERT_EQ(std::system(("cp '" + kSamples + "standard-games.pgn' '" + file + "'").c_str()), 0);
  const RunResult r = virrey({"db", "squares", "--db", file});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_FALSE(r.err.empty());
  // A mistyped --db is an error, not a new empty database (classify too).
  const std::string missing = dir / "missing.db";
  EXPECT_EQ(virrey({"db", "squares", "--db", missing}).exit_code, 3);
  EXPECT_EQ(
      virrey({"db", "classify", "--db", missing, "--openings", "/usr/share/pgn-extract/eco.pgn"}).exit_code,
      3);
  EXPECT_FALSE(std::filesystem::exists(missing));
}

}  // namespace
}  // namespace virrey::testing
