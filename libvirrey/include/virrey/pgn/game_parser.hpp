// GameParser: tokenizes the text of one game (as cut by GameSplitter) and
// reports every token to a Visitor, with its line and column. It never
// allocates per token, never recurses, and never stops on bad input: problems
// become Diagnostics and parsing goes on where that makes sense.
//
// Token syntax (PGN import format, leniently):
//   [Name "value"]   tag pair; only before the movetext; \" and \\ escapes
//   { ... }          comment (no nesting), ; ... comment to end of line
//   %...             escape line, only at column 1: skipped
//   12. 12... 12     move number (digits and dots), checked then reported;
//   12. ... 12 ...   periods apart from their number count with it
//   symbols          runs of letters, digits and _ + # = : - / @ : a result
//                    (1-0 0-1 1/2-1/2), a null move (-- Z0), an evaluation
//                    symbol (+- etc.) or else a move (SAN candidate);
//                    "e.p." after a move is skipped
//   $n ! ? !! ?? !? ?!   annotations, reported as NAGs
//   ( )              variations, tracked with a counter (max depth below)
//   *                result
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/pgn/location.hpp"
#include "virrey/pgn/visitor.hpp"

namespace virrey::pgn {

struct ParseOptions {
  // '(' opening a variation deeper than this is reported (VariationTooDeep)
  // and that variation is skipped to its matching ')'.
  std::uint32_t max_variation_depth = 1024;
  // After this many diagnostics in one game, one TooManyDiagnostics is
  // reported and the rest of the game's diagnostics are dropped, but for its
  // first error past the cap (so that a game with many problems before an
  // error is not taken for valid).
  std::uint32_t max_diagnostics = 100;
};

class GameParser {
 public:
  explicit GameParser(ParseOptions options = {});

  // Parses one game. `start` is the location of text[0] in its input (as
  // GameItem::start gives it), so reported locations are file locations.
  // A parser is reusable (keeps its buffers) but not shareable between threads.
  void parse(std::string_view text, Location start, Visitor& visitor);

 private:
  ParseOptions options_;
  std::string unescaped_;                  // tag values with escapes
  std::vector<Location> open_variations_;  // '(' locations, innermost last
};

// Convenience: one parse with a temporary parser.
inline void parse_game(std::string_view text, Location start, Visitor& visitor, ParseOptions options = {}) {
  GameParser(options).parse(text, start, visitor);
}

}  // namespace virrey::pgn
