#include "virrey/rules/movegen.hpp"

#include <array>
#include <utility>

namespace virrey {

namespace {

// The pieces that move by their attack sets alone (not pawns, not the king).
constexpr std::array<PieceType, 6> kAttackMovers = {PieceType::Knight,  PieceType::Bishop,
                                                    PieceType::Rook,    PieceType::Queen,
                                                    PieceType::Viceroy, PieceType::Minister};

template <class G>
struct Generator {
  using BB = Bitboard<G>;
  using A = Attacks<G>;

  const Position<G>& pos;
  MoveList& list;
  Color us, them;
  Square ksq;
  BB occ, ours, theirs, pinned = 0, check_mask = G::all;
  PieceType only = PieceType::None;  // generate moves of this piece type only
  BB wanted = G::all;                // and to these squares only

  Generator(const Position<G>& p, MoveList& l)
      : pos(p),
        list(l),
        us(p.side_to_move()),
        them(~us),
        ksq(p.king_square(us)),
        occ(p.occupied()),
        ours(p.pieces(us)),
        theirs(p.pieces(them)) {}

  void find_pins() {
    const BB diagonal =
        pos.pieces(PieceType::Bishop) | pos.pieces(PieceType::Queen) | pos.pieces(PieceType::Minister);
    const BB straight = pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);
    BB snipers = ((A::bishop(ksq, theirs) & diagonal) | (A::rook(ksq, theirs) & straight)) & theirs;
    while (snipers) {
      Square s = pop_lsb(snipers);
      BB between = A::between(ksq, s) & occ;
      if (between && !more_than_one(between) && (between & ours)) pinned |= between;
    }
  }

  void push(Move m) { list.push(m); }

  // One piece type at a time, so that its attack set is known when compiling.
  template <PieceType pt>
  void piece_moves() {
    if (!wants(pt)) return;
    BB from_set = pos.pieces(us, pt);
    while (from_set) {
      Square from = pop_lsb(from_set);
      BB targets = piece_attacks<G>(pt, us, from, occ) & ~ours & check_mask & wanted;
      if (pinned & square_bb<G>(from)) targets &= A::line(ksq, from);
      while (targets) push(Move(from, pop_lsb(targets)));
    }
  }

  void add_pawn_move(Square from, Square to) {
    if (relative_rank<G>(us, to) != G::height - 1) {
      push(Move(from, to));
      return;
    }
    PieceType fixed = pos.fixed_promotion(to);
    if (fixed != PieceType::None) {
      push(Move(from, to, MoveKind::Promotion, fixed));
      return;
    }
    for (PieceType pt : pos.promotion_choices()) push(Move(from, to, MoveKind::Promotion, pt));
  }

  // Adds moves for each target of a shifted set; delta = to - from.
  void add_pawn_set(BB targets, int delta) {
    targets &= wanted;
    while (targets) {
      Square to = pop_lsb(targets);
      add_pawn_move(Square(to - delta), to);
    }
  }

  void pawn_moves() {
    const BB pawns = pos.pieces(us, PieceType::Pawn);
    const BB empty = ~occ & G::all;
    const BB double_rank = G::rank_mask(us == Color::White ? 2 : G::height - 3);
    const int up = us == Color::White ? G::width : -G::width;

    // Unpinned pawns move as a set.
    const BB free = pawns & ~pinned;
    BB single = forward<G>(us, free) & empty;
    BB dbl = forward<G>(us, single & double_rank) & empty;
    BB left = forward<G>(us, west<G>(free)) & theirs;
    BB right = forward<G>(us, east<G>(free)) & theirs;
    add_pawn_set(single & check_mask, up);
    add_pawn_set(dbl & check_mask, 2 * up);
    add_pawn_set(left & check_mask, up - 1);
    add_pawn_set(right & check_mask, up + 1);

    // Pinned pawns may only move along the pin line.
    BB pinned_pawns = pawns & pinned;
    while (pinned_pawns) {
      Square from = pop_lsb(pinned_pawns);
      BB b = square_bb<G>(from);
      BB push = forward<G>(us, b) & empty;
      BB targets = push | (forward<G>(us, push & double_rank) & empty) | (A::pawn(us, from) & theirs);
      targets &= check_mask & A::line(ksq, from) & wanted;
      while (targets) add_pawn_move(from, pop_lsb(targets));
    }

    const Square ep = pos.en_passant();
    if (ep == kNoSquare) return;
    const Square captured = Square(ep - up);
    if (!(wanted & square_bb<G>(ep))) return;
    BB candidates = A::pawn(them, ep) & pawns;
    while (candidates) {
      Square from = pop_lsb(candidates);
      // Try it: the king must not be attacked once both pawns have moved.
      BB after = (occ ^ square_bb<G>(from) ^ square_bb<G>(captured)) | square_bb<G>(ep);
      BB attackers = pos.attackers_to(ksq, after) & theirs & ~square_bb<G>(captured);
      if (!attackers) push(Move(from, ep, MoveKind::EnPassant));
    }
  }

  void king_moves() {
    BB targets = A::king(ksq) & ~ours & wanted;
    const BB without_king = occ ^ square_bb<G>(ksq);
    while (targets) {
      Square to = pop_lsb(targets);
      if (!(pos.attackers_to(to, without_king) & theirs)) push(Move(ksq, to));
    }
  }

  void castling_moves() {
    for (bool kingside : {true, false}) {
      if (!(pos.castling() & Position<G>::castling_right(us, kingside))) continue;
      const Square rook = Position<G>::castling_rook_square(us, kingside);
      const Square target = Position<G>::castling_king_target(us, kingside);
      if (A::between(ksq, rook) & occ) continue;
      // The king's path: every square it crosses and its destination.
      BB path = A::between(ksq, target) | square_bb<G>(target);
      bool safe = true;
      while (path && safe) safe = !(pos.attackers_to(pop_lsb(path), occ) & theirs);
      if (safe && (wanted & square_bb<G>(target))) push(Move(ksq, target, MoveKind::Castling));
    }
  }

  // Modern chess bishop swaps: the board's occupancy does not change, so a
  // swap is legal exactly when the king is not in check.
  void bishop_swaps() {
    BB bishops = pos.pieces(us, PieceType::Bishop);
    while (bishops) {
      const Square b = pop_lsb(bishops);
      for (BB partners = pos.swap_partners(b) & wanted; partners;)
        push(Move(b, pop_lsb(partners), MoveKind::BishopSwap));
    }
  }

  bool wants(PieceType pt) const { return only == PieceType::None || only == pt; }

  void run() {
    const BB checkers = pos.attackers_to(ksq, occ) & theirs;
    if (wants(PieceType::King)) king_moves();
    if (more_than_one(checkers) || only == PieceType::King) {
      if (!checkers && only == PieceType::King && pos.castling()) castling_moves();
      return;
    }
    if (checkers) check_mask = A::between(ksq, lsb(checkers)) | checkers;
    find_pins();
    if (wants(PieceType::Pawn)) pawn_moves();
    [this]<std::size_t... I>(std::index_sequence<I...>) { (piece_moves<kAttackMovers[I]>(), ...); }
    (std::make_index_sequence<kAttackMovers.size()>());
    if (!checkers && only == PieceType::None && pos.castling()) castling_moves();
    if (!checkers && (only == PieceType::None || only == PieceType::Bishop) && pos.can_swap(us))
      bishop_swaps();
  }
};

}  // namespace

template <class G>
void generate_legal(const Position<G>& pos, MoveList& list) {
  Generator<G>(pos, list).run();
}

// Legal moves of one piece type to one square, found from the square
// backwards: the few candidate origins are each tested by asking whether the
// king would be attacked afterwards. En passant and castling, which move more
// than one piece, go through the full generator.
template <class G>
bool to_one_square(const Position<G>& pos, PieceType piece, Square to, MoveList& list) {
  using BB = Bitboard<G>;
  using A = Attacks<G>;
  const Color us = pos.side_to_move(), them = ~us;
  const BB to_bb = square_bb<G>(to);
  if (piece == PieceType::Bishop && pos.can_swap(us)) return false;
  if (pos.pieces(us) & to_bb) return true;
  if (to == pos.en_passant() && piece == PieceType::Pawn) return false;
  if (piece == PieceType::King && pos.castling()) return false;
  const BB occ = pos.occupied();
  const BB own = pos.pieces(us, piece);
  BB origins = 0;
  if (piece == PieceType::Pawn) {
    if (pos.pieces(them) & to_bb) {
      origins = A::pawn(them, to) & own;
    } else {
      const int up = us == Color::White ? G::width : -G::width;
      const Square back = Square(to - up);
      if (relative_rank<G>(us, to) >= 1 && (own & square_bb<G>(back))) {
        origins = square_bb<G>(back);
      } else if (relative_rank<G>(us, to) == 3 && !(occ & square_bb<G>(back)) &&
                 (own & square_bb<G>(Square(back - up)))) {
        origins = square_bb<G>(Square(back - up));
      }
    }
  } else {
    origins = piece_attacks<G>(piece, us, to, occ) & own;
  }
  const Square ksq = pos.king_square(us);
  const BB theirs_left = pos.pieces(them) & ~to_bb;
  while (origins) {
    const Square from = pop_lsb(origins);
    const BB after = (occ ^ square_bb<G>(from)) | to_bb;
    const Square king_after = piece == PieceType::King ? to : ksq;
    if (pos.attackers_to(king_after, after) & theirs_left) continue;
    if (piece != PieceType::Pawn || relative_rank<G>(us, to) != G::height - 1) {
      list.push(Move(from, to));
      continue;
    }
    const PieceType fixed = pos.fixed_promotion(to);
    if (fixed != PieceType::None) {
      list.push(Move(from, to, MoveKind::Promotion, fixed));
      continue;
    }
    for (PieceType pt : pos.promotion_choices()) list.push(Move(from, to, MoveKind::Promotion, pt));
  }
  return true;
}

template <class G>
void generate_legal_to(const Position<G>& pos, PieceType piece, Bitboard<G> targets, MoveList& list) {
  if (piece != PieceType::None && targets && !more_than_one(targets) &&
      to_one_square(pos, piece, lsb(targets), list))
    return;
  Generator<G> gen(pos, list);
  gen.only = piece;
  gen.wanted = targets;
  gen.run();
}

template void generate_legal<Board8>(const Position<Board8>&, MoveList&);
template void generate_legal_to<Board8>(const Position<Board8>&, PieceType, std::uint64_t, MoveList&);
template void generate_legal<Board9>(const Position<Board9>&, MoveList&);
template void generate_legal_to<Board9>(const Position<Board9>&, PieceType, u128, MoveList&);

}  // namespace virrey
