#include "virrey/rules/san.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "virrey/base/quoted_text.hpp"

namespace virrey {

namespace {

bool is_file(char c) { return c >= 'a' && c <= 'i'; }
bool is_rank(char c) { return c >= '1' && c <= '9'; }
bool is_piece_letter(char c) {
  return c != 'P' && piece_type_from_letter(c) != PieceType::None && c >= 'A' && c <= 'Z';
}

const char* piece_word(PieceType pt) {
  constexpr const char* names[] = {"piece", "pawn", "knight",  "bishop",  "rook",
                                   "queen", "king", "viceroy", "minister"};
  return names[index(pt)];
}

std::optional<SanSyntax::Kind> castling_kind(std::string_view t) {
  using K = SanSyntax::Kind;
  if (t == "O-O" || t == "0-0") return K::CastleKingside;
  if (t == "O-O-O" || t == "0-0-0") return K::CastleQueenside;
  if (t == "O-M-O" || t == "0-M-0") return K::CastleMinisterWing;
  if (t == "O-Q-O" || t == "0-Q-0") return K::CastleQueenWing;
  return std::nullopt;
}

// Takes a final '+' or '#' off t into san.suffix, and the '+' signs before it
// (old files write mate as "++").
[[gnu::always_inline]] inline void take_check_suffix(std::string_view& t, SanSyntax& san) {
  if (!t.empty() && (t.back() == '+' || t.back() == '#')) {
    san.suffix = t.back();
    t.remove_suffix(1);
    while (!t.empty() && t.back() == '+') t.remove_suffix(1);
  }
}

// Reads, right to left, what every piece and pawn move ends with: the
// destination square (t[end - 2], t[end - 1], already checked), a capture or
// '-' mark, the origin rank and file; stops at `i`. Returns where the part it
// read begins (`i` when the whole token between was read).
[[gnu::always_inline]] inline std::size_t read_square_and_origin(std::string_view t, std::size_t i,
                                                                 std::size_t end, SanSyntax& san) {
  san.to_file = t[end - 2] - 'a';
  san.to_rank = t[end - 1] - '1';
  end -= 2;
  if (end > i && (t[end - 1] == 'x' || t[end - 1] == ':')) {
    san.capture = true;
    --end;
  } else if (end > i && t[end - 1] == '-') {
    --end;
  }
  if (end > i && is_rank(t[end - 1])) san.from_rank = t[--end] - '1';
  if (end > i && is_file(t[end - 1])) san.from_file = t[--end] - 'a';
  return end;
}

}  // namespace

std::optional<SanSyntax> parse_san(std::string_view t, SanProblem& problem) {
  const std::string_view original = t;
  SanSyntax san;
  while (!t.empty() && (t.back() == '!' || t.back() == '?')) t.remove_suffix(1);
  if (t.size() > 4 && t.substr(t.size() - 4) == "e.p.") t.remove_suffix(4);
  take_check_suffix(t, san);
  // Null moves, castling and bishop swaps start with '-', 'Z', '0', 'O' or
  // "B=": other tokens need not be compared with them.
  const char first = t.empty() ? '\0' : t[0];
  if ((first == '-' || first == 'Z' || first == '0') && (t == "--" || t == "Z0" || t == "0000")) {
    san.kind = SanSyntax::Kind::Null;
    return san;
  }
  if (first == 'O' || first == '0') {
    if (auto k = castling_kind(t)) {
      san.kind = *k;
      return san;
    }
  }
  if (first == 'B' && (t == "B=Q" || t == "B=M" || t == "B=QN" || t == "B=MN")) {
    san.kind = SanSyntax::Kind::BishopSwap;
    san.piece = PieceType::Bishop;
    const PieceType named = t[2] == 'Q' ? PieceType::Queen : PieceType::Minister;
    if (t.size() == 4) {
      san.swap_with = PieceType::Knight;
      san.knight_wing = named;
    } else {
      san.swap_with = named;
    }
    return san;
  }
  if (t.empty()) {
    problem = {SanError::NotAMove, fmt::format("'{}' is not a move", quoted_text(original))};
    return std::nullopt;
  }
  std::size_t i = 0, end = t.size();
  if (is_piece_letter(t[0]) || t[0] == 'P') {
    san.piece = piece_type_from_letter(t[0]);
    ++i;
  }
  // Promotion: "=Q", "Q", or lower case after a rank digit ("e8q").
  if (end > i + 2) {
    char last = t[end - 1];
    bool upper = is_piece_letter(last);
    const bool after_square = is_rank(t[end - 2]) || (t[end - 2] == '=' && end > i + 3 && is_rank(t[end - 3]));
    bool lower = last >= 'a' && last <= 'z' && last != 'x' && after_square &&
                 piece_type_from_letter(last) != PieceType::None && last != 'p' && last != 'k';
    if (upper || lower) {
      san.promotion = piece_type_from_letter(last);
      --end;
      if (t[end - 1] == '=') {
        san.promotion_has_equals = true;
        --end;
      }
    }
  }
  if (end < i + 2 || !is_file(t[end - 2]) || !is_rank(t[end - 1])) {
    // "e8/Q", "e8(Q)": a promotion in another notation than SAN's.
    const std::size_t mark = t.find_first_of("/(");
    const bool promotion_like = mark != std::string_view::npos && mark >= 2 && is_file(t[mark - 2]) &&
                                is_rank(t[mark - 1]);
    // The last square in the token, when text SAN has no place for follows
    // it ("e5f6ep", "Qxf7#+", "a8=P").
    std::size_t square = std::string_view::npos;
    for (std::size_t k = 0; k + 1 < original.size(); ++k)
      if (is_file(original[k]) && is_rank(original[k + 1])) square = k;
    std::string why;
    if (promotion_like)
      why = fmt::format("a promotion is written {}={}", t.substr(mark - 2, 2),
                        mark + 1 < t.size() ? t.substr(mark + 1, 1) : "Q");
    else if (t == "1/2" || t == "\xc2\xbd")
      why = "a draw is written 1/2-1/2";
    else if (square != std::string_view::npos && square + 2 < original.size())
      why = fmt::format("'{}' after the square {}", quoted_text(original.substr(square + 2)),
                        original.substr(square, 2));
    else
      why = "no destination square";
    problem = {SanError::NoDestination, fmt::format("'{}' is not a move: {}", quoted_text(original), why)};
    return std::nullopt;
  }
  end = read_square_and_origin(t, i, end, san);
  if (end != i) {
    problem = {SanError::UnexpectedText,
               fmt::format("'{}' is not a move: unexpected '{}'", quoted_text(original),
                           quoted_text(t.substr(i, end - i)))};
    return std::nullopt;
  }
  if (san.promotion != PieceType::None && san.piece != PieceType::Pawn) {
    problem = {SanError::PromotionByPiece,
               fmt::format("'{}': only a pawn can promote", quoted_text(original))};
    return std::nullopt;
  }
  if (san.promotion == PieceType::Pawn || san.promotion == PieceType::King) {
    problem = {SanError::PromotionPiece, fmt::format("'{}': a pawn cannot promote to a {}",
                                                     quoted_text(original), piece_word(san.promotion))};
    return std::nullopt;
  }
  return san;
}

namespace {

template <class G>
std::string describe_illegal(const Position<G>& pos, const SanSyntax& san, Square to) {
  using BB = Bitboard<G>;
  using A = Attacks<G>;
  const Color us = pos.side_to_move();
  const char* side = us == Color::White ? "white" : "black";
  const std::string dest = square_name<G>(to);
  BB candidates = pos.pieces(us, san.piece);
  if (san.from_file >= 0) candidates &= G::file_mask(san.from_file);
  if (san.from_rank >= 0) candidates &= G::rank_mask(san.from_rank);
  if (!candidates)
    return fmt::format("{} has no {} that could move to {}", side, piece_word(san.piece), dest);
  if (pos.pieces(us) & square_bb<G>(to)) return fmt::format("{} is occupied by a {} piece", dest, side);
  // Which candidates reach the square on an empty-of-rules board?
  BB reaching = 0;
  BB tmp = candidates;
  while (tmp) {
    Square from = pop_lsb(tmp);
    BB reach = 0;
    const BB occ = pos.occupied();
    switch (san.piece) {
      case PieceType::Pawn: {
        BB push = forward<G>(us, square_bb<G>(from)) & ~occ;
        reach =
            push |
            (A::pawn(us, from) &
             (pos.pieces(~us) | (pos.en_passant() != kNoSquare ? square_bb<G>(pos.en_passant()) : BB(0))));
        if (relative_rank<G>(us, from) == 1) reach |= forward<G>(us, push) & ~occ;
        break;
      }
      case PieceType::Knight: reach = A::knight(from); break;
      case PieceType::Bishop: reach = A::bishop(from, occ); break;
      case PieceType::Rook: reach = A::rook(from, occ); break;
      case PieceType::Queen: reach = A::queen(from, occ); break;
      case PieceType::King:
      case PieceType::Viceroy: reach = A::king(from); break;
      case PieceType::Minister: reach = A::bishop(from, occ) | A::knight(from); break;
      default: break;
    }
    if (reach & square_bb<G>(to)) reaching |= square_bb<G>(from);
  }
  if (!reaching) return fmt::format("no {} {} can reach {}", side, piece_word(san.piece), dest);
  const Square from = lsb(reaching);
  if (san.piece == PieceType::King) return fmt::format("the king would be in check on {}", dest);
  if (pos.in_check())
    return fmt::format("the {} king is in check and {} does not parry it", side,
                       piece_word(san.piece) + std::string(" to ") + dest);
  return fmt::format("the {} on {} is pinned", piece_word(san.piece), square_name<G>(from));
}

// The usual SAN move answered without a move list: a piece or a pawn going
// to an empty or enemy square, no promotion and no en passant. The few
// origins are found backwards from the destination and each is kept when the
// own king is not attacked afterwards. True with the move when exactly one
// legal move matches; false leaves every other case (errors included) to the
// full resolution, which gives the same answer for the cases taken here.
template <class G>
[[gnu::always_inline]] inline bool resolve_simple(const Position<G>& pos, const SanSyntax& san, Square to,
                                                  Move& out) {
  using BB = Bitboard<G>;
  using A = Attacks<G>;
  const Color us = pos.side_to_move(), them = ~us;
  const PieceType piece = san.piece;
  const BB to_bb = square_bb<G>(to);
  if (san.promotion != PieceType::None || (pos.pieces(us) & to_bb)) return false;
  const BB occ = pos.occupied();
  const BB own = pos.pieces(us, piece);
  BB origins = 0;
  switch (piece) {
    case PieceType::Pawn: {
      if (to == pos.en_passant() || relative_rank<G>(us, to) == G::height - 1) return false;
      if (pos.pieces(them) & to_bb) {
        origins = A::pawn(them, to) & own;
      } else {
        // One step back, then two from the fourth rank over an empty square.
        const BB behind = forward<G>(them, to_bb);
        if (own & behind)
          origins = behind;
        else if (relative_rank<G>(us, to) == 3 && !(occ & behind))
          origins = forward<G>(them, behind) & own;
      }
      break;
    }
    case PieceType::Knight: origins = A::knight(to) & own; break;
    case PieceType::Bishop: origins = A::bishop(to, occ) & own; break;
    case PieceType::Rook: origins = A::rook(to, occ) & own; break;
    case PieceType::Queen: origins = A::queen(to, occ) & own; break;
    case PieceType::King:
    case PieceType::Viceroy: origins = A::king(to) & own; break;
    case PieceType::Minister: origins = (A::bishop(to, occ) | A::knight(to)) & own; break;
    default: return false;
  }
  if (san.from_file >= 0) origins &= G::file_mask(san.from_file);
  if (san.from_rank >= 0) origins &= G::rank_mask(san.from_rank);
  const Square ksq = pos.king_square(us);
  const BB theirs_left = pos.pieces(them) & ~to_bb;
  int matches = 0;
  Square found = kNoSquare;
  while (origins) {
    const Square from = pop_lsb(origins);
    const BB after = (occ ^ square_bb<G>(from)) | to_bb;
    const Square king_after = piece == PieceType::King ? to : ksq;
    if (pos.attackers_to(king_after, after) & theirs_left) continue;
    if (++matches > 1) return false;
    found = from;
  }
  if (matches != 1) return false;
  out = Move(found, to);
  return true;
}

// Modern chess: whose wing a knight stands on. The array is rotated, so the
// minister's wing is the a-side for White and the i-side for Black.
template <class G>
PieceType knight_wing(Color us, Square knight) {
  const bool a_side = file_of<G>(knight) < G::width / 2;
  return (a_side == (us == Color::White)) ? PieceType::Minister : PieceType::Queen;
}

// Reads a token of the plain form [piece][file][rank][x|:|-]square[+|#|++..]
// as parse_san would, or returns false for any other token (parse_san then
// decides, with its errors).
[[gnu::always_inline]] inline bool parse_plain_san(std::string_view t, SanSyntax& san) {
  take_check_suffix(t, san);
  std::size_t end = t.size();
  if (end < 2 || !is_rank(t[end - 1]) || !is_file(t[end - 2])) return false;
  std::size_t i = 0;
  if (t[0] >= 'A' && t[0] <= 'Z') {
    const PieceType pt = piece_type_from_letter(t[0]);
    if (pt == PieceType::None) return false;
    san.piece = pt;
    i = 1;
  }
  if (end < i + 2) return false;
  return read_square_and_origin(t, i, end, san) == i;
}

}  // namespace

template <class G>
bool read_plain_san(const Position<G>& pos, std::string_view text, Move& move, char& suffix) {
  SanSyntax san;
  if (!parse_plain_san(text, san)) return false;
  if (san.to_file >= G::width || san.to_rank >= G::height || san.from_file >= G::width ||
      san.from_rank >= G::height)
    return false;
  if (!resolve_simple(pos, san, make_square<G>(san.to_file, san.to_rank), move)) return false;
  suffix = san.suffix;
  return true;
}

template <class G>
SanResolution resolve_san(const Position<G>& pos, const SanSyntax& san) {
  SanResolution r;
  const Color us = pos.side_to_move();
  using K = SanSyntax::Kind;

  if (san.kind == K::Null) {
    r.error = SanError::NullMove;
    r.message = "a null move is not a legal move";
    return r;
  }
  if (san.kind == K::BishopSwap) {
    MoveList legal;
    generate_legal_to(pos, PieceType::Bishop, G::all, legal);
    for (Move m : legal) {
      if (m.kind() != MoveKind::BishopSwap) continue;
      const PieceType partner = pos.piece_on(m.to()).type;
      if (partner != san.swap_with) continue;
      if (partner == PieceType::Knight && knight_wing<G>(us, m.to()) != san.knight_wing) continue;
      r.move = m;
      return r;
    }
    r.error = SanError::Illegal;
    r.message = pos.can_swap(us) || pos.variant() != Variant::Modern
                    ? "no such bishop swap is possible here (the pieces moved, or the king is in check)"
                    : "bishop swaps need [BishopSwap \"Yes\"] and may be played once per player";
    return r;
  }
  if (san.kind != K::Move) {
    bool kingside = san.kind == K::CastleKingside;
    if (san.kind == K::CastleMinisterWing || san.kind == K::CastleQueenWing) {
      if (pos.variant() != Variant::Modern) {
        r.error = SanError::Illegal;
        r.message = "O-M-O and O-Q-O exist only in Modern chess";
        return r;
      }
      // The array is rotated: the minister's wing is the a-side for White.
      bool minister = san.kind == K::CastleMinisterWing;
      kingside = (us == Color::White) ? !minister : minister;
    }
    const Square target = Position<G>::castling_king_target(us, kingside);
    MoveList legal;
    generate_legal_to(pos, PieceType::King, square_bb<G>(target), legal);
    for (Move m : legal)
      if (m.kind() == MoveKind::Castling && m.to() == target) {
        r.move = m;
        return r;
      }
    r.error = SanError::Illegal;
    if (!(pos.castling() & Position<G>::castling_right(us, kingside)))
      r.message = "castling is not allowed: the king or that rook has moved";
    else if (pos.in_check())
      r.message = "castling is not allowed: the king is in check";
    else
      r.message = "castling is not allowed: the path is blocked or attacked";
    return r;
  }

  if (san.to_file >= G::width || san.to_rank >= G::height) {
    r.error = SanError::Illegal;
    r.message = "the destination square is off the board";
    return r;
  }
  if (san.from_file >= G::width || san.from_rank >= G::height) {
    r.error = SanError::Illegal;
    r.message = "the origin square is off the board";
    return r;
  }
  const Square to = make_square<G>(san.to_file, san.to_rank);
  if (resolve_simple(pos, san, to, r.move)) return r;
  // Coordinate notation ("g1f3", as engines write moves): an origin square
  // and no piece letter, where a piece other than a pawn stands. Read as
  // that piece's move ("e1g1" by the king: castling, Modern chess's too,
  // where the two-square step names the rook's file as O-O and O-O-O do).
  if (san.piece == PieceType::Pawn && san.from_file >= 0 && san.from_rank >= 0) {
    const Square from = make_square<G>(san.from_file, san.from_rank);
    const Piece there = pos.piece_on(from);
    if (!there.empty() && there.color == us && there.type != PieceType::Pawn) {
      SanSyntax as_piece = san;
      as_piece.piece = there.type;
      if (there.type == PieceType::King && std::abs(san.to_file - san.from_file) == 2 &&
          san.to_rank == san.from_rank) {
        as_piece.kind = san.to_file > san.from_file ? K::CastleKingside : K::CastleQueenside;
        return resolve_san(pos, as_piece);
      }
      SanResolution as_move = resolve_san(pos, as_piece);
      if (as_move.error == SanError::None) return as_move;
    }
  }
  MoveList legal;
  generate_legal_to(pos, san.piece, square_bb<G>(to), legal);
  Move found{};
  int matches = 0;
  bool promotion_square = false;
  for (Move m : legal) {
    if (m.to() != to || m.kind() == MoveKind::Castling || m.kind() == MoveKind::BishopSwap) continue;
    if (pos.piece_on(m.from()).type != san.piece) continue;
    if (san.from_file >= 0 && file_of<G>(m.from()) != san.from_file) continue;
    if (san.from_rank >= 0 && rank_of<G>(m.from()) != san.from_rank) continue;
    if (m.kind() == MoveKind::Promotion) {
      promotion_square = true;
      if (san.promotion == PieceType::None) {
        if (pos.fixed_promotion(to) == PieceType::None) continue;
        r.implied_promotion = true;
      } else if (m.promotion() != san.promotion) {
        continue;
      }
    } else if (san.promotion != PieceType::None) {
      r.error = SanError::Illegal;
      r.message = fmt::format("a pawn does not promote on {}", square_name<G>(to));
      return r;
    }
    ++matches;
    found = m;
  }
  if (matches == 1) {
    r.move = found;
    return r;
  }
  r.implied_promotion = false;
  if (matches > 1) {
    std::string froms;
    for (Move m : legal) {
      if (pos.piece_on(m.from()).type != san.piece) continue;
      if (san.from_file >= 0 && file_of<G>(m.from()) != san.from_file) continue;
      if (san.from_rank >= 0 && rank_of<G>(m.from()) != san.from_rank) continue;
      if (m.kind() == MoveKind::Promotion && san.promotion != PieceType::None &&
          m.promotion() != san.promotion)
        continue;
      if (froms.find(square_name<G>(m.from())) != std::string::npos) continue;
      if (!froms.empty()) froms += ", ";
      froms += square_name<G>(m.from());
    }
    r.error = SanError::Ambiguous;
    r.message = fmt::format("{} {}s can move to {} (from {})", matches, piece_word(san.piece),
                            square_name<G>(to), froms);
    return r;
  }
  if (promotion_square) {
    r.error = SanError::WrongPromotion;
    const PieceType fixed = pos.fixed_promotion(to);
    if (fixed != PieceType::None)
      r.message = fmt::format("in {} chess a pawn reaching {} becomes a {} ({}={}), not a {}",
                              info(pos.variant()).name, square_name<G>(to), piece_word(fixed),
                              square_name<G>(to), piece_letter(fixed), piece_word(san.promotion));
    else if (san.promotion == PieceType::None)
      r.message = fmt::format("a pawn reaching {} must promote: name the piece ({}=Q)", square_name<G>(to),
                              square_name<G>(to));
    else
      r.message = fmt::format("a pawn cannot promote to a {} in {} chess", piece_word(san.promotion),
                              info(pos.variant()).name);
    return r;
  }
  r.error = SanError::Illegal;
  r.message = describe_illegal(pos, san, to);
  return r;
}

template <class G>
Disambiguation needed_disambiguation(const Position<G>& pos, Move move, const MoveList& legal) {
  const PieceType pt = pos.piece_on(move.from()).type;
  bool shared = false, same_file = false, same_rank = false;
  for (Move m : legal) {
    if (m == move || m.to() != move.to() || m.kind() == MoveKind::Castling ||
        m.kind() == MoveKind::BishopSwap)
      continue;
    if (m.from() == move.from() || pos.piece_on(m.from()).type != pt) continue;
    shared = true;
    same_file |= file_of<G>(m.from()) == file_of<G>(move.from());
    same_rank |= rank_of<G>(m.from()) == rank_of<G>(move.from());
  }
  if (!shared) return Disambiguation::None;
  if (!same_file) return Disambiguation::File;
  if (!same_rank) return Disambiguation::Rank;
  return Disambiguation::Square;
}

template <class G>
std::string write_san(const Position<G>& pos, Move move, const MoveList& legal) {
  const Color us = pos.side_to_move();
  std::string out;
  if (move.kind() == MoveKind::BishopSwap) {
    const PieceType partner = pos.piece_on(move.to()).type;
    out = partner == PieceType::Queen                         ? "B=Q"
          : partner == PieceType::Minister                    ? "B=M"
          : knight_wing<G>(us, move.to()) == PieceType::Queen ? "B=QN"
                                                              : "B=MN";
  } else if (move.kind() == MoveKind::Castling) {
    const bool kingside = move.to() > move.from();
    if (pos.variant() == Variant::Modern) {
      const bool minister_wing = (us == Color::White) ? !kingside : kingside;
      out = minister_wing ? "O-M-O" : "O-Q-O";
    } else {
      out = kingside ? "O-O" : "O-O-O";
    }
  } else {
    const PieceType pt = pos.piece_on(move.from()).type;
    const bool capture = !pos.piece_on(move.to()).empty() || move.kind() == MoveKind::EnPassant;
    if (pt == PieceType::Pawn) {
      if (capture) {
        out += char('a' + file_of<G>(move.from()));
        out += 'x';
      }
      out += square_name<G>(move.to());
      if (move.kind() == MoveKind::Promotion) {
        out += '=';
        out += piece_letter(move.promotion());
      }
    } else {
      out += piece_letter(pt);
      switch (needed_disambiguation(pos, move, legal)) {
        case Disambiguation::None: break;
        case Disambiguation::File: out += char('a' + file_of<G>(move.from())); break;
        case Disambiguation::Rank: out += std::to_string(rank_of<G>(move.from()) + 1); break;
        case Disambiguation::Square: out += square_name<G>(move.from()); break;
      }
      if (capture) out += 'x';
      out += square_name<G>(move.to());
    }
  }
  const Position<G> after = pos.after(move);
  if (after.in_check()) out += legal_moves(after).empty() ? '#' : '+';
  return out;
}

template <class G>
std::string write_san(const Position<G>& pos, Move move) {
  MoveList rivals;  // only moves of the same piece type to the same square matter
  generate_legal_to(pos, pos.piece_on(move.from()).type, square_bb<G>(move.to()), rivals);
  return write_san(pos, move, rivals);
}

template bool read_plain_san<Board8>(const Position<Board8>&, std::string_view, Move&, char&);
template bool read_plain_san<Board9>(const Position<Board9>&, std::string_view, Move&, char&);
template Disambiguation needed_disambiguation<Board8>(const Position<Board8>&, Move, const MoveList&);
template Disambiguation needed_disambiguation<Board9>(const Position<Board9>&, Move, const MoveList&);
template SanResolution resolve_san<Board8>(const Position<Board8>&, const SanSyntax&);
template std::string write_san<Board8>(const Position<Board8>&, Move);
template std::string write_san<Board8>(const Position<Board8>&, Move, const MoveList&);
template SanResolution resolve_san<Board9>(const Position<Board9>&, const SanSyntax&);
template std::string write_san<Board9>(const Position<Board9>&, Move);
template std::string write_san<Board9>(const Position<Board9>&, Move, const MoveList&);

}  // namespace virrey
