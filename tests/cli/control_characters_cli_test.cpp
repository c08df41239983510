// Control characters in tag values (ESC, BEL, NUL, TAB), which PGN strings
// may not hold: a bad-tag warning where each stands, never a raw control byte
// in text output (validate, event, search), and a space in the PGN export
// format that `validate --output` writes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "run_virrey.hpp"
#include "temp_dir.hpp"

namespace virrey::testing {
namespace {

using namespace std::string_literals;  // NUL bytes

// Event with ESC and BEL (a colour change and a bell), Site with a TAB,
// White with a NUL.
const std::string kGame =
    "[Event \"E\x1b[31mRed\x07\"]\n[Site \"S\tX\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"A\0B\"]\n"
    "[Black \"C\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"s;

// Line breaks aside, no byte below 0x20 nor DEL.
bool has_control(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\n') || u == 0x7f;
  });
}

class ControlCharactersCli : public ::testing::Test {
 protected:
  void SetUp() override { write_file(pgn(), kGame); }
  std::string pgn() const { return dir.path() + "/c.pgn"; }
  TempDir dir;
};

TEST_F(ControlCharactersCli, ValidateWarnsWhereEachStands) {
  const RunResult r = run_virrey({"validate", pgn()}, dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_FALSE(has_control(r.out)) << r.out;
  for (const char* where : {"c.pgn:1:10: warning[bad-tag]: game 1: ", "c.pgn:2:9: warning[bad-tag]: game 1: ",
                            "c.pgn:5:10: warning[bad-tag]: game 1: "})
    EXPECT_NE(r.out.find(where), std::string::npos) << where << "\n" << r.out;
  EXPECT_NE(r.out.find("('[Event \"E\\x1b[31mRed\\x07\"]')"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 valid"), std::string::npos) << r.out;
}

TEST_F(ControlCharactersCli, ExportFormatOutputHasSpaces) {
  const std::string out = dir.path() + "/out.pgn";
  ASSERT_EQ(run_virrey({"validate", pgn(), "--output", out}, dir.path()).exit_code, 0);
  const std::string written = read_file(out);
  EXPECT_FALSE(has_control(written)) << written;
  EXPECT_NE(written.find("[Event \"E [31mRed \"]\n[Site \"S X\"]"), std::string::npos) << written;
  EXPECT_NE(written.find("[White \"A B\"]"), std::string::npos) << written;
}

// A tag value's control characters are kept as the spaces its export
// writes: the game read and the game exported are one game.
TEST_F(ControlCharactersCli, EventAndSearchTextShowThemAsSpaces) {
  const RunResult event = run_virrey({"event", pgn()}, dir.path());
  ASSERT_EQ(event.exit_code, 0) << event.err;
  EXPECT_FALSE(has_control(event.out)) << event.out;
  EXPECT_EQ(event.out.rfind("E [31mRed \n", 0), 0u) << event.out;
  EXPECT_NE(event.out.find("S X"), std::string::npos) << event.out;
  EXPECT_NE(event.out.find("A B"), std::string::npos) << event.out;

  const std::string db = dir.path() + "/db";
  ASSERT_EQ(run_virrey({"import", pgn(), "--db", db}, dir.path()).exit_code, 0);
  for (const auto& args : {std::vector<std::string>{"search", "--db", db},
                           std::vector<std::string>{"search", "--db", db, "--moves", "e4", "--show"},
                           std::vector<std::string>{"stats", "results", "--db", db, "--by", "event"}}) {
    const RunResult r = run_virrey(args, dir.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(has_control(r.out)) << args.back() << "\n" << r.out;
    EXPECT_NE(r.out.find("E [31mRed"), std::string::npos) << args.back() << "\n" << r.out;
  }
  // Exported and imported again: the same game, a duplicate.
  const std::string exported = dir.path() + "/exported.pgn";
  ASSERT_EQ(run_virrey({"export", "--db", db, "-o", exported}, dir.path()).exit_code, 0);
  const RunResult again = run_virrey({"import", exported, "--db", db, "--format", "json"}, dir.path());
  EXPECT_NE(again.out.find("\"duplicates\":1"), std::string::npos) << again.out << again.err;
}

}  // namespace
}  // namespace virrey::testing
