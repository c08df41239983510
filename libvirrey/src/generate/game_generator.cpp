#include "virrey/generate/game_generator.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>

#include "random.hpp"
#include "tournament.hpp"
#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/outcome.hpp"
#include "virrey/rules/san.hpp"

namespace virrey::generate {

namespace {

// Centipawns, for captures, hanging pieces and the material balance.
constexpr std::array<int, kPieceTypeCount> kValue = {0, 100, 300, 315, 500, 900, 0, 320, 650};

// Tables by a pawn's rank counted as on an 8-rank board: the last rank is 7
// on every board, and the ranks behind rank 0 of a taller board count as 0.
template <class G>
std::size_t pawn_rank(Color c, Square s) {
  return std::size_t(std::max(0, relative_rank<G>(c, s) + 8 - G::height));
}

// Bonus for a pawn arriving on a rank, and extra when it is passed.
constexpr std::array<int, 8> kPushBonus = {0, 0, 15, 25, 45, 90, 160, 0};
constexpr std::array<int, 8> kPassedBonus = {0, 0, 30, 60, 120, 200, 350, 0};
constexpr int kTradeBonus = 60;         // for any capture: trades lead to endgames, where pawns run
constexpr int kEndgameMaterial = 1000;  // opponent's pieces (not pawns) worth this or less
constexpr int kPromotionBonus = 350;    // on top of the material gained
// What an advanced pawn is worth beyond its material, when it can be taken.
constexpr std::array<int, 8> kAdvancedPawn = {0, 0, 0, 10, 40, 120, 600, 0};
constexpr int kCheckExposure = 25;  // per check the opponent could give next
constexpr int kMateScore = 1'000'000;

// Squares in front of a pawn on its own and the adjacent files: no enemy
// pawn there means the pawn is passed.
template <class G>
struct PassedMasks {
  using BB = Bitboard<G>;
  std::array<std::array<BB, G::squares>, 2> mask{};
  constexpr PassedMasks() {
    for (int s = 0; s < G::squares; ++s) {
      const int f = s % G::width, r = s / G::width;
      for (int df = -1; df <= 1; ++df) {
        if (f + df < 0 || f + df >= G::width) continue;
        for (int rr = r + 1; rr < G::height; ++rr) mask[0][s] |= BB(1) << (rr * G::width + f + df);
        for (int rr = r - 1; rr >= 0; --rr) mask[1][s] |= BB(1) << (rr * G::width + f + df);
      }
    }
  }
};
template <class G>
constexpr PassedMasks<G> kPassed;

template <class G, class BB = Bitboard<G>>
BB pawn_attacks(Color c, BB pawns) {
  const BB ahead = forward<G>(c, pawns);
  return east<G>(ahead) | west<G>(ahead);
}

// Every square a side attacks (pieces it defends included).
template <class G, class BB = Bitboard<G>, class A = Attacks<G>>
BB attack_map(const Position<G>& pos, Color c) {
  const BB occ = pos.occupied();
  const BB minister = pos.pieces(c, PieceType::Minister);
  BB att = pawn_attacks<G>(c, pos.pieces(c, PieceType::Pawn)) | A::king(pos.king_square(c));
  for (BB b = pos.pieces(c, PieceType::Knight) | minister; b;) att |= A::knight(pop_lsb(b));
  for (BB b = pos.pieces(c, PieceType::Viceroy); b;) att |= A::king(pop_lsb(b));
  for (BB b = pos.pieces(c, PieceType::Bishop) | pos.pieces(c, PieceType::Queen) | minister; b;)
    att |= A::bishop(pop_lsb(b), occ);
  for (BB b = pos.pieces(c, PieceType::Rook) | pos.pieces(c, PieceType::Queen); b;)
    att |= A::rook(pop_lsb(b), occ);
  return att;
}

// Squares from which a piece of each type, of the side that is not c,
// attacks the king of c (occupancy as it stands).
template <class G, class BB = Bitboard<G>, class A = Attacks<G>>
std::array<BB, kPieceTypeCount> check_squares(const Position<G>& pos, Color c) {
  const Square king = pos.king_square(c);
  const BB occ = pos.occupied();
  std::array<BB, kPieceTypeCount> squares{};
  squares[index(PieceType::Pawn)] = A::pawn(c, king);
  squares[index(PieceType::Knight)] = A::knight(king);
  squares[index(PieceType::Bishop)] = A::bishop(king, occ);
  squares[index(PieceType::Rook)] = A::rook(king, occ);
  squares[index(PieceType::Queen)] = squares[index(PieceType::Bishop)] | squares[index(PieceType::Rook)];
  squares[index(PieceType::Viceroy)] = A::king(king);
  squares[index(PieceType::Minister)] = squares[index(PieceType::Bishop)] | squares[index(PieceType::Knight)];
  return squares;
}

// Whether a move of a piece landing as `lands` from `from` to `to` attacks
// the king on `king` directly. A slider moving away along the line to the
// king was its own blocker: that case is looked at with the new occupancy.
template <class G, class BB = Bitboard<G>, class A = Attacks<G>>
bool gives_direct_check(const std::array<BB, kPieceTypeCount>& checks, PieceType lands, Color mover,
                        Square from, Square to, Square king, BB occ_after) {
  if (checks[index(lands)] & square_bb<G>(to)) return true;
  return lands != PieceType::Knight && lands != PieceType::Pawn && lands != PieceType::King &&
         (A::line(king, to) & square_bb<G>(from)) &&
         (piece_attacks<G>(lands, mover, to, occ_after) & square_bb<G>(king));
}

template <class G>
int material(const Position<G>& pos, Color c) {
  int sum = 0;
  for (int pt = index(PieceType::Pawn); pt < kPieceTypeCount; ++pt)
    sum += kValue[std::size_t(pt)] * popcount(pos.pieces(c, PieceType(pt)));
  return sum;
}

// How a player of a rating picks moves: the noise added to every move's
// score, and how often a move is played without looking at the replies.
// Black plays a little worse: White's first-move edge.
struct Style {
  int noise;
  std::uint32_t blunder_per_mille;
};
Style style_for(int elo, Color side) {
  const int weakness = std::clamp(2800 - elo, 0, 1200) + (side == Color::Black ? 60 : 0);
  return Style{20 + weakness / 2, std::uint32_t(weakness / 15)};
}

// The piece a promoting pawn becomes this move, where the mover chooses:
// mostly a queen, in Modern chess often a minister.
PieceType chosen_promotion(Variant v, std::uint32_t per_cent) {
  if (v == Variant::Modern)
    return per_cent < 60   ? PieceType::Queen
           : per_cent < 88 ? PieceType::Minister
           : per_cent < 94 ? PieceType::Knight
           : per_cent < 98 ? PieceType::Rook
                           : PieceType::Bishop;
  return per_cent < 88   ? PieceType::Queen
         : per_cent < 94 ? PieceType::Knight
         : per_cent < 98 ? PieceType::Rook
                         : PieceType::Bishop;
}

// Scores the legal moves of one position and picks the best after noise.
template <class G>
class MoveChooser {
  using BB = Bitboard<G>;
  using Pos = Position<G>;

 public:
  MoveChooser(const Pos& pos, int ply, Random& rng) : pos_(pos), ply_(ply), rng_(rng) {
    us_ = pos.side_to_move();
    them_ = ~us_;
    occ_ = pos.occupied();
    ours_ = pos.pieces(us_);
    their_attacks_ = attack_map(pos, them_);
    their_pawn_attacks_ = pawn_attacks<G>(them_, pos.pieces(them_, PieceType::Pawn));
    checking_ = check_squares(pos, them_);
    heavy_ = pos.pieces(PieceType::Queen) != 0;
    endgame_ = material(pos, them_) -
                   kValue[index(PieceType::Pawn)] * popcount(pos.pieces(them_, PieceType::Pawn)) <=
               kEndgameMaterial;
    promote_to_ = chosen_promotion(pos.variant(), rng_.below(100));
  }

  // Scores every move cheaply (with noise), then looks one reply deep at
  // the best candidates in turn: the opponent's best capture, the checks it
  // gets and any mate in one it allows are subtracted. As that (nearly)
  // only lowers a score, candidates whose cheap score cannot beat the best
  // verified one are not looked at. A blunder skips the verification.
  Move choose(const MoveList& legal, const Style& style) {
    struct Candidate {
      int score;
      Move move;
    };
    std::array<Candidate, MoveList::kCapacity> candidates;
    // Each move's noise is a hash of the move and one draw for the ply, so
    // games do not depend on the order the move generator lists moves in.
    const std::uint64_t ply_key = rng_.next();
    std::size_t n = 0;
    Move mate{};
    for (Move m : legal) {
      const int s = score(m);
      if (s >= kMateScore && (mate.is_null() || m.raw() < mate.raw())) mate = m;
      std::uint64_t state = ply_key ^ m.raw();
      const auto noise = std::uint32_t(((splitmix64(state) >> 32) * std::uint64_t(style.noise)) >> 32);
      candidates[n++] = {s + int(noise), m};
    }
    if (!mate.is_null()) return mate;
    // Candidates best first, by selection (a few are looked at, rarely all),
    // in a total order: ties are broken by the move.
    auto better = [](const Candidate& a, const Candidate& b) {
      return a.score != b.score ? a.score > b.score : a.move.raw() < b.move.raw();
    };
    auto select = [&](std::size_t i) {
      std::size_t top = i;
      for (std::size_t j = i + 1; j < n; ++j)
        if (better(candidates[j], candidates[top])) top = j;
      std::swap(candidates[i], candidates[top]);
    };
    select(0);
    if (rng_.chance(style.blunder_per_mille)) return candidates[0].move;
    Move best = candidates[0].move;
    int best_score = std::numeric_limits<int>::min();
    for (std::size_t i = 0; i < n; ++i) {
      if (i > 0) select(i);
      if (candidates[i].score <= best_score) break;
      const int s = candidates[i].score - reply_threat(candidates[i].move);
      if (s > best_score) {
        best_score = s;
        best = candidates[i].move;
      }
    }
    return best;
  }

 private:
  bool defended_by_us(Square s, BB occ) const { return (pos_.attackers_to(s, occ) & ours_) != 0; }

  int score(Move m) const {
    const Square from = m.from(), to = m.to();
    const BB from_bb = square_bb<G>(from), to_bb = square_bb<G>(to);
    const PieceType mover = pos_.piece_on(from).type;
    if (m.kind() == MoveKind::Castling) return 90;
    if (m.kind() == MoveKind::BishopSwap) return 0;  // a quiet move, now and then

    PieceType victim = pos_.piece_on(to).type;
    if (m.kind() == MoveKind::EnPassant) victim = PieceType::Pawn;
    const bool promotion = m.kind() == MoveKind::Promotion;
    const PieceType lands = promotion ? m.promotion() : mover;
    if (promotion && info(pos_.variant()).promotion_rule == PromotionRule::Choice && lands != promote_to_)
      return -kMateScore;

    int s = kValue[index(victim)];
    if (victim != PieceType::None) s += kTradeBonus;
    if (promotion) s += kValue[index(lands)] - kValue[index(PieceType::Pawn)] + kPromotionBonus;

    // The piece on its new square: lost if attacked and undefended, or
    // worth less than an attacking pawn (attackers are assumed minor pieces).
    const BB occ_after = (occ_ ^ from_bb) | to_bb;
    int risk = 0;
    if (mover != PieceType::King && (their_attacks_ & to_bb)) {
      const int value = kValue[index(lands)];
      if (!defended_by_us(to, occ_after))
        risk = value;
      else if (their_pawn_attacks_ & to_bb)
        risk = std::max(0, value - kValue[index(PieceType::Pawn)]);
      else
        risk = std::max(0, value - kValue[index(PieceType::Knight)]);
      s -= risk;
    }
    // Rescuing a piece that stands attacked and undefended (or attacked by a pawn).
    if (mover != PieceType::King && mover != PieceType::Pawn && (their_attacks_ & from_bb) && risk == 0 &&
        ((their_pawn_attacks_ & from_bb) || !defended_by_us(from, occ_)))
      s += kValue[index(mover)] * 3 / 4;

    switch (mover) {
      case PieceType::Pawn: {
        const std::size_t rank = pawn_rank<G>(us_, to);
        int push = kPushBonus[rank];
        if (!(kPassed<G>.mask[index(us_)][to] & pos_.pieces(them_, PieceType::Pawn)))
          push += kPassedBonus[rank];
        s += endgame_ ? 2 * push : push;
        break;
      }
      case PieceType::Knight:
      case PieceType::Bishop:
      case PieceType::Minister:
        if (ply_ < 24 && relative_rank<G>(us_, from) == 0) s += 30;
        break;
      case PieceType::Queen:
        if (ply_ < 14) s -= 25;
        break;
      case PieceType::King: s += heavy_ ? -35 : 10; break;
      default: break;
    }

    // A direct check: a small bonus, and a mate in one is always seen.
    if (gives_direct_check<G>(checking_, lands, us_, from, to, pos_.king_square(them_), occ_after)) {
      s += 10;
      const Pos next = pos_.after(m);
      MoveList replies;
      generate_legal(next, replies);
      if (replies.empty()) return kMateScore;
    }
    return s;
  }

  // What the opponent's best reply to m costs us: the most it can win by a
  // capture (less what we take back at once), or everything if it mates.
  // Stalemating the opponent is bad when ahead, welcome when behind.
  int reply_threat(Move m) const {
    const Pos next = pos_.after(m);
    MoveList replies;
    generate_legal(next, replies);
    if (replies.empty()) {
      const int balance = material(next, us_) - material(next, them_);
      return balance > 0 ? 2000 : -500;
    }
    const BB occ = next.occupied(), ours = next.pieces(us_);
    const Square king = next.king_square(us_);
    const auto checking = check_squares(next, us_);
    int worst = 0, checks = 0;
    for (Move r : replies) {
      const Square from = r.from(), to = r.to();
      const BB to_bb = square_bb<G>(to);
      const PieceType mover = next.piece_on(from).type;
      const bool promotion = r.kind() == MoveKind::Promotion;
      const PieceType lands = promotion ? r.promotion() : mover;
      const BB occ_after = (occ ^ square_bb<G>(from)) | to_bb;
      if (r.kind() == MoveKind::BishopSwap) continue;
      const bool gives_check = gives_direct_check<G>(checking, lands, them_, from, to, king, occ_after);
      if (r.kind() != MoveKind::Castling && gives_check) {
        ++checks;
        const Pos mated = next.after(r);
        MoveList escapes;
        generate_legal(mated, escapes);
        if (escapes.empty()) return kMateScore / 2;
      }
      PieceType victim = next.piece_on(to).type;
      if (r.kind() == MoveKind::EnPassant) victim = PieceType::Pawn;
      if (victim == PieceType::None && !promotion) continue;
      int gain = kValue[index(victim)];
      if (victim == PieceType::Pawn && r.kind() != MoveKind::EnPassant)
        gain += kAdvancedPawn[pawn_rank<G>(us_, to)];
      if (promotion) gain += kValue[index(lands)] - kValue[index(PieceType::Pawn)];
      if (next.attackers_to(to, occ_after) & ours & ~to_bb) gain -= kValue[index(lands)];
      worst = std::max(worst, gain);
    }
    return worst + kCheckExposure * checks;
  }

  const Pos& pos_;
  int ply_;
  Random& rng_;
  Color us_, them_;
  BB occ_, ours_, their_attacks_, their_pawn_attacks_;
  std::array<BB, kPieceTypeCount> checking_;  // squares that check their king
  bool heavy_;
  bool endgame_;  // the opponent has few pieces left: pawns run
  PieceType promote_to_;
};

// Game `number` of the collection, played on the variant's board geometry.
template <class G>
GeneratedGame play_game(const GeneratorOptions& o, std::vector<std::uint64_t>& history,
                        std::uint64_t number) {
  using Pos = Position<G>;
  const Pairing pairing = tournament_pairing(o.variant, o.seed, number);
  Random rng(mix_words({o.seed, std::uint64_t(o.variant), 0x47414d45ULL, number}));

  GeneratedGame out;
  game::GameRecord& rec = out.record;
  rec.variant = o.variant;

  FenProblems errors;
  Pos pos = *position_from_fen<G>(info(o.variant).start_fen, o.variant, errors);
  // Modern chess: half of the games are played with the bishop swap.
  const bool bishop_swap = o.variant == Variant::Modern && (mix_words({o.seed, 0x53574150ULL, number}) & 1);
  if (bishop_swap) pos.enable_bishop_swap();
  history.clear();
  history.push_back(pos.hash());

  const std::array<Style, 2> styles = {style_for(pairing.white.elo, Color::White),
                                       style_for(pairing.black.elo, Color::Black)};
  // The ply by which the game is adjudicated if nothing else ends it.
  const int earliest = std::min(o.min_plies + 40, o.max_plies);
  const int last_ply = rng.range(earliest, std::max(earliest, o.max_plies - 8));
  rec.main_line.reserve(std::size_t(last_ply));
  rec.movetext.reserve(std::size_t(last_ply));

  MoveList legal;
  generate_legal(pos, legal);
  GameResult result = GameResult::Draw;
  int ply = 0;
  bool last_was_capture = false;
  for (;;) {
    if (legal.empty()) {
      if (pos.in_check()) {
        out.ending = Ending::Checkmate;
        result = pos.side_to_move() == Color::White ? GameResult::BlackWins : GameResult::WhiteWins;
      } else {
        out.ending = Ending::Stalemate;
        result = GameResult::Draw;
      }
      break;
    }
    if (ply > 0) {
      if (insufficient_material(pos)) {
        out.ending = Ending::InsufficientMaterial;
        break;
      }
      if (fifty_move_rule(pos)) {
        out.ending = Ending::FiftyMoveRule;
        break;
      }
      if (repetitions(history, pos.halfmove_clock()) >= 3) {
        out.ending = Ending::Repetition;
        break;
      }
      // Resignations and agreed draws, judged by the material balance, and
      // only after a quiet move (not halfway through an exchange). A game
      // reaching last_ply is decided by the next quiet move, or at max_plies.
      const bool quiet = !last_was_capture || ply >= o.max_plies;
      if (ply >= o.min_plies && quiet) {
        const int balance = material(pos, Color::White) - material(pos, Color::Black);
        const int deficit = std::abs(balance);
        const bool pawnless = pos.pieces(PieceType::Pawn) == 0;
        std::uint32_t resign = deficit >= 1500 ? 150 : deficit >= 900 ? 60 : deficit >= 500 ? 15 : 0;
        std::uint32_t agree = deficit <= 150 ? (pawnless ? 60 : 10) : 0;
        if (ply >= last_ply) {
          if (deficit >= 250)
            resign = 1000;
          else
            agree = 1000;
        }
        if (resign && rng.chance(resign)) {
          out.ending = Ending::Resignation;  // by the side behind, whoever is to move
          result = balance > 0 ? GameResult::WhiteWins : GameResult::BlackWins;
          break;
        }
        if (agree && rng.chance(agree)) {
          out.ending = Ending::DrawAgreed;
          break;
        }
      }
    }

    MoveChooser<G> chooser(pos, ply, rng);
    const Move m = chooser.choose(legal, styles[std::size_t(index(pos.side_to_move()))]);
    last_was_capture = m.kind() == MoveKind::EnPassant ||
                       (m.kind() != MoveKind::BishopSwap && !pos.piece_on(m.to()).empty());
    ++ply;
    rec.main_line.push_back(m);
    rec.movetext.push_back(
        game::MovetextItem{game::ItemKind::Move, 0, std::uint32_t(ply), m, write_san(pos, m, legal)});
    pos.play(m);
    history.push_back(pos.hash());
    legal.clear();
    generate_legal(pos, legal);
  }
  rec.result = result;

  auto tag = [&rec](std::string name, std::string value) {
    rec.tags.push_back({std::move(name), std::move(value)});
  };
  tag("Event", pairing.event);
  tag("Site", pairing.site);
  tag("Date", pairing.date);
  tag("Round", pairing.round);
  tag("White", pairing.white.name);
  tag("Black", pairing.black.name);
  tag("Result", std::string(result_text(result)));
  tag("WhiteElo", std::to_string(pairing.white.elo));
  tag("BlackElo", std::to_string(pairing.black.elo));
  tag("EventDate", pairing.event_date);
  if (o.variant != Variant::Standard) tag("Variant", std::string(info(o.variant).name));
  if (bishop_swap) tag("BishopSwap", "Yes");
  tag("PlyCount", std::to_string(ply));
  return out;
}

}  // namespace

std::string_view ending_name(Ending e) {
  switch (e) {
    case Ending::Checkmate: return "checkmate";
    case Ending::Stalemate: return "stalemate";
    case Ending::InsufficientMaterial: return "insufficient-material";
    case Ending::FiftyMoveRule: return "fifty-move-rule";
    case Ending::Repetition: return "repetition";
    case Ending::Resignation: return "resignation";
    case Ending::DrawAgreed: return "draw-agreed";
  }
  return "?";
}

GameGenerator::GameGenerator(GeneratorOptions options) : options_(options) {
  options_.min_plies = std::max(options_.min_plies, 1);
  options_.max_plies = std::max(options_.max_plies, options_.min_plies);
  history_.reserve(std::size_t(options_.max_plies) + 1);
}

GeneratedGame GameGenerator::game(std::uint64_t number) {
  return with_geometry(options_.variant,
                       [&]<class G>(G) { return play_game<G>(options_, history_, number); });
}

}  // namespace virrey::generate
