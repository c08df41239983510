#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/perft.hpp"

namespace virrey {
namespace {

using ::testing::HasSubstr;

std::string reasons_of(std::string_view fen, Variant v = Variant::Standard) {
  FenProblems errors;
  auto pos = position_from_fen<Board8>(fen, v, errors);
  EXPECT_FALSE(pos) << fen;
  return join_reasons(errors);
}

TEST(Fen, RoundTripsCanonicalFens) {
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
      "4k3/8/8/8/8/8/8/4K2R w K - 12 40",
  };
  for (const char* fen : fens) {
    FenProblems errors;
    auto pos = position_from_fen<Board8>(fen, Variant::Standard, errors);
    ASSERT_TRUE(pos) << fen << ": " << join_reasons(errors);
    EXPECT_EQ(write_fen(*pos), fen);
  }
}

TEST(Fen, ViceroyLettersRoundTripInVirrey) {
  const std::string fen = "2v1k3/3P4/8/8/8/8/5V2/4K3 b - - 3 9";
  FenProblems errors;
  auto pos = position_from_fen<Board8>(fen, Variant::Virrey, errors);
  ASSERT_TRUE(pos) << join_reasons(errors);
  EXPECT_EQ(write_fen(*pos), fen);
  EXPECT_EQ(pos->piece_on(make_square<Board8>(2, 7)), (Piece{Color::Black, PieceType::Viceroy}));
}

TEST(Fen, ViceroyIsNotAStandardPiece) {
  EXPECT_THAT(reasons_of("4k3/8/8/8/8/8/5V2/4K3 w - - 0 1"), HasSubstr("viceroy is not a piece"));
}

TEST(Fen, ReportsEveryReasonAtOnce) {
  // Rank 3 has nine squares, White has two kings, a pawn stands on rank 8.
  const std::string r = reasons_of("P3k3/8/8/8/8/K8/8/4K3 w - - 0 1");
  EXPECT_THAT(r, HasSubstr("rank 3 has 9 squares"));
  EXPECT_THAT(r, HasSubstr("2 white kings"));
  EXPECT_THAT(r, HasSubstr("pawn on a8"));
}

TEST(Fen, SyntaxErrors) {
  EXPECT_THAT(reasons_of(""), HasSubstr("empty"));
  EXPECT_THAT(reasons_of("4k3/8/8/8/8/8/8/4K3 x - - 0 1"), HasSubstr("side to move 'x'"));
  EXPECT_THAT(reasons_of("4k3/8/8/8/8/8/8/4K3 w KZ - 0 1"), HasSubstr("invalid letter 'Z'"));
  EXPECT_THAT(reasons_of("4k3/8/8/8/8/8/8/4K3 w - z9 0 1"), HasSubstr("en passant field"));
  EXPECT_THAT(reasons_of("4k3/8/8/8/8/8/8/4K3 w - - x 1"), HasSubstr("halfmove clock"));
  EXPECT_THAT(reasons_of("4k3/8/8/8/8/8/4K3 w - - 0 1"), HasSubstr("7 ranks"));
  EXPECT_THAT(reasons_of("4k3/8/8/8/8/8/8/4K2X w - - 0 1"), HasSubstr("'X' is not a piece letter"));
}

TEST(Fen, PositionErrors) {
  EXPECT_THAT(reasons_of("8/8/8/8/8/8/8/4K3 w - - 0 1"), HasSubstr("no black king"));
  EXPECT_THAT(reasons_of("4k3/8/8/8/8/8/8/4K3 w K - 0 1"), HasSubstr("castling right K"));
  EXPECT_THAT(reasons_of("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"), HasSubstr("does not follow a double"));
  EXPECT_THAT(reasons_of("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"),
              HasSubstr("side not to move (black) is in check"));
  EXPECT_THAT(reasons_of("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1"), HasSubstr("9 pawns"));
}

TEST(Fen, EnPassantKeptOnlyWhenACaptureIsPossible) {
  FenProblems errors;
  auto pos = position_from_fen<Board8>("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                                       Variant::Standard, errors);
  ASSERT_TRUE(pos) << join_reasons(errors);
  EXPECT_EQ(pos->en_passant(), kNoSquare);
  EXPECT_EQ(write_fen(*pos), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

TEST(Fen, ShredderCastlingLettersAndMissingClocks) {
  FenProblems errors;
  auto pos = position_from_fen<Board8>("r3k2r/8/8/8/8/8/8/R3K2R w HAha -", Variant::Standard, errors);
  ASSERT_TRUE(pos) << join_reasons(errors);
  EXPECT_EQ(write_fen(*pos), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
}

}  // namespace
}  // namespace virrey
