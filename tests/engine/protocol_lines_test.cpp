// The engine-output readers on lines worked by hand: what a UCI "info" or an
// XBoard thinking line yields, mates in XBoard's numbering, and the numbers
// that are no engine's (out of bounds, past long long) ignored.
#include <gtest/gtest.h>

#include <limits>

#include "virrey/engine/protocol_lines.hpp"

namespace virrey::engine {
namespace {

TEST(ProtocolLines, UciInfoThenBestmove) {
  RawResult r;
  SearchLine state;
  EXPECT_FALSE(
      uci_search_line("info depth 7 seldepth 7 multipv 1 score cp -13 nodes 2073 pv c7c5 g1f3", r, state));
  EXPECT_EQ(state, SearchLine::More);
  // A bound after an exact score is not taken.
  EXPECT_FALSE(uci_search_line("info depth 8 score cp -33 upperbound nodes 4002 pv c7c5", r, state));
  EXPECT_EQ(r.score, (Score{false, -13}));
  EXPECT_EQ(r.nodes, 2073u);
  EXPECT_EQ(r.pv, (std::vector<std::string>{"c7c5", "g1f3"}));
  // A second line of multipv is not the best line.
  EXPECT_FALSE(uci_search_line("info depth 9 multipv 2 score cp 50 pv d7d5", r, state));
  EXPECT_EQ(r.score.value, -13);
  EXPECT_FALSE(uci_search_line("bestmove c7c5 ponder g1f3", r, state));
  EXPECT_EQ(state, SearchLine::Done);
  EXPECT_EQ(r.best, "c7c5");
}

TEST(ProtocolLines, UciOutOfBoundsScoresAreIgnored) {
  RawResult r;
  SearchLine state;
  uci_search_line("info depth 1 score cp 99999999999999999999 pv e2e4", r, state);  // past long long
  uci_search_line("info depth 1 score cp 1000001 pv e2e4", r, state);
  uci_search_line("info depth 1 score mate -2147483648 pv e2e4", r, state);
  EXPECT_FALSE(r.has_score);
  const auto e = uci_search_line("bestmove e2e4", r, state);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->failure, Failure::Malformed);
  EXPECT_TRUE(uci_search_line("bestmove", r, state));
  EXPECT_EQ(uci_id_name("id name Stockfish 15.1"), "Stockfish 15.1");
  EXPECT_FALSE(uci_id_name("id author the Stockfish developers"));
}

// The variants a UCI or XBoard engine announces that it plays.
TEST(ProtocolLines, AnnouncedVariants) {
  EXPECT_EQ(uci_variants("option name UCI_Variant type combo default chess var 3check var chess var modern"),
            (std::vector<std::string>{"3check", "chess", "modern"}));
  EXPECT_FALSE(uci_variants("option name Hash type spin default 16 min 1 max 33554432"));
  EXPECT_FALSE(uci_variants("id name Stockfish 15.1"));
  EXPECT_EQ(uci_variants("option name UCI_Variant type string default chess"), std::vector<std::string>{});
  EXPECT_TRUE(xboard_lists_variant("fide_chess,viceroy,normal", "viceroy"));
  EXPECT_TRUE(xboard_lists_variant("viceroy", "viceroy"));
  EXPECT_FALSE(xboard_lists_variant("fide_chess,viceroys,normal", "viceroy"));
  EXPECT_FALSE(xboard_lists_variant("", "modern"));
}

TEST(ProtocolLines, XboardMatesAndThinking) {
  // 16000 - 15997 = 3 plies: mate in (3 + 1) / 2 = 2 moves; 100000 - 99999 = 1 ply: mate in 1.
  EXPECT_EQ(xboard_score(15997), (Score{true, 2}));
  EXPECT_EQ(xboard_score(-99999), (Score{true, -1}));
  EXPECT_EQ(xboard_score(-509), (Score{false, -509}));
  EXPECT_FALSE(xboard_score(std::numeric_limits<long long>::min()));
  EXPECT_FALSE(xboard_score(5'000'000));
  RawResult r;
  SearchLine state;
  // Sjaak II's line for Black: move numbers left out.
  EXPECT_FALSE(xboard_search_line("  5  -513      1      2995  1. ...  h5 2. Ra8 Kh7 3.  h4", r, state));
  EXPECT_EQ(r.score, (Score{false, -513}));
  EXPECT_EQ(r.depth, 5);
  EXPECT_EQ(r.pv, (std::vector<std::string>{"h5", "Ra8", "Kh7", "h4"}));
  EXPECT_FALSE(xboard_search_line("move h7h5", r, state));
  EXPECT_EQ(state, SearchLine::Done);
  EXPECT_EQ(r.best, "h7h5");
  RawResult claim;
  EXPECT_TRUE(xboard_search_line("1-0 {White mates}", claim, state));
  EXPECT_EQ(claim.claim, "1-0 {White mates}");
  EXPECT_EQ(xboard_feature("feature ping=1 myname=\"Sjaak II 1.4.1\" done=1", "myname"), "Sjaak II 1.4.1");
  EXPECT_EQ(xboard_feature("feature ping=1 myname=\"Sjaak II 1.4.1\" done=1", "done"), "1");
  EXPECT_EQ(xboard_feature("feature myname=\"unterminated", "myname"), "unterminated");
}

}  // namespace
}  // namespace virrey::engine
