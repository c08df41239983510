#include "virrey/rules/move_numbers.hpp"

#include <algorithm>
#include <array>
#include <span>

namespace virrey {

namespace {

// The pieces other than pawns.
constexpr std::array<PieceType, 7> kPieces = {PieceType::Knight,  PieceType::Bishop, PieceType::Rook,
                                              PieceType::Queen,   PieceType::King,   PieceType::Viceroy,
                                              PieceType::Minister};

template <class G>
struct Numbering {
  using BB = Bitboard<G>;
  using A = Attacks<G>;

  const Position<G>& pos;
  Color us, them;
  BB occ, ours, theirs, capturable, last_rank, double_step_rank;
  std::span<const PieceType> choosable;  // promotion choices (empty: fixed by the variant)
  int choices;                           // moves per promoting destination

  explicit Numbering(const Position<G>& p)
      : pos(p),
        us(p.side_to_move()),
        them(~us),
        occ(p.occupied()),
        ours(p.pieces(us)),
        theirs(p.pieces(them)),
        capturable(theirs | (p.en_passant() == kNoSquare ? BB(0) : square_bb<G>(p.en_passant()))),
        last_rank(G::rank_mask(us == Color::White ? G::height - 1 : 0)),
        double_step_rank(G::rank_mask(us == Color::White ? 2 : G::height - 3)),
        choosable(p.fixed_promotion(make_square<G>(0, us == Color::White ? G::height - 1 : 0)) !=
                          PieceType::None
                      ? std::span<const PieceType>()
                      : p.promotion_choices()),
        choices(choosable.empty() ? 1 : int(choosable.size())) {}

  // Moves to a set of destinations, promotions counted once per choice.
  int count(BB targets, bool pawn) const {
    int n = popcount(targets);
    if (pawn && choices > 1) n += (choices - 1) * popcount(targets & last_rank);
    return n;
  }

  BB castling_targets() const {
    BB targets = 0;
    if (!pos.castling()) return targets;
    const Square ksq = pos.king_square(us);
    for (bool kingside : {true, false})
      if ((pos.castling() & Position<G>::castling_right(us, kingside)) &&
          !(A::between(ksq, Position<G>::castling_rook_square(us, kingside)) & occ))
        targets |= square_bb<G>(Position<G>::castling_king_target(us, kingside));
    return targets;
  }

  // The destinations of the mover's piece of type PT on `from`.
  template <PieceType PT>
  BB targets_of(Square from) const {
    if constexpr (PT == PieceType::Pawn) {
      const BB push = forward<G>(us, square_bb<G>(from)) & ~occ;
      return push | (forward<G>(us, push & double_step_rank) & ~occ) | (A::pawn(us, from) & capturable);
    } else if constexpr (PT == PieceType::Bishop) {
      const BB t = A::bishop(from, occ) & ~ours;
      return pos.can_swap(us) ? t | pos.swap_partners(from) : t;
    } else if constexpr (PT == PieceType::King) {
      return (A::king(from) & ~ours) | castling_targets();
    } else {
      return piece_attacks<G>(PT, us, from, occ) & ~ours;
    }
  }

  BB targets(Square from, PieceType pt) const {
    switch (pt) {
      case PieceType::Pawn: return targets_of<PieceType::Pawn>(from);
      case PieceType::Knight: return targets_of<PieceType::Knight>(from);
      case PieceType::Bishop: return targets_of<PieceType::Bishop>(from);
      case PieceType::Rook: return targets_of<PieceType::Rook>(from);
      case PieceType::Queen: return targets_of<PieceType::Queen>(from);
      case PieceType::King: return targets_of<PieceType::King>(from);
      case PieceType::Viceroy: return targets_of<PieceType::Viceroy>(from);
      case PieceType::Minister: return targets_of<PieceType::Minister>(from);
      default: return 0;
    }
  }

  // The moves of the mover's pieces of type PT on the squares of `below`.
  template <PieceType PT>
  int count_type(BB below) const {
    int n = 0;
    for (BB b = pos.pieces(us, PT) & below; b;) n += popcount(targets_of<PT>(pop_lsb(b)));
    return n;
  }

  // The moves of the pieces on the squares of `below` (one of the mover's).
  int count_below(BB below) const {
    const BB pawns = pos.pieces(us, PieceType::Pawn) & below;
    const BB single = forward<G>(us, pawns) & ~occ;
    return count(single, true) + count(forward<G>(us, single & double_step_rank) & ~occ, true) +
           count(forward<G>(us, west<G>(pawns)) & capturable, true) +
           count(forward<G>(us, east<G>(pawns)) & capturable, true) + count_type<PieceType::Knight>(below) +
           count_type<PieceType::Bishop>(below) + count_type<PieceType::Rook>(below) +
           count_type<PieceType::Queen>(below) + count_type<PieceType::King>(below) +
           count_type<PieceType::Viceroy>(below) + count_type<PieceType::Minister>(below);
  }

  // Which promotion choice m is: 0 unless the player chooses; `choices`
  // when m promotes to a piece that is not among them.
  int choice_of(Move m) const {
    if (m.kind() != MoveKind::Promotion || choosable.empty()) return 0;
    int choice = 0;
    while (choice < choices && choosable[std::size_t(choice)] != m.promotion()) ++choice;
    return choice;
  }

  // The number of the move of the piece on `from` (with these destinations)
  // to `to`: the moves of the pieces on earlier squares, then its own to
  // earlier destinations, then the earlier promotion choices.
  int number(Square from, BB targets, bool pawn, Square to, int choice) const {
    return count_below(square_bb<G>(from) - 1) + count(targets & (square_bb<G>(to) - 1), pawn) + choice;
  }

  // The move of a piece to a destination (`choice`: which promotion).
  Move move_to(Square from, PieceType pt, Square to, int choice) const {
    const BB to_bb = square_bb<G>(to);
    if (pt == PieceType::Pawn) {
      if (to == pos.en_passant()) return Move(from, to, MoveKind::EnPassant);
      if (to_bb & last_rank) {
        const PieceType fixed = pos.fixed_promotion(to);
        return Move(from, to, MoveKind::Promotion,
                    fixed != PieceType::None ? fixed : choosable[std::size_t(choice)]);
      }
    }
    if (pt == PieceType::King && (to_bb & ~A::king(from))) return Move(from, to, MoveKind::Castling);
    if (pt == PieceType::Bishop && (to_bb & ours)) return Move(from, to, MoveKind::BishopSwap);
    return Move(from, to);
  }

  // Whether a move of the list leaves the mover's king safe.
  bool king_safe(Move m) const {
    const Square from = m.from(), to = m.to();
    const BB from_bb = square_bb<G>(from), to_bb = square_bb<G>(to);
    const Square ksq = pos.king_square(us);
    switch (m.kind()) {
      case MoveKind::BishopSwap: return !(pos.attackers_to(ksq, occ) & theirs);
      case MoveKind::Castling: {
        if (pos.attackers_to(ksq, occ) & theirs) return false;
        for (BB path = A::between(ksq, to) | to_bb; path;)
          if (pos.attackers_to(pop_lsb(path), occ) & theirs) return false;
        return true;
      }
      case MoveKind::EnPassant: {
        const Square captured = Square(us == Color::White ? to - G::width : to + G::width);
        const BB after = (occ ^ from_bb ^ square_bb<G>(captured)) | to_bb;
        return !(pos.attackers_to(ksq, after) & theirs & ~square_bb<G>(captured));
      }
      default: break;
    }
    const BB after = (occ ^ from_bb) | to_bb;
    return !(pos.attackers_to(from == ksq ? to : ksq, after) & theirs & ~to_bb);
  }
};

}  // namespace

template <class G>
int move_number(const Position<G>& pos, Move m) {
  const Square from = m.from(), to = m.to();
  if (from >= G::squares || to >= G::squares) return -1;
  const Piece mover = pos.piece_on(from);
  if (mover.empty() || mover.color != pos.side_to_move()) return -1;
  const Numbering<G> n(pos);
  const Bitboard<G> targets = n.targets(from, mover.type);
  const Bitboard<G> to_bb = square_bb<G>(to);
  if (!(targets & to_bb)) return -1;
  const int choice = n.choice_of(m);
  if (choice == n.choices) return -1;
  if (n.move_to(from, mover.type, to, choice) != m || !n.king_safe(m)) return -1;
  return n.number(from, targets, mover.type == PieceType::Pawn, to, choice);
}

template <class G>
int legal_move_number(const Position<G>& pos, Move m) {
  const PieceType mover = pos.piece_on(m.from()).type;
  const Numbering<G> n(pos);
  return n.number(m.from(), n.targets(m.from(), mover), mover == PieceType::Pawn, m.to(), n.choice_of(m));
}

template <class G>
Move move_with_number(const Position<G>& pos, int number) {
  if (number < 0) return Move{};
  const Numbering<G> n(pos);
  for (Bitboard<G> pieces = n.ours; pieces;) {
    const Square from = pop_lsb(pieces);
    const PieceType pt = pos.piece_on(from).type;
    const bool pawn = pt == PieceType::Pawn;
    Bitboard<G> targets = n.targets(from, pt);
    const int here = n.count(targets, pawn);
    if (number >= here) {
      number -= here;
      continue;
    }
    while (targets) {
      const Square to = pop_lsb(targets);
      const int moves = n.count(square_bb<G>(to), pawn);
      if (number >= moves) {
        number -= moves;
        continue;
      }
      const Move m = n.move_to(from, pt, to, number);
      return n.king_safe(m) ? m : Move{};
    }
  }
  return Move{};
}

template <class G>
bool move_numbers_wide(const Position<G>& pos) {
  const Color us = pos.side_to_move();
  const Bitboard<G> pawns = pos.pieces(us, PieceType::Pawn);
  const Bitboard<G> before_last = us == Color::White ? G::rank_mask(G::height - 2) : G::rank_mask(1);
  // First a bound from the number of pieces alone: a pawn has at most four
  // destinations (three when promoting), a king ten (castling included), a
  // bishop with the swap two more, and the other pieces their widest reach
  // on an empty board.
  static const std::array<int, kPieces.size()> widest = [] {
    constexpr Square centre = make_square<G>(G::width / 2, G::height / 2);
    std::array<int, kPieces.size()> w{};
    for (std::size_t i = 0; i < kPieces.size(); ++i) {
      w[i] = popcount(piece_attacks<G>(kPieces[i], Color::White, centre, Bitboard<G>(0)));
      if (kPieces[i] == PieceType::King) w[i] += 2;
      if (kPieces[i] == PieceType::Bishop) w[i] += 2;
    }
    return w;
  }();
  const int choices = std::max<int>(1, int(pos.promotion_choices().size()));  // at most
  // The coarsest bound first, in two counts: every pawn as wide as a
  // promoting one or a pawn at home, every other piece as the widest piece.
  static const int widest_of_all = *std::max_element(widest.begin(), widest.end());
  const Bitboard<G> others = pos.pieces(us) & ~pawns;
  if (std::max(4, 3 * choices) * popcount(pawns) + widest_of_all * popcount(others) <= 256) return false;
  int bound = 4 * popcount(pawns & ~before_last) + 3 * choices * popcount(pawns & before_last);
  for (std::size_t i = 0; i < kPieces.size(); ++i) bound += widest[i] * popcount(pos.pieces(us, kPieces[i]));
  if (bound <= 256) return false;
  return Numbering<G>(pos).count_below(G::all) > 256;
}

template int move_number<Board8>(const Position<Board8>&, Move);
template int move_number<Board9>(const Position<Board9>&, Move);
template int legal_move_number<Board8>(const Position<Board8>&, Move);
template int legal_move_number<Board9>(const Position<Board9>&, Move);
template Move move_with_number<Board8>(const Position<Board8>&, int);
template Move move_with_number<Board9>(const Position<Board9>&, int);
template bool move_numbers_wide<Board8>(const Position<Board8>&);
template bool move_numbers_wide<Board9>(const Position<Board9>&);

}  // namespace virrey
