// Setup: what a FEN says, unvalidated. Position<G>: a validated position on a
// board of geometry G that moves can be played on. A Position is only made
// from a Setup through from_setup, which lists every reason a setup is not a
// legal position, each a FenProblem.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "virrey/rules/attacks.hpp"
#include "virrey/rules/bitboard.hpp"
#include "virrey/rules/promotion.hpp"
#include "virrey/rules/types.hpp"
#include "virrey/rules/variant.hpp"
#include "virrey/rules/zobrist.hpp"

namespace virrey {

// Castling rights as a 4-bit mask. "Kingside" is towards the last file
// (h on 8x8, i on 9x9), "queenside" towards the a-file, for both colours.
enum CastlingRight : std::uint8_t {
  kWhiteKingside = 1,
  kWhiteQueenside = 2,
  kBlackKingside = 4,
  kBlackQueenside = 8,
};

constexpr int kMaxBoardSquares = 81;

// Why a FEN text (parse_fen) or a setup (from_setup) is not a position.
enum class FenError : std::uint8_t {
  // The text.
  TooLong,         // longer than kMaxFenBytes
  Empty,           // no field at all
  BadPieceLetter,  // a board character that is no piece letter
  RankLength,      // a rank with too few or too many squares
  RankCount,       // too few or too many ranks
  SideToMove,      // missing, or not w or b
  Castling,        // a letter the castling field does not take
  EnPassant,       // neither a square nor '-'
  HalfmoveClock,   // not a number, or out of range
  FullmoveNumber,  // not a number, or out of range
  FieldCount,      // more than six fields
  // The position.
  BoardSize,       // the board is not the variant's
  ForeignPiece,    // a piece the variant does not have
  PawnOnEdgeRank,  // a pawn on the first or the last rank
  NoKing,
  ExtraKing,  // two kings or more of one colour
  TooManyPawns,
  TooManyPieces,
  CastlingRight,    // a right without the king and the rook on their squares
  EnPassantSquare,  // no double push could have left it
  OpponentInCheck,  // the side not to move is in check
};

struct FenProblem {
  FenError code;
  std::string message;  // for people: "rank 8 has 7 squares (expected 8)"
};
using FenProblems = std::vector<FenProblem>;

struct Setup {
  Variant variant = Variant::Standard;
  std::array<Piece, kMaxBoardSquares> board{};  // rank * width + file
  Color side_to_move = Color::White;
  std::uint8_t castling = 0;
  Square en_passant = kNoSquare;  // the square a pawn may capture onto
  int halfmove_clock = 0;
  int fullmove_number = 1;
  int width() const { return info(variant).width; }
  int height() const { return info(variant).height; }
};

template <class G>
class Position {
 public:
  using BB = Bitboard<G>;
  using A = Attacks<G>;
  static constexpr int kKingFile = 4;  // the e-file on every supported board

  // A validated position, or nullopt with every reason appended to problems.
  static std::optional<Position> from_setup(const Setup& setup, FenProblems& problems);
  Setup to_setup() const;

  Variant variant() const { return variant_; }
  Color side_to_move() const { return side_; }
  std::uint8_t castling() const { return castling_; }
  Square en_passant() const { return ep_; }  // set only when a pawn can capture there
  int halfmove_clock() const { return halfmove_; }
  int fullmove_number() const { return fullmove_; }
  std::uint64_t hash() const { return hash_; }

  BB occupied() const { return by_type_[0]; }
  BB pieces(Color c) const { return by_color_[index(c)]; }
  BB pieces(PieceType pt) const { return by_type_[index(pt)]; }
  BB pieces(Color c, PieceType pt) const { return by_color_[index(c)] & by_type_[index(pt)]; }
  Piece piece_on(Square s) const {
    std::uint8_t code = board_[s];
    return code ? Piece{Color(code >> 4), PieceType(code & 0xf)} : Piece{};
  }
  Square king_square(Color c) const { return king_[index(c)]; }

  // Pieces of either colour attacking s, given an occupancy.
  BB attackers_to(Square s, BB occ) const;
  BB checkers() const { return attackers_to(king_square(side_), occupied()) & pieces(~side_); }
  bool in_check() const { return checkers() != 0; }

  // Plays a legal move (as produced by the move generator) in place.
  void play(Move m);
  // Passes the turn (a null move, "--" in annotated variations); for a side
  // not in check. An en passant right lapses; the clocks run as for a move.
  void play_null();
  Position after(Move m) const {
    Position p = *this;
    p.play(m);
    return p;
  }

  // Castling geometry: the rook's start square for a right, and the king's
  // destination for castling on a wing.
  static Square castling_rook_square(Color c, bool kingside) {
    return make_square<G>(kingside ? G::width - 1 : 0, c == Color::White ? 0 : G::height - 1);
  }
  static Square castling_king_target(Color c, bool kingside) {
    return make_square<G>(kingside ? kKingFile + 2 : kKingFile - 2, c == Color::White ? 0 : G::height - 1);
  }
  static std::uint8_t castling_right(Color c, bool kingside) {
    return std::uint8_t((kingside ? kWhiteKingside : kWhiteQueenside) << (2 * index(c)));
  }

  // Modern chess with [BishopSwap "Yes"]: a bishop may exchange squares
  // with an adjacent unmoved queen, minister or knight, itself unmoved, once
  // per player. Enabling marks the pieces on their start squares as unmoved.
  // (The swap rights are not part of the hash.)
  void enable_bishop_swap();
  bool can_swap(Color c) const { return swap_enabled_ && !(swap_used_ >> index(c) & 1); }
  bool unmoved_for_swap(Square s) const { return swap_unmoved_ & square_bb<G>(s); }
  // The squares of the pieces an unmoved bishop of the side to move may
  // swap with (whether the swap right is left is can_swap's question).
  BB swap_partners(Square bishop) const;

  // The piece a pawn of this variant becomes on a square of the last rank
  // when the variant fixes it (Virrey); None when the mover chooses.
  PieceType fixed_promotion(Square to) const;
  // What the mover chooses from where the variant fixes nothing, in the
  // order stored move numbers count the choices (frozen).
  std::span<const PieceType> promotion_choices() const { return virrey::promotion_choices(variant_); }

 private:
  void put(Piece p, Square s);
  void remove(Square s);
  void move_piece(Square from, Square to);
  static std::uint8_t code(Piece p) { return std::uint8_t(index(p.color) << 4 | index(p.type)); }
  static std::uint8_t rights_touched(Square s);

  std::array<BB, kPieceTypeCount> by_type_{};  // [0]: every occupied square
  std::array<BB, 2> by_color_{};
  std::array<std::uint8_t, G::squares> board_{};
  std::uint64_t hash_ = 0;
  std::array<Square, 2> king_{kNoSquare, kNoSquare};
  Color side_ = Color::White;
  std::uint8_t castling_ = 0;
  Square ep_ = kNoSquare;
  Variant variant_ = Variant::Standard;
  std::uint16_t halfmove_ = 0;
  std::uint16_t fullmove_ = 1;
  bool swap_enabled_ = false;
  std::uint8_t swap_used_ = 0;  // bit per colour
  BB swap_unmoved_ = 0;
};

// ---------------------------------------------------------------------------

template <class G>
inline void Position<G>::put(Piece p, Square s) {
  BB b = square_bb<G>(s);
  by_type_[0] |= b;
  by_type_[index(p.type)] |= b;
  by_color_[index(p.color)] |= b;
  board_[s] = code(p);
  hash_ ^= zobrist::piece_key(p, s);
  if (p.type == PieceType::King) king_[index(p.color)] = s;
}

template <class G>
inline void Position<G>::remove(Square s) {
  Piece p = piece_on(s);
  BB b = square_bb<G>(s);
  by_type_[0] ^= b;
  by_type_[index(p.type)] ^= b;
  by_color_[index(p.color)] ^= b;
  board_[s] = 0;
  hash_ ^= zobrist::piece_key(p, s);
}

template <class G>
inline void Position<G>::move_piece(Square from, Square to) {
  Piece p = piece_on(from);
  BB b = square_bb<G>(from) | square_bb<G>(to);
  by_type_[0] ^= b;
  by_type_[index(p.type)] ^= b;
  by_color_[index(p.color)] ^= b;
  board_[to] = board_[from];
  board_[from] = 0;
  hash_ ^= zobrist::piece_key(p, from) ^ zobrist::piece_key(p, to);
  if (p.type == PieceType::King) king_[index(p.color)] = to;
}

// The castling rights lost when a move starts or ends on a square: those of
// the king's and the rooks' start squares.
template <class G>
inline std::uint8_t Position<G>::rights_touched(Square s) {
  static constexpr auto kTouched = [] {
    std::array<std::uint8_t, G::squares> t{};
    t[make_square<G>(kKingFile, 0)] = kWhiteKingside | kWhiteQueenside;
    t[make_square<G>(kKingFile, G::height - 1)] = kBlackKingside | kBlackQueenside;
    t[make_square<G>(0, 0)] = kWhiteQueenside;
    t[make_square<G>(G::width - 1, 0)] = kWhiteKingside;
    t[make_square<G>(0, G::height - 1)] = kBlackQueenside;
    t[make_square<G>(G::width - 1, G::height - 1)] = kBlackKingside;
    return t;
  }();
  return kTouched[s];
}

template <class G>
inline typename Position<G>::BB Position<G>::attackers_to(Square s, BB occ) const {
  const BB diagonal = by_type_[index(PieceType::Bishop)] | by_type_[index(PieceType::Queen)] |
                      by_type_[index(PieceType::Minister)];
  const BB straight = by_type_[index(PieceType::Rook)] | by_type_[index(PieceType::Queen)];
  const BB leaper = by_type_[index(PieceType::Knight)] | by_type_[index(PieceType::Minister)];
  const BB kinglike = by_type_[index(PieceType::King)] | by_type_[index(PieceType::Viceroy)];
  return (A::pawn(Color::White, s) & pieces(Color::Black, PieceType::Pawn)) |
         (A::pawn(Color::Black, s) & pieces(Color::White, PieceType::Pawn)) | (A::knight(s) & leaper) |
         (A::king(s) & kinglike) | (A::bishop(s, occ) & diagonal) | (A::rook(s, occ) & straight);
}

template <class G>
inline typename Position<G>::BB Position<G>::swap_partners(Square bishop) const {
  BB partners = 0;
  if (!unmoved_for_swap(bishop)) return partners;
  for (int df : {-1, 1}) {
    const int f = file_of<G>(bishop) + df;
    if (f < 0 || f >= G::width) continue;
    const Square other = make_square<G>(f, rank_of<G>(bishop));
    const Piece p = piece_on(other);
    if (p.color != side_ || !unmoved_for_swap(other)) continue;
    if (p.type == PieceType::Queen || p.type == PieceType::Minister || p.type == PieceType::Knight)
      partners |= square_bb<G>(other);
  }
  return partners;
}

template <class G>
inline PieceType Position<G>::fixed_promotion(Square to) const {
  return fixed_promotion_on_file(variant_, file_of<G>(to));
}

template <class G>
inline void Position<G>::play(Move m) {
  const Square from = m.from(), to = m.to();
  const Color us = side_;
  const Piece moving = piece_on(from);
  if (ep_ != kNoSquare) {
    hash_ ^= zobrist::kKeys.en_passant[file_of<G>(ep_)];
    ep_ = kNoSquare;
  }
  bool reset_clock = moving.type == PieceType::Pawn;

  switch (m.kind()) {
    case MoveKind::Normal:
      if (board_[to]) {
        remove(to);
        reset_clock = true;
      }
      move_piece(from, to);
      if (moving.type == PieceType::Pawn && (from > to ? from - to : to - from) == 2 * G::width) {
        Square middle = Square((from + to) / 2);
        if (A::pawn(us, middle) & pieces(~us, PieceType::Pawn)) ep_ = middle;
      }
      break;
    case MoveKind::Promotion:
      if (board_[to]) remove(to);
      remove(from);
      put(Piece{us, m.promotion()}, to);
      break;
    case MoveKind::EnPassant:
      remove(us == Color::White ? Square(to - G::width) : Square(to + G::width));
      move_piece(from, to);
      break;
    case MoveKind::Castling: {
      const bool kingside = to > from;
      const Square rook_from = castling_rook_square(us, kingside);
      const Square rook_to = Square(kingside ? from + 1 : from - 1);
      move_piece(from, to);
      move_piece(rook_from, rook_to);
      break;
    }
    case MoveKind::BishopSwap: {
      const Piece other = piece_on(to);
      remove(to);
      move_piece(from, to);
      put(other, from);
      break;
    }
  }

  const std::uint8_t lost = castling_ & (rights_touched(from) | rights_touched(to));
  if (lost) {
    hash_ ^= zobrist::kKeys.castling[castling_];
    castling_ &= std::uint8_t(~lost);
    hash_ ^= zobrist::kKeys.castling[castling_];
  }
  if (swap_enabled_) {
    swap_unmoved_ &= ~(square_bb<G>(from) | square_bb<G>(to));
    if (m.kind() == MoveKind::BishopSwap) swap_used_ |= std::uint8_t(1 << index(us));
  }
  if (ep_ != kNoSquare) hash_ ^= zobrist::kKeys.en_passant[file_of<G>(ep_)];
  halfmove_ = reset_clock ? 0 : std::uint16_t(halfmove_ + 1);
  if (us == Color::Black) ++fullmove_;
  side_ = ~us;
  hash_ ^= zobrist::kKeys.black_to_move;
}

template <class G>
inline void Position<G>::play_null() {
  if (ep_ != kNoSquare) {
    hash_ ^= zobrist::kKeys.en_passant[file_of<G>(ep_)];
    ep_ = kNoSquare;
  }
  halfmove_ = std::uint16_t(halfmove_ + 1);
  if (side_ == Color::Black) ++fullmove_;
  side_ = ~side_;
  hash_ ^= zobrist::kKeys.black_to_move;
}

extern template class Position<Board8>;
extern template class Position<Board9>;

}  // namespace virrey
