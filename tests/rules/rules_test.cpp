// Variant names, the viceroy's rules, outcomes, and the differential check of
// Virrey against standard move generation.
#include <gtest/gtest.h>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/outcome.hpp"
#include "virrey/rules/perft.hpp"
#include "virrey/rules/uci.hpp"

namespace virrey {
namespace {

Position<Board8> pos_of(std::string_view fen, Variant v) {
  FenProblems errors;
  auto pos = position_from_fen<Board8>(fen, v, errors);
  if (!pos) throw std::runtime_error(std::string(fen) + ": " + join_reasons(errors));
  return *pos;
}

TEST(Variant, NamesAndAliases) {
  EXPECT_EQ(resolve_variant(""), Variant::Standard);
  EXPECT_EQ(resolve_variant("FIDE"), Variant::Standard);
  EXPECT_EQ(resolve_variant("Chess"), Variant::Standard);
  EXPECT_EQ(resolve_variant("Ajedrez del Virrey"), Variant::Virrey);
  EXPECT_EQ(resolve_variant("viceroy_chess"), Variant::Virrey);
  EXPECT_EQ(resolve_variant("VIRREY-CHESS"), Variant::Virrey);
  EXPECT_EQ(resolve_variant("Ajedrez moderno"), Variant::Modern);
  EXPECT_EQ(resolve_variant("modern chess"), Variant::Modern);
  EXPECT_FALSE(resolve_variant("crazyhouse"));
  EXPECT_FALSE(resolve_variant("chess960"));
  EXPECT_EQ(resolve_variant("Standard Chess"), Variant::Standard);
  EXPECT_EQ(resolve_variant("FIDE chess"), Variant::Standard);
  EXPECT_EQ(resolve_variant("From Position"), Variant::Standard);  // lichess, from a set-up position
  // A Variant tag of nothing, "-" or "?" names no variant.
  EXPECT_FALSE(names_a_variant(""));
  EXPECT_FALSE(names_a_variant(" - "));
  EXPECT_FALSE(names_a_variant("?"));
  EXPECT_TRUE(names_a_variant("Standard"));
  EXPECT_TRUE(names_a_variant("x"));
}

// Every standard promotion maps to exactly one Virrey move (the piece fixed
// by the destination file) or none, and non-promotions are the same moves.
void compare_with_standard(const std::string& fen, int depth, int& promotions) {
  auto std_pos = pos_of(fen, Variant::Standard);
  auto vir = pos_of(fen, Variant::Virrey);
  const MoveList s = legal_moves(std_pos), v = legal_moves(vir);
  std::size_t expected = 0;
  constexpr PieceType fixed[8] = {PieceType::Rook,    PieceType::Knight, PieceType::Bishop, PieceType::Queen,
                                  PieceType::Viceroy, PieceType::Bishop, PieceType::Knight, PieceType::Rook};
  for (Move m : s) {
    if (m.kind() != MoveKind::Promotion) {
      EXPECT_TRUE(v.contains(m)) << fen;
      ++expected;
    } else if (m.promotion() == PieceType::Queen) {
      ++promotions;
      ++expected;
      EXPECT_TRUE(v.contains(Move(m.from(), m.to(), MoveKind::Promotion, fixed[m.to() % 8]))) << fen;
    }
  }
  EXPECT_EQ(v.size(), expected) << fen;
  if (depth <= 1) return;
  // Recurse along moves that keep the positions comparable (no viceroy yet).
  for (Move m : s)
    if (m.kind() != MoveKind::Promotion)
      compare_with_standard(write_fen(std_pos.after(m)), depth - 1, promotions);
}

TEST(Virrey, DifferentialAgainstStandardPromotions) {
  int promotions = 0;
  for (const char* fen : {"r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
                          "1r1q2r1/P1PPPP1P/8/7K/k7/8/p1pppp1p/1R1Q2R1 w - - 0 1",
                          "n1n3n1/1P1PP1PP/8/7k/K7/8/1p1pp1pp/N1N3N1 b - - 0 1"})
    compare_with_standard(fen, 3, promotions);
  EXPECT_GT(promotions, 1000);
}

TEST(Virrey, ViceroyIsNotRoyal) {
  // A viceroy attacked by a rook is not "in check"; White may ignore it.
  auto pos = pos_of("4k3/8/8/8/8/8/r3V3/4K3 w - - 0 1", Variant::Virrey);
  EXPECT_FALSE(pos.in_check());
  // It may move onto an attacked square and next to the enemy king.
  auto near = pos_of("8/8/8/3k4/8/3V4/8/4K3 w - - 0 1", Variant::Virrey);
  EXPECT_TRUE(parse_uci(near, "d3d4").has_value());
  // A king may capture a viceroy; a viceroy gives check.
  auto capture = pos_of("k7/8/8/8/8/8/4v3/4K3 w - - 0 1", Variant::Virrey);
  EXPECT_TRUE(capture.in_check());
  EXPECT_TRUE(parse_uci(capture, "e1e2").has_value());
  // Squares a viceroy attacks are forbidden to the enemy king.
  auto guard = pos_of("k7/8/8/8/8/2v5/8/4K3 w - - 0 1", Variant::Virrey);
  EXPECT_FALSE(parse_uci(guard, "e1d2").has_value());
  // A pinned viceroy may only move along the pin.
  auto pin = pos_of("4r3/8/8/8/8/8/4V3/4K2k w - - 0 1", Variant::Virrey);
  MoveList moves = legal_moves(pin);
  for (Move m : moves)
    if (m.from() == make_square<Board8>(4, 1)) {
      EXPECT_EQ(file_of<Board8>(m.to()), 4);
    }
  // A viceroy on e1 gives no castling right.
  FenProblems errors;
  EXPECT_FALSE(position_from_fen<Board8>("4k3/8/8/8/8/8/8/R3V2K w Q - 0 1", Variant::Virrey, errors));
}

TEST(Virrey, ViceroyMatesAndIsMatingMaterial) {
  auto mate = pos_of("k7/1V6/1K6/8/8/8/8/8 b - - 0 1", Variant::Virrey);
  EXPECT_EQ(board_state(mate), BoardState::Checkmate);
  EXPECT_FALSE(insufficient_material(pos_of("k7/8/1K6/8/8/8/8/6V1 w - - 0 1", Variant::Virrey)));
}

TEST(GameResult, StalemateCheckmateAndMaterial) {
  EXPECT_EQ(board_state(pos_of("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", Variant::Standard)), BoardState::Stalemate);
  EXPECT_EQ(board_state(pos_of("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", Variant::Standard)), BoardState::Checkmate);
  EXPECT_EQ(board_state(pos_of("k7/8/1K6/8/8/8/8/1Q6 b - - 0 1", Variant::Standard)), BoardState::Ongoing);
  EXPECT_TRUE(insufficient_material(pos_of("k7/8/1K6/8/8/8/8/8 w - - 0 1", Variant::Standard)));
  EXPECT_TRUE(insufficient_material(pos_of("k7/8/1K6/8/8/8/8/5B2 w - - 0 1", Variant::Standard)));
  EXPECT_TRUE(insufficient_material(pos_of("k7/8/1K6/8/8/8/8/5N2 w - - 0 1", Variant::Standard)));
  EXPECT_TRUE(insufficient_material(pos_of("k1b5/8/1K6/8/8/8/8/5B2 w - - 0 1", Variant::Standard)));
  EXPECT_FALSE(insufficient_material(pos_of("kb6/8/1K6/8/8/8/8/5B2 w - - 0 1", Variant::Standard)));
  EXPECT_FALSE(insufficient_material(pos_of("k7/8/1K6/8/8/8/8/4NN2 w - - 0 1", Variant::Standard)));
  EXPECT_FALSE(insufficient_material(pos_of("k7/8/1K6/8/8/8/P7/8 w - - 0 1", Variant::Standard)));
}

TEST(GameResult, FiftyMovesAndRepetitions) {
  EXPECT_TRUE(fifty_move_rule(pos_of("k7/8/1K6/8/8/8/8/1R6 w - - 100 80", Variant::Standard)));
  EXPECT_FALSE(fifty_move_rule(pos_of("k7/8/1K6/8/8/8/8/1R6 w - - 99 80", Variant::Standard)));
  auto pos = pos_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Variant::Standard);
  std::vector<std::uint64_t> history{pos.hash()};
  for (int i = 0; i < 2; ++i)
    for (const char* uci : {"g1f3", "g8f6", "f3g1", "f6g8"}) {
      pos.play(*parse_uci(pos, uci));
      history.push_back(pos.hash());
    }
  EXPECT_EQ(repetitions(history, pos.halfmove_clock()), 3);
  EXPECT_EQ(repetitions(history, 3), 1);
}

}  // namespace
}  // namespace virrey
