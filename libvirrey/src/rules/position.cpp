#include "virrey/rules/position.hpp"

#include <fmt/format.h>

#include "add_problem.hpp"
#include "virrey/rules/fen.hpp"

namespace virrey {

namespace {

using detail::add_problem;

const char* color_name(Color c) { return c == Color::White ? "white" : "black"; }

bool piece_allowed(Variant v, PieceType pt) {
  if (pt == PieceType::Viceroy) return v == Variant::Virrey;
  if (pt == PieceType::Minister) return v == Variant::Modern;
  return pt != PieceType::None;
}

const char* piece_name(PieceType pt) {
  constexpr const char* names[] = {"none",  "pawn", "knight",  "bishop",  "rook",
                                   "queen", "king", "viceroy", "minister"};
  return names[index(pt)];
}

}  // namespace

template <class G>
std::optional<Position<G>> Position<G>::from_setup(const Setup& s, FenProblems& errors) {
  const std::size_t errors_before = errors.size();
  Position p;
  p.variant_ = s.variant;
  if (s.width() != G::width || s.height() != G::height) {
    add_problem(errors, FenError::BoardSize, "a {} position needs a {}x{} board", info(s.variant).name,
                s.width(), s.height());
    return std::nullopt;
  }
  int kings[2] = {0, 0}, pawns[2] = {0, 0}, count[2] = {0, 0};
  for (int sq = 0; sq < G::squares; ++sq) {
    Piece pc = s.board[sq];
    if (pc.empty()) continue;
    if (!piece_allowed(s.variant, pc.type)) {
      add_problem(errors, FenError::ForeignPiece, "{} on {}: the {} is not a piece of {} chess",
                  fen_letter(pc), square_name<G>(Square(sq)), piece_name(pc.type), info(s.variant).name);
      continue;
    }
    ++count[index(pc.color)];
    if (pc.type == PieceType::King) ++kings[index(pc.color)];
    if (pc.type == PieceType::Pawn) {
      ++pawns[index(pc.color)];
      int rank = rank_of<G>(Square(sq));
      if (rank == 0 || rank == G::height - 1)
        add_problem(errors, FenError::PawnOnEdgeRank, "{} pawn on {}: pawns cannot stand on rank {}",
                    color_name(pc.color), square_name<G>(Square(sq)), rank + 1);
    }
    p.put(pc, Square(sq));
  }
  for (Color c : {Color::White, Color::Black}) {
    int i = index(c);
    if (kings[i] == 0) add_problem(errors, FenError::NoKing, "no {} king", color_name(c));
    if (kings[i] > 1) add_problem(errors, FenError::ExtraKing, "{} {} kings", kings[i], color_name(c));
    if (pawns[i] > G::width)
      add_problem(errors, FenError::TooManyPawns, "{} has {} pawns (at most {})", color_name(c), pawns[i],
                  G::width);
    if (count[i] > 2 * G::width)
      add_problem(errors, FenError::TooManyPieces, "{} has {} pieces (at most {})", color_name(c), count[i],
                  2 * G::width);
  }
  p.side_ = s.side_to_move;
  if (p.side_ == Color::Black) p.hash_ ^= zobrist::kKeys.black_to_move;

  // Castling rights need the king and the rook on their start squares.
  for (Color c : {Color::White, Color::Black}) {
    for (bool kingside : {true, false}) {
      std::uint8_t right = castling_right(c, kingside);
      if (!(s.castling & right)) continue;
      Square king_sq = make_square<G>(kKingFile, c == Color::White ? 0 : G::height - 1);
      Square rook_sq = castling_rook_square(c, kingside);
      if (s.board[king_sq] != Piece{c, PieceType::King} || s.board[rook_sq] != Piece{c, PieceType::Rook}) {
        add_problem(errors, FenError::CastlingRight,
                    "castling right {} needs a {} king on {} and a rook on {}",
                    "KQkq"[2 * index(c) + (kingside ? 0 : 1)], color_name(c), square_name<G>(king_sq),
                    square_name<G>(rook_sq));
        continue;
      }
      p.castling_ |= right;
    }
  }
  p.hash_ ^= zobrist::kKeys.castling[p.castling_];

  if (s.en_passant != kNoSquare) {
    const Color us = s.side_to_move;
    const Square ep = s.en_passant;
    const int rank = relative_rank<G>(us, ep);
    const Square pushed = us == Color::White ? Square(ep - G::width) : Square(ep + G::width);
    const Square origin = us == Color::White ? Square(ep + G::width) : Square(ep - G::width);
    if (rank != G::height - 3 || s.board[pushed] != Piece{~us, PieceType::Pawn} || !s.board[ep].empty() ||
        !s.board[origin].empty()) {
      add_problem(errors, FenError::EnPassantSquare,
                  "en passant square {} does not follow a double pawn push", square_name<G>(ep));
    } else if (A::pawn(~us, ep) & p.pieces(us, PieceType::Pawn)) {
      p.ep_ = ep;  // kept only when a pawn can capture, as after a move
      p.hash_ ^= zobrist::kKeys.en_passant[file_of<G>(ep)];
    }
  }

  if (s.halfmove_clock < 0 || s.halfmove_clock > 65535)
    add_problem(errors, FenError::HalfmoveClock, "halfmove clock {} is out of range", s.halfmove_clock);
  // A fullmove number of 0 (puzzle collections write "1 0") is read as 1,
  // as pgn-extract and python-chess read it.
  const int fullmove = s.fullmove_number == 0 ? 1 : s.fullmove_number;
  if (fullmove < 1 || fullmove > 65535)
    add_problem(errors, FenError::FullmoveNumber, "fullmove number {} is out of range", s.fullmove_number);
  p.halfmove_ = std::uint16_t(s.halfmove_clock);
  p.fullmove_ = std::uint16_t(fullmove);

  if (kings[0] == 1 && kings[1] == 1) {
    const Color them = ~p.side_;
    BB checkers = p.attackers_to(p.king_square(them), p.occupied()) & p.pieces(p.side_);
    if (checkers)
      add_problem(errors, FenError::OpponentInCheck, "the side not to move ({}) is in check",
                  color_name(them));
  }
  if (errors.size() != errors_before) return std::nullopt;
  return p;
}

template <class G>
void Position<G>::enable_bishop_swap() {
  if (variant_ != Variant::Modern) return;
  swap_enabled_ = true;
  swap_used_ = 0;
  swap_unmoved_ = 0;
  // Pieces standing where the start array puts them count as unmoved.
  FenProblems ignored;
  const std::optional<Setup> start = parse_fen(info(variant_).start_fen, variant_, ignored);
  if (!start) return;
  for (int sq = 0; sq < G::squares; ++sq) {
    const Piece p = start->board[sq];
    const bool swappable = p.type == PieceType::Bishop || p.type == PieceType::Queen ||
                           p.type == PieceType::Minister || p.type == PieceType::Knight;
    if (swappable && piece_on(Square(sq)) == p) swap_unmoved_ |= square_bb<G>(Square(sq));
  }
}

template <class G>
Setup Position<G>::to_setup() const {
  Setup s;
  s.variant = variant_;
  for (int sq = 0; sq < G::squares; ++sq) s.board[sq] = piece_on(Square(sq));
  s.side_to_move = side_;
  s.castling = castling_;
  s.en_passant = ep_;
  s.halfmove_clock = halfmove_;
  s.fullmove_number = fullmove_;
  return s;
}

template class Position<Board8>;
template class Position<Board9>;

}  // namespace virrey
