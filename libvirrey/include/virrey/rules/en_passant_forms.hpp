// A position whose en-passant right no legal capture can use (the pawn
// beside the one that made the double step is pinned, say) is the same
// position as the board without the right (FIDE art. 9.2.3; pgn-extract
// writes `-` for it). virrey's hash, as Stockfish's, keeps such a right, so
// one position may stand under two hashes; a lookup by position seeks every
// form this gives.
#pragma once

#include <vector>

#include "virrey/rules/position.hpp"

namespace virrey {

// The position itself first, then its other forms: without the right when
// no legal capture can use it; with each right no legal capture could use
// when it has none.
template <class G>
std::vector<Position<G>> same_position_forms(const Position<G>& pos);

extern template std::vector<Position<Board8>> same_position_forms<Board8>(const Position<Board8>&);
extern template std::vector<Position<Board9>> same_position_forms<Board9>(const Position<Board9>&);

}  // namespace virrey
