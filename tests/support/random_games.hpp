// Random legal games as PGN, for import tests that need many games: seeded,
// Standard and Virrey, biased to pawn moves and promotions so that the
// promotion index is exercised; results agree with mate and stalemate.
#pragma once

#include <random>
#include <string>
#include <utility>

#include "virrey/rules/fen.hpp"
#include "virrey/rules/geometry_dispatch.hpp"
#include "virrey/rules/movegen.hpp"
#include "virrey/rules/san.hpp"

namespace virrey::store::test {

// One random game of a variant as PGN movetext and its result.
template <class G>
std::pair<std::string, std::string> random_moves(Variant variant, std::mt19937_64& rng) {
  FenProblems errors;
  auto pos = *position_from_fen<G>(info(variant).start_fen, variant, errors);
  const int plies = 20 + int(rng() % 140);
  std::string moves;
  std::string result = "*";
  auto final_result = [&] {
    return !pos.in_check() ? "1/2-1/2" : pos.side_to_move() == Color::White ? "0-1" : "1-0";
  };
  for (int ply = 0; ply < plies; ++ply) {
    const MoveList legal = legal_moves(pos);
    if (legal.empty()) {
      result = final_result();
      break;
    }
    Move m = legal[rng() % legal.size()];
    for (Move x : legal)
      if (x.kind() == MoveKind::Promotion && rng() % 2) m = x;
    if (m.kind() != MoveKind::Promotion && rng() % 10 < 4)
      for (Move x : legal)
        if (pos.piece_on(x.from()).type == PieceType::Pawn && rng() % 3 == 0) m = x;
    if (ply % 2 == 0) moves += std::to_string(ply / 2 + 1) + ". ";
    moves += write_san(pos, m) + (ply % 16 == 15 ? "\n" : " ");
    pos.play(m);
  }
  if (result == "*" && legal_moves(pos).empty()) result = final_result();
  return {moves, result};
}

// `count` games, a third of them Virrey (and, with `modern`, a third Modern).
inline std::string random_games(int count, std::uint64_t seed, int first_round = 1, bool modern = false) {
  std::mt19937_64 rng(seed);
  std::string out;
  for (int g = 0; g < count; ++g) {
    const auto pick = rng() % 3;
    const Variant variant = pick == 0             ? Variant::Virrey
                            : pick == 1 && modern ? Variant::Modern
                                                  : Variant::Standard;
    const auto [moves, result] =
        with_geometry(variant, [&](auto geometry) { return random_moves<decltype(geometry)>(variant, rng); });
    out += "[Event \"Random " + std::to_string(seed) + "\"]\n[Site \"Test\"]\n[Date \"2024.01.01\"]\n";
    out += "[Round \"" + std::to_string(first_round + g) + "\"]\n[White \"Player " +
           std::to_string(rng() % 50) + "\"]\n[Black \"Player " + std::to_string(rng() % 50) + "\"]\n";
    out += "[Result \"" + result + "\"]\n";
    if (variant != Variant::Standard) out += "[Variant \"" + std::string(info(variant).name) + "\"]\n";
    out += "\n" + moves + result + "\n\n";
  }
  return out;
}

}  // namespace virrey::store::test
