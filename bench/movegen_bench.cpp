// Micro-benchmarks of the rules core: legal move generation, playing a move,
// and perft to a shallow depth, on a few positions of each supported 8x8
// variant. Each case runs in well under a second; the whole binary in a few.
//
//   build-bench/bench/virrey_bench --benchmark_filter=Perft
#include <benchmark/benchmark.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/move_numbers.hpp"
#include "virrey/rules/movegen.hpp"
#include "virrey/rules/perft.hpp"
#include "virrey/rules/san.hpp"

namespace {

using virrey::Board8;
using virrey::MoveList;
using virrey::Position;
using virrey::Variant;

constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
constexpr const char* kKiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
// Few pieces, frequent checks and en passant: short move lists.
constexpr const char* kEndgame = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
// Pawns a step from promotion on rook and knight files, castling on both wings.
constexpr const char* kPromotion = "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1";
// Kiwipete with each queen replaced by a viceroy.
constexpr const char* kViceroys = "r3k2r/p1ppvpb1/bn2pnp1/3PN3/1p2P3/2N2V1p/PPPBBPPP/R3K2R w KQkq - 0 1";

// Seconds each case runs for (it takes precedence over --benchmark_min_time).
constexpr double kMinTime = 0.2;

std::optional<Position<Board8>> load(benchmark::State& state, Variant variant, const char* fen) {
  virrey::FenProblems errors;
  auto pos = virrey::position_from_fen<Board8>(fen, variant, errors);
  if (!pos) state.SkipWithError(("bad FEN: " + virrey::join_reasons(errors)).c_str());
  return pos;
}

void BM_GenerateLegal(benchmark::State& state, Variant variant, const char* fen) {
  const auto pos = load(state, variant, fen);
  if (!pos) return;
  MoveList list;
  for (auto _ : state) {
    list.clear();
    virrey::generate_legal(*pos, list);
    benchmark::DoNotOptimize(list);
    benchmark::ClobberMemory();
  }
  state.counters["moves"] = double(list.size());
  state.SetItemsProcessed(std::int64_t(state.iterations() * list.size()));
}

// Copy-make of every legal move of the position (what perft does per node).
void BM_PlayAll(benchmark::State& state, Variant variant, const char* fen) {
  const auto pos = load(state, variant, fen);
  if (!pos) return;
  const MoveList moves = virrey::legal_moves(*pos);
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (auto m : moves) sum += pos->after(m).hash();
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * moves.size()));
}

// Leaf nodes per second, last ply counted in bulk as `virrey perft` does.
void BM_Perft(benchmark::State& state, Variant variant, const char* fen, int depth) {
  const auto pos = load(state, variant, fen);
  if (!pos) return;
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    nodes = virrey::perft(*pos, depth);
    benchmark::DoNotOptimize(nodes);
  }
  state.counters["nodes"] = double(nodes);
  state.counters["nps"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsIterationInvariantRate);
}

// Numbering every legal move of the position as a game record stores it:
// its move number, and whether the position needs two bytes for it.
void BM_MoveNumbers(benchmark::State& state, Variant variant, const char* fen) {
  const auto pos = load(state, variant, fen);
  if (!pos) return;
  const MoveList moves = virrey::legal_moves(*pos);
  for (auto _ : state) {
    int sum = 0;
    for (auto m : moves) sum += virrey::move_number(*pos, m) + int(virrey::move_numbers_wide(*pos));
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * moves.size()));
}

// Reading and validating a FEN, as validate does for every [FEN] tag.
void BM_PositionFromFen(benchmark::State& state, Variant variant, const char* fen) {
  for (auto _ : state) {
    virrey::FenProblems errors;
    auto pos = virrey::position_from_fen<Board8>(fen, variant, errors);
    benchmark::DoNotOptimize(pos);
  }
}

// The full SAN path (parse_san, then resolve_san) on the position's legal
// moves written in SAN: what the validator does for every token that
// read_plain_san leaves (promotions, castling, en passant).
void BM_ResolveSan(benchmark::State& state, Variant variant, const char* fen) {
  const auto pos = load(state, variant, fen);
  if (!pos) return;
  std::vector<std::string> texts;
  for (auto m : virrey::legal_moves(*pos)) texts.push_back(virrey::write_san(*pos, m));
  for (auto _ : state) {
    int found = 0;
    for (const auto& t : texts) {
      virrey::SanProblem error;
      const auto san = virrey::parse_san(t, error);
      if (san) found += int(virrey::resolve_san(*pos, *san).move.from());
    }
    benchmark::DoNotOptimize(found);
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * texts.size()));
}

#define VIRREY_MOVEGEN_CASE(fn, name, ...) BENCHMARK_CAPTURE(fn, name, __VA_ARGS__)->MinTime(kMinTime)
#define VIRREY_PERFT_CASE(name, ...) \
  VIRREY_MOVEGEN_CASE(BM_Perft, name, __VA_ARGS__)->Unit(benchmark::kMillisecond)

VIRREY_MOVEGEN_CASE(BM_GenerateLegal, std_start, Variant::Standard, kStart);
VIRREY_MOVEGEN_CASE(BM_GenerateLegal, std_kiwipete, Variant::Standard, kKiwipete);
VIRREY_MOVEGEN_CASE(BM_GenerateLegal, std_endgame, Variant::Standard, kEndgame);
VIRREY_MOVEGEN_CASE(BM_GenerateLegal, std_promotion, Variant::Standard, kPromotion);
VIRREY_MOVEGEN_CASE(BM_GenerateLegal, virrey_kiwipete, Variant::Virrey, kKiwipete);
VIRREY_MOVEGEN_CASE(BM_GenerateLegal, virrey_promotion, Variant::Virrey, kPromotion);
VIRREY_MOVEGEN_CASE(BM_GenerateLegal, virrey_viceroys, Variant::Virrey, kViceroys);

VIRREY_MOVEGEN_CASE(BM_PlayAll, std_kiwipete, Variant::Standard, kKiwipete);
VIRREY_MOVEGEN_CASE(BM_PlayAll, virrey_promotion, Variant::Virrey, kPromotion);

VIRREY_MOVEGEN_CASE(BM_MoveNumbers, std_kiwipete, Variant::Standard, kKiwipete);
VIRREY_MOVEGEN_CASE(BM_MoveNumbers, std_start, Variant::Standard, kStart);
VIRREY_MOVEGEN_CASE(BM_MoveNumbers, virrey_viceroys, Variant::Virrey, kViceroys);
VIRREY_MOVEGEN_CASE(BM_PositionFromFen, std_kiwipete, Variant::Standard, kKiwipete);
VIRREY_MOVEGEN_CASE(BM_PositionFromFen, virrey_viceroys, Variant::Virrey, kViceroys);
VIRREY_MOVEGEN_CASE(BM_ResolveSan, std_kiwipete, Variant::Standard, kKiwipete);
VIRREY_MOVEGEN_CASE(BM_ResolveSan, virrey_promotion, Variant::Virrey, kPromotion);
VIRREY_PERFT_CASE(std_start_d4, Variant::Standard, kStart, 4);
VIRREY_PERFT_CASE(std_kiwipete_d3, Variant::Standard, kKiwipete, 3);
VIRREY_PERFT_CASE(std_endgame_d5, Variant::Standard, kEndgame, 5);
VIRREY_PERFT_CASE(virrey_start_d4, Variant::Virrey, kStart, 4);
VIRREY_PERFT_CASE(virrey_kiwipete_d3, Variant::Virrey, kKiwipete, 3);
VIRREY_PERFT_CASE(virrey_promotion_d4, Variant::Virrey, kPromotion, 4);
VIRREY_PERFT_CASE(virrey_viceroys_d3, Variant::Virrey, kViceroys, 3);

}  // namespace
