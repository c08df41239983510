// Runs every case of tests/data/perft/*.perft: positions with perft counts
// from independent sources (published tables, other engines, hand counts).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/move_numbers.hpp"
#include "virrey/rules/movegen.hpp"
#include "virrey/rules/perft.hpp"

namespace virrey {
namespace {

struct PerftCase {
  std::string file, id, variant, fen;
  std::vector<std::pair<int, std::uint64_t>> counts;  // "perft" lines only
};

std::vector<PerftCase> load_cases() {
  std::vector<PerftCase> cases;
  const std::filesystem::path dir = std::filesystem::path(VIRREY_TEST_DATA) / "perft";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".perft") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::ifstream in(path);
    std::string line;
    PerftCase current;
    auto flush = [&] {
      if (!current.fen.empty()) cases.push_back(current);
      current = PerftCase{};
      current.file = path.filename().string();
    };
    flush();
    while (std::getline(in, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty()) {
        flush();
        continue;
      }
      if (line[0] == '#') continue;
      std::istringstream words(line);
      std::string key;
      words >> key;
      std::string rest;
      std::getline(words, rest);
      if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
      if (key == "id")
        current.id = rest;
      else if (key == "variant")
        current.variant = rest;
      else if (key == "fen")
        current.fen = rest;
      else if (key == "perft") {
        int depth = 0;
        std::uint64_t nodes = 0;
        std::istringstream(rest) >> depth >> nodes;
        current.counts.emplace_back(depth, nodes);
      }
    }
    flush();
  }
  return cases;
}

class PerftData : public ::testing::TestWithParam<PerftCase> {};

TEST_P(PerftData, CountsMatchTheReference) {
  const PerftCase& c = GetParam();
  const auto variant = resolve_variant(c.variant);
  ASSERT_TRUE(variant) << c.variant;
  ASSERT_FALSE(c.counts.empty());
  with_geometry(*variant, [&](auto geometry) {
    using G = decltype(geometry);
    FenProblems errors;
    const auto pos = position_from_fen<G>(c.fen, *variant, errors);
    ASSERT_TRUE(pos) << c.fen << ": " << join_reasons(errors);
    for (auto [depth, nodes] : c.counts) EXPECT_EQ(perft(*pos, depth), nodes) << c.id << " depth " << depth;
  });
}

std::string case_name(const ::testing::TestParamInfo<PerftCase>& info) {
  std::string name = info.param.file + "_" + info.param.id;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(Files, PerftData, ::testing::ValuesIn(load_cases()), case_name);

TEST(PerftData, FilesHoldEnoughCases) {
  int standard = 0, virrey = 0;
  for (const auto& c : load_cases()) {
    standard += c.variant == "standard";
    virrey += c.variant == "virrey";
  }
  EXPECT_GE(standard, 6);
  EXPECT_GE(virrey, 15);
}

TEST(PerftDivide, ThreadsGiveTheSameCountsInTheSameOrder) {
  FenProblems errors;
  const auto pos = position_from_fen<Board8>(
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", Variant::Standard, errors);
  ASSERT_TRUE(pos);
  const auto one = perft_divide(*pos, 3, 1);
  const auto three = perft_divide(*pos, 3, 3);
  ASSERT_EQ(one.size(), 48u);
  ASSERT_EQ(three.size(), one.size());
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].move, three[i].move);
    EXPECT_EQ(one[i].nodes, three[i].nodes);
    total += one[i].nodes;
  }
  EXPECT_EQ(total, 97862u);  // chessprogramming wiki, Kiwipete depth 3
}

// Move numbers (move_numbers.hpp) against the perft-checked legal move list,
// on random games from every perft position (Modern also with bishop swaps):
// the numbers name exactly the legal moves, each once, in the order of
// origin then destination square; every legal move's number leads back to
// it, counted with or without checking the move; moves that are not legal
// get no number.
template <class G>
void check_move_numbers(Position<G> pos, const std::string& id, std::mt19937_64& rng, int& widest) {
  for (int ply = 0; ply < 60; ++ply) {
    const std::string where = id + " ply " + std::to_string(ply);
    MoveList list;
    generate_legal(pos, list);
    std::vector<std::pair<int, Move>> named;  // (number, move)
    for (int n = 0; n < int(MoveList::kCapacity) + 64; ++n)
      if (const Move m = move_with_number(pos, n); !m.is_null()) named.push_back({n, m});
    ASSERT_EQ(named.size(), list.size()) << where;
    for (std::size_t i = 0; i < named.size(); ++i) {
      ASSERT_TRUE(list.contains(named[i].second)) << where;
      ASSERT_EQ(move_number(pos, named[i].second), named[i].first) << where;
      ASSERT_EQ(legal_move_number(pos, named[i].second), named[i].first) << where;
      if (i > 0) {
        const Move a = named[i - 1].second, b = named[i].second;
        ASSERT_TRUE(a.from() < b.from() || (a.from() == b.from() && a.to() <= b.to())) << where;
      }
      widest = std::max(widest, named[i].first);
      if (!move_numbers_wide(pos)) {
        ASSERT_LT(named[i].first, 256) << where;
      }
    }
    // Not legal: from-to pairs of no legal move, and legal destinations
    // with another kind or promotion piece.
    for (int k = 0; k < 40; ++k) {
      const Move m(Square(rng() % G::squares), Square(rng() % G::squares));
      if (!list.contains(m)) {
        ASSERT_EQ(move_number(pos, m), -1) << where;
      }
    }
    for (Move m : list)
      for (PieceType p : {PieceType::None, PieceType::Queen, PieceType::Knight, PieceType::Viceroy})
        for (MoveKind kind : {MoveKind::Normal, MoveKind::Promotion, MoveKind::Castling}) {
          const Move other(m.from(), m.to(), kind, p);
          if (!list.contains(other)) {
            ASSERT_EQ(move_number(pos, other), -1) << where;
          }
        }
    if (list.empty()) return;
    pos.play(list[std::size_t(rng() % list.size())]);
  }
}

TEST(MoveNumbers, NameExactlyTheLegalMoves) {
  std::mt19937_64 rng(11);
  int widest = 0;
  for (const PerftCase& c : load_cases()) {
    const auto variant = resolve_variant(c.variant);
    ASSERT_TRUE(variant) << c.variant;
    with_geometry(*variant, [&](auto geometry) {
      using G = decltype(geometry);
      FenProblems errors;
      auto pos = position_from_fen<G>(c.fen, *variant, errors);
      ASSERT_TRUE(pos) << c.fen;
      for (int game = 0; game < 4; ++game) check_move_numbers(*pos, c.id, rng, widest);
      if (*variant == Variant::Modern) {
        pos->enable_bishop_swap();
        for (int game = 0; game < 4; ++game) check_move_numbers(*pos, c.id + " with swaps", rng, widest);
      }
    });
  }
  EXPECT_GT(widest, 60);
}

// A position with more than 256 move numbers takes two bytes a number.
TEST(MoveNumbers, WidePositions) {
  FenProblems errors;
  // Twelve queens and five ministers for White on 9x9: 277 legal moves.
  auto pos = position_from_fen<Board9>("kr6Q/rrQQ5/1Q7/6QM1/1MM1M2M1/7Q1/1Q7/2Q5Q/Q1Q1KQ3 w - - 0 1",
                                       Variant::Modern, errors);
  ASSERT_TRUE(pos) << join_reasons(errors);
  EXPECT_TRUE(move_numbers_wide(*pos));
  MoveList list;
  generate_legal(*pos, list);
  EXPECT_EQ(list.size(), 277u);
  int highest = -1;
  for (Move m : list) {
    const int n = move_number(*pos, m);
    ASSERT_GE(n, 0);
    EXPECT_EQ(move_with_number(*pos, n), m);
    highest = std::max(highest, n);
  }
  EXPECT_GT(highest, 255);
  auto start =
      position_from_fen<Board8>(std::string(info(Variant::Standard).start_fen), Variant::Standard, errors);
  ASSERT_TRUE(start);
  EXPECT_FALSE(move_numbers_wide(*start));
}

}  // namespace
}  // namespace virrey
