// Legal move generation. Moves are generated legal directly: check and pin
// masks restrict every piece, the king avoids attacked squares, and only en
// passant is verified by trying it. Perft is the test of this file.
#pragma once

#include <cstddef>

#include "virrey/rules/position.hpp"

namespace virrey {

// Fixed capacity: a side has at most 2 * width pieces (checked when a
// position is made), which bounds the number of legal moves well below this.
class MoveList {
 public:
  static constexpr std::size_t kCapacity = 640;
  void push(Move m) { moves_[size_++] = m; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + size_; }
  Move operator[](std::size_t i) const { return moves_[i]; }
  void clear() { size_ = 0; }
  bool contains(Move m) const {
    for (Move x : *this)
      if (x == m) return true;
    return false;
  }

 private:
  Move moves_[kCapacity];
  std::size_t size_ = 0;
};

template <class G>
void generate_legal(const Position<G>& pos, MoveList& list);

// Only the legal moves of one piece type (None: every type) to a set of
// squares: what resolving a SAN move needs. King moves include castling.
template <class G>
void generate_legal_to(const Position<G>& pos, PieceType piece, Bitboard<G> targets, MoveList& list);

// The order in which game records of format 1 (still read) number the legal
// moves: by origin square, then destination, kind and promotion piece. Frozen
// with that format; format 2 stores move numbers (move_numbers.hpp).
constexpr std::uint32_t move_order_key(Move m) {
  return std::uint32_t(m.from()) << 16 | std::uint32_t(m.to()) << 8 | std::uint32_t(m.kind()) << 4 |
         std::uint32_t(m.promotion());
}

template <class G>
MoveList legal_moves(const Position<G>& pos) {
  MoveList list;
  generate_legal(pos, list);
  return list;
}

extern template void generate_legal<Board8>(const Position<Board8>&, MoveList&);
extern template void generate_legal_to<Board8>(const Position<Board8>&, PieceType, std::uint64_t, MoveList&);
extern template void generate_legal<Board9>(const Position<Board9>&, MoveList&);
extern template void generate_legal_to<Board9>(const Position<Board9>&, PieceType, u128, MoveList&);

}  // namespace virrey
