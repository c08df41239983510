// End to end over a committed fixture (tests/data/pgn/reader-edge-cases.pgn):
// file -> open_input -> GameSplitter -> GameParser, with a BOM, CRLF line
// ends, Latin-1 bytes, a game without tags and one without a result.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "recording_visitor.hpp"
#include "virrey/importers/open_input.hpp"
#include "virrey/pgn/game_splitter.hpp"

namespace virrey::pgn {
namespace {

using ::testing::ElementsAre;

TEST(ReaderFixture, EdgeCasesFileEndToEnd) {
  importers::OpenResult opened = importers::open_input(VIRREY_TEST_DATA "/pgn/reader-edge-cases.pgn");
  ASSERT_TRUE(opened) << opened.error;
  GameSplitter splitter(*opened.source);
  GameParser parser;
  std::vector<GameItem> games;
  std::vector<std::vector<std::string>> calls;
  for (GameItem item = splitter.next(); item.kind != ItemKind::End; item = splitter.next()) {
    ASSERT_EQ(item.kind, ItemKind::Game);
    testing::RecordingVisitor v;
    parser.parse(item.text, item.start, v);
    games.push_back(item);
    calls.push_back(v.calls);
  }
  ASSERT_EQ(games.size(), 4u);
  EXPECT_EQ(games[0].start, (Location{1, 1}));  // the BOM does not count
  EXPECT_EQ(games[0].offset, 3u);
  EXPECT_EQ(games[1].start, (Location{8, 1}));
  EXPECT_EQ(games[2].start, (Location{10, 1}));
  EXPECT_EQ(games[2].end, GameEnd::NextTags);
  EXPECT_EQ(games[3].start, (Location{12, 1}));
  for (int i : {0, 1, 3}) EXPECT_EQ(games[std::size_t(i)].end, GameEnd::Result);

  EXPECT_THAT(calls[0],
              ElementsAre("diag invalid-utf8 '\xe9' @2:17", "tag Event=Latin-1 \xe9v\xe9nement @2:1",
                          "diag invalid-utf8 '\xfc' @3:10", "tag White=M\xfcller @3:1", "tag Result=1-0 @4:1",
                          "end_tags @6:1", "number 1. @6:1", "move e4 @6:4", "diag invalid-utf8 '\xe9' @6:11",
                          "{caf\xe9 @6:7", "move e5 @6:14", "( @6:17", "number 1... @6:18", "move c5 @6:23",
                          "( @6:26", "number 1... @6:27", "move e6 @6:32", ") @6:34", ") @6:35",
                          "number 2. @6:37", "move Nf3 @6:40", "result 1-0 @6:44"));
  EXPECT_THAT(calls[2], ElementsAre("tag Event=Tags and moves on one line @10:1", "end_tags @10:38",
                                    "number 1. @10:38", "move e4 @10:41", "move e5 @10:44"));
  EXPECT_THAT(calls[3], ElementsAre("tag Event=After a missing result @12:1", "end_tags @13:1",
                                    "number 1. @13:1", "move Nf3 @13:4", "{ \"1-0\" inside a comment  @13:8",
                                    "number 1... @13:35", "move Nf6 @13:40", "; 0-1 in a line comment @13:44",
                                    "number 2. @15:1", "move g3 @15:4", "result 1/2-1/2 @15:7"));
}

}  // namespace
}  // namespace virrey::pgn
