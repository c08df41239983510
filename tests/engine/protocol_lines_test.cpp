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

// UCI: everything after "info string" is text, whatever words it holds; a
// mate in 0 is no score of a position searched.
TEST(ProtocolLines, UciInfoStringIsTextAndMateZeroNoScore) {
  RawResult r;
  SearchLine state;
  uci_search_line("info depth 5 score cp 30 nodes 100 pv e2e4", r, state);
  uci_search_line("info string hello score cp 9999 pv a2a3", r, state);
  uci_search_line("info depth 6 score mate 0", r, state);
  uci_search_line("info depth 6 score mate -0", r, state);
  EXPECT_EQ(r.score, (Score{false, 30}));
  EXPECT_EQ(r.pv, (std::vector<std::string>{"e2e4"}));
  RawResult none;
  uci_search_line("info depth 1 score mate 0", none, state);
  EXPECT_FALSE(none.has_score);
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
  // The protocol's numbering (engine-intf.html): 100000 + N is mate in N
  // moves, -100000 - N mated in N.
  EXPECT_EQ(xboard_score(100005), (Score{true, 5}));
  EXPECT_EQ(xboard_score(-100005), (Score{true, -5}));
  EXPECT_EQ(xboard_score(100001), (Score{true, 1}));
  // 99990 = 100000 less 10 plies: mate in 5 moves.
  EXPECT_EQ(xboard_score(99990), (Score{true, 5}));
  // Mate in no ply is no score of a position searched, whatever the sign.
  for (long long v : {100000LL, -100000LL, 32000LL, -32000LL, 16000LL, -16000LL})
    EXPECT_FALSE(xboard_score(v)) << v;
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

// Options as Stockfish and Sjaak II announce them (their own lines), and the
// values refused for them.
TEST(ProtocolLines, AnnouncedOptionsAndRefusedValues) {
  std::vector<EngineOption> uci;
  for (const char* line :
       {"option name Threads type spin default 1 min 1 max 1024",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name Ponder type check default false",
        "option name Analysis Contempt type combo default Both var Off var White var Black var Both",
        "option name EvalFile type string default nn-ad9b42354671.nnue"})
    uci.push_back(*uci_option(line));
  EXPECT_EQ(uci[1].name, "Skill Level");
  EXPECT_EQ(uci[1].max, 20);
  EXPECT_EQ(uci[3].values, (std::vector<std::string>{"Off", "White", "Black", "Both"}));
  EXPECT_FALSE(uci_option("id name Stockfish"));
  EXPECT_FALSE(option_refusal(uci, "threads", "2", Protocol::Uci));  // UCI names are case-blind
  EXPECT_FALSE(option_refusal(uci, "Skill Level", "0", Protocol::Uci));
  EXPECT_FALSE(option_refusal(uci, "EvalFile", "any thing", Protocol::Uci));
  EXPECT_FALSE(option_refusal(uci, "Analysis Contempt", "Off", Protocol::Uci));
  EXPECT_TRUE(option_refusal(uci, "NoSuch", "3", Protocol::Uci));
  EXPECT_TRUE(option_refusal(uci, "Threads", "abc", Protocol::Uci));
  EXPECT_TRUE(option_refusal(uci, "Threads", "0", Protocol::Uci));
  EXPECT_TRUE(option_refusal(uci, "Threads", "1025", Protocol::Uci));
  EXPECT_TRUE(option_refusal(uci, "Ponder", "1", Protocol::Uci));
  EXPECT_TRUE(option_refusal(uci, "Analysis Contempt", "Nobody", Protocol::Uci));
  EXPECT_TRUE(option_refusal({}, "Threads", "1", Protocol::Uci));

  std::vector<EngineOption> xb;
  for (const char* line : {"feature option=\"MultiPV -spin 3 1 256\"",
                           "feature option=\"Moves before draw offer (0 to disable) -spin 0 0 1000\"",
                           "feature option=\"Level -combo Clueless /// Random /// Static /// *Normal\"",
                           "feature option=\"Claim repetitions -check 1\""})
    xb.push_back(*xboard_option(line));
  EXPECT_EQ(xb[1].name, "Moves before draw offer (0 to disable)");
  EXPECT_EQ(xb[2].values, (std::vector<std::string>{"Clueless", "Random", "Static", "Normal"}));
  EXPECT_FALSE(option_refusal(xb, "MultiPV", "256", Protocol::Xboard));
  EXPECT_FALSE(option_refusal(xb, "Level", "Normal", Protocol::Xboard));
  EXPECT_FALSE(option_refusal(xb, "Claim repetitions", "0", Protocol::Xboard));
  EXPECT_TRUE(option_refusal(xb, "MultiPV", "257", Protocol::Xboard));
  EXPECT_TRUE(option_refusal(xb, "Claim repetitions", "true", Protocol::Xboard));
  EXPECT_FALSE(xboard_option("feature myname=\"x\" done=1"));
}

}  // namespace
}  // namespace virrey::engine
