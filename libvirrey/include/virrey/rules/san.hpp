// Standard Algebraic Notation. Reading is two steps: parse_san turns text into
// a SanSyntax (or a syntax error), then resolve_san finds the one legal move
// it names, telling illegal, ambiguous and wrong-promotion apart. Writing
// uses minimal disambiguation and a '+' or '#' suffix.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "virrey/rules/movegen.hpp"

namespace virrey {

struct SanSyntax {
  enum class Kind : std::uint8_t {
    Move,
    CastleKingside,
    CastleQueenside,
    CastleMinisterWing,
    CastleQueenWing,
    Null,
    BishopSwap
  };
  Kind kind = Kind::Move;
  PieceType piece = PieceType::Pawn;
  int from_file = -1;  // disambiguation, -1 when absent
  int from_rank = -1;
  int to_file = -1;
  int to_rank = -1;
  bool capture = false;
  PieceType promotion = PieceType::None;
  bool promotion_has_equals = false;
  char suffix = 0;  // '+', '#' or 0
  // BishopSwap (Modern): "B=Q", "B=M" swap with that piece; "B=QN", "B=MN"
  // with the knight of the queen's or the minister's wing.
  PieceType swap_with = PieceType::None;
  PieceType knight_wing = PieceType::None;
};

// Why a SAN token names no move: syntax errors (parse_san: the text is not
// SAN) come before rule errors (resolve_san: SAN that names no one legal move
// of the position).
enum class SanError : std::uint8_t {
  None,
  // Syntax.
  NotAMove,          // nothing left once annotations and check marks are taken off
  NoDestination,     // no destination square at the end
  UnexpectedText,    // characters before the destination that SAN has no place for
  PromotionByPiece,  // a promotion piece after a piece move
  PromotionPiece,    // a promotion to a pawn or a king
  // Rules.
  Illegal,         // no legal move matches
  Ambiguous,       // several legal moves match
  WrongPromotion,  // the pawn move exists, but not with that (or without a) promotion piece
  NullMove,        // "--", "Z0", "0000": a null move is no legal move
};

constexpr bool is_syntax_error(SanError e) {
  return e >= SanError::NotAMove && e <= SanError::PromotionPiece;
}

struct SanProblem {
  SanError code = SanError::None;
  std::string message;  // for people, when code != None
};

// Parses one SAN token (annotation glyphs like "!?" after it are allowed and
// ignored). On failure returns nullopt and sets problem to a syntax error.
std::optional<SanSyntax> parse_san(std::string_view text, SanProblem& problem);

struct SanResolution {
  Move move{};
  SanError error = SanError::None;  // a rule error, or None
  // Virrey: a bare "e8" was read as the forced promotion (worth a warning).
  bool implied_promotion = false;
  std::string message;  // why, when error != None
};

template <class G>
SanResolution resolve_san(const Position<G>& pos, const SanSyntax& san);

// Both steps at once for the usual token, [piece][file][rank][x]square with
// an optional '+' or '#': true with the move and the suffix ('+', '#' or 0)
// when the token names exactly one legal move, which is neither a promotion
// nor en passant. False for every other token and outcome: parse_san and
// resolve_san then decide (they agree with this on the tokens it takes).
template <class G>
bool read_plain_san(const Position<G>& pos, std::string_view text, Move& move, char& suffix);

// How much of its origin the SAN of a piece move must name (PGN standard
// 8.2.3.4): nothing when no other legal move of the same piece type reaches
// the square; else the file when it tells them apart, else the rank, else
// both. `legal` holds at least the legal moves to the move's square.
enum class Disambiguation : std::uint8_t { None, File, Rank, Square };
template <class G>
Disambiguation needed_disambiguation(const Position<G>& pos, Move move, const MoveList& legal);

// Writes a legal move of pos in SAN, with '+' or '#'.
template <class G>
std::string write_san(const Position<G>& pos, Move move);

// The same as write_san, for callers that already hold the legal move list.
template <class G>
std::string write_san(const Position<G>& pos, Move move, const MoveList& legal);

extern template bool read_plain_san<Board8>(const Position<Board8>&, std::string_view, Move&, char&);
extern template bool read_plain_san<Board9>(const Position<Board9>&, std::string_view, Move&, char&);
extern template Disambiguation needed_disambiguation<Board8>(const Position<Board8>&, Move, const MoveList&);
extern template Disambiguation needed_disambiguation<Board9>(const Position<Board9>&, Move, const MoveList&);
extern template SanResolution resolve_san<Board8>(const Position<Board8>&, const SanSyntax&);
extern template std::string write_san<Board8>(const Position<Board8>&, Move);
extern template std::string write_san<Board8>(const Position<Board8>&, Move, const MoveList&);
extern template SanResolution resolve_san<Board9>(const Position<Board9>&, const SanSyntax&);
extern template std::string write_san<Board9>(const Position<Board9>&, Move);
extern template std::string write_san<Board9>(const Position<Board9>&, Move, const MoveList&);

}  // namespace virrey
