// GameParser: every token kind with its line and column, escapes, comments,
// variations (depth limits, skipping), line endings, Latin-1 and broken input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "recording_visitor.hpp"

namespace virrey::pgn {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::parse_calls;
using testing::RecordingVisitor;

std::size_t count_starting_with(const std::vector<std::string>& calls, std::string_view prefix) {
  std::size_t n = 0;
  for (const std::string& c : calls) n += c.rfind(prefix, 0) == 0;
  return n;
}

TEST(GameParser, EveryTokenKindWithLineAndColumn) {
  const std::string text =
      "[Event \"Test\"]\n"                                    // 1
      "[White \"A\"] [Black \"B\"]\n"                         // 2
      "\n"                                                    // 3
      "1. e4 e5 2. Nf3!? Nc6?? 3... Bb5 $14 {good}\n"         // 4
      "; rest of line\n"                                      // 5
      "% escape line 1-0 {\n"                                 // 6
      "4. O-O (4. 0-0-0 -- Z0) O-M-O exd8=Q+ e8V 1/2-1/2\n";  // 7
  EXPECT_THAT(
      parse_calls(text),
      ElementsAre("tag Event=Test @1:1", "tag White=A @2:1", "tag Black=B @2:13", "end_tags @4:1",
                  "number 1. @4:1", "move e4 @4:4", "move e5 @4:7", "number 2. @4:10", "move Nf3 @4:13",
                  "nag 5 @4:16", "move Nc6 @4:19", "nag 4 @4:22", "number 3... @4:25", "move Bb5 @4:30",
                  "nag 14 @4:34", "{good @4:38", "; rest of line @5:1", "number 4. @7:1", "move O-O @7:4",
                  "( @7:8", "number 4. @7:9", "move 0-0-0 @7:12", "null -- @7:18", "null Z0 @7:21", ") @7:23",
                  "move O-M-O @7:25", "move exd8=Q+ @7:31", "move e8V @7:39", "result 1/2-1/2 @7:43"));
}

TEST(GameParser, SuffixAnnotationsAndEvaluationSymbols) {
  EXPECT_THAT(parse_calls("e4! e5? d4!! d5?? c4!? c5?! Nf3 += Nf6 -+ *"),
              ElementsAre("end_tags @1:1", "move e4 @1:1", "nag 1 @1:3", "move e5 @1:5", "nag 2 @1:7",
                          "move d4 @1:9", "nag 3 @1:11", "move d5 @1:14", "nag 4 @1:16", "move c4 @1:19",
                          "nag 5 @1:21", "move c5 @1:24", "nag 6 @1:26", "move Nf3 @1:29", "nag 14 @1:33",
                          "move Nf6 @1:36", "nag 19 @1:40", "result * @1:43"));
}

TEST(GameParser, EnPassantRemarkIsSkipped) {
  EXPECT_THAT(parse_calls("exd6 e.p. Qxd6 *"),
              ElementsAre("end_tags @1:1", "move exd6 @1:1", "move Qxd6 @1:11", "result * @1:16"));
}

TEST(GameParser, ResultsOfEveryKind) {
  EXPECT_THAT(parse_calls("1-0"), ElementsAre("end_tags @1:1", "result 1-0 @1:1"));
  EXPECT_THAT(parse_calls("0-1"), ElementsAre("end_tags @1:1", "result 0-1 @1:1"));
  EXPECT_THAT(parse_calls("1/2-1/2"), ElementsAre("end_tags @1:1", "result 1/2-1/2 @1:1"));
  EXPECT_THAT(parse_calls("e4 *"), ElementsAre("end_tags @1:1", "move e4 @1:1", "result * @1:4"));
}

TEST(GameParser, TagValueEscapes) {
  EXPECT_THAT(parse_calls(R"([A "b\""] [C "A]]["] [D "x\\y"] [E "\"A]][\"\\"] [F "c:\path"])"),
              ElementsAre("tag A=b\" @1:1", "tag C=A]][ @1:11", "tag D=x\\y @1:22", "tag E=\"A]][\"\\ @1:33",
                          "tag F=c:\\path @1:50", "end_tags @1:63"));
}

TEST(GameParser, TagsAndMovesOnOneLine) {
  EXPECT_THAT(parse_calls("[Variant \"Antichess\"] 1.e3 e6 *"),
              ElementsAre("tag Variant=Antichess @1:1", "end_tags @1:23", "number 1. @1:23", "move e3 @1:25",
                          "move e6 @1:28", "result * @1:31"));
}

TEST(GameParser, GameWithoutTags) {
  EXPECT_THAT(parse_calls("1.e4 e5 2.Nf3 1-0\n"),
              ElementsAre("end_tags @1:1", "number 1. @1:1", "move e4 @1:3", "move e5 @1:6", "number 2. @1:9",
                          "move Nf3 @1:11", "result 1-0 @1:15"));
}

// A game of tags alone: its tags end just past the last (what they lack is
// told there, not where the next game begins).
TEST(GameParser, TagsOnlyGame) {
  RecordingVisitor v;
  v.record_begin_end = true;
  EXPECT_THAT(
      parse_calls("[Event \"A\"]\n[Result \"*\"]\n", {}, v),
      ElementsAre("begin @1:1", "tag Event=A @1:1", "tag Result=* @2:1", "end_tags @2:13", "end @3:1"));
}

TEST(GameParser, MoveNumbersAndTheirSyntax) {
  EXPECT_THAT(parse_calls("12 e4 4..Be7 5.... a6 0. b3 . c4 *"),
              ElementsAre("end_tags @1:1", "number 12 @1:1", "move e4 @1:4",
                          "diag unusual-move-number '4..' @1:7", "number 4.. @1:7", "move Be7 @1:10",
                          "diag unusual-move-number '5....' @1:14", "number 5.... @1:14", "move a6 @1:20",
                          "diag unusual-move-number '0.' @1:23", "number 0. @1:23", "move b3 @1:26",
                          "diag bad-move-number '.' @1:29", "move c4 @1:31", "result * @1:34"));
}

// Import format makes periods tokens of their own, which whitespace may
// part from their number (pgn-extract reads them so): "1. ..." and "2 ..."
// number a Black move; the periods may wait on the next line.
TEST(GameParser, MoveNumberApartFromItsPeriods) {
  EXPECT_THAT(parse_calls("1. e4 1. ... e5 2. Nf3 2 ... Nc6 3.\r\n... Bc5 *"),
              ElementsAre("end_tags @1:1", "number 1. @1:1", "move e4 @1:4", "number 1 ... @1:7",
                          "move e5 @1:14", "number 2. @1:17", "move Nf3 @1:20", "number 2 ... @1:24",
                          "move Nc6 @1:30", "number 3 ... @1:34", "move Bc5 @2:5", "result * @2:9"));
  // Whatever else is apart from its number counts as written together.
  EXPECT_THAT(parse_calls("1 . e4 1. . e5 2. .. Nf3 *"),
              ElementsAre("end_tags @1:1", "number 1 . @1:1", "move e4 @1:5",
                          "diag unusual-move-number '1. .' @1:8", "number 1 .. @1:8", "move e5 @1:13",
                          "number 2 ... @1:16", "move Nf3 @1:22", "result * @1:26"));
  // Three periods written with the number stand alone: no move number.
  EXPECT_THAT(parse_calls("1... ... e5 *"),
              ElementsAre("end_tags @1:1", "number 1... @1:1", "diag bad-move-number '...' @1:6",
                          "move e5 @1:10", "result * @1:13"));
}

TEST(GameParser, NagSyntax) {
  EXPECT_THAT(parse_calls("e4 $0 $255 $256 $ e5 !!! *"),
              ElementsAre("end_tags @1:1", "move e4 @1:1", "nag 0 @1:4", "nag 255 @1:7",
                          "diag bad-nag '$256' @1:12", "diag bad-nag '$' @1:17", "move e5 @1:19",
                          "diag bad-annotation '!!!' @1:22", "result * @1:26"));
}

TEST(GameParser, CommentsSpanLinesAndKeepLocations) {
  EXPECT_THAT(parse_calls("e4 {one\ntwo\nthree} e5 ; tail {not a comment}\nNf3 *"),
              ElementsAre("end_tags @1:1", "move e4 @1:1", "{one\ntwo\nthree @1:4", "move e5 @3:8",
                          "; tail {not a comment} @3:11", "move Nf3 @4:1", "result * @4:5"));
}

// A comment before the tag pairs is the previous game's (written after its
// result, where the splitter cannot tell): it does not end the tag section
// and is dropped, as pgn-extract drops it. Before the movetext of a game
// without tags, or between the tags and the movetext, it is the game's.
TEST(GameParser, CommentBeforeTagsIsDropped) {
  EXPECT_THAT(parse_calls("{trailer}\n; another\n[Event \"E\"]\n{intro}\n1. e4 *"),
              ElementsAre("tag Event=E @3:1", "{intro @4:1", "end_tags @5:1", "number 1. @5:1",
                          "move e4 @5:4", "result * @5:7"));
  EXPECT_THAT(parse_calls("{intro} ; more\n1. e4 *"),
              ElementsAre("{intro @1:1", "; more @1:9", "end_tags @2:1", "number 1. @2:1", "move e4 @2:4",
                          "result * @2:7"));
  EXPECT_THAT(parse_calls("{alone}"), ElementsAre("{alone @1:1", "end_tags @1:8"));
}

TEST(GameParser, EscapeLinesAreSkippedOnlyAtColumnOne) {
  EXPECT_THAT(parse_calls("% header (\ne4 %x\n%e5\nd4 *"),
              ElementsAre("end_tags @2:1", "move e4 @2:1", "diag unexpected-character '%' @2:4",
                          "move x @2:5", "move d4 @4:1", "result * @4:4"));
}

TEST(GameParser, CrLfAndLoneCrEndLines) {
  EXPECT_THAT(parse_calls("[Event \"E\"]\r\n\r\n1. e4\re5 {a\r\nb}\r\nNf3 *\r\n"),
              ElementsAre("tag Event=E @1:1", "end_tags @3:1", "number 1. @3:1", "move e4 @3:4",
                          "move e5 @4:1", "{a\r\nb @4:4", "move Nf3 @6:1", "result * @6:5"));
}

TEST(GameParser, StartLocationOffsetsTheFirstLineOnly) {
  RecordingVisitor v;
  GameParser().parse("e4 e5\nNf3 *", Location{10, 7}, v);
  EXPECT_THAT(v.calls, ElementsAre("end_tags @10:7", "move e4 @10:7", "move e5 @10:10", "move Nf3 @11:1",
                                   "result * @11:5"));
}

TEST(GameParser, Latin1InTagsAndCommentsIsKeptWithAWarning) {
  const std::string text = "[Event \"Marx Gy\xf6rgy Mem\"]\n1. e4 {caf\xe9} *";
  EXPECT_THAT(parse_calls(text),
              ElementsAre("diag invalid-utf8 '\xf6' @1:16", "tag Event=Marx Gy\xf6rgy Mem @1:1",
                          "end_tags @2:1", "number 1. @2:1", "move e4 @2:4", "diag invalid-utf8 '\xe9' @2:11",
                          "{caf\xe9 @2:7", "result * @2:14"));
}

// PGN strings hold printing characters only: a control character in a tag
// value (ESC, BEL, NUL, TAB) is reported where it stands, once per tag, and
// the value is handed on as read. Comments may hold tabs.
TEST(GameParser, ControlCharactersInTagValuesAreReported) {
  using namespace std::string_literals;  // for the NUL byte
  EXPECT_THAT(parse_calls("[Event \"E\x1b[31mR\x07\"]\n[Site \"S\tX\"] [White \"A\0B\"]\n{a\tb} *"s),
              ElementsAre("diag control-in-tag-value '[Event \"E\x1b[31mR\x07\"]' @1:10",
                          "tag Event=E\x1b[31mR\x07 @1:1", "diag control-in-tag-value '[Site \"S\tX\"]' @2:9",
                          "tag Site=S\tX @2:1", "diag control-in-tag-value '[White \"A\0B\"]' @2:23"s,
                          "tag White=A\0B @2:14"s, "{a\tb @3:1", "end_tags @3:7", "result * @3:7"));
}

TEST(GameParser, ValidUtf8IsQuiet) {
  EXPECT_THAT(parse_calls("[White \"J\xc3\xa9r\xc3\xb4me \xf0\x9f\x92\x8e\"] *"),
              ElementsAre("tag White=J\xc3\xa9r\xc3\xb4me \xf0\x9f\x92\x8e @1:1", "end_tags @1:25",
                          "result * @1:25"));
}

TEST(GameParser, InvalidUtf8InAMultiLineCommentIsLocatedExactly) {
  EXPECT_THAT(parse_calls("{ok\nline \xe9 two} *"),
              ElementsAre("diag invalid-utf8 '\xe9' @2:6", "{ok\nline \xe9 two @1:1", "end_tags @2:13",
                          "result * @2:13"));
}

TEST(GameParser, VariationsNestAndBalance) {
  EXPECT_THAT(parse_calls("1. e4 (1. d4 (1. c4) d5) (1. Nf3) e5 *"),
              ElementsAre("end_tags @1:1", "number 1. @1:1", "move e4 @1:4", "( @1:7", "number 1. @1:8",
                          "move d4 @1:11", "( @1:14", "number 1. @1:15", "move c4 @1:18", ") @1:20",
                          "move d5 @1:22", ") @1:24", "( @1:26", "number 1. @1:27", "move Nf3 @1:30",
                          ") @1:33", "move e5 @1:35", "result * @1:38"));
}

TEST(GameParser, VisitorCanSkipVariations) {
  RecordingVisitor v;
  v.skip_variations = true;
  EXPECT_THAT(parse_calls("e4 (d4 {a ) comment} (c4 ; )\n) Nf3) e5 (d5 *", {}, v),
              ElementsAre("end_tags @1:1", "move e4 @1:1", "( @1:4", "move e5 @2:8", "( @2:11",
                          "diag unclosed-variation '(' @2:11"));
}

TEST(GameParser, VisitorCanSkipTheMovetext) {
  RecordingVisitor v;
  v.skip_movetext = true;
  v.record_begin_end = true;
  EXPECT_THAT(parse_calls("[Event \"E\"]\n1. e4 (\n{\n*", {}, v),
              ElementsAre("begin @1:1", "tag Event=E @1:1", "end_tags @2:1", "end @4:2"));
}

TEST(GameParser, NestingAtDepth50IsFine) {
  std::string text = "e4";
  for (int i = 0; i < 50; ++i) text += " (d4";
  for (int i = 0; i < 50; ++i) text += ")";
  text += " *";
  const auto calls = parse_calls(text);
  EXPECT_EQ(count_starting_with(calls, "("), 50u);
  EXPECT_EQ(count_starting_with(calls, ")"), 50u);
  EXPECT_EQ(count_starting_with(calls, "diag"), 0u);
  EXPECT_EQ(calls.back(), "result * @1:" + std::to_string(text.size()));
}

TEST(GameParser, NestingAtDepth2000IsReportedAndSkipped) {
  std::string text = "e4";
  for (int i = 0; i < 2000; ++i) text += " (d4";
  for (int i = 0; i < 2000; ++i) text += ")";
  text += " e5 *";
  const auto calls = parse_calls(text);
  EXPECT_EQ(count_starting_with(calls, "("), 1024u);
  EXPECT_EQ(count_starting_with(calls, ")"), 1024u);
  EXPECT_THAT(calls,
              ::testing::Contains("diag variation-too-deep '(' @1:" + std::to_string(3 + 1024 * 4 + 1)));
  EXPECT_EQ(count_starting_with(calls, "diag"), 1u);
  EXPECT_EQ(calls[calls.size() - 2].substr(0, 8), "move e5 ");
  EXPECT_EQ(calls.back().substr(0, 8), "result *");
}

TEST(GameParser, UnclosedDeepNestingEndsBalanced) {
  ParseOptions options;
  options.max_variation_depth = 3;
  const auto calls = parse_calls(std::string(100000, '('), options);
  EXPECT_EQ(count_starting_with(calls, "("), 3u);
  EXPECT_EQ(count_starting_with(calls, ")"), 3u);
  EXPECT_THAT(calls, ::testing::Contains("diag variation-too-deep '(' @1:4"));
  EXPECT_THAT(calls, ::testing::Contains("diag unclosed-variation '(' @1:4"));
  EXPECT_THAT(calls, ::testing::Contains("diag unclosed-variation '(' @1:1"));
}

TEST(GameParser, UnmatchedCloseAndUnclosedVariation) {
  EXPECT_THAT(parse_calls("e4 ) e5 (d4 (c4"),
              ElementsAre("end_tags @1:1", "move e4 @1:1", "diag unmatched-parenthesis ')' @1:4",
                          "move e5 @1:6", "( @1:9", "move d4 @1:10", "( @1:13", "move c4 @1:14",
                          "diag unclosed-variation '(' @1:9", ") @1:16", ") @1:16"));
}

TEST(GameParser, ResultInsideAVariationIsIgnored) {
  EXPECT_THAT(
      parse_calls("e4 (d4 1-0) e5 0-1"),
      ElementsAre("end_tags @1:1", "move e4 @1:1", "( @1:4", "move d4 @1:5",
                  "diag result-in-variation '1-0' @1:8", ") @1:11", "move e5 @1:13", "result 0-1 @1:16"));
}

TEST(GameParser, TextAfterTheResultIsReported) {
  RecordingVisitor v;
  v.record_begin_end = true;
  EXPECT_THAT(parse_calls("e4 1-0 \n\n e5 {x}\n", {}, v),
              ElementsAre("begin @1:1", "end_tags @1:1", "move e4 @1:1", "result 1-0 @1:4",
                          "diag text-after-result 'e5 {x}\n' @3:2", "end @4:1"));
}

TEST(GameParser, UnterminatedCommentRunsToTheEnd) {
  EXPECT_THAT(parse_calls("e4 {never closed\n1-0"),
              ElementsAre("end_tags @1:1", "move e4 @1:1", "diag unterminated-comment '{' @1:4",
                          "{never closed\n1-0 @1:4"));
}

TEST(GameParser, BrokenTagPairs) {
  EXPECT_THAT(
      parse_calls("[Event \"no end\n[Site]\n[ \"x\"]\n[Date \"d\"\n[Round \"r\" junk]\n[White \"w\"]\n*"),
      ElementsAre("diag unterminated-string '\"no end' @1:8", "diag bad-tag '[Site]' @2:1",
                  "diag bad-tag '[ \"x\"]' @3:1", "diag unterminated-tag '[Date \"d\"' @4:1",
                  "tag Date=d @4:1", "diag bad-tag 'junk]' @5:12", "tag Round=r @5:1", "tag White=w @6:1",
                  "end_tags @7:1", "result * @7:1"));
}

TEST(GameParser, TagAfterMovetextIsReported) {
  EXPECT_THAT(parse_calls("e4 [Event \"x\"] e5 *"),
              ElementsAre("end_tags @1:1", "move e4 @1:1", "diag tag-in-movetext '[Event \"x\"]' @1:4",
                          "move e5 @1:16", "result * @1:19"));
}

TEST(GameParser, GarbageIsReportedOncePerRun) {
  const std::string text = std::string("e4, e5 <>\\ d4 ") + '\0' + std::string("\x01\xff") + " } ] *";
  EXPECT_THAT(parse_calls(text),
              ElementsAre("end_tags @1:1", "move e4 @1:1", "diag unexpected-character ',' @1:3",
                          "move e5 @1:5", "diag unexpected-character '<>\\' @1:8", "move d4 @1:12",
                          "diag unexpected-character '" + std::string("\0\x01\xff", 3) + "' @1:15",
                          "diag unexpected-character '}' @1:19", "diag unexpected-character ']' @1:21",
                          "result * @1:23"));
}

TEST(GameParser, DiagnosticsAreCappedPerGame) {
  ParseOptions options;
  options.max_diagnostics = 5;
  // Warnings past the cap are dropped, after one notice.
  std::string text;
  for (int i = 0; i < 100; ++i) text += "{\xff} e4 ";
  auto calls = parse_calls(text, options);
  EXPECT_EQ(count_starting_with(calls, "diag invalid-utf8"), 5u);
  EXPECT_EQ(count_starting_with(calls, "diag too-many-diagnostics"), 1u);
  EXPECT_EQ(count_starting_with(calls, "move e4"), 100u);
  // The first error past it still reaches the visitor: a game is not taken
  // for valid for the problems before its error.
  text += ", e4 , e4 ";
  calls = parse_calls(text, options);
  EXPECT_EQ(count_starting_with(calls, "diag invalid-utf8"), 5u);
  EXPECT_EQ(count_starting_with(calls, "diag unexpected-character"), 1u);
  EXPECT_EQ(count_starting_with(calls, "diag too-many-diagnostics"), 1u);
}

TEST(GameParser, EndLocationAndEmptyText) {
  RecordingVisitor v;
  v.record_begin_end = true;
  EXPECT_THAT(parse_calls("", {}, v), ElementsAre("begin @1:1", "end_tags @1:1", "end @1:1"));
}

TEST(GameParser, TruncatedInTheMiddleOfATokenOrTag) {
  EXPECT_THAT(parse_calls("1. e4 e5 2. Nf"), ElementsAre("end_tags @1:1", "number 1. @1:1", "move e4 @1:4",
                                                         "move e5 @1:7", "number 2. @1:10", "move Nf @1:13"));
  EXPECT_THAT(parse_calls("[Event \"x"),
              ElementsAre("diag unterminated-string '\"x' @1:8", "end_tags @1:10"));
  EXPECT_THAT(parse_calls("[Event"), ElementsAre("diag bad-tag '[Event' @1:1", "end_tags @1:7"));
  EXPECT_THAT(parse_calls("e4 $"), ElementsAre("end_tags @1:1", "move e4 @1:1", "diag bad-nag '$' @1:4"));
}

TEST(GameParser, DiagnosticCarriesAHumanMessage) {
  struct Catch : Visitor {
    std::string message;
    void diagnostic(const Diagnostic& d) override { message = std::string(d.message); }
  } v;
  GameParser().parse("e4 {x", {}, v);
  EXPECT_THAT(v.message, HasSubstr("unterminated comment"));
  EXPECT_TRUE(is_warning_by_default(Problem::InvalidUtf8));
  EXPECT_FALSE(is_warning_by_default(Problem::UnterminatedComment));
}

TEST(GameParser, ParserIsReusable) {
  GameParser parser;
  RecordingVisitor a, b;
  parser.parse("e4 (d4", {}, a);
  parser.parse("[A \"\\\"\"] e4 *", {}, b);
  EXPECT_THAT(b.calls, ElementsAre("tag A=\" @1:1", "end_tags @1:10", "move e4 @1:10", "result * @1:13"));
}

}  // namespace
}  // namespace virrey::pgn
