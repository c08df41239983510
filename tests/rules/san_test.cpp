#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/san.hpp"
#include "virrey/rules/uci.hpp"

namespace virrey {
namespace {

using ::testing::HasSubstr;

Position<Board8> pos_of(std::string_view fen, Variant v = Variant::Standard) {
  FenProblems errors;
  auto pos = position_from_fen<Board8>(fen, v, errors);
  if (!pos) throw std::runtime_error(std::string(fen) + ": " + join_reasons(errors));
  return *pos;
}

SanResolution resolve(const Position<Board8>& pos, std::string_view text) {
  SanProblem error;
  auto san = parse_san(text, error);
  EXPECT_TRUE(san) << text << ": " << error.message;
  return san ? resolve_san(pos, *san) : SanResolution{};
}

// Every legal move, written in SAN and read back, is the same move; walks the
// tree to the given depth.
template <class G>
void round_trip(const Position<G>& pos, int depth, int& checked) {
  const MoveList legal = legal_moves(pos);
  for (Move m : legal) {
    const std::string text = write_san(pos, m, legal);
    SanProblem error;
    auto san = parse_san(text, error);
    ASSERT_TRUE(san) << text << ": " << error.message;
    SanResolution r = resolve_san(pos, *san);
    ASSERT_EQ(r.error, SanError::None) << write_fen(pos) << " " << text << ": " << r.message;
    ASSERT_EQ(r.move, m) << write_fen(pos) << " " << text;
    ASSERT_FALSE(r.implied_promotion);
    ASSERT_EQ(parse_uci(pos, write_uci<G>(m)), m);
    ++checked;
    if (depth > 1) round_trip(pos.after(m), depth - 1, checked);
  }
}

// Calls visit(position) with the position of every case of the perft data
// files (tests/data/perft), on its own board; returns how many there were.
template <class Visit>
int for_each_perft_position(Visit&& visit) {
  const std::filesystem::path dir = std::filesystem::path(VIRREY_TEST_DATA) / "perft";
  int positions = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".perft") continue;
    std::ifstream in(entry.path());
    std::string line, variant = "standard";
    while (std::getline(in, line)) {
      if (line.rfind("variant ", 0) == 0) variant = line.substr(8);
      if (line.rfind("fen ", 0) != 0) continue;
      const Variant v = *resolve_variant(variant);
      with_geometry(v, [&](auto geometry) {
        using G = decltype(geometry);
        FenProblems errors;
        auto pos = position_from_fen<G>(line.substr(4), v, errors);
        ASSERT_TRUE(pos) << line << ": " << join_reasons(errors);
        visit(*pos);
      });
      ++positions;
    }
  }
  return positions;
}

TEST(San, RoundTripEveryMoveOfEveryPerftPositionToDepthTwo) {
  int checked = 0;
  const int positions = for_each_perft_position([&](const auto& pos) { round_trip(pos, 2, checked); });
  EXPECT_GE(positions, 40);
  EXPECT_GT(checked, 10000);
}

// The legal moves a SAN move token names, counted from the full move list:
// what resolve_san and read_plain_san must agree with.
template <class G>
std::vector<Move> named_moves(const Position<G>& pos, PieceType piece, Square to, int from_file,
                              int from_rank) {
  std::vector<Move> named;
  for (Move m : legal_moves(pos)) {
    if (m.to() != to || m.kind() == MoveKind::Castling || m.kind() == MoveKind::BishopSwap) continue;
    if (pos.piece_on(m.from()).type != piece) continue;
    if (from_file >= 0 && file_of<G>(m.from()) != from_file) continue;
    if (from_rank >= 0 && rank_of<G>(m.from()) != from_rank) continue;
    named.push_back(m);
  }
  return named;
}

// Every token [piece][file][rank]square of a position, read both ways and
// compared with the move list: a single non-promotion move is found, no move
// is illegal, several are ambiguous, and read_plain_san takes only tokens
// that resolve without error.
template <class G>
void check_plain_tokens(const Position<G>& pos, int& checked) {
  constexpr PieceType kPieces[] = {PieceType::Pawn,    PieceType::Knight,  PieceType::Bishop,
                                   PieceType::Rook,    PieceType::Queen,   PieceType::King,
                                   PieceType::Viceroy, PieceType::Minister};
  for (PieceType piece : kPieces) {
    for (int sq = 0; sq < G::squares; ++sq) {
      const Square to = Square(sq);
      for (int form = 0; form < 4; ++form) {
        const int from_file = form == 1 || form == 3 ? (sq * 7 + form) % G::width : -1;
        const int from_rank = form == 2 || form == 3 ? (sq * 5 + form) % G::height : -1;
        std::string text;
        if (piece != PieceType::Pawn) text += piece_letter(piece);
        if (from_file >= 0) text += char('a' + from_file);
        if (from_rank >= 0) text += char('1' + from_rank);
        text += square_name<G>(to);
        SanProblem error;
        const auto san = parse_san(text, error);
        ASSERT_TRUE(san) << text << ": " << error.message;
        const SanResolution r = resolve_san(pos, *san);
        // A square and no piece letter where an own piece stands: coordinate
        // notation, that piece's move (or the pawn's error when it has none).
        if (piece == PieceType::Pawn && form == 3) {
          const Piece there = pos.piece_on(make_square<G>(from_file, from_rank));
          if (!there.empty() && there.color == pos.side_to_move() && there.type != PieceType::Pawn) {
            const std::vector<Move> by_piece = named_moves(pos, there.type, to, from_file, from_rank);
            const bool castling_like =
                there.type == PieceType::King && std::abs(int(file_of<G>(to)) - from_file) == 2;
            if (by_piece.size() == 1 && by_piece[0].kind() != MoveKind::Promotion) {
              ASSERT_EQ(r.error, SanError::None) << write_fen(pos) << " " << text << ": " << r.message;
              ASSERT_EQ(r.move, by_piece[0]) << write_fen(pos) << " " << text;
            } else if (!castling_like) {
              ASSERT_EQ(r.error, SanError::Illegal) << write_fen(pos) << " " << text;
            }
            Move plain{};
            char mark = 0;
            ASSERT_FALSE(read_plain_san(pos, text, plain, mark)) << text;
            ++checked;
            continue;
          }
        }
        const std::vector<Move> named = named_moves(pos, piece, to, from_file, from_rank);
        const bool promotion = !named.empty() && named[0].kind() == MoveKind::Promotion;
        if (named.size() == 1 && !promotion) {
          ASSERT_EQ(r.error, SanError::None) << write_fen(pos) << " " << text << ": " << r.message;
          ASSERT_EQ(r.move, named[0]) << write_fen(pos) << " " << text;
        } else if (named.empty()) {
          ASSERT_EQ(r.error, SanError::Illegal) << write_fen(pos) << " " << text;
        } else if (!promotion) {
          ASSERT_EQ(r.error, SanError::Ambiguous) << write_fen(pos) << " " << text;
        }
        for (const char* suffix : {"", "+", "#"}) {
          Move plain{};
          char mark = 'x';
          const bool read = read_plain_san(pos, text + suffix, plain, mark);
          if (read) {
            ASSERT_EQ(r.error, SanError::None) << write_fen(pos) << " " << text;
            ASSERT_FALSE(r.implied_promotion);
            ASSERT_EQ(plain, r.move) << write_fen(pos) << " " << text;
            ASSERT_EQ(mark, suffix[0]) << text << suffix;
          } else {
            // Only promotions and en passant are left to the full resolution.
            ASSERT_TRUE(r.error != SanError::None || r.move.kind() != MoveKind::Normal)
                << write_fen(pos) << " " << text;
          }
        }
        ++checked;
      }
    }
  }
}

TEST(San, PlainTokensAgreeWithTheMoveList) {
  int checked = 0;
  const int positions = for_each_perft_position([&](const auto& pos) {
    check_plain_tokens(pos, checked);
    const MoveList legal = legal_moves(pos);
    for (std::size_t i = 0; i < legal.size(); i += 7) check_plain_tokens(pos.after(legal[i]), checked);
  });
  EXPECT_GE(positions, 40);
  EXPECT_GT(checked, 100000);
}

TEST(San, PlainTokensWithPinsChecksAndPromotions) {
  Move m{};
  char mark = 0;
  // Two knights reach d2: ambiguous, left to resolve_san.
  auto two = pos_of("4k3/8/8/8/8/5N2/8/1N5K w - - 0 1");
  EXPECT_FALSE(read_plain_san(two, "Nd2", m, mark));
  EXPECT_EQ(resolve(two, "Nd2").error, SanError::Ambiguous);
  // The same with the f3 knight pinned by a bishop: only Nbd2 is legal.
  auto pinned = pos_of("4k3/8/8/3b4/8/5N2/8/1N5K w - - 0 1");
  ASSERT_TRUE(read_plain_san(pinned, "Nd2", m, mark));
  EXPECT_EQ(m, *parse_uci(pinned, "b1d2"));
  EXPECT_EQ(mark, 0);
  EXPECT_EQ(resolve(pinned, "Nd2").move, m);
  // In check: only the move that blocks is read.
  auto check = pos_of("4k3/8/8/8/8/8/3N4/r3K3 w - - 0 1");
  EXPECT_FALSE(read_plain_san(check, "Nf3", m, mark));
  EXPECT_EQ(resolve(check, "Nf3").error, SanError::Illegal);
  ASSERT_TRUE(read_plain_san(check, "Nb1+", m, mark));
  EXPECT_EQ(m, *parse_uci(check, "d2b1"));
  EXPECT_EQ(mark, '+');
  // En passant that would uncover a rook's check on the king: illegal, and
  // never read as a plain move.
  auto ep = pos_of("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
  EXPECT_FALSE(read_plain_san(ep, "exd6", m, mark));
  EXPECT_EQ(resolve(ep, "exd6").error, SanError::Illegal);
  auto ep_ok = pos_of("8/8/8/3pP3/8/8/8/K6k w - d6 0 1");
  EXPECT_FALSE(read_plain_san(ep_ok, "exd6", m, mark));
  EXPECT_EQ(resolve(ep_ok, "exd6").move.kind(), MoveKind::EnPassant);
  // Promotions in Virrey chess, written every way, go to resolve_san.
  auto virrey = pos_of("2r1q3/1P1P1P1k/8/8/8/8/8/K7 w - - 0 1", Variant::Virrey);
  for (const char* text : {"dxe8=V", "dxe8V", "dxe8", "dxe8=Q", "d8", "d8=Q"})
    EXPECT_FALSE(read_plain_san(virrey, text, m, mark)) << text;
  // A king may take an unprotected piece but not a protected one.
  auto king = pos_of("4k3/8/8/7b/8/8/3pp3/4K3 w - - 0 1");
  EXPECT_FALSE(read_plain_san(king, "Kxe2", m, mark));
  EXPECT_EQ(resolve(king, "Kxe2").error, SanError::Illegal);
  ASSERT_TRUE(read_plain_san(king, "Kxd2", m, mark));
  EXPECT_EQ(m, *parse_uci(king, "e1d2"));
  // Tokens that are not plain moves.
  for (const char* text : {"O-O", "0-0", "--", "Z0", "0000", "Nf3!", "e4e.p.", "Xe4", "e9", "i4"})
    EXPECT_FALSE(read_plain_san(pos_of("4k3/8/8/8/8/8/4P3/4K1NR w K - 0 1"), text, m, mark)) << text;
}

// Coordinate notation (an engine's "g1f3"): an origin square and no piece
// letter where a piece stands reads as that piece's move, the UCI move
// parse_uci reads independently; "e1g1" by the king is castling. A pawn's
// "e2e4" stays a pawn move; a piece that cannot go there is still illegal.
TEST(San, CoordinateMovesWithoutAPieceLetter) {
  const auto start = pos_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(resolve(start, "g1f3").move, *parse_uci(start, "g1f3"));
  EXPECT_EQ(resolve(start, "e2e4").move, *parse_uci(start, "e2e4"));
  EXPECT_EQ(resolve(start, "g1e2").error, SanError::Illegal);  // the e2 pawn is there
  EXPECT_EQ(resolve(start, "c1e3").error, SanError::Illegal);  // blocked
  const auto castle = pos_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  const SanResolution short_castle = resolve(castle, "e1g1");
  EXPECT_EQ(short_castle.move.kind(), MoveKind::Castling);
  EXPECT_EQ(short_castle.move, *parse_uci(castle, "e1g1"));
  EXPECT_EQ(resolve(castle, "e1c1").move, *parse_uci(castle, "e1c1"));
  EXPECT_EQ(resolve(castle, "e1f1").move, *parse_uci(castle, "e1f1"));
  EXPECT_EQ(resolve(castle, "a1a8").move, *parse_uci(castle, "a1a8"));
  // Black's knight from its own square; White's pieces are not Black's.
  const auto black = pos_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  EXPECT_EQ(resolve(black, "b8c6").move, *parse_uci(black, "b8c6"));
  EXPECT_EQ(resolve(black, "g1f3").error, SanError::Illegal);
}

TEST(San, PlainTokensOnTheModernBoard) {
  FenProblems errors;
  auto pos = position_from_fen<Board9>(info(Variant::Modern).start_fen, Variant::Modern, errors);
  ASSERT_TRUE(pos);
  Move m{};
  char mark = 0;
  ASSERT_TRUE(read_plain_san(*pos, "e4", m, mark));
  EXPECT_EQ(m, *parse_uci(*pos, "e2e4"));
  ASSERT_TRUE(read_plain_san(*pos, "i3", m, mark));
  EXPECT_EQ(m, *parse_uci(*pos, "i2i3"));
  ASSERT_TRUE(read_plain_san(*pos, "Mc3", m, mark));  // the minister jumps like a knight
  EXPECT_EQ(m, *parse_uci(*pos, "d1c3"));
  EXPECT_FALSE(read_plain_san(*pos, "e9", m, mark));
}

TEST(San, WritesMinimalDisambiguationAndCheckSuffixes) {
  auto pos = pos_of("1k6/8/8/8/8/8/8/R3K2R w KQ - 0 1");
  EXPECT_EQ(write_san(pos, *parse_uci(pos, "a1d1")), "Rd1");  // the king blocks h1
  auto rooks = pos_of("1k6/8/8/8/8/8/8/R4RK1 w - - 0 1");
  EXPECT_EQ(write_san(rooks, *parse_uci(rooks, "a1d1")), "Rad1");
  EXPECT_EQ(write_san(pos, *parse_uci(pos, "e1g1")), "O-O");
  EXPECT_EQ(write_san(pos, *parse_uci(pos, "a1a8")), "Ra8+");
  auto knights = pos_of("7k/2N5/8/8/8/2N1N3/8/4K3 w - - 0 1");
  EXPECT_EQ(write_san(knights, *parse_uci(knights, "e3d5")), "Ned5");
  EXPECT_EQ(write_san(knights, *parse_uci(knights, "c7d5")), "N7d5");
  EXPECT_EQ(write_san(knights, *parse_uci(knights, "c3d5")), "Nc3d5");
  EXPECT_EQ(write_san(knights, *parse_uci(knights, "c3b5")), "N3b5");
  auto mate = pos_of("k7/8/1K6/8/8/8/8/7R w - - 0 1");
  EXPECT_EQ(write_san(mate, *parse_uci(mate, "h1h8")), "Rh8#");
}

TEST(San, VirreyPromotionIsFixedByTheDestinationFile) {
  auto pos = pos_of("2r1q3/1P1P1P1k/8/8/8/8/8/K7 w - - 0 1", Variant::Virrey);
  // d7-d8 makes a queen, d7xc8 a bishop, d7xe8 a viceroy, b7xc8 a bishop.
  EXPECT_EQ(write_san(pos, *parse_uci(pos, "d7d8q")), "d8=Q");
  EXPECT_EQ(write_san(pos, *parse_uci(pos, "d7e8v")), "dxe8=V");
  EXPECT_EQ(write_san(pos, *parse_uci(pos, "d7c8b")), "dxc8=B");
  EXPECT_FALSE(parse_uci(pos, "d7e8q"));
  EXPECT_EQ(resolve(pos, "dxe8=V").error, SanError::None);
  EXPECT_EQ(resolve(pos, "dxe8V").error, SanError::None);
  auto bare = resolve(pos, "dxe8");
  EXPECT_EQ(bare.error, SanError::None);
  EXPECT_TRUE(bare.implied_promotion);
  EXPECT_EQ(bare.move, *parse_uci(pos, "d7e8v"));
  auto wrong = resolve(pos, "dxe8=Q");
  EXPECT_EQ(wrong.error, SanError::WrongPromotion);
  EXPECT_THAT(wrong.message, HasSubstr("viceroy"));
  EXPECT_EQ(resolve(pos, "bxc8=Q").error, SanError::WrongPromotion);
  EXPECT_EQ(resolve(pos, "f8=N").error, SanError::WrongPromotion);
}

TEST(San, StandardPromotionNeedsAPiece) {
  auto pos = pos_of("8/4P2k/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(resolve(pos, "e8=Q").error, SanError::None);
  EXPECT_EQ(resolve(pos, "e8N").error, SanError::None);
  EXPECT_EQ(resolve(pos, "e8").error, SanError::WrongPromotion);
  EXPECT_EQ(resolve(pos, "e8=V").error, SanError::WrongPromotion);
  SanProblem error;
  EXPECT_FALSE(parse_san("e8=K", error));
  // The piece in lower case, with or without '=' (as "e8q" was read).
  EXPECT_EQ(resolve(pos, "e8=q").move, *parse_uci(pos, "e7e8q"));
  EXPECT_EQ(resolve(pos, "e8n").move, *parse_uci(pos, "e7e8n"));
  // Another notation of a promotion is named as such.
  EXPECT_FALSE(parse_san("e8/Q", error));
  EXPECT_THAT(error.message, HasSubstr("a promotion is written e8=Q"));
}

TEST(San, ErrorKindsAreDistinct) {
  auto pos = pos_of("rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 2");
  EXPECT_EQ(resolve(pos, "Ne4").error, SanError::Illegal);
  auto two = pos_of("3k4/8/8/8/8/8/5K2/R6R w - - 0 1");
  auto amb = resolve(two, "Re1");
  EXPECT_EQ(amb.error, SanError::Ambiguous);
  EXPECT_THAT(amb.message, HasSubstr("a1, h1"));
  SanProblem error;
  EXPECT_FALSE(parse_san("Nz9", error));
  EXPECT_FALSE(parse_san("hello", error));
  EXPECT_FALSE(parse_san("", error));
}

TEST(San, IllegalMovesAreExplained) {
  auto pinned = pos_of("rnbqk1nr/pppp1ppp/8/4p3/1b1P4/8/PPPNPPPP/R1BQKBNR w KQkq - 2 3");
  auto r = resolve(pinned, "Nb3");
  EXPECT_EQ(r.error, SanError::Illegal);
  EXPECT_THAT(r.message, HasSubstr("knight on d2 is pinned"));
  auto none = resolve(pinned, "Qh7");
  EXPECT_THAT(none.message, HasSubstr("no white queen can reach h7"));
}

TEST(San, ReadsCommonVariantsOfMoveText) {
  auto start = pos_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  for (const char* text : {"Nf3", "Ng1f3", "Ng1-f3", "Nf3!?", "Nf3?!"})
    EXPECT_EQ(resolve(start, text).move, *parse_uci(start, "g1f3")) << text;
  EXPECT_EQ(resolve(start, "e2e4").move, *parse_uci(start, "e2e4"));
  auto castle = pos_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_EQ(resolve(castle, "0-0").move, *parse_uci(castle, "e1g1"));
  EXPECT_EQ(resolve(castle, "O-O-O+").move, *parse_uci(castle, "e1c1"));
  EXPECT_EQ(resolve(castle, "O-M-O").error, SanError::Illegal);
}

TEST(Uci, ViceroyPromotionSuffix) {
  auto pos = pos_of("4k3/8/8/8/8/8/3p4/7K b - - 0 1", Variant::Virrey);
  auto m = resolve(pos, "d1=Q+");
  ASSERT_EQ(m.error, SanError::None) << m.message;
  EXPECT_EQ(write_uci<Board8>(m.move), "d2d1q");
  auto v = pos_of("4k3/8/8/8/8/8/3Kp3/8 b - - 0 1", Variant::Virrey);
  EXPECT_EQ(write_uci<Board8>(resolve(v, "e1=V+").move), "e2e1v");
}

}  // namespace
}  // namespace virrey
