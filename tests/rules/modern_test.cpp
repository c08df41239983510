// Modern chess: 9x9 geometry, the minister, castling names and the optional
// bishop swap.
#include <gtest/gtest.h>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/perft.hpp"
#include "virrey/rules/san.hpp"
#include "virrey/rules/uci.hpp"

namespace virrey {
namespace {

constexpr const char* kStart = "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w KQkq - 0 1";

Position<Board9> modern(std::string_view fen = kStart) {
  FenProblems errors;
  auto pos = position_from_fen<Board9>(fen, Variant::Modern, errors);
  if (!pos) throw std::runtime_error(std::string(fen) + ": " + join_reasons(errors));
  return *pos;
}

Move san_move(const Position<Board9>& pos, std::string_view text) {
  SanProblem error;
  auto san = parse_san(text, error);
  if (!san) throw std::runtime_error(error.message);
  auto r = resolve_san(pos, *san);
  if (r.error != SanError::None) throw std::runtime_error(std::string(text) + ": " + r.message);
  return r.move;
}

TEST(Modern, StartPositionRoundTripsAndPerft) {
  auto pos = modern();
  EXPECT_EQ(write_fen(pos), kStart);
  // Published start-position counts (several independent programs agree).
  EXPECT_EQ(perft(pos, 1), 24u);
  EXPECT_EQ(perft(pos, 2), 576u);
  EXPECT_EQ(perft(pos, 3), 15831u);
}

TEST(Modern, CastlingIsNamedByTheWing) {
  auto pos = modern("r3k3r/9/9/9/9/9/9/9/R3K3R w KQkq - 0 1");
  // White's minister starts on d1: its wing is the a-side.
  EXPECT_EQ(write_san(pos, *parse_uci(pos, "e1c1")), "O-M-O");
  EXPECT_EQ(write_san(pos, *parse_uci(pos, "e1g1")), "O-Q-O");
  EXPECT_EQ(san_move(pos, "O-M-O"), *parse_uci(pos, "e1c1"));
  EXPECT_EQ(san_move(pos, "0-Q-0"), *parse_uci(pos, "e1g1"));
  EXPECT_EQ(san_move(pos, "O-O"), *parse_uci(pos, "e1g1"));
  auto after = pos.after(*parse_uci(pos, "e1g1"));
  EXPECT_EQ(write_fen(after), "r3k3r/9/9/9/9/9/9/9/R4RK2 b kq - 1 1");
  // Black's minister starts on f9: its wing is the i-side.
  auto black = modern("r3k3r/9/9/9/9/9/9/9/R3K3R b KQkq - 0 1");
  EXPECT_EQ(write_san(black, *parse_uci(black, "e9g9")), "O-M-O");
  EXPECT_EQ(write_san(black, *parse_uci(black, "e9c9")), "O-Q-O");
  // Coordinate castling, as fairy-stockfish writes it, is the king's
  // two-square step for both colours.
  EXPECT_EQ(san_move(pos, "e1g1"), *parse_uci(pos, "e1g1"));
  EXPECT_EQ(san_move(pos, "e1c1"), *parse_uci(pos, "e1c1"));
  EXPECT_EQ(san_move(black, "e9g9"), *parse_uci(black, "e9g9"));
  EXPECT_EQ(san_move(black, "e9c9"), *parse_uci(black, "e9c9"));
  EXPECT_THROW(san_move(modern("r3k3r/9/9/9/9/9/9/9/R3K3R w kq - 0 1"), "e1g1"), std::runtime_error);
}

TEST(Modern, MinisterMovesAsBishopOrKnightAndPromotes) {
  auto pos = modern("4k4/9/9/9/4M4/9/9/9/4K4 w - - 0 1");
  int minister_moves = 0;
  for (Move m : legal_moves(pos)) minister_moves += m.from() == make_square<Board9>(4, 4);
  EXPECT_EQ(minister_moves, 16 + 8);  // 16 diagonal squares from e5 on 9x9, 8 knight jumps
  auto promo = modern("4k4/1P7/9/9/9/9/9/9/4K4 w - - 0 1");
  EXPECT_EQ(perft(promo, 1), 5u + 5u);  // 5 king moves, b9=Q,R,B,N,M
  EXPECT_EQ(write_san(promo, *parse_uci(promo, "b8b9m")), "b9=M");
  EXPECT_EQ(san_move(promo, "b9M"), *parse_uci(promo, "b8b9m"));
}

TEST(Modern, BishopSwapOnlyWhenEnabledAndOncePerPlayer) {
  auto pos = modern();
  SanProblem error;
  EXPECT_EQ(resolve_san(pos, *parse_san("B=M", error)).error, SanError::Illegal);
  pos.enable_bishop_swap();
  // 24 moves plus four swaps for each side (hand count): c1-d1, c1-b1,
  // g1-f1, g1-h1; no move of either side changes the other's options.
  EXPECT_EQ(perft(pos, 1), 28u);
  EXPECT_EQ(perft(pos, 2), 28u * 28u);
  const Move swap = san_move(pos, "B=M");
  EXPECT_EQ(write_uci<Board9>(swap), "c1d1");
  pos.play(swap);
  EXPECT_EQ(write_fen(pos), "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNMBKQBNR b KQkq - 1 1");
  EXPECT_EQ(write_san(pos, san_move(pos, "B=QN")), "B=QN");
  EXPECT_EQ(write_uci<Board9>(san_move(pos, "B=QN")), "c9b9");
  EXPECT_EQ(write_uci<Board9>(san_move(pos, "B=MN")), "g9h9");
  pos.play(san_move(pos, "B=QN"));
  EXPECT_EQ(perft(pos, 1), 24u);  // White has swapped once already
  EXPECT_EQ(resolve_san(pos, *parse_san("B=Q", error)).error, SanError::Illegal);
}

// Swaps counted by hand as the difference of perft(1) with and without the
// swap rule; the moves without it are checked against fairy-stockfish in
// modern.perft.
TEST(Modern, BishopSwapsNeedUnmovedPartnersAndNoCheck) {
  const auto swaps = [](std::string_view fen, std::initializer_list<std::string_view> moves) {
    auto with = modern(fen), without = modern(fen);
    with.enable_bishop_swap();
    for (std::string_view m : moves) {
      with.play(san_move(with, m));
      without.play(san_move(without, m));
    }
    return perft(with, 1) - perft(without, 1);
  };
  // The knight of h1 has moved: c1-b1, c1-d1 and g1-f1 are left to White.
  EXPECT_EQ(swaps(kStart, {"Ni3", "Ni7"}), 3u);
  // Both of White's knights have moved: c1-d1 and g1-f1.
  EXPECT_EQ(swaps(kStart, {"Ni3", "Ni7", "Na3", "Na7"}), 2u);
  // A bishop that has moved swaps no more, back on its square or not: the c1
  // bishop went to d2 and back, the g1 bishop keeps its two.
  EXPECT_EQ(swaps(kStart, {"d3", "d7", "Bd2", "d6", "Bc1", "d5"}), 2u);
  // Black's options, after White's first move: all four.
  EXPECT_EQ(swaps(kStart, {"e3"}), 4u);
  // In check: no swap at all.
  EXPECT_EQ(swaps("rnb1kmbnr/ppppppppp/9/9/9/4q4/9/PPPP1PPPP/RNBMKQBNR w KQkq - 0 1", {}), 0u);
}

TEST(Modern, InsufficientMaterialUsesNineByNineColours) {
  FenProblems errors;
  EXPECT_FALSE(position_from_fen<Board9>("4k4/9/9/9/9/9/9/9/4K4 w - - 0 1", Variant::Standard, errors));
}

}  // namespace
}  // namespace virrey
