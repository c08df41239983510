// FEN: Forsyth-Edwards Notation read into a Setup and written from one.
// Boards of any supported size ("9" is an empty run on 9x9); `V`/`v` is the
// viceroy and `M`/`m` the minister. The castling field takes `KQkq` or
// Shredder file letters (the outermost rooks only); the en-passant field is
// accepted after any double push but written only when a capture is possible;
// the fields after the side to move may be omitted: castling and en passant
// default to '-', the two clocks to 0 and 1.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/rules/position.hpp"

namespace virrey {

// The longest FEN read (a 9x9 position with every field is far shorter); a
// longer text is refused whole, so that its problems stay few.
constexpr std::size_t kMaxFenBytes = 1024;

// Reads the text into a Setup, appending every syntax problem to problems. The
// setup is filled as far as the text allows, so that position checks can add
// their reasons too; it is nullopt only when nothing usable was found.
std::optional<Setup> parse_fen(std::string_view fen, Variant variant, FenProblems& problems);

std::string write_fen(const Setup& setup);

template <class G>
std::string write_fen(const Position<G>& pos) {
  return write_fen(pos.to_setup());
}

// Parses and validates in one go: a position, or every reason it is not one.
template <class G>
std::optional<Position<G>> position_from_fen(std::string_view fen, Variant variant, FenProblems& problems) {
  auto setup = parse_fen(fen, variant, problems);
  if (!setup) return std::nullopt;
  const bool syntax_ok = problems.empty();
  // With ranks missing or extra, the pieces stand on no square worth naming.
  for (const FenProblem& p : problems)
    if (p.code == FenError::RankCount) return std::nullopt;
  auto pos = Position<G>::from_setup(*setup, problems);
  if (!syntax_ok) return std::nullopt;
  return pos;
}

// A variant's own start position, parsed once; nullopt for a variant of
// another board size.
template <class G>
const std::optional<Position<G>>& variant_start(Variant variant) {
  static const auto starts = [] {
    std::array<std::optional<Position<G>>, kVariantCount> out;
    for (const VariantInfo& vi : kVariants) {
      FenProblems problems;
      if (vi.width == G::width && vi.height == G::height)
        out[std::size_t(vi.variant)] = position_from_fen<G>(vi.start_fen, vi.variant, problems);
    }
    return out;
  }();
  return starts[std::size_t(variant)];
}

// "a; b; c": the messages on one line.
std::string join_reasons(const FenProblems& problems);

}  // namespace virrey
