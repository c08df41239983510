// How records store moves: format 2 as move numbers (append_move_number in
// rules/move_numbers.hpp), format 1 (still read) as their index among the
// legal moves in canonical order (move_order_key: from, to, kind, promotion),
// which decoding selects without sorting. And the start position every record replays from.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/move_numbers.hpp"
#include "virrey/rules/movegen.hpp"

namespace virrey::store {

template <class G>
void legal_moves_into(const Position<G>& pos, MoveList& list) {
  list.clear();
  generate_legal(pos, list);
}

// The move at a canonical index of a list of legal moves (any order), found
// without sorting the whole list; null when the index is out of range.
inline Move canonical_at(const MoveList& list, std::size_t index) {
  const std::size_t n = list.size();
  if (index >= n) return Move{};
  // Selects among plain integers (the order above the move's place in the
  // list), not among moves compared through move_order_key.
  std::uint64_t keys[MoveList::kCapacity];
  for (std::size_t i = 0; i < n; ++i) keys[i] = std::uint64_t(move_order_key(list[i])) << 16 | i;
  std::nth_element(keys, keys + index, keys + n);
  return list[std::size_t(keys[index] & 0xffff)];
}

// The start position of a record: its FEN, or the variant's start position,
// with the bishop swap allowed when the game's tags allow it (the legal moves,
// and so the stored move indices, depend on it).
template <class G>
std::optional<Position<G>> start_position(Variant v, std::string_view fen, bool bishop_swap) {
  std::optional<Position<G>> pos;
  if (fen.empty()) {
    pos = variant_start<G>(v);
  } else {
    FenProblems errors;
    pos = position_from_fen<G>(fen, v, errors);
  }
  if (pos && bishop_swap) pos->enable_bishop_swap();
  return pos;
}

}  // namespace virrey::store
