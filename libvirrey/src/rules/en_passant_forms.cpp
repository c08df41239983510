#include "virrey/rules/en_passant_forms.hpp"

#include "virrey/rules/fen.hpp"
#include "virrey/rules/movegen.hpp"

namespace virrey {

namespace {

// True when some legal move of the position is an en-passant capture.
template <class G>
bool has_en_passant_capture(const Position<G>& pos) {
  for (Move m : legal_moves(pos))
    if (m.kind() == MoveKind::EnPassant) return true;
  return false;
}

}  // namespace

template <class G>
std::vector<Position<G>> same_position_forms(const Position<G>& pos) {
  std::vector<Position<G>> out{pos};
  Setup setup = pos.to_setup();
  FenProblems ignored;
  if (pos.en_passant() != kNoSquare) {
    if (has_en_passant_capture(pos)) return out;
    setup.en_passant = kNoSquare;
    if (auto alt = Position<G>::from_setup(setup, ignored)) out.push_back(*alt);
    return out;
  }
  // A right could be on an empty square just behind a pawn of the side not
  // to move (it made a double step there); from_setup decides the rest.
  const Color passed = ~pos.side_to_move();
  const int behind = passed == Color::White ? -G::width : G::width;
  for (int sq = 0; sq < G::squares; ++sq) {
    const int pawn_square = sq - behind;
    if (!setup.board[std::size_t(sq)].empty() || pawn_square < 0 || pawn_square >= G::squares) continue;
    const Piece pawn = setup.board[std::size_t(pawn_square)];
    if (pawn.empty() || pawn.type != PieceType::Pawn || pawn.color != passed) continue;
    setup.en_passant = Square(sq);
    auto alt = Position<G>::from_setup(setup, ignored);
    if (alt && alt->en_passant() != kNoSquare && !has_en_passant_capture(*alt)) out.push_back(*alt);
  }
  return out;
}

template std::vector<Position<Board8>> same_position_forms<Board8>(const Position<Board8>&);
template std::vector<Position<Board9>> same_position_forms<Board9>(const Position<Board9>&);

}  // namespace virrey
