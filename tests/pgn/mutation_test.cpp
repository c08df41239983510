// Randomly damaged PGN (a poor man's fuzzer, deterministic): the splitter cuts
// the same items whatever the chunk size, covers every byte exactly, and the
// parser keeps its contract (one end_tags, balanced variations) on every game.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "virrey/importers/memory_source.hpp"
#include "virrey/pgn/game_parser.hpp"
#include "virrey/pgn/game_splitter.hpp"

namespace virrey::pgn {
namespace {

const std::string kBase =
    "[Event \"A \\\"quoted\\\"\"]\n[Site \"s\"]\n\n1. e4 {c} e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3 $1 Nc6!? "
    "1-0\n\n"
    "[Event \"B\"]\r\n[Result \"*\"]\r\n\r\n1. d4 ; line\r\n% esc\r\n1... d5 2. c4 *\r\n"
    "1. e4 e5 0-1 1. d4 1/2-1/2\n[Event \"C\"]\n1. O-O-O Z0 -- exd8=Q+ e8V\n";

const char* const kPieces[] = {"{",
                               "}",
                               "(",
                               ")",
                               "[",
                               "]",
                               "\"",
                               "\\",
                               "\n",
                               "\r",
                               "1-0",
                               "*",
                               "%",
                               ";",
                               "\xef\xbb\xbf",
                               "\xe9",
                               "-",
                               "1/2-1/2",
                               "0-1",
                               "$",
                               "!?!",
                               "[Event \"x\"]\n",
                               " ",
                               "12...",
                               "Nf3"};

std::string mutate(std::mt19937& rng, std::string text) {
  const int edits = 1 + int(rng() % 6);
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = text.empty() ? 0 : rng() % (text.size() + 1);
    switch (rng() % 4) {
      case 0: text.erase(at, rng() % 12); break;
      case 1: text.insert(at, 1, char(rng())); break;
      default: text.insert(at, kPieces[rng() % std::size(kPieces)]); break;
    }
  }
  return text;
}

struct Contract : Visitor {
  int depth = 0, tag_sections = 0;
  bool ok = true;
  void begin_game(Location) override { depth = 0, tag_sections = 0; }
  Skip end_tags(Location) override {
    ++tag_sections;
    return Skip::No;
  }
  Skip begin_variation(Location) override {
    ++depth;
    return Skip::No;
  }
  void end_variation(Location) override { ok = ok && --depth >= 0; }
  void end_game(Location) override { ok = ok && depth == 0 && tag_sections == 1; }
};

std::vector<std::string> split(const std::string& data, std::size_t chunk, std::size_t limit, bool parse) {
  importers::MemorySource source(data, "m", chunk);
  SplitterOptions options;
  options.max_game_bytes = limit;
  options.read_size = chunk * 3;
  GameSplitter splitter(source, options);
  GameParser parser;
  Contract contract;
  std::vector<std::string> items;
  std::uint64_t covered = 0;
  for (GameItem item = splitter.next(); item.kind != ItemKind::End; item = splitter.next()) {
    EXPECT_GE(item.offset, covered);
    covered = item.offset + item.size;
    EXPECT_LE(covered, data.size());
    if (item.kind != ItemKind::Oversized) {
      EXPECT_EQ(data.compare(item.offset, item.size, item.text), 0);
    }
    if (parse && item.kind == ItemKind::Game) parser.parse(item.text, item.start, contract);
    items.push_back(std::to_string(int(item.kind)) + " " + std::to_string(item.number) + " " +
                    std::to_string(item.start.line) + ":" + std::to_string(item.start.column) + " " +
                    std::to_string(item.offset) + "+" + std::to_string(item.size) + " " +
                    std::to_string(int(item.end)));
  }
  EXPECT_TRUE(contract.ok);
  return items;
}

TEST(Mutation, DamagedInputSplitsConsistentlyAndParses) {
  std::mt19937 rng(2024);
  std::string text = kBase;
  for (int round = 0; round < 400; ++round) {
    text = round % 25 == 0 ? kBase : mutate(rng, text);
    const std::size_t limit = round % 3 == 0 ? 40 + rng() % 80 : std::size_t(1) << 20;
    SCOPED_TRACE("round " + std::to_string(round) + ": " + text);
    const auto whole = split(text, 1 << 20, limit, true);
    for (std::size_t chunk : {std::size_t(1), std::size_t(2), std::size_t(1 + rng() % 13)})
      ASSERT_EQ(split(text, chunk, limit, false), whole) << "chunk " << chunk;
  }
}

}  // namespace
}  // namespace virrey::pgn
