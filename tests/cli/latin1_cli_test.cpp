// One player written in a Latin-1 file and in a UTF-8 file is one player to
// every command: `event` standings, duplicates in `validate`, `search` after
// `import`, and the messages that name them, which print UTF-8.
#include <gtest/gtest.h>

#include <string>

#include "run_virrey.hpp"
#include "temp_dir.hpp"
#include "virrey/base/utf8.hpp"

namespace virrey::testing {
namespace {

const std::string kName = "M\xc3\xbcller, J\xc3\xb6rg";  // Müller, Jörg in UTF-8
const std::string kLatin1 = "M\xfcller, J\xf6rg";

std::string game(int round, const std::string& white, const std::string& black) {
  return "[Event \"Club\"]\n[Site \"S\"]\n[Date \"2024.01.0" + std::to_string(round) + "\"]\n[Round \"" +
         std::to_string(round) + "\"]\n[White \"" + white + "\"]\n[Black \"" + black +
         "\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
}

class Latin1Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(latin1(), game(1, kLatin1, "Abel, A"));
    write_file(utf8(), game(2, "Abel, A", kName));
  }
  std::string latin1() const { return dir.path() + "/l1.pgn"; }
  std::string utf8() const { return dir.path() + "/u8.pgn"; }
  TempDir dir;
};

TEST_F(Latin1Cli, EventCountsOnePlayer) {
  const RunResult r = run_virrey({"event", latin1(), utf8(), "--format", "csv"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Two players, a game each way: one point each, level on every tie-break.
  EXPECT_EQ(
      r.out,
      "event,rank,name,title,federation,rating,games,points,direct_encounter,wins,sonneborn_berger,koya,"
      "performance\n"
      "Club,1,\"" +
          kName +
          "\",,,,2,1.0,1.0,1,1.00,1.0,\n"
          "Club,1,\"Abel, A\",,,,2,1.0,1.0,1,1.00,1.0,\n");
}

TEST_F(Latin1Cli, DuplicatesAcrossTheEncodingsAreFound) {
  write_file(utf8(), game(1, kName, "Abel, A"));
  const RunResult r = run_virrey({"validate", latin1(), utf8(), "--no-event-checks"}, dir.path());
  EXPECT_NE(r.out.find("u8.pgn:1:1: warning[duplicate-game]"), std::string::npos) << r.out;
}

TEST_F(Latin1Cli, SearchFindsTheImportedName) {
  const std::string db = dir.path() + "/db";
  const RunResult import = run_virrey({"import", latin1(), "--db", db}, dir.path());
  ASSERT_EQ(import.exit_code, 0) << import.err;
  const RunResult found = run_virrey({"search", "--db", db, "--white", kName, "--count"}, dir.path());
  EXPECT_EQ(found.out, "1\n") << found.err;
  const RunResult pgn = run_virrey({"search", "--db", db, "--format", "pgn"}, dir.path());
  EXPECT_NE(pgn.out.find("[White \"" + kName + "\"]"), std::string::npos) << pgn.out;
}

// A message that names a player of the Latin-1 file prints it in UTF-8.
TEST_F(Latin1Cli, MessagesAreUtf8) {
  write_file(utf8(), game(2, "Abel, A", "M\xc3\xbcller, J."));
  const RunResult r = run_virrey({"validate", latin1(), utf8()}, dir.path());
  EXPECT_NE(r.out.find("warning[player-name]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(kName), std::string::npos) << r.out;
  EXPECT_EQ(first_invalid_utf8(r.out), std::string::npos) << r.out;
}

}  // namespace
}  // namespace virrey::testing
