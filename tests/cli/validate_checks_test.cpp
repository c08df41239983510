// `virrey validate` end to end with the tournament checks and
// --export-notation: sample-data/virrey-tournament-mistakes.pgn holds one
// deliberate mistake of each kind (sample-data/README.md lists them), the
// other sample files none.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "run_virrey.hpp"

namespace virrey {
namespace {

using testing::run_virrey_words;
using testing::RunResult;

const std::string kSample = std::string(VIRREY_SOURCE_DIR) + "/sample-data/";
const std::string kMistakes = kSample + "virrey-tournament-mistakes.pgn";

// Findings per code of a jsonl run, read from its lines.
std::map<std::string, int> codes_of(const std::string& jsonl) {
  std::map<std::string, int> codes;
  std::size_t at = 0;
  while ((at = jsonl.find("{\"code\":\"", at)) != std::string::npos) {
    at += 9;
    codes[jsonl.substr(at, jsonl.find('"', at) - at)]++;
  }
  return codes;
}

TEST(ValidateChecks, EveryTournamentMistakeOfTheSampleIsFound) {
  const RunResult r = run_virrey_words("validate --format jsonl '" + kMistakes + "'");
  EXPECT_EQ(r.exit_code, 0) << "warnings only: " << r.out;
  const auto codes = codes_of(r.out);
  for (const char* code :
       {"player-twice-in-round", "repeated-pairing", "player-name", "player-rating", "round-tag",
        "missing-round", "board-twice", "event-date", "date-order", "unplayed-result", "unfinished-game"})
    EXPECT_GE(codes.count(code) ? codes.at(code) : 0, 1) << code;
  // Notation findings only when asked for.
  for (const char* code :
       {"castling-zeros", "disambiguation", "missing-check-mark", "move-number", "long-line"})
    EXPECT_EQ(codes.count(code), 0u) << code;
  // No error of any kind: every game is legal.
  EXPECT_EQ(r.out.find("\"severity\":\"error\""), std::string::npos) << r.out;
}

TEST(ValidateChecks, NotationMistakesWithExportNotation) {
  const RunResult r = run_virrey_words("validate --export-notation --format jsonl '" + kMistakes + "'");
  EXPECT_EQ(r.exit_code, 0);
  const auto codes = codes_of(r.out);
  for (const char* code :
       {"castling-zeros", "disambiguation", "missing-check-mark", "move-number", "long-line"})
    EXPECT_EQ(codes.count(code) ? codes.at(code) : 0, 1) << code;
}

// validate's findings are its report, on stderr too (with the games on
// stdout): -q leaves them whole.
TEST(ValidateChecks, QuietKeepsTheReportWhereverItGoes) {
  const RunResult to_stdout =
      run_virrey_words("-q validate --export-notation --format jsonl '" + kMistakes + "'");
  const RunResult to_stderr =
      run_virrey_words("-q validate --export-notation --format jsonl -o - '" + kMistakes + "'");
  EXPECT_EQ(to_stdout.exit_code, 0);
  EXPECT_EQ(to_stderr.exit_code, 0);
  EXPECT_GT(codes_of(to_stdout.out).size(), 10u) << to_stdout.out;
  EXPECT_EQ(codes_of(to_stderr.err), codes_of(to_stdout.out)) << to_stderr.err;
}

TEST(ValidateChecks, StrictMakesThemErrors) {
  const RunResult r = run_virrey_words("validate --strict '" + kMistakes + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find(": error[repeated-pairing]: game "), std::string::npos) << r.out;
  const RunResult plain = run_virrey_words("validate '" + kMistakes + "'");
  EXPECT_NE(plain.out.find(": warning[repeated-pairing]: game "), std::string::npos);
  // The findings are located at the game's first line: file:line:1.
  EXPECT_NE(plain.out.find("virrey-tournament-mistakes.pgn:"), std::string::npos);
}

TEST(ValidateChecks, TheSummaryCountsTheGamesConcerned) {
  const RunResult off = run_virrey_words("validate --no-event-checks --format jsonl '" + kMistakes + "'");
  const RunResult on = run_virrey_words("validate --format jsonl '" + kMistakes + "'");
  const RunResult strict = run_virrey_words("validate --strict --format jsonl '" + kMistakes + "'");
  EXPECT_EQ(off.exit_code, 0);
  // Without them only the game with no Round tag has a warning (the Seven Tag Roster).
  EXPECT_EQ(codes_of(off.out), (std::map<std::string, int>{{"missing-tag", 1}})) << off.out;
  auto field = [](const std::string& out, const std::string& name) {
    const std::size_t at = out.find("\"" + name + "\":", out.find("{\"summary\""));
    return std::stoi(out.substr(at + name.size() + 3));
  };
  EXPECT_EQ(field(off.out, "with_warnings"), 1);
  EXPECT_GT(field(on.out, "with_warnings"), 5);
  EXPECT_EQ(field(on.out, "valid"), 45);
  EXPECT_EQ(field(strict.out, "with_errors"), field(on.out, "with_warnings"));
  EXPECT_EQ(field(strict.out, "valid") + field(strict.out, "with_errors"), 45);
}

TEST(ValidateChecks, TheOtherSampleFilesHaveNoFinding) {
  const RunResult r = run_virrey_words("validate --strict '" + kSample + "virrey-games.pgn' '" + kSample +
                                       "standard-games.pgn' '" + kSample + "modern-club.pgn'");
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

// A game of tags alone: the tags it lacks are told where its tags end (line
// 11, past `[Event "a"]`), not at the next game's first line.
TEST(ValidateChecks, ATagsOnlyGameIsLocatedAtItsTags) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/tags-only.pgn";
  const std::string game =
      "[Event \"E\"]\n[Site \"S\"]\n[Date \"2020.01.01\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n"
      "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n";
  std::FILE* f = std::fopen(path.c_str(), "w");
  std::fputs((game + "[Event \"a\"]\n\n" + game).c_str(), f);
  std::fclose(f);
  const RunResult r = run_virrey_words("validate --no-event-checks '" + path + "'");
  EXPECT_NE(r.out.find("tags-only.pgn:11:12: warning[missing-tag]: game 2: the Site tag is missing"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("tags-only.pgn:11:1: error[missing-result]: game 2:"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(":13:1: warning[missing-tag]"), std::string::npos) << r.out;
}

TEST(ValidateChecks, ATournamentSplitOverTwoFilesIsOne) {
  testing::TempDir dir;
  auto write = [&](const std::string& name, const std::string& text) {
    std::FILE* f = std::fopen((dir.path() + "/" + name).c_str(), "w");
    std::fputs(text.c_str(), f);
    std::fclose(f);
    return dir.path() + "/" + name;
  };
  const std::string head = "[Event \"Club\"]\n[Site \"x\"]\n[Date \"2024.01.01\"]\n";
  const std::string a = write(
      "r1.pgn", head + "[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n" +
                    head + "[Round \"1\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n");
  const std::string b =
      write("r2.pgn", head + "[Round \"2\"]\n[White \"B\"]\n[Black \"A\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n");
  const RunResult r = run_virrey_words("validate '" + a + "' '" + b + "'");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(
      r.out.find("r2.pgn:1:1: warning[repeated-pairing]: game 1: in \"Club\": B and A meet again in round 2"),
      std::string::npos)
      << r.out;
}

// A game whose first move is in error had moves written: it is not also a
// decisive result "with no move played"; a game with none is.
TEST(ValidateChecks, AGameStoppedAtItsFirstMoveIsNoUnplayedResult) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/g.pgn";
  std::FILE* f = std::fopen(path.c_str(), "w");
  const std::string head = "[Event \"E\"]\n[Site \"x\"]\n[Date \"2020.01.01\"]\n[Round \"1\"]\n";
  std::fputs((head + "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e5 1-0\n\n" + head +
              "[White \"C\"]\n[Black \"D\"]\n[Result \"1-0\"]\n\n1-0\n")
                 .c_str(),
             f);
  std::fclose(f);
  const RunResult r = run_virrey_words("validate '" + path + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("g.pgn:9:4: error[illegal-move]: game 1, ply 1"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("game 1: in \"E\": 1-0 with no move played"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("warning[unplayed-result]: game 2: in \"E\": 1-0 with no move played"),
            std::string::npos)
      << r.out;
}

// Every finding of the sample's mistakes, by game and code, in the order
// printed: the mistakes sample-data/README.md lists, and what follows from them.
TEST(ValidateChecks, TheFindingsOfTheMistakesAreExactlyTheOnesMade) {
  const RunResult r = run_virrey_words("validate --format jsonl '" + kMistakes + "'");
  std::vector<std::string> found;  // "game code"
  for (std::size_t at = 0; (at = r.out.find("{\"code\":\"", at)) != std::string::npos;) {
    at += 9;
    const std::string code = r.out.substr(at, r.out.find('"', at) - at);
    const std::size_t game = r.out.find("\"game\":", at) + 7;
    found.push_back(r.out.substr(game, r.out.find(',', game) - game) + " " + code);
  }
  const std::vector<std::string> expected = {
      "22 missing-tag",            // the Round tag missing: a game's own check, printed as read
      "2 event-date",              // dated before the EventDate
      "7 player-name",             // "Haddad, Raúl" beside game 3's "Haddad, R."
      "8 player-name",             // a name in capitals
      "12 player-rating",          // a second rating
      "14 player-twice-in-round",  // Haddad booked twice in round 3
      "20 player-twice-in-round",  // round 1's pairing again in round 4: both players twice in round 4
      "20 player-twice-in-round",
      "20 repeated-pairing",
      "22 round-tag",              // no Round tag, "?" and "R5"
      "23 round-tag",
      "24 round-tag",
      "27 board-twice",            // board 1 of round 6 twice
      "29 repeated-pairing",       // Haddad's round 6 opponent, already met in round 3 (game 14)
      "33 date-order",             // round 7 dated before round 6
      "36 unplayed-result",        // 1-0 with no move (game 37 says it was a forfeit)
      "38 unfinished-game",        // '*' in the finished tournament
      "41 missing-round",          // round 9 written as round 10
  };
  EXPECT_EQ(found, expected) << r.out;
}

}  // namespace
}  // namespace virrey
