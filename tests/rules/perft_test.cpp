// Runs every case of tests/data/perft/*.perft: positions with perft counts
// from independent sources (published tables, other engines, hand counts).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
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
      if (key == "id") current.id = rest;
      else if (key == "variant") current.variant = rest;
      else if (key == "fen") current.fen = rest;
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
    std::vector<std::string> errors;
    const auto pos = position_from_fen<G>(c.fen, *variant, errors);
    ASSERT_TRUE(pos) << c.fen << ": " << join_reasons(errors);
    for (auto [depth, nodes] : c.counts)
      EXPECT_EQ(perft(*pos, depth), nodes) << c.id << " depth " << depth;
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
  std::vector<std::string> errors;
  const auto pos = position_from_fen<Board8>(
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", Variant::Standard,
      errors);
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

// A move's number (legal_moves_before) against its place in the full list
// sorted by move_order_key, and the cheap bound against the list's size, on
// random games from every perft position (Modern also with bishop swaps).
template <class G>
void check_move_numbers(Position<G> pos, const std::string& id, std::mt19937_64& rng) {
  for (int ply = 0; ply < 60; ++ply) {
    MoveList list;
    generate_legal(pos, list);
    std::vector<Move> sorted(list.begin(), list.end());
    std::sort(sorted.begin(), sorted.end(),
              [](Move a, Move b) { return move_order_key(a) < move_order_key(b); });
    ASSERT_GE(legal_move_bound(pos), int(list.size())) << id << " ply " << ply;
    for (std::size_t i = 0; i < sorted.size(); ++i)
      ASSERT_EQ(legal_moves_before(pos, sorted[i]), int(i)) << id << " ply " << ply << " move " << i;
    // Moves that are not legal: every from-to pair that no legal move has.
    for (int k = 0; k < 40; ++k) {
      const Move m(Square(rng() % G::squares), Square(rng() % G::squares));
      if (!list.contains(m)) {
        ASSERT_EQ(legal_moves_before(pos, m), -1) << id << " ply " << ply;
      }
    }
    if (list.empty()) return;
    pos.play(list[std::size_t(rng() % list.size())]);
  }
}

TEST(MoveNumbers, MatchTheSortedLegalMoves) {
  std::mt19937_64 rng(11);
  for (const PerftCase& c : load_cases()) {
    const auto variant = resolve_variant(c.variant);
    ASSERT_TRUE(variant) << c.variant;
    with_geometry(*variant, [&](auto geometry) {
      using G = decltype(geometry);
      std::vector<std::string> errors;
      auto pos = position_from_fen<G>(c.fen, *variant, errors);
      ASSERT_TRUE(pos) << c.fen;
      for (int game = 0; game < 4; ++game) check_move_numbers(*pos, c.id, rng);
      if (*variant == Variant::Modern) {
        pos->enable_bishop_swap();
        for (int game = 0; game < 4; ++game) check_move_numbers(*pos, c.id + " with swaps", rng);
      }
    });
  }
}

}  // namespace
}  // namespace virrey
