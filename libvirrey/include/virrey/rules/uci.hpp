// UCI long algebraic move text: "e2e4", "e7e8q", "e7e8v" (viceroy), "e1g1"
// for castling (the king's two squares).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "virrey/rules/movegen.hpp"

namespace virrey {

template <class G>
std::string write_uci(Move move) {
  std::string out = square_name<G>(move.from()) + square_name<G>(move.to());
  if (move.kind() == MoveKind::Promotion) out += char(piece_letter(move.promotion()) | 0x20);
  return out;
}

// The legal move of pos the text names, if any.
template <class G>
std::optional<Move> parse_uci(const Position<G>& pos, std::string_view text) {
  for (Move m : legal_moves(pos))
    if (write_uci<G>(m) == text) return m;
  return std::nullopt;
}

}  // namespace virrey
