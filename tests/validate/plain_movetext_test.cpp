// CheckOptions::plain_movetext = false: a game without comments, NAGs or
// variations keeps its main line only; an annotated game gets the same
// movetext as with the option on, whichever item comes first.
#include <gtest/gtest.h>

#include "virrey/importers/memory_source.hpp"
#include "virrey/pgn/game_splitter.hpp"
#include "virrey/validate/game_checker.hpp"

namespace virrey::validate {
namespace {

std::vector<CheckedGame> check_all(const std::string& text, bool plain_movetext) {
  importers::MemorySource source(text, "test");
  pgn::GameSplitter splitter(source);
  CheckOptions options;
  options.move_san = false;
  options.plain_movetext = plain_movetext;
  GameChecker checker(options);
  std::vector<CheckedGame> out;
  for (;;) {
    const pgn::GameItem item = splitter.next();
    if (item.kind == pgn::ItemKind::End) break;
    if (item.kind == pgn::ItemKind::Game) out.push_back(checker.check(item.text, item.number, item.start));
  }
  return out;
}

constexpr const char* kGames = R"([Event "plain"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0

[Event "comment before the first move"]

{Opening} 1. d4 d5 2. c4 1/2-1/2

[Event "NAG in the middle"]

1. e4 c5 2. Nf3 $1 d6 3. d4 cxd4 0-1

[Event "variation"]

1. e4 e5 2. Nf3 (2. f4 exf4) 2... Nc6 *

[Event "comment at the end"]

[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[SetUp "1"]

1. e4 Kd7 {done} *
)";

TEST(PlainMovetext, LeftOutOnlyForPlainGames) {
  const auto full = check_all(kGames, true);
  const auto lean = check_all(kGames, false);
  ASSERT_EQ(full.size(), 5u);
  ASSERT_EQ(lean.size(), full.size());
  EXPECT_FALSE(full[0].record.movetext.empty());
  EXPECT_TRUE(lean[0].record.movetext.empty());
  for (std::size_t g = 0; g < full.size(); ++g) {
    EXPECT_FALSE(lean[g].has_error) << g;
    EXPECT_EQ(lean[g].record.main_line, full[g].record.main_line) << g;
    if (g == 0) continue;
    const auto& a = full[g].record.movetext;
    const auto& b = lean[g].record.movetext;
    ASSERT_EQ(b.size(), a.size()) << g;
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(int(b[i].kind), int(a[i].kind)) << g << " item " << i;
      EXPECT_EQ(b[i].ply, a[i].ply) << g << " item " << i;
      EXPECT_EQ(b[i].move, a[i].move) << g << " item " << i;
      EXPECT_EQ(b[i].nag, a[i].nag) << g << " item " << i;
      EXPECT_EQ(b[i].text, a[i].text) << g << " item " << i;
    }
  }
}

}  // namespace
}  // namespace virrey::validate
