// The validator against a corpus of games with known problems: every finding
// code, with its game, severity and ply, as listed in findings.expected.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "virrey/ingest/pipeline.hpp"
#include "virrey/validate/game_checker.hpp"

namespace virrey::validate {
namespace {

const std::string kData = std::string(VIRREY_TEST_DATA) + "/validate/";

struct Row {
  std::uint64_t game;
  std::string code, severity;
  int ply;
  friend bool operator<(const Row& a, const Row& b) {
    return std::tie(a.game, a.code, a.severity, a.ply) < std::tie(b.game, b.code, b.severity, b.ply);
  }
  friend bool operator==(const Row& a, const Row& b) = default;
};

std::ostream& operator<<(std::ostream& os, const Row& r) {
  return os << r.game << ' ' << r.code << ' ' << r.severity << ' ' << r.ply;
}

std::vector<Row> expected_rows(const std::string& path) {
  std::vector<Row> rows;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    Row r{0, "", "", 0};
    words >> r.game >> r.code >> r.severity >> r.ply;
    rows.push_back(r);
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

std::vector<Row> actual_rows(const std::string& path, int threads) {
  std::vector<Row> rows;
  ingest::Options options;
  options.threads = threads;
  ingest::Callbacks cb;
  cb.on_game = [&](ingest::GameReport& r) {
    for (const auto& f : r.game.findings)
      rows.push_back({f.game, std::string(code_name(f.code)), std::string(severity_name(f.severity)), f.ply});
    return ingest::Flow::Continue;
  };
  EXPECT_TRUE(ingest::run({path}, options, cb).all_read());
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST(Findings, EveryCodeAsExpected) {
  const auto expected = expected_rows(kData + "findings.expected");
  EXPECT_EQ(actual_rows(kData + "findings.pgn", 1), expected);
  EXPECT_EQ(actual_rows(kData + "findings.pgn", 3), expected);
}

TEST(Findings, LocationsFenAndLabelOfAnIllegalMove) {
  ingest::Options options;
  std::vector<Finding> found;
  ingest::Callbacks cb;
  cb.on_game = [&](ingest::GameReport& r) {
    if (r.number == 2) found = r.game.findings;
    return ingest::Flow::Continue;
  };
  ingest::run({kData + "findings.pgn"}, options, cb);
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = found[0];
  EXPECT_EQ(f.line, 24u);
  EXPECT_EQ(f.column, 47u);
  EXPECT_EQ(f.san, "Nb3");
  EXPECT_EQ(f.move_label, "5.Nb3");
  EXPECT_EQ(f.fen, "rnb1k2r/ppppqppp/5n2/4p1B1/1b1P4/5N2/PPPNPPPP/R2QKB1R w KQkq - 6 5");
  EXPECT_EQ(f.message, "the knight on d2 is pinned");
}

// A finding about a tag's value points at that tag; one about the result at
// the result token, or at the last move when there is none (not at the
// blank line after the game, nor at the next game's tags).
TEST(Findings, TagAndResultFindingsPointAtTheirTokens) {
  GameChecker checker;
  auto at = [](const CheckedGame& g, Code code) {
    for (const Finding& f : g.findings)
      if (f.code == code) return std::to_string(f.line) + ":" + std::to_string(f.column);
    return std::string("none");
  };
  const CheckedGame tags = checker.check(
      "[Event \"a\"]\n[Date \"2020.1.1\"]\n[Result \"x\"]\n[SetUp \"1\"]\n[FEN \"8/8 w - - 0 1\"]\n\n1. e4 "
      "*\n\n",
      1, pgn::Location{});
  EXPECT_EQ(at(tags, Code::BadFen), "5:1");
  std::vector<std::uint64_t> bad_tag_lines;  // the Date's, then the Result's
  for (const Finding& f : tags.findings)
    if (f.code == Code::BadTag) bad_tag_lines.push_back(f.line);
  EXPECT_EQ(bad_tag_lines, (std::vector<std::uint64_t>{2, 3}));
  const CheckedGame mate =
      checker.check("[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0 {mate}\n\n", 1, pgn::Location{});
  EXPECT_EQ(at(mate, Code::ResultMismatch), "3:21");
  const CheckedGame open = checker.check("[Event \"b\"]\n\n1. e4 e5\n\n\n", 1, pgn::Location{});
  EXPECT_EQ(at(open, Code::MissingResult), "3:7");
  // A file cut inside a tag: the bytes that did not read are the game's last thing.
  const CheckedGame cut = checker.check("[Event \"a\"]\n[Site \"s\"]\n[Resul", 1, pgn::Location{});
  EXPECT_EQ(at(cut, Code::Syntax), "3:1");
  EXPECT_EQ(at(cut, Code::MissingResult), "3:1");
  // A problem inside a tag before the last is not the game's last thing.
  const CheckedGame early =
      checker.check("[Event \"a\xff\"]\n[Site \"s\"]\n[Round \"1\"]\n[White \"w\"]\n", 1, pgn::Location{});
  EXPECT_EQ(at(early, Code::MissingResult), "4:1");
}

// An error ends its line, yet the variations right after the move in error
// replace it: they are checked from the position before it, as any other
// line. After a move past the error the position is unknown: skipped.
TEST(Findings, VariationsReplacingAMoveInErrorAreChecked) {
  GameChecker checker;
  auto errors = [](const CheckedGame& g) {
    std::vector<std::string> out;
    for (const Finding& f : g.findings)
      if (f.severity == Severity::Error)
        out.push_back(std::to_string(f.column) + " " + std::string(code_name(f.code)) + " " + f.move_label);
    return out;
  };
  const CheckedGame siblings =
      checker.check("1. e4 e5 2. Ke3 (2. Kf3) (2. Nf3 Nc6 3. Ke3) (2. Nf3 Nc6 3. Bb5 a6) 2... Nc6 *\n", 1,
                    pgn::Location{1, 1});
  EXPECT_EQ(errors(siblings), (std::vector<std::string>{"13 illegal-move 2.Ke3", "21 illegal-move 2.Kf3",
                                                        "41 illegal-move 3.Ke3"}));
  const CheckedGame nested =
      checker.check("1. e4 e5 2. Nf3 (2. Kf3 (2. Ke3) (2. Zz3)) 2... Nc6 *\n", 1, pgn::Location{1, 1});
  EXPECT_EQ(errors(nested),
            (std::vector<std::string>{"21 illegal-move 2.Kf3", "29 illegal-move 2.Ke3", "38 syntax 2.Zz3"}));
  // Stray characters end a line with its last move pending: a variation
  // after them replaces that move, at its ply.
  const CheckedGame stray = checker.check("1. e4 e5 2. Nf3 \\ (2. Nc3 Ke2) *\n", 1, pgn::Location{1, 1});
  std::vector<std::string> labels;
  for (const Finding& f : stray.findings)
    if (f.code == Code::IllegalMove) labels.push_back(std::to_string(f.ply) + " " + f.move_label);
  EXPECT_EQ(labels, (std::vector<std::string>{"4 2...Ke2"}));
  EXPECT_FALSE(stray.main_line_cut);  // no move after the stray character
  EXPECT_TRUE(checker.check("1. \\ e4 e5 *\n", 1, pgn::Location{1, 1}).main_line_cut);
  EXPECT_FALSE(checker.check("1. e4 (1. Ke2) e5 *\n", 1, pgn::Location{1, 1}).main_line_cut);
  EXPECT_TRUE(checker.check("1. e4 e4 *\n", 1, pgn::Location{1, 1}).main_line_cut);
  const CheckedGame later =
      checker.check("1. e4 e5 2. Ke3 Nc6 (2... Kf3) 3. Kd3 (3. Ke2) *\n", 1, pgn::Location{1, 1});
  EXPECT_EQ(errors(later), (std::vector<std::string>{"13 illegal-move 2.Ke3"}));
}

// Tag names are letters, digits and '_' (PGN 8.1.1): another byte of a
// symbol is warned and read as '_', so that the export reads everywhere.
TEST(Findings, TagNameBytesPgnDoesNotAllow) {
  GameChecker checker;
  const CheckedGame g =
      checker.check("[Event \"a\"]\n[Bad-Name \"x\"]\n[A+b=c \"y\"]\n[Bad_Name \"z\"]\n\n1. e4 *\n", 1,
                    pgn::Location{1, 1});
  EXPECT_FALSE(g.has_error);
  std::vector<std::string> warned;
  for (const Finding& f : g.findings)
    if (f.code == Code::BadTag)
      warned.push_back(std::to_string(f.line) + " " + std::string(code_name(f.code)));
  EXPECT_EQ(warned, (std::vector<std::string>{"2 bad-tag", "3 bad-tag", "4 bad-tag"}));  // the last: twice
  EXPECT_EQ(g.record.tag("Bad_Name"), "x");
  EXPECT_EQ(g.record.tag("A_b_c"), "y");
}

// A variation or NAG with no move before it in its line, and a variation
// without a move, are warned about (other readers refuse them) and kept.
TEST(Findings, AnnotationsBeforeAnyMoveAndEmptyVariations) {
  CheckOptions options;
  options.build_movetext = true;
  GameChecker checker(options);
  auto warnings = [&](std::string_view movetext) {
    const std::string text = "[Event \"e\"]\n\n" + std::string(movetext) + "\n\n";
    const CheckedGame g = checker.check(text, 1, pgn::Location{});
    std::vector<std::string> out;
    for (const Finding& f : g.findings) {
      if (f.code == Code::MissingTag) continue;
      EXPECT_EQ(f.code, Code::Syntax) << movetext << ": " << f.message;
      EXPECT_EQ(f.severity, Severity::Warning) << movetext;
      out.push_back(std::to_string(f.line) + ":" + std::to_string(f.column));
    }
    EXPECT_FALSE(g.has_error) << movetext;
    return out;
  };
  EXPECT_EQ(warnings("(1. d4) 1. e4 e5 *"), (std::vector<std::string>{"3:1"}));
  EXPECT_EQ(warnings("$12 1. e4 e5 *"), (std::vector<std::string>{"3:1"}));
  EXPECT_EQ(warnings("1. e4 () e5 *"), (std::vector<std::string>{"3:8"}));
  EXPECT_EQ(warnings("1. e4 ({only a comment}) e5 *"), (std::vector<std::string>{"3:24"}));
  EXPECT_EQ(warnings("1. e4 ((1. c4) 1. d4) e5 *"), (std::vector<std::string>{"3:8"}));
  // Where PGN puts them: no warning.
  EXPECT_EQ(warnings("{start} 1. e4 $1 (1. d4 $2 (1. c4)) (1. Nf3) e5 $6 *"), (std::vector<std::string>{}));
}

// Past the cap on findings, a game's first error is listed all the same:
// a rejected game always says why.
TEST(Findings, AFirstErrorIsListedPastTheCapOnFindings) {
  std::string movetext;
  for (int n = 1; n <= 520; n += 2)  // 1,040 check marks on moves that give no check, then an illegal move
    movetext += std::to_string(n) + ". Nf3+ Nf6+ " + std::to_string(n + 1) + ". Ng1+ Ng8+ ";
  movetext += "521. Ke3 *";
  CheckOptions options;
  GameChecker checker(options);
  const CheckedGame g = checker.check("[Event \"e\"]\n\n" + movetext + "\n\n", 1, pgn::Location{});
  ASSERT_TRUE(g.has_error);
  std::size_t errors = 0, capped = 0;
  for (const Finding& f : g.findings) {
    if (f.severity == Severity::Error) {
      ++errors;
      EXPECT_EQ(f.code, Code::IllegalMove);
      EXPECT_EQ(f.ply, 1041);
    }
    if (f.message.find("the rest are not listed") != std::string::npos) ++capped;
  }
  EXPECT_EQ(errors, 1u);
  EXPECT_EQ(capped, 1u);
  EXPECT_EQ(g.findings.size(), options.max_findings + 2);  // the cap, its notice, the error
}

// The parser's syntax problems and the checker's own (variations and NAGs
// before any move) share one cap: 100, then one warning that says so.
TEST(Findings, SyntaxProblemsShareOneCap) {
  CheckOptions options;
  GameChecker checker(options);
  auto syntax = [&](const std::string& movetext, bool& error) {
    const CheckedGame g = checker.check("[Event \"e\"]\n\n" + movetext + "\n\n", 1, pgn::Location{});
    std::size_t n = 0, notices = 0;
    for (const Finding& f : g.findings) {
      if (f.code != Code::Syntax) continue;
      ++n;
      if (f.message == pgn::describe(pgn::Problem::TooManyDiagnostics)) ++notices;
    }
    EXPECT_EQ(notices, 1u) << movetext.substr(0, 40);
    error = g.has_error;
    return n;
  };
  bool error = false;
  // 150 variations before any move, then the move they stand before.
  std::string opened = "1. e4 ";
  for (int i = 0; i < 150; ++i) opened += "( ";
  EXPECT_EQ(syntax(opened + "e5 *", error), 101u);
  // 60 of the checker's warnings, then 60 of the parser's errors (a '.'
  // without a number): 40 of these are listed.
  std::string both;
  for (int i = 0; i < 60; ++i) both += "$1 ";
  both += "1. e4 ";
  for (int i = 0; i < 60; ++i) both += ". ";
  both += "e5 *";
  EXPECT_EQ(syntax(both, error), 101u);
  EXPECT_TRUE(error);
  // An error after 100 of the reader's warnings (text that is not UTF-8) and
  // 100 of the checker's: listed, the game rejected.
  std::string late;
  for (int i = 0; i < 100; ++i) late += "{\xff} ";
  for (int i = 0; i < 100; ++i) late += "$1 ";
  late += "1. e4 % e5 *";
  const CheckedGame g = checker.check("[Event \"e\"]\n\n" + late + "\n\n", 1, pgn::Location{});
  EXPECT_TRUE(g.has_error);
  EXPECT_TRUE(std::any_of(g.findings.begin(), g.findings.end(), [](const Finding& f) {
    return f.severity == Severity::Error && f.code == Code::Syntax;
  }));
}

// A Variant tag that names nothing ("", "-", "?") leaves the game to the
// default variant, as if it had none.
TEST(Findings, AnEmptyVariantTagIsNoVariantTag) {
  const std::string path = (std::filesystem::temp_directory_path() / "virrey-empty-variant.pgn").string();
  {
    std::ofstream out(path);
    for (const char* v : {"-", "", "?", "Standard Chess"})
      out << "[Event \"E\"]\n[Variant \"" << v << "\"]\n\n1. e4 e5 *\n\n";
  }
  ingest::Options options;
  options.check.default_variant = Variant::Virrey;
  std::vector<Variant> variants;
  ingest::Callbacks cb;
  cb.on_game = [&](ingest::GameReport& r) {
    EXPECT_FALSE(r.game.has_error) << r.number;
    variants.push_back(r.game.record.variant);
    return ingest::Flow::Continue;
  };
  EXPECT_TRUE(ingest::run({path}, options, cb).all_read());
  std::filesystem::remove(path);
  EXPECT_EQ(variants,
            (std::vector<Variant>{Variant::Virrey, Variant::Virrey, Variant::Virrey, Variant::Standard}));
}

TEST(Findings, ThreadsKeepTheInputOrder) {
  std::vector<std::uint64_t> one, many;
  for (auto [threads, out] : {std::pair{1, &one}, std::pair{4, &many}}) {
    ingest::Options options;
    options.threads = threads;
    ingest::Callbacks cb;
    cb.on_game = [out = out](ingest::GameReport& r) {
      out->push_back(r.number);
      return ingest::Flow::Continue;
    };
    ingest::run({kData + "findings.pgn", kData + "findings.pgn"}, options, cb);
  }
  EXPECT_EQ(one, many);
  EXPECT_EQ(one.size(), 40u);  // findings.pgn holds 20 games
}

TEST(Findings, MissingInputIsAnIoProblem) {
  ingest::Options options;
  std::vector<Finding> problems;
  ingest::Callbacks cb;
  cb.on_problem = [&](std::string_view, const Finding& f) { problems.push_back(f); };
  EXPECT_FALSE(ingest::run({kData + "no-such-file.pgn"}, options, cb).all_read());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].code, Code::IoError);
}

}  // namespace
}  // namespace virrey::validate
