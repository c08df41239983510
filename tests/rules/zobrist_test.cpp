// The Zobrist hash is part of the on-disk format: these vectors are frozen.
// If one fails, the hash changed and every stored database would be wrong.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/san.hpp"

namespace virrey {
namespace {

std::uint64_t hash_of(std::string_view fen, Variant v = Variant::Standard) {
  FenProblems errors;
  auto pos = position_from_fen<Board8>(fen, v, errors);
  EXPECT_TRUE(pos) << join_reasons(errors);
  return pos ? pos->hash() : 0;
}

Position<Board8> play_san(std::string_view fen, std::initializer_list<const char*> moves,
                          Variant v = Variant::Standard) {
  FenProblems errors;
  auto start = position_from_fen<Board8>(fen, v, errors);
  if (!start) throw std::runtime_error(join_reasons(errors));
  auto pos = *start;
  for (const char* text : moves) {
    SanProblem error;
    auto san = parse_san(text, error);
    EXPECT_TRUE(san) << error.message;
    auto r = resolve_san(pos, *san);
    EXPECT_EQ(r.error, SanError::None) << text << ": " << r.message;
    pos.play(r.move);
  }
  return pos;
}

TEST(Zobrist, SplitMixIsTheReferenceGenerator) {
  std::uint64_t state = 0;  // published first output of splitmix64 seeded with 0
  EXPECT_EQ(zobrist::splitmix64(state), 0xE220A8397B1DCDAFULL);
}

// The n-th output (from 0) of splitmix64 seeded with "Virrey01" as ASCII
// bytes, big-endian: written here from the published algorithm (Steele, Lea
// and Flood 2014; Vigna's splitmix64.c), apart from the library's.
std::uint64_t nth_output(std::uint64_t n) {
  std::uint64_t seed = 0;
  for (char c : std::string("Virrey01")) seed = seed << 8 | std::uint8_t(c);
  std::uint64_t z = seed + (n + 1) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

TEST(Zobrist, FrozenKeys) {
  EXPECT_EQ(zobrist::kHashTableId, 1u);
  EXPECT_EQ(zobrist::kKeys.piece[0][1][0], 0x798a67562c476d8bULL);
  EXPECT_EQ(zobrist::kKeys.piece[1][7][63], 0x353deec943983c7dULL);
  EXPECT_EQ(zobrist::kKeys.black_to_move, 0x2622f8d7abd16eaaULL);
  // The frozen values are the documented sequence: piece keys by colour,
  // type (9, None included) and square (81), then four castling rights,
  // nine en-passant files, the side to move.
  const std::uint64_t squares = 81, types = 9;
  EXPECT_EQ(nth_output(1 * squares), 0x798a67562c476d8bULL);
  EXPECT_EQ(nth_output(types * squares + 7 * squares + 63), 0x353deec943983c7dULL);
  EXPECT_EQ(nth_output(2 * types * squares + 4 + 9), 0x2622f8d7abd16eaaULL);
  for (std::uint64_t c = 0; c < 2; ++c)
    for (std::uint64_t t = 0; t < types; ++t)
      for (std::uint64_t sq = 0; sq < squares; ++sq)
        ASSERT_EQ(zobrist::kKeys.piece[c][t][sq], nth_output((c * types + t) * squares + sq)) << c << t << sq;
  const std::uint64_t rights = 2 * types * squares;
  EXPECT_EQ(zobrist::kKeys.castling[0], 0u);
  EXPECT_EQ(zobrist::kKeys.castling[1], nth_output(rights));
  EXPECT_EQ(zobrist::kKeys.castling[15],
            nth_output(rights) ^ nth_output(rights + 1) ^ nth_output(rights + 2) ^ nth_output(rights + 3));
  for (std::uint64_t f = 0; f < 9; ++f) EXPECT_EQ(zobrist::kKeys.en_passant[f], nth_output(rights + 4 + f));
}

TEST(Zobrist, GoldenPositionHashes) {
  EXPECT_EQ(hash_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), 0xb424860262c17edaULL);
  EXPECT_EQ(hash_of("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
            0x3f370057271f065fULL);
  EXPECT_EQ(hash_of("2v1k3/3P4/8/8/8/8/5V2/4K3 b - - 0 1", Variant::Virrey), 0x1a7b13faaae39f1eULL);
}

TEST(Zobrist, IncrementalHashEqualsHashFromScratch) {
  const char* start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  auto pos = play_san(start, {"e4", "d5", "exd5", "c5", "dxc6", "Nf6", "cxb7", "e6", "bxa8=Q", "Bb4", "Nf3",
                              "O-O", "Be2", "Qe7", "O-O"});
  EXPECT_EQ(pos.hash(), hash_of(write_fen(pos)));
  // Clocks do not enter the hash; the side to move and en passant do.
  auto a = play_san(start, {"e4", "e5", "Nf3", "Nf6", "Ng1", "Ng8"});
  EXPECT_EQ(a.hash(), play_san(start, {"e4", "e5"}).hash());
  auto b = play_san(start, {"e4"});
  auto c = play_san(start, {"e3", "a6", "e4", "a5"});
  EXPECT_NE(b.hash(), c.hash());
  auto ep = play_san("4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1", {"e4"});
  EXPECT_EQ(ep.en_passant(), make_square<Board8>(4, 2));
  EXPECT_NE(ep.hash(), hash_of("4k3/8/8/8/4Pp2/8/8/4K3 b - - 0 1"));
  EXPECT_EQ(ep.hash(), hash_of("4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1"));
}

TEST(Zobrist, ViceroyPromotionHashesLikeTheFen) {
  auto pos = play_san("6k1/3P4/8/8/8/8/8/4K3 w - - 0 1", {"d8=Q+"}, Variant::Standard);
  EXPECT_EQ(pos.hash(), hash_of(write_fen(pos)));
  auto v = play_san("3qk3/4P3/8/8/8/8/8/4K3 w - - 0 1", {"exd8=Q+"}, Variant::Virrey);
  EXPECT_EQ(v.hash(), hash_of(write_fen(v), Variant::Virrey));
}

}  // namespace
}  // namespace virrey
