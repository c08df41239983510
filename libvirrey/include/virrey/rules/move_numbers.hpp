// Move numbers: every move a position's pieces could make by their movement
// rules alone (pseudo-legal: whether the king is left attacked is not asked)
// gets a number, in a frozen canonical order:
//
//   - the mover's pieces by square, ascending;
//   - each piece's destination squares, ascending; a pawn's destinations
//     are its pushes and captures (en passant included), a king's include
//     the castling destinations whose right is held and whose squares
//     between king and rook are empty, and a bishop's in a Modern game with
//     the bishop swap include the squares of its swap partners;
//   - a promotion to a square where the player chooses counts once per
//     choice, in the order queen, rook, bishop, knight (then minister, in
//     Modern chess).
//
// Stored games record each move as its number (one byte while a position
// has at most 256 numbers). Neither direction lists moves: a number costs
// one attack lookup per piece on an earlier square, and one check that the
// king is safe afterwards.
#pragma once

#include <string>

#include "virrey/rules/position.hpp"

namespace virrey {

// The number of a legal move, or -1 when m is not a legal move of pos.
template <class G>
int move_number(const Position<G>& pos, Move m);

// The number of m, which the caller knows to be a legal move of pos (a
// checker's replay): move_number without checking that m is one. What it
// returns for a move that is not legal means nothing.
template <class G>
int legal_move_number(const Position<G>& pos, Move m);

// The legal move with a number, or a null move when no legal move has it
// (an illegal pseudo-legal move, or a number past the last).
template <class G>
Move move_with_number(const Position<G>& pos, int number);

// Whether pos has more than 256 move numbers (its numbers then take two bytes).
template <class G>
bool move_numbers_wide(const Position<G>& pos);

extern template int move_number<Board8>(const Position<Board8>&, Move);
extern template int move_number<Board9>(const Position<Board9>&, Move);
extern template int legal_move_number<Board8>(const Position<Board8>&, Move);
extern template int legal_move_number<Board9>(const Position<Board9>&, Move);
extern template Move move_with_number<Board8>(const Position<Board8>&, int);
extern template Move move_with_number<Board9>(const Position<Board9>&, int);
extern template bool move_numbers_wide<Board8>(const Position<Board8>&);
extern template bool move_numbers_wide<Board9>(const Position<Board9>&);

// Appends a move number as a stored game records it: in two bytes
// big-endian when the position has more than 256 numbers.
template <class G>
void append_number(std::string& out, const Position<G>& pos, int number) {
  if (move_numbers_wide(pos)) out += char(number >> 8);
  out += char(number & 0xff);
}

// Appends a move as a stored game records it (its move number); false when
// the move is not legal.
template <class G>
bool append_move_number(std::string& out, const Position<G>& pos, Move m) {
  const int number = move_number(pos, m);
  if (number < 0) return false;
  append_number(out, pos, number);
  return true;
}

// The same for a move the caller knows to be legal (legal_move_number).
template <class G>
void append_legal_move_number(std::string& out, const Position<G>& pos, Move m) {
  append_number(out, pos, legal_move_number(pos, m));
}

}  // namespace virrey
