// Pattern search end to end: `virrey search --fenpattern` finds the same
// standard games as Debian's pgn-extract (-Tf, its FEN patterns) on real
// games; `--pattern` and its companions as a user types them; bad patterns
// exit 2 naming the option, the text and the column.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "run_virrey.hpp"

namespace virrey::testing {
namespace {

const std::string kData = std::string(VIRREY_TEST_DATA);

std::string peer_binary() {
  std::string peer = "/usr/games/pgn-extract";
  if (!std::filesystem::exists(peer)) peer = "pgn-extract";
  if (std::system(("command -v " + peer + " >/dev/null 2>&1").c_str()) != 0) return {};
  return peer;
}

class PatternCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    // Real games, each numbered by a tag of its own that pgn-extract keeps.
    const std::string plain = dir_->path() + "/plain.pgn";
    ASSERT_EQ(
        std::system(("zstd -dcq '" + kData + "/openings/pgnmentor-slice.pgn.zst' > '" + plain + "'").c_str()),
        0);
    ASSERT_EQ(std::system(("cat '" + std::string(VIRREY_SOURCE_DIR) +
                           "/sample-data/standard-games.pgn' >> '" + plain + "'")
                              .c_str()),
              0);
    std::ifstream in(plain);
    std::ofstream out(games());
    std::string line;
    while (std::getline(in, line)) {
      out << line << '\n';
      if (line.rfind("[Event ", 0) == 0) out << "[GameNumber \"" << ++count_ << "\"]\n";
    }
    out.close();
    RunResult r = run_virrey({"import", games(), "--db", db()}, dir_->path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_virrey({"search", "--db", db(), "--count"}, dir_->path());
    ASSERT_EQ(r.out, std::to_string(count_) + "\n") << "every game stored, in file order";
    // The same games again, with the square index.
    r = run_virrey({"import", games(), "--db", squares_db()}, dir_->path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_virrey({"db", "squares", "--db", squares_db()}, dir_->path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string games() { return dir_->path() + "/numbered.pgn"; }
  static std::string db() { return dir_->path() + "/db"; }
  static std::string squares_db() { return dir_->path() + "/squares-db"; }

  // The game numbers virrey's search finds (ids are file order).
  static std::set<int> ours(std::vector<std::string> args, const std::string& database = db()) {
    args.insert(args.begin(), {"search", "--db", database, "--limit", "0", "--format", "csv"});
    RunResult r = run_virrey(args, dir_->path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::set<int> out;
    std::istringstream in(r.out);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line.rfind("id,", 0), 0u) << line;
    while (std::getline(in, line)) out.insert(std::stoi(line));
    return out;
  }

  // The game numbers pgn-extract -Tf finds.
  static std::set<int> theirs(const std::string& peer, const std::vector<std::string>& patterns) {
    std::string cmd = peer + " -s";
    for (const auto& p : patterns) cmd += " '-Tf" + p + "'";
    const std::string out = dir_->path() + "/peer.pgn";
    cmd += " --output '" + out + "' '" + games() + "' 2>/dev/null";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::set<int> numbers;
    std::ifstream in(out);
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("[GameNumber \"", 0) == 0) numbers.insert(std::stoi(line.substr(13)));
    return numbers;
  }

  static TempDir* dir_;
  static int count_;
};

TempDir* PatternCli::dir_ = nullptr;
int PatternCli::count_ = 0;

TEST_F(PatternCli, FenPatternsFindWhatPgnExtractFinds) {
  const std::string peer = peer_binary();
  if (peer.empty()) GTEST_SKIP() << "pgn-extract is not installed (scripts/install-deps.sh installs it)";
  const std::vector<std::vector<std::string>> patterns = {
      {"*/*/*/*/???PP??\?/*/*/*"},        // pgn-extract's own example: d4 and e4
      {"?????rk?/?????ppp/*/*/*/*/*/*"},  // Black castled short behind its pawns
      {"*/*/*/*/*/*/*/??KR????"},         // White castled long
      {"*/*/*/*/*/*/P[BP]P*/*"},
      {"8/8/*/*/*/*/*/*"},  // the last two ranks empty
      {"*/*/*/3!4/*/*/*/*"},
      {"*/*/*/*/*/*/*/[^RrKk]*"},
      {"*/*/*/*A*a*/*/*/*/*"},
      {"*/*/*/*/*/*/*/*Q*", "*/*/*/*/*/*/*/*R*R*"},  // either pattern
      {"*/*/*/*/*/*/*/7m"},                          // 'm': not a pawn (empty squares too)
      {"m7/*/*/*/*/*/*/*"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"},  // the start position: every game
  };
  std::size_t nonempty = 0;
  for (const auto& p : patterns) {
    std::vector<std::string> args;
    for (const auto& one : p) args.insert(args.end(), {"--fenpattern", one});
    const std::set<int> want = theirs(peer, p), have = ours(args);
    EXPECT_EQ(have, want) << p.front();
    EXPECT_EQ(ours(args, squares_db()), want) << p.front() << " (square index)";
    nonempty += !want.empty() && want.size() < std::size_t(count_);
  }
  EXPECT_GE(nonempty, 6u);  // patterns that tell games apart
}

TEST_F(PatternCli, EitherColourIsBothPatterns) {
  // pgn-extract's FENPatternI is the pattern and its colour-swapped form.
  const std::set<int> a = ours({"--fenpattern", "*/*/*/*/???PP??\?/*/*/*"});
  const std::set<int> b = ours({"--fenpattern", "*/*/*/???pp??\?/*/*/*/*"});
  std::set<int> both = a;
  both.insert(b.begin(), b.end());
  EXPECT_EQ(ours({"--fenpattern", "*/*/*/*/???PP??\?/*/*/*", "--either-colour"}), both);
  EXPECT_GT(both.size(), a.size());
}

// A pattern given again is read once: the same games, and the distinct
// ones still all count (--pattern: all hold; --fenpattern: any one).
TEST_F(PatternCli, RepeatedPatternsAreReadOnce) {
  const std::set<int> e4 = ours({"--pattern", "Pe4"});
  const std::set<int> e4_d4 = ours({"--pattern", "Pe4", "--pattern", "Pd4"});
  EXPECT_LT(e4_d4.size(), e4.size());
  EXPECT_EQ(ours({"--pattern", "Pe4", "--pattern", "Pd4", "--pattern", "Pe4", "--pattern", "Pd4"}), e4_d4);
  const std::string a = "*/*/*/*/????P??\?/*/*/*", b = "*/*/*/*/???P???\?/*/*/*";
  std::set<int> either = ours({"--fenpattern", a});
  const std::set<int> other = ours({"--fenpattern", b});
  either.insert(other.begin(), other.end());
  EXPECT_EQ(ours({"--fenpattern", a, "--fenpattern", b, "--fenpattern", a}), either);
  EXPECT_GT(either.size(), other.size());
}

TEST_F(PatternCli, PiecePatternsAndTheirCompanions) {
  // The same squares in both languages.
  EXPECT_EQ(ours({"--pattern", "Pd4 Pe4"}), ours({"--fenpattern", "*/*/*/*/???PP??\?/*/*/*"}));
  EXPECT_EQ(ours({"--pattern", "Pd4", "--pattern", "Pe4"}), ours({"--pattern", "Pd4 Pe4"}));
  EXPECT_EQ(ours({"--pattern", "!??7 !??8"}), ours({"--fenpattern", "8/8/*/*/*/*/*/*"}));
  EXPECT_GT(ours({"--pattern", ".?7"}).size(),
            ours({"--pattern", "!??7"}).size());  // one empty square, or all
  const std::set<int> any = ours({"--pattern", "Ne5"});
  const std::set<int> black = ours({"--pattern", "Ne5", "--to-move", "black"});
  const std::set<int> early = ours({"--pattern", "Ne5", "--pattern-plies", "1-20"});
  EXPECT_FALSE(black.empty());
  EXPECT_LE(black.size(), any.size());
  EXPECT_LT(early.size(), any.size());
  for (int g : early) EXPECT_TRUE(any.count(g));
  // The ply column is where the pattern first holds: the start position is ply 0.
  RunResult r =
      run_virrey({"search", "--db", db(), "--fenpattern", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                  "--limit", "1", "--format", "jsonl"},
                 dir_->path());
  EXPECT_NE(r.out.find("\"ply\":0"), std::string::npos) << r.out;
}

TEST_F(PatternCli, StatisticsTakeThePattern) {
  const std::size_t n = ours({"--pattern", "Ne5 !pd?"}).size();
  ASSERT_GT(n, 0u);
  RunResult r = run_virrey({"stats", "results", "--db", db(), "--pattern", "Ne5 !pd?", "--format", "csv"},
                           dir_->path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\ntotal,,all," + std::to_string(n) + ","), std::string::npos) << r.out;
}

TEST_F(PatternCli, BadPatternsExitTwoNamingTheColumn) {
  RunResult r = run_virrey({"search", "--db", db(), "--pattern", "Vd5 Xd4"}, dir_->path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--pattern 'Vd5 Xd4': column 5: 'X' is not a man"), std::string::npos) << r.err;
  r = run_virrey({"search", "--db", db(), "--fenpattern", "*/*/*"}, dir_->path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--fenpattern '*/*/*': column 6: 3 ranks"), std::string::npos) << r.err;
  r = run_virrey({"search", "--db", db(), "--to-move", "white"}, dir_->path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--to-move and --pattern-plies need --pattern or --fenpattern"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace virrey::testing
