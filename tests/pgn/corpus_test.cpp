// The splitter and parser over real-world files: every file of the shared
// "tricky" corpus (no crash, exact byte cover, the same games at any chunk
// size, known game counts) and two compressed real files end to end.
// The corpus lives outside the repository: $VIRREY_CORPORA, by default
// ../shared/corpora beside the source tree; the tests are skipped where it is
// missing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "virrey/importers/memory_source.hpp"
#include "virrey/importers/open_input.hpp"
#include "virrey/pgn/game_parser.hpp"
#include "virrey/pgn/game_splitter.hpp"

namespace virrey::pgn {
namespace {

namespace fs = std::filesystem;

fs::path corpora() {
  const char* env = std::getenv("VIRREY_CORPORA");
  return env ? fs::path(env) : fs::path(VIRREY_SOURCE_DIR) / ".." / "shared" / "corpora";
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Checks the visitor contract while counting.
struct Counting : Visitor {
  std::uint64_t games = 0, results = 0, moves = 0, diagnostics = 0;
  int depth = 0, tag_sections = 0;
  bool balanced = true;

  void begin_game(Location) override { depth = 0, tag_sections = 0; }
  Skip end_tags(Location) override {
    ++tag_sections;
    return Skip::No;
  }
  void move(std::string_view san, Location) override {
    moves += 1;
    balanced = balanced && !san.empty();
  }
  Skip begin_variation(Location) override { return ++depth, Skip::No; }
  void end_variation(Location) override { balanced = balanced && --depth >= 0; }
  void result(GameResult, Location) override { ++results; }
  void diagnostic(const Diagnostic& d) override {
    ++diagnostics;
    balanced = balanced && !d.message.empty();
  }
  void end_game(Location) override {
    ++games;
    balanced = balanced && depth == 0 && tag_sections == 1;
  }
};

struct Summary {
  std::uint64_t games = 0, stray = 0, results = 0;
  std::vector<std::string> items;  // kind, number, location, offset, size, end
};

Summary run(importers::ByteSource& source, const std::string& data) {
  Summary s;
  GameSplitter splitter(source);
  GameParser parser;
  Counting counting;
  std::uint64_t covered = 0;
  for (GameItem item = splitter.next(); item.kind != ItemKind::End; item = splitter.next()) {
    EXPECT_NE(item.kind, ItemKind::ReadError) << item.error;
    EXPECT_NE(item.kind, ItemKind::Oversized);
    EXPECT_GE(item.offset, covered);
    EXPECT_EQ(data.substr(item.offset, item.size), item.text);
    covered = item.offset + item.size;
    if (item.kind == ItemKind::Game) {
      EXPECT_EQ(item.number, ++s.games);
      parser.parse(item.text, item.start, counting);
    } else {
      ++s.stray;
    }
    std::ostringstream line;
    line << int(item.kind) << ' ' << item.number << ' ' << item.start.line << ':' << item.start.column << ' '
         << item.offset << ' ' << item.size << ' ' << int(item.end);
    s.items.push_back(line.str());
  }
  EXPECT_TRUE(std::all_of(data.begin() + std::ptrdiff_t(covered), data.end(),
                          [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }));
  EXPECT_EQ(counting.games, s.games);
  EXPECT_TRUE(counting.balanced);
  s.results = counting.results;
  return s;
}

TEST(Corpus, EveryTrickyFileSplitsAndParses) {
  const fs::path root = corpora() / "tricky";
  if (!fs::is_directory(root)) GTEST_SKIP() << root << " not found";
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());

  // Counts checked by hand against the files (grep '^\[Event', results, and
  // reading the odd ones); pgn-extract agrees except where it splits games
  // at errors it cannot get past (drops, lichess variants, bad tags).
  const std::map<std::string, std::uint64_t> expected = {
      {"pgn-extract-tests/fools-mate.pgn", 1},
      {"pgn-extract-tests/nested-comment.pgn", 1},
      {"pgn-extract-tests/test-notags.pgn", 1},
      {"pgn-extract-tests/test-fuzzydepth.pgn", 4},    // no tags; games end at results
      {"pgn-extract-tests/test-nobadresults.pgn", 9},  // no Event tags
      {"pgn-extract-tests/fischer.pgn", 34},
      {"python-chess/utf8-bom.pgn", 2},              // BOM before the first tag
      {"python-chess/immortal-games.pgn", 36},       // a % header, one game without result
      {"python-chess/chessbase-empty-line.pgn", 1},  // blank line inside the tag section
      {"python-chess/antichess-programfox.pgn", 2},
      {"chessops/headers-and-moves-on-the-same-line.pgn", 3},  // no results: split at tags
      {"chessops/leading-whitespace.pgn", 3},                  // indented tags; last game has none
      {"chessops/pathological-headers.pgn", 1},
      {"scalachess/FWWRC.pgn", 605},      // tag-only games
      {"scalachess/uzchesscup.pgn", 45},  // tag-only games without Event
      {"debian-pgn-extract/eco.pgn", 2014},
      {"debian-pychess/mate_in_3.pgn", 375},
      {"pgn-parser/twic-01-232games.pgn", 232},
      {"pgn-parser/sampleGameThrow.pgn", 1},
      {"tcec-chess960/TCEC_Season_6_-_FRC.pgn", 112},
  };

  std::uint64_t checked = 0;
  for (const fs::path& file : files) {
    const std::string name = fs::relative(file, root).generic_string();
    SCOPED_TRACE(name);
    const std::string data = slurp(file);
    importers::OpenResult opened = importers::open_input(file.string());
    ASSERT_TRUE(opened) << opened.error;
    const Summary whole = run(*opened.source, data);
    EXPECT_GT(whole.games, 0u);
    if (auto it = expected.find(name); it != expected.end()) {
      EXPECT_EQ(whole.games, it->second);
      ++checked;
    }
    // Small reads put chunk boundaries everywhere; nothing may change.
    importers::MemorySource chunked(data, name, 61);
    EXPECT_EQ(run(chunked, data).items, whole.items);
  }
  EXPECT_EQ(checked, expected.size());
}

TEST(Corpus, CompressedRealFilesEndToEnd) {
  const fs::path real = corpora() / "real";
  if (!fs::is_directory(real)) GTEST_SKIP() << real << " not found";
  const std::pair<const char*, std::uint64_t> files[] = {
      {"shakmaty-bench-lichess_db_1000k.pgn.zst", 438},
      {"shakmaty-bench-twic1599_1000k.pgn.zst", 1110},
  };
  for (const auto& [name, games] : files) {
    SCOPED_TRACE(name);
    importers::OpenResult opened = importers::open_input((real / name).string());
    ASSERT_TRUE(opened) << opened.error;
    EXPECT_EQ(opened.compression, importers::Compression::Zstd);
    GameSplitter splitter(*opened.source);
    GameParser parser;
    Counting counting;
    std::uint64_t n = 0;
    for (GameItem item = splitter.next(); item.kind != ItemKind::End; item = splitter.next()) {
      ASSERT_EQ(item.kind, ItemKind::Game) << item.error;
      EXPECT_EQ(item.end, GameEnd::Result);
      ++n;
      parser.parse(item.text, item.start, counting);
    }
    EXPECT_EQ(n, games);
    EXPECT_EQ(counting.results, games);
    EXPECT_EQ(counting.diagnostics, 0u);
    EXPECT_TRUE(counting.balanced);
  }
}

}  // namespace
}  // namespace virrey::pgn
