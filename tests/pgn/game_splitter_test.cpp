// GameSplitter: where games end, their numbers and locations, exact bytes,
// every chunk boundary, the size limit, truncated and binary input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "virrey/importers/memory_source.hpp"
#include "virrey/pgn/game_splitter.hpp"

namespace virrey::pgn {
namespace {

using importers::MemorySource;

struct Item {
  ItemKind kind;
  std::string text;
  std::uint64_t number, line, column, offset, size;
  GameEnd end;
  std::string error;
  friend bool operator==(const Item&, const Item&) = default;
};

void PrintTo(const Item& i, std::ostream* os) {
  *os << "{kind " << int(i.kind) << " #" << i.number << " @" << i.line << ":" << i.column << " off "
      << i.offset << " size " << i.size << " end " << int(i.end) << " text [" << i.text << "] " << i.error
      << "}";
}

std::vector<Item> split(importers::ByteSource& source, SplitterOptions options = {}) {
  GameSplitter splitter(source, options);
  std::vector<Item> items;
  for (;;) {
    const GameItem g = splitter.next();
    if (g.kind == ItemKind::End) break;
    items.push_back({g.kind, std::string(g.text), g.number, g.start.line, g.start.column, g.offset, g.size,
                     g.end, std::string(g.error)});
    if (items.size() > 100000) break;  // a splitter that never ends
  }
  EXPECT_EQ(splitter.next().kind, ItemKind::End);  // End stays End
  return items;
}

std::vector<Item> split(const std::string& data, std::size_t chunk = 1 << 20, SplitterOptions options = {}) {
  MemorySource source(data, "test", chunk);
  return split(source, options);
}

std::vector<std::string> texts(const std::vector<Item>& items) {
  std::vector<std::string> out;
  for (const Item& i : items) out.push_back(i.text);
  return out;
}

// Every item sits at its offset; everything between items is blank.
void expect_exact_cover(const std::string& data, const std::vector<Item>& items) {
  std::uint64_t pos = 0;
  for (const Item& i : items) {
    if (i.kind == ItemKind::ReadError) continue;
    ASSERT_LE(pos, i.offset);
    for (std::uint64_t k = pos; k < i.offset; ++k) {
      const unsigned char c = static_cast<unsigned char>(data[k]);
      EXPECT_TRUE(c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == 0xef ||
                  c == 0xbb || c == 0xbf)
          << "byte " << k << " belongs to no item";
    }
    if (i.kind != ItemKind::Oversized) {
      EXPECT_EQ(data.substr(i.offset, i.size), i.text);
    }
    pos = i.offset + i.size;
  }
}

const std::string kThreeGames =
    "[Event \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n"
    "[Event \"B\"]\n\n1. d4 {1-0 in a comment} d5 ; 0-1 here\n% * escape\n( 1-0 ) 1/2-1/2   \n"
    "[Event \"C \\\"1-0\\\" *\"]\n1. c4 *";

TEST(GameSplitter, CutsGamesAfterTheirResults) {
  const auto items = split(kThreeGames);
  ASSERT_EQ(items.size(), 3u);
  EXPECT_THAT(texts(items), ::testing::ElementsAre("[Event \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n",
                                                   "[Event \"B\"]\n\n1. d4 {1-0 in a comment} d5 ; 0-1 here\n"
                                                   "% * escape\n( 1-0 ) 1/2-1/2   \n",
                                                   "[Event \"C \\\"1-0\\\" *\"]\n1. c4 *"));
  EXPECT_EQ(items[0].number, 1u);
  EXPECT_EQ(items[1].number, 2u);
  EXPECT_EQ(items[2].number, 3u);
  EXPECT_EQ(items[0].line, 1u);
  EXPECT_EQ(items[1].line, 6u);
  EXPECT_EQ(items[2].line, 11u);
  for (const Item& i : items) {
    EXPECT_EQ(i.kind, ItemKind::Game);
    EXPECT_EQ(i.end, GameEnd::Result);
    EXPECT_EQ(i.column, 1u);
  }
  expect_exact_cover(kThreeGames, items);
}

TEST(GameSplitter, EveryChunkSizeGivesTheSameGames) {
  std::string data = kThreeGames + "\r\n\xef\xbb\xbf[Event \"D\"]\r\n1. e4 {x\r\n[Site \"y\"]\r\n";
  data +=
      "[Event \"E\"]\n1. e4\n  [Event \"F\"]\n[Event \"F\"]\n\r1.d4 (* (0-1)) 0-1\r   \r\n\n1-0 21-0 e4 1-0";
  data += "\n{trailing comment}\n";
  const auto whole = split(data);
  ASSERT_EQ(whole.size(), 10u);
  expect_exact_cover(data, whole);
  for (std::size_t chunk = 1; chunk <= 24; ++chunk) {
    for (std::size_t read_size : {std::size_t(1), std::size_t(3), std::size_t(64)}) {
      SplitterOptions options;
      options.read_size = read_size;
      EXPECT_EQ(split(data, chunk, options), whole) << "chunk " << chunk << " read size " << read_size;
    }
  }
}

TEST(GameSplitter, MissingResultEndsAtTheNextTagSection) {
  const std::string data = "[Event \"A\"]\n1. e4 e5\n\n  [Event \"B\"]\n1. d4 *\n";
  const auto items = split(data);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].text, "[Event \"A\"]\n1. e4 e5\n\n");
  EXPECT_EQ(items[0].end, GameEnd::NextTags);
  EXPECT_EQ(items[1].text, "[Event \"B\"]\n1. d4 *\n");
  EXPECT_EQ(items[1].line, 4u);
  EXPECT_EQ(items[1].column, 3u);
}

TEST(GameSplitter, BracketInsideMovetextLineDoesNotSplit) {
  const auto items = split("1. e4 [Event \"x\"] e5 *\n");
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].end, GameEnd::Result);
}

TEST(GameSplitter, ResultMarkersNeedTokenBoundaries) {
  const auto items = split("e4 21-0 a1-0 1-01 1/2-1/2x 0-0 0-0-0 O-O-O e5 0-1\n");
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].end, GameEnd::Result);
}

TEST(GameSplitter, GamesWithoutTagsAreSeparatedByResults) {
  const auto items = split("1. e4 e5 1-0 1. d4 d5 0-1\n1. c4 *\n");
  EXPECT_THAT(texts(items), ::testing::ElementsAre("1. e4 e5 1-0 ", "1. d4 d5 0-1\n", "1. c4 *\n"));
  EXPECT_EQ(items[1].column, 14u);
}

TEST(GameSplitter, TagOnlyGamesSplitOnARepeatedTag) {
  const auto items = split("[Event \"A\"]\n[Site \"s\"]\n\n[Event \"B\"]\n[Site \"s\"]\n");
  EXPECT_THAT(texts(items),
              ::testing::ElementsAre("[Event \"A\"]\n[Site \"s\"]\n\n", "[Event \"B\"]\n[Site \"s\"]\n"));
  EXPECT_EQ(items[0].end, GameEnd::NextTags);
  // A blank line inside one tag section does not split.
  EXPECT_EQ(split("[Event \"A\"]\n\n[Date \"d\"]\n1. e4 *").size(), 1u);
  // Nor does a tag written twice on the next lines: one game, whose checker
  // tells of the tag twice; a repeated Event, or a repeat after an empty
  // line (\r\n line ends too), begins the next game.
  EXPECT_EQ(split("[Event \"A\"]\n[Annotator \"x\"]\n[Annotator \"y\"]\n\n1. e4 *\n").size(), 1u);
  EXPECT_EQ(split("[Event \"A\"]\r\n[White \"x\"]\r\n[White \"y\"]\r\n\r\n1. e4 *\r\n").size(), 1u);
  EXPECT_THAT(texts(split("[Event \"A\"]\n[Site \"s\"]\n[Event \"B\"]\n1. e4 *")),
              ::testing::ElementsAre("[Event \"A\"]\n[Site \"s\"]\n", "[Event \"B\"]\n1. e4 *"));
  EXPECT_THAT(texts(split("[Site \"A\"]\r\n\r\n[Site \"B\"]\r\n1. e4 *")),
              ::testing::ElementsAre("[Site \"A\"]\r\n\r\n", "[Site \"B\"]\r\n1. e4 *"));
}

TEST(GameSplitter, UnterminatedCommentStopsAtATagLine) {
  const auto items = split("[Event \"A\"]\n1. e4 {oops\n[%clk 1:00] [Site \"s\"]\n[Event \"B\"]\n1. d4 *");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].text, "[Event \"A\"]\n1. e4 {oops\n[%clk 1:00] [Site \"s\"]\n");
  EXPECT_EQ(items[0].end, GameEnd::NextTags);
  EXPECT_EQ(items[1].line, 4u);
}

// A tag pair quoted in a comment (a header cited, or put at a line start by
// a wrapped comment, as pgn-extract wraps) is text when a '}' closes the
// comment before an empty line or another '{'; otherwise the comment is
// unterminated and the next game begins at the tag line.
TEST(GameSplitter, TagPairsQuotedInACommentAreText) {
  const std::string quoted =
      "[Event \"A\"]\n\n1. e4 {the game of\n[White \"Anderssen\"] [Black \"Kieseritzky\"] in\n"
      "[Event \"London\"]\n1. e4 e5 * went} e5 *\n\n[Event \"B\"]\n\n1. d4 *\n";
  const auto items = split(quoted);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[1].line, 8u);
  // An empty line inside the comment, the '}' on the tag line.
  EXPECT_EQ(split("[Event \"A\"]\n\n1. e4 {see\n\n[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]} e5 *\n\n"
                  "[Event \"B\"]\n\n1. d4 *\n")
                .size(),
            2u);
  // Unterminated: an empty line comes first (the next game's tag section
  // ends), or a '{' (its movetext opens a comment), or the end of input.
  EXPECT_EQ(split("[Event \"A\"]\n1. e4 {oops\n\n[Event \"B\"]\n\n1. d4 {x} *\n").size(), 2u);
  EXPECT_EQ(split("[Event \"A\"]\n1. e4 {oops\n[Event \"B\"]\n1. d4 {x} *\n").size(), 2u);
  EXPECT_EQ(split("[Event \"A\"]\n1. e4 {oops\n[Event \"B\"]\n1. d4 *").size(), 2u);
  // A comment longer than the look ahead, a tag-like line on every line of
  // it: one game, read in small pieces as in large.
  std::string big = "[Event \"A\"]\n\n1. e4 {";
  for (int i = 0; i < 20000; ++i) big += "\n[Note \"" + std::to_string(i) + "\"] and more text";
  big += "} e5 *\n\n[Event \"B\"]\n\n1. d4 *\n";
  EXPECT_EQ(split(big).size(), 2u);
  SplitterOptions small;
  small.read_size = 4096;
  EXPECT_EQ(split(big, 1000, small).size(), 2u);
  // An unterminated comment, then games with no empty line between them
  // for far more than any look ahead: every game is read, with \n or \r\n
  // line ends, read whole or in small pieces.
  for (const std::string eol : {"\n", "\r\n"}) {
    std::string games = "[Event \"A\"]" + eol + "1. e4 {oops" + eol;
    for (int i = 0; i < 3000; ++i)
      games += "[Event \"G" + std::to_string(i) + "\"]" + eol + "[Result \"1-0\"]" + eol +
               "1. e4 e5 2. Nf3 Nc6 1-0" + eol;
    EXPECT_EQ(split(games).size(), 3001u);
    EXPECT_EQ(split(games, 999, small).size(), 3001u);
  }
}

TEST(GameSplitter, ByteOrderMarkIsSkippedAndNotCounted) {
  const auto items = split("\xef\xbb\xbf[Event \"A\"]\n*\n\xef\xbb\xbf[Event \"B\"]\n*");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].offset, 3u);
  EXPECT_EQ(items[0].column, 1u);
  EXPECT_EQ(items[0].text, "[Event \"A\"]\n*\n");
  EXPECT_EQ(items[1].line, 3u);
  EXPECT_EQ(items[1].column, 1u);
}

TEST(GameSplitter, LineNumbersWithCrLfAndLoneCr) {
  const auto items = split("[Event \"A\"]\r\n\r\n1. e4 *\r\n\r\n[Event \"B\"]\r1. d4 *\r\r[Event \"C\"]\n*");
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].text, "[Event \"A\"]\r\n\r\n1. e4 *\r\n");
  EXPECT_EQ(items[1].line, 5u);
  EXPECT_EQ(items[1].text, "[Event \"B\"]\r1. d4 *\r");
  EXPECT_EQ(items[2].line, 8u);
}

TEST(GameSplitter, EscapeLineBeforeTheFirstGameBelongsToIt) {
  const auto items = split("% generated\n[Event \"A\"]\n*\n");
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].text, "% generated\n[Event \"A\"]\n*\n");
}

TEST(GameSplitter, TrailingCommentsAreStray) {
  const auto items = split("[Event \"A\"]\n*\n{ the end }\n% bye\n");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[1].kind, ItemKind::Stray);
  EXPECT_EQ(items[1].number, 0u);
  EXPECT_EQ(items[1].text, "{ the end }\n% bye\n");
}

TEST(GameSplitter, NulPaddingIsNoGame) {
  const auto items = split(std::string("[Event \"A\"]\n1-0\0\0\n[Event \"B\"]\n*\n\0\0\0\0\n\0", 38));
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].text, std::string("[Event \"A\"]\n1-0\0\0\n", 18));
  EXPECT_EQ(items[1].number, 2u);
  EXPECT_EQ(items[2].kind, ItemKind::Stray);
}

TEST(GameSplitter, TruncatedInputEndsTheLastGame) {
  // (A repeated tag at a line start would begin a new game, so the tail uses Site.)
  for (const std::string tail :
       {"1. e4 e", "1. e4 {half a comm", "[Site \"half", "1. e4 1-", "1. e4 1/2-1/"}) {
    const std::string data = "[Event \"A\"]\n1-0\n[Event \"B\"]\n" + tail;
    const auto items = split(data, 2);
    ASSERT_EQ(items.size(), 2u) << tail;
    EXPECT_EQ(items[1].end, GameEnd::EndOfInput) << tail;
    EXPECT_EQ(items[1].text, "[Event \"B\"]\n" + tail);
  }
}

TEST(GameSplitter, OversizedGamesAreSkippedWithTheirLocation) {
  std::string big = "[Event \"big\"]\n";
  for (int i = 1; i <= 40; ++i) big += std::to_string(i) + ". e4 e5 {" + std::string(i % 7, '}') + "} ";
  big += "1-0\n";
  const std::string data = "[Event \"A\"]\n*\n" + big + "[Event \"C\"]\n*\n" + big + "\n";
  SplitterOptions options;
  options.max_game_bytes = 100;
  const auto whole = split(data, 1 << 20, options);
  ASSERT_EQ(whole.size(), 4u);
  EXPECT_EQ(whole[1].kind, ItemKind::Oversized);
  EXPECT_EQ(whole[1].number, 2u);
  EXPECT_EQ(whole[1].line, 3u);
  EXPECT_EQ(whole[1].offset, 14u);
  EXPECT_EQ(whole[1].size, big.size());
  EXPECT_TRUE(whole[1].text.empty());
  EXPECT_EQ(whole[2].kind, ItemKind::Game);
  EXPECT_EQ(whole[2].number, 3u);
  EXPECT_EQ(whole[2].text, "[Event \"C\"]\n*\n");
  EXPECT_EQ(whole[3].kind, ItemKind::Oversized);
  EXPECT_EQ(whole[3].number, 4u);
  for (std::size_t chunk : {1, 2, 3, 5, 8, 13, 50, 99, 100, 101, 200}) {
    for (std::size_t read_size : {std::size_t(1), std::size_t(7), std::size_t(1000)}) {
      options.read_size = read_size;
      EXPECT_EQ(split(data, chunk, options), whole) << "chunk " << chunk << " read size " << read_size;
    }
  }
}

TEST(GameSplitter, GameAtTheSizeLimitIsKept) {
  const std::string game = "[Event \"A\"]\n1. e4 *\n";
  SplitterOptions options;
  options.max_game_bytes = game.size();
  EXPECT_EQ(split(game + game, 1, options)[1].kind, ItemKind::Game);
  options.max_game_bytes = game.size() - 1;
  EXPECT_EQ(split(game + game, 1, options)[1].kind, ItemKind::Oversized);
}

TEST(GameSplitter, LongLinesAndBinaryGarbageDoNotBreakIt) {
  std::mt19937 rng(12345);
  std::string garbage(200000, '\0');
  for (char& c : garbage) c = char(rng());
  const std::string first = "[Event \"A\"]\n1. e4 {" + std::string(300000, 'x') + "} *\n";
  const std::string data = first + garbage + "\n[Event \"Z\"]\n1. e4 *\n";
  for (std::size_t chunk : {std::size_t(997), std::size_t(1) << 20}) {
    const auto items = split(data, chunk);
    ASSERT_GE(items.size(), 3u);
    EXPECT_EQ(items.front().text, first);
    EXPECT_EQ(items.back().text, "[Event \"Z\"]\n1. e4 *\n");
    expect_exact_cover(data, items);
    std::uint64_t numbered = 0;
    for (const Item& i : items) numbered += i.number != 0;
    EXPECT_EQ(items.back().number, numbered);
  }
}

TEST(GameSplitter, EmptyAndBlankInputsHaveNoGames) {
  EXPECT_TRUE(split("").empty());
  EXPECT_TRUE(split(" \n\r\n\xef\xbb\xbf \t\n\xef\xbb\xbf").empty());
}

// A source that fails after handing out its first bytes.
class FailingSource final : public importers::ByteSource {
 public:
  explicit FailingSource(std::string data) : data_(std::move(data)) {}
  importers::ReadResult read(std::span<char> buffer) override {
    if (pos_ >= data_.size()) return {0, "failing: disk on fire"};
    const std::size_t n = std::min(buffer.size(), data_.size() - pos_);
    std::copy_n(data_.data() + pos_, n, buffer.data());
    pos_ += n;
    return {n, {}};
  }
  std::string_view name() const override { return "failing"; }
  std::uint64_t raw_bytes_read() const override { return pos_; }

 private:
  std::string data_;
  std::size_t pos_ = 0;
};

TEST(GameSplitter, ReadErrorsEndTheStream) {
  FailingSource source("[Event \"A\"]\n*\n[Event \"B\"]\n1. e4");
  const auto items = split(source);
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].end, GameEnd::Result);
  EXPECT_EQ(items[1].kind, ItemKind::Game);
  EXPECT_EQ(items[1].end, GameEnd::ReadError);
  EXPECT_EQ(items[2].kind, ItemKind::ReadError);
  EXPECT_EQ(items[2].error, "failing: disk on fire");
}

}  // namespace
}  // namespace virrey::pgn
