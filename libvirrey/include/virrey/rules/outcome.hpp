// How a position stands: checkmate, stalemate, insufficient material, the
// 50-move rule and repetitions. Check and mate concern the king only; a
// viceroy is never in check and counts as mating material.
#pragma once

#include <cstdint>
#include <span>

#include "virrey/rules/movegen.hpp"

namespace virrey {

enum class BoardState : std::uint8_t { Ongoing, Checkmate, Stalemate };

template <class G>
BoardState board_state(const Position<G>& pos) {
  if (!legal_moves(pos).empty()) return BoardState::Ongoing;
  return pos.in_check() ? BoardState::Checkmate : BoardState::Stalemate;
}

// Squares of the colour of a1 (dark on every supported board).
template <class G>
constexpr Bitboard<G> dark_squares() {
  Bitboard<G> b = 0;
  for (int s = 0; s < G::squares; ++s)
    if ((file_of<G>(Square(s)) + rank_of<G>(Square(s))) % 2 == 0) b |= square_bb<G>(Square(s));
  return b;
}

// The FIDE dead positions recognised by material alone: K v K, K+B v K,
// K+N v K, and any number of bishops all on squares of one colour.
template <class G>
bool insufficient_material(const Position<G>& pos) {
  const auto kings = pos.pieces(PieceType::King);
  const auto others = pos.occupied() & ~kings;
  if (!others) return true;
  if (pos.pieces(PieceType::Pawn) | pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen) |
      pos.pieces(PieceType::Viceroy) | pos.pieces(PieceType::Minister))
    return false;
  if (!more_than_one(others)) return true;  // a lone knight or bishop
  const auto bishops = pos.pieces(PieceType::Bishop);
  if (others != bishops) return false;  // knights with other minor pieces can mate
  constexpr auto dark = dark_squares<G>();
  return !(bishops & dark) || !(bishops & ~dark);
}

// The 50-move rule may be claimed (100 plies without capture or pawn move).
template <class G>
bool fifty_move_rule(const Position<G>& pos) {
  return pos.halfmove_clock() >= 100;
}

// How many times the last hash of history occurred within the plies the
// halfmove clock allows (positions before a capture or pawn move cannot recur).
inline int repetitions(std::span<const std::uint64_t> history, int halfmove_clock) {
  if (history.empty()) return 0;
  const std::uint64_t last = history.back();
  int count = 0;
  const std::size_t span = std::size_t(halfmove_clock) + 1;
  const std::size_t first = history.size() > span ? history.size() - span : 0;
  for (std::size_t i = first; i < history.size(); ++i) count += history[i] == last;
  return count;
}

}  // namespace virrey
