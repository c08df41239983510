// The PGN writer: export format, and reading what it wrote gives the same games.
#include <gtest/gtest.h>

#include <filesystem>

#include "virrey/game/identity.hpp"
#include "virrey/game/pgn_writer.hpp"
#include "virrey/importers/memory_source.hpp"
#include "virrey/ingest/pipeline.hpp"

namespace virrey::validate {
namespace {

using game::GameRecord;
using game::write_pgn;

std::vector<CheckedGame> check_file(const std::string& path) {
  std::vector<CheckedGame> games;
  ingest::Options options;
  ingest::Callbacks cb;
  cb.on_game = [&](ingest::GameReport& r) {
    games.push_back(std::move(r.game));
    return ingest::Flow::Continue;
  };
  ingest::run({path}, options, cb);
  return games;
}

CheckedGame check_text(const std::string& text) {
  GameChecker checker;
  return checker.check(text, 1, pgn::Location{});
}

std::string folded(std::string_view s) {
  std::string out;
  for (char c : s) {
    const bool space = c == ' ' || c == '\n' || c == '\r' || c == '\t';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

void expect_same_game(const GameRecord& a, const GameRecord& b) {
  EXPECT_EQ(a.variant, b.variant);
  EXPECT_EQ(a.start_fen, b.start_fen);
  EXPECT_EQ(a.main_line, b.main_line);
  EXPECT_EQ(a.result, b.result);
  for (const auto& t : a.tags) {
    if (t.name == "Result") continue;
    EXPECT_EQ(b.tag(t.name), t.value) << t.name;
  }
  ASSERT_EQ(a.movetext.size(), b.movetext.size());
  for (std::size_t i = 0; i < a.movetext.size(); ++i) {
    const auto &x = a.movetext[i], &y = b.movetext[i];
    EXPECT_EQ(x.kind, y.kind) << i;
    EXPECT_EQ(x.nag, y.nag) << i;
    EXPECT_EQ(x.ply, y.ply) << i;
    EXPECT_EQ(x.move, y.move) << i;
    EXPECT_EQ(folded(x.text), folded(y.text)) << i;
  }
}

TEST(PgnWriter, ExportFormat) {
  auto game = check_text(
      "[White \"Alpha \\\"A\\\"\"]\n[Event \"E\"]\n[Annotator \"me\"]\n[Result \"1-0\"]\n\n"
      "1. e4 e5 {a comment} 2. Nf3 $1 (2. f4 exf4) 2... Nc6 1-0\n");
  ASSERT_FALSE(game.has_error);
  const std::string pgn = write_pgn(game.record);
  EXPECT_EQ(pgn,
            "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
            "[White \"Alpha \\\"A\\\"\"]\n[Black \"?\"]\n[Result \"1-0\"]\n[Annotator \"me\"]\n\n"
            "1. e4 e5 {a comment} 2. Nf3 $1 (2. f4 exf4) 2... Nc6 1-0\n\n");
}

TEST(PgnWriter, CommentsBeforeTheFirstMoveAreKept) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "1. e4 e5 *"}, {"[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n", "1. e4 Kd7 *"}};
  for (const auto& [start, moves] : cases) {
    auto game = check_text(std::string("[Event \"E\"]\n[Result \"*\"]\n") + start +
                           "\n{before the first move} " + moves + "\n");
    ASSERT_FALSE(game.has_error) << moves;
    const std::string pgn = write_pgn(game.record);
    EXPECT_NE(pgn.find(std::string("\n{before the first move} ") + moves + "\n"), std::string::npos) << pgn;
    auto again = check_text(pgn);
    EXPECT_EQ(write_pgn(again.record), pgn);
  }
}

TEST(PgnWriter, CanonicalVirreySanAndShortLines) {
  auto game = check_text(
      "[Variant \"Virrey\"]\n[SetUp \"1\"]\n[FEN \"4qk2/3P4/8/8/8/8/8/K7 w - - 0 1\"]\n\n"
      "1. dxe8 Kxe8 2. Ka2 Kd7 3. Ka3 Kc6 4. Ka4 Kb6 5. Kb4 Kc6 6. Kc4 Kd6 7. Kd4 Ke6 8. Ke4 "
      "Kf6 9. Kf4 Kg6 10. Kg4 Kh6 11. Kh4 Kg6 12. Kg4 *\n");
  ASSERT_FALSE(game.has_error);
  const std::string pgn = write_pgn(game.record);
  EXPECT_NE(pgn.find("1. dxe8=V+ Kxe8"), std::string::npos) << pgn;
  std::size_t start = 0;
  for (std::size_t end; (end = pgn.find('\n', start)) != std::string::npos; start = end + 1)
    EXPECT_LE(end - start, 79u);
}

// Every line within 79 characters wherever a comment pushes the
// variations' parentheses (glued to their moves) and a word that must not
// start a line; 60 nested variations too. What is written reads back as
// the same game.
TEST(PgnWriter, LinesStayWithinTheLimitAroundParentheses) {
  std::vector<std::string> games;
  for (int k = 0; k <= 78; ++k)  // "{" and the word fit a line
    games.push_back("1. e4 {" + std::string(std::size_t(k), 'x') +
                    " a} e5 2. Nf3 (2. Nc3 Nc6) (2. d4 (2. c4 {b c %pct [x} c5) exd4 3. Qxd4) Nc6 3. Bb5 "
                    "((3. Bc4) (3. d4)) a6 *");
  std::string deep = "1. e4 ";
  for (int i = 0; i < 60; ++i) deep += "(1. d4 {L" + std::to_string(i) + "} ";
  deep += "1... d5";
  deep += std::string(60, ')');
  deep += " e5 *";
  games.push_back(deep);
  for (const std::string& text : games) {
    const CheckedGame game = check_text(text);
    ASSERT_FALSE(game.has_error) << text;
    const std::string pgn = write_pgn(game.record);
    std::size_t start = 0;
    for (std::size_t end; (end = pgn.find('\n', start)) != std::string::npos; start = end + 1) {
      const std::string_view line(pgn.data() + start, end - start);
      EXPECT_LE(line.size(), 79u) << line;
      EXPECT_FALSE(!line.empty() && line[0] == '%') << line;
    }
    const CheckedGame again = check_text(pgn);
    ASSERT_FALSE(again.has_error) << pgn;
    expect_same_game(game.record, again.record);
  }
}

// Comments made of words that must not start a line ('%' first, "[Name")
// still wrap: a line over the limit starts with a space before such a word,
// and what the writer wrote reads back as the same game. Words like
// "[%clk" start lines freely.
// What the reader takes and other readers refuse is written as the standard
// has it: a FEN's fields parted by one space, control characters of a
// comment (NUL, ESC, a C1 control) as blanks.
TEST(PgnWriter, FenFieldsAndCommentControlsAsTheStandardHasThem) {
  const CheckedGame game = check_text(
      "[Event \"E\"]\n[SetUp \"1\"]\n[FEN \"  k7/8/1K6/8/8/8/8/6Q1  w \t -  -  0  1 \"]\n\n1. Qg7 {nul" +
      std::string(1, '\0') + "here\x1b[0m\xc2\x85x} Kb8 2. Qb7# 1-0\n");
  ASSERT_FALSE(game.has_error);
  const std::string pgn = write_pgn(game.record);
  EXPECT_NE(pgn.find("[FEN \"k7/8/1K6/8/8/8/8/6Q1 w - - 0 1\"]\n"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("{nul here [0m x}"), std::string::npos) << pgn;
  const CheckedGame again = check_text(pgn);
  ASSERT_FALSE(again.has_error) << pgn;
  EXPECT_EQ(write_pgn(again.record), pgn);
}

TEST(PgnWriter, CommentsOfWordsThatMustNotStartALineWrap) {
  std::string percent, tags, clocks;
  for (int i = 0; i < 60; ++i) percent += " %p";
  for (int i = 0; i < 30; ++i) tags += " [White \"x\"]";
  for (int i = 0; i < 30; ++i) clocks += " [%clk 0:01:00]";
  for (const std::string& comment : {percent, tags, clocks}) {
    const std::string text = "[Event \"E\"]\n\n1. e4 {a" + comment + "} e5 *\n";
    const CheckedGame game = check_text(text);
    ASSERT_FALSE(game.has_error) << text;
    const std::string pgn = write_pgn(game.record);
    std::size_t start = 0, lines = 0;
    for (std::size_t end; (end = pgn.find('\n', start)) != std::string::npos; start = end + 1, ++lines) {
      const std::string_view line(pgn.data() + start, end - start);
      EXPECT_LE(line.size(), 79u) << line;
      EXPECT_FALSE(!line.empty() && line[0] == '%') << line;
      if (lines > 7 && comment == tags) {
        EXPECT_FALSE(!line.empty() && line[0] == '[') << line;
      }
    }
    const CheckedGame again = check_text(pgn);
    ASSERT_FALSE(again.has_error) << pgn;
    expect_same_game(game.record, again.record);
  }
  // Clock commands start lines, each whole on its line: no line begins with
  // a space there, nor with a clock's value.
  const CheckedGame clocked = check_text("[Event \"E\"]\n\n1. e4 {a" + clocks + "} e5 *\n");
  const std::string written = write_pgn(clocked.record);
  EXPECT_EQ(written.find("\n "), std::string::npos) << written;
  EXPECT_EQ(written.find("\n0:01:00]"), std::string::npos) << written;
  EXPECT_EQ(written.find("[%clk\n"), std::string::npos) << written;
}

// After a null move in a variation the moves are checked on (one that is
// illegal after the pass is an error); a null move by a side in check, or in
// the main line, is no move.
std::vector<Finding> move_findings(const CheckedGame& g) {
  std::vector<Finding> out;
  for (const Finding& f : g.findings)
    if (f.ply > 0) out.push_back(f);
  return out;
}

TEST(PgnWriter, NullMovesAreCheckedOnOrRefused) {
  const auto after_pass = move_findings(check_text("1. e4 (1. d4 -- 2. d5 Ke7) e5 *"));
  ASSERT_EQ(after_pass.size(), 1u);
  EXPECT_EQ(after_pass[0].code, Code::IllegalMove);
  EXPECT_EQ(after_pass[0].ply, 4);
  const CheckedGame checked = check_text("1. e4 f5 2. Qh5+ (2. d4 e5 3. Qh5+ -- 4. Qxe8) g6 *");
  const auto in_check = move_findings(checked);
  ASSERT_EQ(in_check.size(), 1u);
  EXPECT_EQ(in_check[0].code, Code::NullMove);
  EXPECT_EQ(in_check[0].severity, Severity::Warning);
  EXPECT_FALSE(checked.has_error);
  const CheckedGame main = check_text("1. e4 -- 2. d4 *");
  EXPECT_TRUE(main.has_error);
}

// A FEN tag without [SetUp "1"] (a warning when read) is written with it.
TEST(PgnWriter, AFenGoesWithSetUp) {
  const CheckedGame game = check_text("[Event \"f\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 *");
  ASSERT_FALSE(game.has_error);
  const std::string pgn = write_pgn(game.record);
  EXPECT_NE(pgn.find("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n"), std::string::npos) << pgn;
  const CheckedGame again = check_text(pgn);
  for (const Finding& f : again.findings) EXPECT_NE(f.code, Code::BadTag) << f.message;
}

// PGN strings hold no control character: each is written as a space (a C1
// control, two bytes in UTF-8, as one), quotes and backslashes escaped.
TEST(PgnWriter, ControlCharactersInTagValuesBecomeSpaces) {
  using namespace std::string_literals;
  EXPECT_EQ(game::escape_tag_value("E\x1b[31m\x07\t\0\x7f\r\n|"s), "E [31m      |");
  EXPECT_EQ(game::escape_tag_value("a\xc2\x9b"
                                   "b \"q\" \\ \xc3\xbc"),
            "a b \\\"q\\\" \\\\ \xc3\xbc");
}

TEST(PgnWriter, ReadingWhatItWroteGivesTheSameGames) {
  std::vector<std::string> files = {std::string(VIRREY_TEST_DATA) + "/validate/findings.pgn"};
  const std::filesystem::path tricky = std::filesystem::path(VIRREY_SOURCE_DIR) / "../shared/corpora/tricky";
  if (std::filesystem::exists(tricky))
    for (const auto& e : std::filesystem::recursive_directory_iterator(tricky))
      if (e.path().extension() == ".pgn") files.push_back(e.path().string());
  int compared = 0;
  for (const auto& file : files) {
    for (const CheckedGame& game : check_file(file)) {
      if (game.has_error) continue;
      const std::string pgn = write_pgn(game.record);
      const CheckedGame again = check_text(pgn);
      ASSERT_FALSE(again.has_error) << file << "\n" << pgn;
      expect_same_game(game.record, again.record);
      // Duplicate detection sees one game: a game and its export are the
      // same game, also when the game lacks roster tags.
      EXPECT_TRUE(game::same_game(game.record, again.record)) << file << "\n" << pgn;
      EXPECT_EQ(write_pgn(again.record), pgn) << file;
      ++compared;
    }
  }
  EXPECT_GT(compared, 10);
}

}  // namespace
}  // namespace virrey::validate
