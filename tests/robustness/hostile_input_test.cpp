// Hostile inputs through `virrey validate` and `virrey import`: binary
// garbage, NUL bytes, a 64 MB line, 100,000 nested variations, 10 MB tag
// values, floods of findings and tags, and inputs that end inside a token.
// Each must give a located diagnostic naming its game, stay within a memory
// bound, and leave the following game read and stored.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <string>

#include "robustness_support.hpp"
#include "virrey/base/sanitizers.hpp"

namespace virrey::robustness {
namespace {

// Peak memory allowed to `validate` and to `import` (RocksDB included). A
// binary built with AddressSanitizer keeps freed memory in quarantine (up to
// 256 MB) and shadow memory beside it: its bounds are loosened by that much.
#if defined(VIRREY_ASAN)
constexpr long kSanitizerSlackKb = 384 * 1024;
#else
constexpr long kSanitizerSlackKb = 0;
#endif
constexpr long kValidateRssKb = 256 * 1024 + kSanitizerSlackKb;
constexpr long kImportRssKb = 512 * 1024 + kSanitizerSlackKb;

std::string tags(const std::string& white, const std::string& extra = {}) {
  return "[Event \"Robustness\"]\n[Site \"Lima\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"" + white +
         "\"]\n[Black \"Rival\"]\n[Result \"1-0\"]\n" + extra + "\n";
}

// A valid game whose White is `white`.
std::string good_game(const std::string& white = "Survivor") {
  return tags(white) + "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n";
}

// What one hostile input must give.
struct Expected {
  std::string code;                    // the diagnostic of the hostile game ("" when it has none)
  std::uint64_t game = 1;              // its game number
  std::uint64_t line = 0, column = 0;  // its location (0: any)
  std::uint64_t stored = 1;            // games `import` stores
  int import_exit = 1;
};

class HostileInput : public ::testing::Test {
 protected:
  // Validates and imports `text`; the last game must be good_game().
  void check(const std::string& name, const std::string& text, const Expected& want) {
    SCOPED_TRACE(name);
    const std::string file = scratch_ / (name + ".pgn");
    write_file(file, text);

    const Outcome v = run_virrey({"validate", "--format", "jsonl", "--threads", "2", file}, scratch_.path());
    EXPECT_EQ(v.signal, 0);
    EXPECT_EQ(v.exit_code, want.code.empty() || want.import_exit == 0 ? 0 : 1) << v.err;
    EXPECT_LT(v.max_rss_kb, kValidateRssKb);
    const auto findings = lines_of(v.out);
    ASSERT_FALSE(findings.empty());
    const std::string summary = findings.back();
    const long long games = json_number(summary, "games");
    if (!want.code.empty()) {
      bool located = false;
      for (const std::string& f : findings) {
        if (json_text(f, "code") != want.code || json_number(f, "game") != (long long)want.game) continue;
        EXPECT_EQ(json_text(f, "file"), file);
        EXPECT_GT(json_number(f, "line"), 0);
        EXPECT_GT(json_number(f, "column"), 0);
        if (want.line) {
          EXPECT_EQ(json_number(f, "line"), (long long)want.line) << f;
        }
        if (want.column) {
          EXPECT_EQ(json_number(f, "column"), (long long)want.column) << f;
        }
        EXPECT_LT(f.size(), 1000u) << "a finding line of " << f.size() << " bytes";
        located = true;
        break;
      }
      EXPECT_TRUE(located) << "no " << want.code << " finding for game " << want.game << "\n"
                           << v.out.substr(0, 2000);
    }
    for (const std::string& f : findings) {  // the last game is good
      if (json_number(f, "game") == games) {
        EXPECT_NE(json_text(f, "severity"), "error") << f;
      }
    }

    const std::string db = scratch_ / (name + ".db");
    const Outcome i =
        run_virrey({"import", file, "--db", db, "--format", "json", "--threads", "2"}, scratch_.path());
    EXPECT_EQ(i.signal, 0);
    EXPECT_EQ(i.exit_code, want.import_exit) << i.err.substr(0, 2000);
    EXPECT_LT(i.max_rss_kb, kImportRssKb);
    EXPECT_EQ(json_number(i.out, "read"), games) << i.out;
    EXPECT_EQ(json_number(i.out, "stored"), (long long)want.stored) << i.out;
    if (!want.code.empty() && want.import_exit == 1) {
      // Compiler style on stderr: FILE:LINE:COLUMN: error[CODE]: game N
      const std::regex located("(^|\n)" + std::regex_replace(file, std::regex(R"([.+])"), R"(\$&)") +
                               ":[1-9][0-9]*:[1-9][0-9]*: error\\[" + want.code + "\\]: game " +
                               std::to_string(want.game) + "[:,]");
      EXPECT_TRUE(std::regex_search(i.err.substr(0, 100000), located)) << i.err.substr(0, 2000);
    }
    const Outcome s = run_virrey({"search", "--db", db, "--white", "Survivor", "--count", "--format", "json"},
                                 scratch_.path());
    EXPECT_EQ(s.exit_code, 0) << s.err;
    EXPECT_EQ(json_number(s.out, "count"), 1) << "the game after the hostile one is not stored";
  }

  Scratch scratch_;
};

TEST_F(HostileInput, BinaryGarbage) {
  std::mt19937 random(8);
  std::string garbage(64 * 1024, '\0');
  for (char& c : garbage) c = char(random() & 0xff);
  Expected want{"syntax"};
  want.line = 1;
  want.stored = 1;
  check("garbage", garbage + "\n\n" + good_game(), want);
}

TEST_F(HostileInput, NulByte) {
  std::string game = tags("Nul") + "1. e4 e5";
  game += '\0';
  game += " 2. Nf3 Nc6 1-0\n\n";
  check("nul", game + good_game(), {"syntax", 1, 9, 9});
}

TEST_F(HostileInput, LineOf64Megabytes) {
  const std::string line = "{" + std::string(std::size_t(64) << 20, 'c') + "} 1. e4 e5 1-0\n\n";
  check("long-line", tags("Long") + line + good_game(), {"oversized-game", 1, 1, 1});
}

TEST_F(HostileInput, MovetextTokenOf64Megabytes) {
  const std::string token = "1. e4 " + std::string(std::size_t(64) << 20, 'a') + " 1-0\n\n";
  check("long-token", tags("Token") + token + good_game(), {"oversized-game", 1, 1, 1});
}

TEST_F(HostileInput, CommentOf40MegabytesBeforeAGame) {
  const std::string comment = "{" + std::string(std::size_t(40) << 20, 'c') + "}\n\n";
  Expected want{"oversized-game", 2, 11, 1};
  want.stored = 2;
  check("big-comment", good_game("Before") + comment + good_game(), want);
}

TEST_F(HostileInput, HundredThousandNestedVariations) {
  std::string movetext = "1. e4 ";
  for (int i = 0; i < 100000; ++i) movetext += "(1. d4 ";
  movetext += std::string(100000, ')') + " e5 1-0\n\n";
  // Reported at the first '(' past 1024 levels: column 7 + 1024 * 7.
  check("nested", tags("Nested") + movetext + good_game(), {"syntax", 1, 9, 7175});
}

TEST_F(HostileInput, TagValueOf10Megabytes) {
  const std::string value(std::size_t(10) << 20, 'x');
  std::string game = tags("Big", "[Annotator \"" + value + "\"]\n") + "1. d4 d5 1-0\n\n";
  Expected want;
  want.stored = 2;
  want.import_exit = 0;
  check("big-tag", game + good_game(), want);
}

TEST_F(HostileInput, DateOf10MegabytesIsQuotedShort) {
  std::string game = tags("Date") + "1. d4 d5 1-0\n\n";
  game.replace(game.find("2024.01.01"), 10, std::string(std::size_t(10) << 20, '7'));
  Expected want{"bad-tag", 1, 0, 0, 2, 0};
  check("big-date", game + good_game(), want);
}

TEST_F(HostileInput, FenOf10Megabytes) {
  const std::string fen(std::size_t(10) << 20, 'x');
  std::string game = tags("Fen", "[SetUp \"1\"]\n[FEN \"" + fen + " w - - 0 1\"]\n") + "1. e4 1-0\n\n";
  check("big-fen", game + good_game(), {"bad-fen", 1});
}

TEST_F(HostileInput, ControlBytesAreEscapedInMessages) {
  std::string game = tags("Escape") + "1. e4 \x1b[2J\x07 e5 1-0\n\n";
  check("escape", game + good_game(), {"syntax", 1, 9, 7});
  const Outcome v = run_virrey({"validate", scratch_ / "escape.pgn"}, scratch_.path());
  EXPECT_EQ(v.out.find('\x1b'), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("\\x1b"), std::string::npos) << v.out;
}

// Many games each near the size limit (a 16 MB comment): import holds a
// few of them at a time, not a batch of thousands (40 of them took 2 GB),
// and stores every one.
TEST_F(HostileInput, ManyLargeGamesStayBounded) {
  const std::string file = scratch_ / "large-games.pgn";
  {
    std::ofstream out(file, std::ios::binary);
    const std::string comment(std::size_t(16) << 20, 'c');
    for (int i = 0; i < 40; ++i)
      out << tags("Large " + std::to_string(i)) << "1. e4 {" << comment << "} e5 2. Nf3 Nc6 1-0\n\n";
    out << good_game();
  }
  const Outcome i = run_virrey({"import", file, "--db", scratch_ / "large.db", "--format", "json",
                                "--threads", "2", "--commit-interval", "60"},
                               scratch_.path());
  std::filesystem::remove(file);
  EXPECT_EQ(i.exit_code, 0) << i.err.substr(0, 2000);
  EXPECT_EQ(json_number(i.out, "stored"), 41) << i.out;
  EXPECT_LT(i.max_rss_kb, 2 * kImportRssKb + kSanitizerSlackKb);
}

TEST_F(HostileInput, FloodOfFindingsIsCut) {
  std::string movetext = "1. e4 e5 ";
  for (int i = 0; i < 200000; ++i) movetext += "Nf3+ Nf6+ Ng1+ Ng8+ ";
  movetext += "1-0\n\n";
  Expected want{"check-mark", 1, 9, 0, 2, 0};
  check("flood", tags("Flood") + movetext + good_game(), want);
  const Outcome v = run_virrey({"validate", "--format", "jsonl", scratch_ / "flood.pgn"}, scratch_.path());
  std::size_t listed = 0;
  for (const std::string& f : lines_of(v.out)) listed += json_number(f, "game") == 1;
  EXPECT_EQ(listed, 1001u);
}

TEST_F(HostileInput, RepeatedTagsOnOneLine) {
  // The line starts with a new tag: a repeated name first on a line would
  // begin a new game.
  std::string line = "[Annotator \"A\"]";
  for (int i = 0; i < 1000000; ++i) line += " [Round \"2\"]";
  Expected want{"bad-tag", 1, 8, 0, 2, 0};
  check("repeated-tags", tags("Repeat", line + "\n") + "1. e4 1-0\n\n" + good_game(), want);
}

// (How the time grows with the tags: bench/many_tags_vs_pgn_extract.py.)
TEST_F(HostileInput, ManyDistinctTagsAreRead) {
  std::string extra;
  for (int i = 0; i < 300000; ++i) extra += "[T" + std::to_string(i) + " \"v\"]\n";
  Expected want;
  want.stored = 2;
  want.import_exit = 0;
  check("many-tags", tags("Many", extra) + "1. e4 1-0\n\n" + good_game(), want);
}

// Inputs that end inside a token, alone and followed by a good game.
struct Truncation {
  const char* name;
  std::string text;  // a game cut short
  std::uint64_t line, column;
};

class TruncatedInput : public HostileInput, public ::testing::WithParamInterface<int> {};

Truncation truncation(int which) {
  switch (which) {
    case 0: return {"mid-tag", "[Event \"Cut\"]\n[Site \"Li", 2, 7};
    case 1: return {"mid-comment", tags("Cut") + "1. e4 {an unfinished comm", 9, 7};
    case 2: return {"mid-move", tags("Cut") + "1. e4 e5 2. Nf", 9, 13};
    default: return {"mid-string", tags("Cut") + "[Annotator \"Nob", 9, 12};
  }
}

TEST_P(TruncatedInput, AtTheEnd) {
  const Truncation t = truncation(GetParam());
  Expected want{"syntax", 2, t.line + 10, t.column};
  // The good game (10 lines) comes first here; the cut game is game 2.
  const std::string file = scratch_ / (std::string(t.name) + "-end.pgn");
  write_file(file, good_game() + t.text);
  const Outcome v = run_virrey({"validate", "--format", "jsonl", file}, scratch_.path());
  EXPECT_EQ(v.signal, 0);
  EXPECT_EQ(v.exit_code, 1);
  bool located = false;
  for (const std::string& f : lines_of(v.out))
    located |= json_text(f, "code") == "syntax" && json_number(f, "game") == 2 &&
               json_number(f, "line") == (long long)want.line &&
               json_number(f, "column") == (long long)want.column;
  EXPECT_TRUE(located) << v.out;
  const Outcome i =
      run_virrey({"import", file, "--db", scratch_ / "end.db", "--format", "json"}, scratch_.path());
  EXPECT_EQ(i.signal, 0);
  EXPECT_EQ(i.exit_code, 1) << i.err;
  EXPECT_EQ(json_number(i.out, "read"), 2);
  EXPECT_EQ(json_number(i.out, "stored"), 1);
}

TEST_P(TruncatedInput, BeforeAGoodGame) {
  const Truncation t = truncation(GetParam());
  check(std::string(t.name) + "-then-good", t.text + "\n" + good_game(), {"syntax", 1, t.line, t.column});
}

INSTANTIATE_TEST_SUITE_P(Tokens, TruncatedInput, ::testing::Range(0, 4), [](const auto& info) {
  std::string name = truncation(info.param).name;
  name.erase(name.find('-'), 1);
  return name;
});

}  // namespace
}  // namespace virrey::robustness
