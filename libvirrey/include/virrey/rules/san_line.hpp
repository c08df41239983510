// A line of SAN moves played from a position: "1. e4 e5 2. Nf3", "e4 e5 Nf3",
// "1...c5", "e4,e5". Tokens are separated by white space or commas; move
// numbers ("12.", "12...", the "1." of "1.e4") and results ("1-0", "*") are
// not moves and are skipped.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/rules/san.hpp"

namespace virrey {

// The move tokens of a line, in order.
std::vector<std::string_view> san_line_tokens(std::string_view text);

// The first token of a line that names no move of its position.
struct SanLineProblem {
  std::size_t index = 0;  // among the move tokens, from 0
  std::string token;
  SanError code = SanError::None;  // a syntax error, a rule error or NullMove
  std::string message;             // what parse_san or resolve_san says
  // "move 12 (...Ke3)": the number and side of the move the token was read
  // as, from the position it was played in; the token cut short when long.
  std::string label;
};

template <class G>
struct SanLine {
  std::vector<Move> moves;
  // positions[0] is the start, positions[i + 1] the position after moves[i].
  std::vector<Position<G>> positions;
  // Set when a token could not be played; moves and positions end before it.
  std::optional<SanLineProblem> problem;

  bool ok() const { return !problem; }
  const Position<G>& last() const { return positions.back(); }
};

// Plays the line's moves from start, up to the end or the first token that
// is not a legal move there (a null move included: it reaches no position).
template <class G>
SanLine<G> play_san_line(const Position<G>& start, std::string_view text);

extern template SanLine<Board8> play_san_line<Board8>(const Position<Board8>&, std::string_view);
extern template SanLine<Board9> play_san_line<Board9>(const Position<Board9>&, std::string_view);

}  // namespace virrey
