// Text that is not UTF-8 (a Latin-1 file): the checked game holds its tag
// values and comments as UTF-8, each byte that is not UTF-8 read as its
// Latin-1 character, with an encoding warning; UTF-8 text is kept as it is.
#include <gtest/gtest.h>

#include <string>

#include "virrey/validate/game_checker.hpp"

namespace virrey::validate {
namespace {

std::string game(const std::string& white, const std::string& comment) {
  return "[Event \"Club\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"" + white +
         "\"]\n[Black \"Abel, A\"]\n[Result \"1-0\"]\n\n1. e4 {" + comment +
         "} e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
}

const std::string kUtf8Name = "M\xc3\xbcller, J\xc3\xb6rg";  // Müller, Jörg
const std::string kLatin1Name = "M\xfcller, J\xf6rg";

std::size_t count_code(const CheckedGame& g, Code code) {
  std::size_t n = 0;
  for (const Finding& f : g.findings) n += f.code == code;
  return n;
}

TEST(Encoding, Latin1TagsAndCommentsAreKeptAsUtf8) {
  GameChecker checker;
  const CheckedGame g = checker.check(game(kLatin1Name, "caf\xe9"), 1, {});
  EXPECT_FALSE(g.has_error);
  EXPECT_EQ(g.record.tag("White"), kUtf8Name);
  ASSERT_FALSE(g.record.movetext.empty());
  bool comment_seen = false;
  for (const auto& item : g.record.movetext)
    if (item.kind == game::ItemKind::Comment) {
      EXPECT_EQ(item.text, "caf\xc3\xa9");
      comment_seen = true;
    }
  EXPECT_TRUE(comment_seen);
  EXPECT_EQ(count_code(g, Code::Encoding), 2u);  // still said: the file is not UTF-8
}

TEST(Encoding, Utf8IsKeptAsItIs) {
  GameChecker checker;
  const std::string name = kUtf8Name + " \xf0\x9f\x92\x8e";
  const CheckedGame g = checker.check(game(name, "caf\xc3\xa9"), 1, {});
  EXPECT_EQ(g.record.tag("White"), name);
  EXPECT_EQ(count_code(g, Code::Encoding), 0u);
}

// One game written in each encoding is one game: its identity (what finds
// duplicates) reads the roster as UTF-8.
TEST(Encoding, TheSameGameInBothEncodingsHasOneIdentity) {
  GameChecker checker;
  const CheckedGame latin1 = checker.check(game(kLatin1Name, "x"), 1, {});
  const CheckedGame utf8 = checker.check(game(kUtf8Name, "x"), 1, {});
  EXPECT_EQ(latin1.identity, utf8.identity);
  const CheckedGame other = checker.check(game("Abel, B", "x"), 1, {});
  EXPECT_NE(latin1.identity, other.identity);
}

}  // namespace
}  // namespace virrey::validate
