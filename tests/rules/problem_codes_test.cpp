// Every FenError and SanError code, each from a hand-written input, with the
// message people see.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/san.hpp"

namespace virrey {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

struct Problems {
  std::vector<FenError> codes;
  std::vector<std::string> messages;
};

Problems fen_problems(std::string_view fen, Variant v = Variant::Standard) {
  FenProblems problems;
  EXPECT_FALSE(position_from_fen<Board8>(fen, v, problems)) << fen;
  Problems out;
  for (const FenProblem& p : problems) {
    out.codes.push_back(p.code);
    out.messages.push_back(p.message);
  }
  return out;
}

// FENs with exactly one problem each.
struct OneProblem {
  std::string fen;
  FenError code;
  std::string message;
};

const OneProblem kOneProblem[] = {
    // The text.
    {std::string(1025, '8'), FenError::TooLong, "the FEN is 1025 bytes long (at most 1024 are read)"},
    {"  ", FenError::Empty, "the FEN is empty"},
    {"rnbqkbnr/pppppppp/8/8/8/8/RNBQKBNR w - - 0 1", FenError::RankCount,
     "the board has 7 ranks (expected 8)"},
    {"4k3/8/8/8/8/8/8/4K4 w - - 0 1", FenError::RankLength, "rank 1 has 9 squares (expected 8)"},
    // Digits count one at a time: "11111111" is eight squares, "44" too.
    {"k11111111/8/8/8/8/8/8/K7 w - - 0 1", FenError::RankLength, "rank 8 has 9 squares (expected 8)"},
    {"k44/8/8/8/8/8/8/K7 w - - 0 1", FenError::RankLength, "rank 8 has 9 squares (expected 8)"},
    {"4k3/8/8/8/8/8/8/4K3", FenError::SideToMove, "side to move is missing"},
    {"4k3/8/8/8/8/8/8/4K3 x - - 0 1", FenError::SideToMove, "side to move 'x' is not 'w' or 'b'"},
    {"4k3/8/8/8/8/8/8/4K3 w X - 0 1", FenError::Castling, "castling field 'X' has an invalid letter 'X'"},
    {"4k3/8/8/8/8/8/8/4K3 w - e9 0 1", FenError::EnPassant, "en passant field 'e9' is not a square or '-'"},
    {"4k3/8/8/8/8/8/8/4K3 w - - x 1", FenError::HalfmoveClock, "halfmove clock 'x' is not a number"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 y", FenError::FullmoveNumber, "fullmove number 'y' is not a number"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", FenError::FieldCount, "7 fields (expected 6)"},
    // The position.
    {"4k3/8/8/8/8/8/8/3VK3 w - - 0 1", FenError::ForeignPiece,
     "V on d1: the viceroy is not a piece of Standard chess"},
    {"4k3/8/8/8/8/8/8/P3K3 w - - 0 1", FenError::PawnOnEdgeRank,
     "white pawn on a1: pawns cannot stand on rank 1"},
    {"8/8/8/8/8/8/8/4K3 w - - 0 1", FenError::NoKing, "no black king"},
    {"4k3/8/8/8/8/8/8/3KK3 w - - 0 1", FenError::ExtraKing, "2 white kings"},
    {"4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", FenError::TooManyPawns, "white has 9 pawns (at most 8)"},
    {"4k3/8/8/NNNNNNNN/NNNNNNNN/8/8/4K3 w - - 0 1", FenError::TooManyPieces,
     "white has 17 pieces (at most 16)"},
    {"4k3/8/8/8/8/8/8/4K3 w K - 0 1", FenError::CastlingRight,
     "castling right K needs a white king on e1 and a rook on h1"},
    {"4k3/8/8/8/8/8/8/4K3 w - e6 0 1", FenError::EnPassantSquare,
     "en passant square e6 does not follow a double pawn push"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 70000 1", FenError::HalfmoveClock, "halfmove clock 70000 is out of range"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 -1", FenError::FullmoveNumber, "fullmove number -1 is out of range"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 65536", FenError::FullmoveNumber, "fullmove number 65536 is out of range"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 4294967295", FenError::FullmoveNumber,
     "fullmove number 4294967295 is out of range"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 4294967296 1", FenError::HalfmoveClock,
     "halfmove clock 4294967296 is out of range"},
    {"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", FenError::OpponentInCheck,
     "the side not to move (black) is in check"},
};

TEST(FenProblems, EachCodeFromItsInput) {
  for (const OneProblem& c : kOneProblem) {
    const Problems p = fen_problems(c.fen);
    EXPECT_THAT(p.codes, ElementsAre(c.code)) << c.fen;
    EXPECT_THAT(p.messages, ElementsAre(c.message)) << c.fen;
  }
  // A letter that is no piece takes no square, so its rank comes up short.
  const Problems bad_letter = fen_problems("4k3/8/8/8/8/8/8/3XK3 w - - 0 1");
  EXPECT_THAT(bad_letter.codes, ElementsAre(FenError::BadPieceLetter, FenError::RankLength));
  EXPECT_THAT(bad_letter.messages,
              ElementsAre("'X' is not a piece letter", "rank 1 has 7 squares (expected 8)"));

  // An 8x8 board given for Modern chess is one problem, and its pieces are
  // not named on squares they do not stand on (the V would read as on e2).
  FenProblems modern;
  EXPECT_FALSE(
      position_from_fen<Board9>("4R3/5pk1/6pp/8/3q2BP/6P1/6RK/1b2v3 w - - 0 48", Variant::Modern, modern));
  ASSERT_EQ(modern.size(), 1u);
  EXPECT_EQ(modern[0].code, FenError::RankCount);
  EXPECT_EQ(modern[0].message, "the board is 8x8 (Modern chess is played on 9x9)");
  // One rank short is still told rank by rank.
  FenProblems short_rank;
  EXPECT_FALSE(position_from_fen<Board8>("4k3/8/8/8/8/8/8/4K2 w - - 0 1", Variant::Standard, short_rank));
  ASSERT_EQ(short_rank.size(), 1u);
  EXPECT_EQ(short_rank[0].message, "rank 1 has 7 squares (expected 8)");

  // A setup of an 8x8 variant is no position of a 9x9 board.
  FenProblems problems;
  const auto setup = parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Variant::Standard, problems);
  ASSERT_TRUE(setup);
  EXPECT_FALSE(Position<Board9>::from_setup(*setup, problems));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].code, FenError::BoardSize);
}

// A fullmove number of 0, as puzzle collections write it ("1 0"), is read
// as 1 (as pgn-extract and python-chess read it).
TEST(FenProblems, FullmoveZeroIsReadAsOne) {
  FenProblems problems;
  auto pos = position_from_fen<Board8>("4k3/8/8/8/8/8/8/4K3 b - - 1 0", Variant::Standard, problems);
  ASSERT_TRUE(pos);
  EXPECT_EQ(write_fen(*pos), "4k3/8/8/8/8/8/8/4K3 b - - 1 1");
  EXPECT_TRUE(problems.empty());
}

TEST(FenProblems, EveryReasonAtOnce) {
  const Problems p = fen_problems("8/8/8/8/8/8/8/P7 q - - 0 1");
  EXPECT_THAT(p.codes, ElementsAreArray({FenError::SideToMove, FenError::PawnOnEdgeRank, FenError::NoKing,
                                         FenError::NoKing}));
  EXPECT_EQ(
      join_reasons(FenProblems{{FenError::NoKing, "no white king"}, {FenError::NoKing, "no black king"}}),
      "no white king; no black king");
}

Position<Board8> pos_of(std::string_view fen) {
  FenProblems problems;
  auto pos = position_from_fen<Board8>(fen, Variant::Standard, problems);
  EXPECT_TRUE(pos) << join_reasons(problems);
  return *pos;
}

void expect_syntax(std::string_view text, SanError code, const std::string& message) {
  SanProblem problem;
  EXPECT_FALSE(parse_san(text, problem)) << text;
  EXPECT_EQ(problem.code, code) << text;
  EXPECT_EQ(problem.message, message) << text;
  EXPECT_TRUE(is_syntax_error(problem.code)) << text;
}

TEST(SanProblems, SyntaxCodes) {
  expect_syntax("", SanError::NotAMove, "'' is not a move");
  expect_syntax("!?", SanError::NotAMove, "'!?' is not a move");
  expect_syntax("Nz9", SanError::NoDestination, "'Nz9' is not a move: no destination square");
  expect_syntax("hello", SanError::NoDestination, "'hello' is not a move: no destination square");
  // Text after the destination square is named: pgn-extract's "ep" mark,
  // a mate mark before a check mark, a promotion to a pawn; a draw as a move.
  expect_syntax("e5f6ep", SanError::NoDestination, "'e5f6ep' is not a move: 'ep' after the square f6");
  expect_syntax("Qxf7#+", SanError::NoDestination, "'Qxf7#+' is not a move: '#+' after the square f7");
  expect_syntax("a8=P", SanError::NoDestination, "'a8=P' is not a move: '=P' after the square a8");
  expect_syntax("1/2", SanError::NoDestination, "'1/2' is not a move: a draw is written 1/2-1/2");
  expect_syntax("Nqe4", SanError::UnexpectedText, "'Nqe4' is not a move: unexpected 'q'");
  expect_syntax("Ne8=Q", SanError::PromotionByPiece, "'Ne8=Q': only a pawn can promote");
  expect_syntax("e8=K", SanError::PromotionPiece, "'e8=K': a pawn cannot promote to a king");
  SanProblem problem;
  EXPECT_TRUE(parse_san("Nbd2+!?", problem));
  EXPECT_EQ(problem.code, SanError::None);
}

SanResolution resolve(const Position<Board8>& pos, std::string_view text) {
  SanProblem problem;
  const auto san = parse_san(text, problem);
  EXPECT_TRUE(san) << text;
  return resolve_san(pos, *san);
}

TEST(SanProblems, RuleCodes) {
  const auto start = pos_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  const auto illegal = resolve(start, "e5");
  EXPECT_EQ(illegal.error, SanError::Illegal);
  EXPECT_EQ(illegal.message, "no white pawn can reach e5");
  const auto knights = pos_of("4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1");
  const auto ambiguous = resolve(knights, "Ne2");
  EXPECT_EQ(ambiguous.error, SanError::Ambiguous);
  EXPECT_EQ(ambiguous.message, "2 knights can move to e2 (from g1, c3)");
  const auto pawn = pos_of("8/4P2k/8/8/8/8/8/4K3 w - - 0 1");
  const auto promotion = resolve(pawn, "e8");
  EXPECT_EQ(promotion.error, SanError::WrongPromotion);
  EXPECT_EQ(promotion.message, "a pawn reaching e8 must promote: name the piece (e8=Q)");
  const auto null = resolve(start, "--");
  EXPECT_EQ(null.error, SanError::NullMove);
  EXPECT_EQ(null.message, "a null move is not a legal move");
  for (SanError e :
       {SanError::None, SanError::Illegal, SanError::Ambiguous, SanError::WrongPromotion, SanError::NullMove})
    EXPECT_FALSE(is_syntax_error(e));
}

}  // namespace
}  // namespace virrey
