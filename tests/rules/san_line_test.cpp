#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/san_line.hpp"
#include "virrey/rules/uci.hpp"

namespace virrey {
namespace {

using ::testing::ElementsAre;

const Position<Board8>& standard_start() { return *variant_start<Board8>(Variant::Standard); }

TEST(SanLine, TokensSkipMoveNumbersAndResults) {
  EXPECT_THAT(san_line_tokens("1. e4 e5 2. Nf3"), ElementsAre("e4", "e5", "Nf3"));
  EXPECT_THAT(san_line_tokens("e4 e5 Nf3"), ElementsAre("e4", "e5", "Nf3"));
  EXPECT_THAT(san_line_tokens("1...c5"), ElementsAre("c5"));
  EXPECT_THAT(san_line_tokens(" 1.e4,e5\n2.Nf3\t2... Nc6 1-0"), ElementsAre("e4", "e5", "Nf3", "Nc6"));
  EXPECT_THAT(san_line_tokens("e4 * 0-1 1/2-1/2 e5"), ElementsAre("e4", "e5"));
  // A number without a dot is no move number: parse_san says what it is.
  EXPECT_THAT(san_line_tokens("12 e4"), ElementsAre("12", "e4"));
  EXPECT_TRUE(san_line_tokens(" 1. , ").empty());
}

TEST(SanLine, PlaysTheMovesAndKeepsEveryPosition) {
  const SanLine<Board8> line = play_san_line(standard_start(), "1. e4 e5 2. Nf3");
  ASSERT_TRUE(line.ok()) << line.problem->message;
  ASSERT_EQ(line.moves.size(), 3u);
  EXPECT_EQ(write_uci<Board8>(line.moves[0]), "e2e4");
  EXPECT_EQ(write_uci<Board8>(line.moves[1]), "e7e5");
  EXPECT_EQ(write_uci<Board8>(line.moves[2]), "g1f3");
  ASSERT_EQ(line.positions.size(), 4u);
  EXPECT_EQ(write_fen(line.positions[0]), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(write_fen(line.positions[1]), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_EQ(write_fen(line.last()), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
}

TEST(SanLine, StartsWithBlackToMove) {
  FenProblems problems;
  const auto pos = position_from_fen<Board8>("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                                             Variant::Standard, problems);
  ASSERT_TRUE(pos);
  const SanLine<Board8> line = play_san_line(*pos, "1...c5");
  ASSERT_TRUE(line.ok());
  EXPECT_EQ(write_fen(line.last()), "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
}

// The line stops at the token at `index`; what was played before it stays.
template <class G>
void expect_problem(const SanLine<G>& line, std::size_t index, SanError code, const std::string& message) {
  ASSERT_TRUE(line.problem);
  EXPECT_EQ(line.problem->index, index);
  EXPECT_EQ(line.problem->code, code);
  EXPECT_EQ(line.problem->message, message);
  EXPECT_EQ(line.moves.size(), index);
  EXPECT_EQ(line.positions.size(), index + 1);
}

TEST(SanLine, NamesTheFirstTokenThatFails) {
  const SanLine<Board8> illegal = play_san_line(standard_start(), "1. e4 e4 2. Nf3");
  expect_problem(illegal, 1, SanError::Illegal, "no black pawn can reach e4");
  EXPECT_EQ(illegal.problem->token, "e4");
  expect_problem(play_san_line(standard_start(), "Nqe4"), 0, SanError::UnexpectedText,
                 "'Nqe4' is not a move: unexpected 'q'");
  expect_problem(play_san_line(standard_start(), "1. e4 a6 2. Nc3 a5 3. Ne2"), 4, SanError::Ambiguous,
                 "2 knights can move to e2 (from g1, c3)");
  expect_problem(play_san_line(standard_start(), "e4 --"), 1, SanError::NullMove,
                 "a null move is not a legal move");

  FenProblems problems;
  const auto pawn = position_from_fen<Board8>("8/4P2k/8/8/8/8/8/4K3 w - - 0 1", Variant::Standard, problems);
  ASSERT_TRUE(pawn);
  expect_problem(play_san_line(*pawn, "e8"), 0, SanError::WrongPromotion,
                 "a pawn reaching e8 must promote: name the piece (e8=Q)");
  EXPECT_TRUE(play_san_line(*pawn, "e8=Q").ok());
}

TEST(SanLine, PlaysOnNineByNine) {
  const SanLine<Board9> line = play_san_line(*variant_start<Board9>(Variant::Modern), "1. e4 e6");
  ASSERT_TRUE(line.ok()) << line.problem->message;
  EXPECT_EQ(write_fen(line.last()), "rnbqkmbnr/pppp1pppp/9/4p4/9/4P4/9/PPPP1PPPP/RNBMKQBNR w KQkq - 0 2");
}

}  // namespace
}  // namespace virrey
