// Board patterns: which men stand on which squares, for `--pattern` (piece
// and square constraints) and `--fenpattern` (pgn-extract's FEN patterns).
// A pattern condition holds in the first position of a game's main line that
// matches; the material each pattern needs lets the material index rule out
// games before any replay (game_filter.cpp).
//
// --pattern text (README "Pattern search"): terms separated by blanks or
// commas, all of which must hold in one position.
//   [!|~][N]PIECES SQUARES
//   PIECES   K Q R B N P V M (White), k q r b n p v m (Black), A any white
//            man, a any black man, ? any man, . an empty square, or a set
//            [Qq], [^Pp] (any man but those)
//   SQUARES  a file a-i, ? (any) or a set [a-c] / [ace]; then a rank 1-9,
//            ? or a set [1-3]; * alone is every square
//   N        at least N of the squares hold such a man (default 1)
//   ! or ~   none of the squares holds such a man
// Examples: "Vd5 Pc4 Pe4 !pd?" (a white viceroy on d5, white pawns on c4
// and e4, no black pawn on the d-file), "2R?7" (two white rooks on the
// seventh rank), "!q*" (Black has no queen).
//
// --fenpattern text: pgn-extract's syntax (its -Tf and FENPattern), rank by
// rank from the top, '/' between ranks; within a rank `?` any square, `!` an
// occupied one, `A`/`a` a white/black man, `*` any run of squares (within
// the rank), digits that many empty squares, `_` an empty square, `[...]`
// and `[^...]` sets of these, other letters the man itself. Anything after
// a blank is a label and ignored. Eight ranks fit 8x8 variants, nine Modern.
// As in Debian's pgn-extract 19.04, `m` is a letter (a black minister in
// Modern chess), not "any man but a pawn".
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/base/error.hpp"
#include "virrey/query/game_features.hpp"
#include "virrey/query/material_spec.hpp"
#include "virrey/rules/position.hpp"
#include "virrey/rules/types.hpp"

namespace virrey::query {

// A board as patterns read it: one character per square, the FEN letter of
// its man (upper case White) or '_' when empty; squares numbered as
// rules/types.hpp numbers them (rank * width + file, rank 0 is White's).
struct BoardText {
  int width = 8, height = 8;
  std::array<char, 81> squares{};
  Color side_to_move = Color::White;

  char at(int file, int rank) const { return squares[std::size_t(rank * width + file)]; }
  // The same position with colours swapped: ranks mirrored, White's men
  // Black's, the other side to move.
  BoardText flipped() const;
};

// The board of a position; after pos.play(mv), update_board_text(pos, mv, t)
// brings t up to date by the squares the move touched.
template <class G>
void board_text_of(const Position<G>& pos, BoardText& out);
template <class G>
void update_board_text(const Position<G>& pos, Move played, BoardText& text);

// A set of square contents: piece letters and '_'.
using ContentSet = std::bitset<128>;
// Every content a square can have.
ContentSet every_content();

// The fewest men of each type and colour a matching position has.
using MinCounts = std::array<std::array<std::uint8_t, kPieceTypeCount>, 2>;

class PiecePattern {
 public:
  struct Term {
    ContentSet contents;
    std::bitset<81> squares;  // by the 9x9 numbering (rank * 9 + file)
    int at_least = 1;
    bool none = false;  // negated: no square of the set holds such a content
  };
  bool empty() const { return terms_.empty(); }
  // A term none of whose squares the board has (e9, the i-file on 8x8)
  // matches no position of that board, negated or not.
  bool matches(const BoardText& board) const;
  // Whether every term names a square of a board of this size.
  bool fits(int width, int height) const;
  MinCounts min_counts() const;
  // The squares matches() reads on a board of this size (board numbering).
  std::bitset<81> squares_read(int width, int height) const;
  // Whether every term holds on one square of the board, or on none of a set.
  bool only_single_squares(int width, int height) const;
  // Narrows `allowed` (per square, board numbering) by the terms that hold
  // on one square or on none of a set.
  void require(int width, int height, std::vector<ContentSet>& allowed) const;
  // Adds the terms of one `--pattern` text; errors name the column.
  Status add(std::string_view text);

 private:
  std::vector<Term> terms_;
};

class FenPattern {
 public:
  int height() const { return int(ranks_.size()); }
  bool matches(const BoardText& board) const;
  MinCounts min_counts() const { return min_; }
  // The squares whose content can change what matches() answers on a board
  // of this size (board numbering): a rank with a run (`*`) whole, else the
  // squares of its tokens but `?`.
  std::bitset<81> squares_read(int width, int height) const;
  // Whether every rank is a run alone or names each square of the board's
  // rank (no run among other tokens).
  bool squares_fixed(int width, int height) const;
  // Narrows `allowed` by the ranks without a run: each token its square.
  void require(int width, int height, std::vector<ContentSet>& allowed) const;
  friend Result<FenPattern> parse_fen_pattern(std::string_view text);

 private:
  // A token consumes one square whose content is in the set, or (star) any
  // run of squares.
  struct Token {
    ContentSet contents;
    bool star = false;
  };
  std::vector<std::vector<Token>> ranks_;  // top rank first, as written
  MinCounts min_{};
};

// Errors are InvalidArgument errors naming the column (1-based).
Result<FenPattern> parse_fen_pattern(std::string_view text);

// The pattern part of a filter: the piece terms and, when given, one of the
// FEN patterns hold in the same position of the main line, with the side to
// move and plies asked for.
struct PatternCondition {
  PiecePattern pieces;
  std::vector<FenPattern> fen_any;  // any one of these (none: no FEN pattern)
  std::optional<Color> to_move;
  PlyRange plies;
  bool either_colour = false;  // also with the colours swapped

  bool matches(const BoardText& board) const;
  // The squares whose content can change what matches() answers on a board
  // of this size, either way round when either_colour: a board that holds
  // a position's men on these squares, whatever it holds elsewhere, gets
  // the position's answer.
  std::bitset<81> squares_read(int width, int height) const;
  // What every matching position holds square by square (board numbering;
  // an unconstrained square allows everything): the terms and ranks that
  // name one square each. Empty when a match may be the board with colours
  // swapped (either_colour).
  std::vector<ContentSet> square_requirements(int width, int height) const;
  // Whether square_requirements says all: a position that meets them and
  // has the side to move asked for matches (no runs, no counts over several
  // squares, at most one FEN pattern, one way round).
  bool requirements_exact(int width, int height) const;
  // What the material index can rule out: every matching position has at
  // least this material (either way round when either_colour).
  MaterialCondition implied_material() const;
};

extern template void board_text_of<Board8>(const Position<Board8>&, BoardText&);
extern template void board_text_of<Board9>(const Position<Board9>&, BoardText&);
extern template void update_board_text<Board8>(const Position<Board8>&, Move, BoardText&);
extern template void update_board_text<Board9>(const Position<Board9>&, Move, BoardText&);

}  // namespace virrey::query
