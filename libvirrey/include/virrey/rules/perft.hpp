// Perft: the number of leaf nodes of the legal move tree to a depth. The last
// ply is counted in bulk (the size of the legal move list), not played.
#pragma once

#include <cstdint>
#include <vector>

#include "virrey/rules/movegen.hpp"

namespace virrey {

template <class G>
std::uint64_t perft(const Position<G>& pos, int depth) {
  MoveList moves;
  generate_legal(pos, moves);
  if (depth <= 1) return depth == 1 ? moves.size() : 1;
  std::uint64_t nodes = 0;
  for (Move m : moves) nodes += perft(pos.after(m), depth - 1);
  return nodes;
}

struct PerftEntry {
  Move move{};
  std::uint64_t nodes = 0;
};

// Counts below each root move, spreading root moves over threads; entries
// come back in move-generation order whatever the thread count.
template <class G>
std::vector<PerftEntry> perft_divide(const Position<G>& pos, int depth, int threads);

extern template std::vector<PerftEntry> perft_divide<Board8>(const Position<Board8>&, int, int);
extern template std::vector<PerftEntry> perft_divide<Board9>(const Position<Board9>&, int, int);

}  // namespace virrey
