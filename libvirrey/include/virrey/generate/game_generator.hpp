// Generates legal games, deterministically from a seed, for tests and
// benchmarks: full tags (round-robin tournaments of invented players), moves
// chosen by a cheap noisy evaluation biased towards pawn advances, captures
// and promotions (so that every promotion file, the viceroy's included, is
// common), and a result that the final position bears out. Half of the Modern
// chess games are played with [BishopSwap "Yes"], and ministers are a common
// promotion there.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "virrey/game/game_record.hpp"
#include "virrey/rules/variant.hpp"

namespace virrey::generate {

// How a generated game ended.
enum class Ending : std::uint8_t {
  Checkmate,
  Stalemate,
  InsufficientMaterial,
  FiftyMoveRule,
  Repetition,   // threefold, claimed
  Resignation,  // the side to move resigns
  DrawAgreed,
};
constexpr int kEndingCount = 7;

std::string_view ending_name(Ending e);  // "checkmate", "fifty-move-rule", ...

struct GeneratorOptions {
  Variant variant = Variant::Virrey;  // any variant; Modern games are played on 9x9
  std::uint64_t seed = 0;
  int min_plies = 40;   // no resignation or agreed draw before this ply
  int max_plies = 200;  // a game still going here is adjudicated (resignation or draw)
};

struct GeneratedGame {
  game::GameRecord record;  // tags, main line, movetext with canonical SAN, result
  Ending ending = Ending::DrawAgreed;
};

// Makes game number `index` (0-based) of the collection that options.seed
// names. A game depends only on the options and its index, never on which
// games were made before, so collections can be made in parallel. Output is
// identical across compilers and standard libraries: virrey's own PRNG.
class GameGenerator {
 public:
  explicit GameGenerator(GeneratorOptions options);
  GeneratedGame game(std::uint64_t index);

  const GeneratorOptions& options() const { return options_; }

 private:
  GeneratorOptions options_;
  std::vector<std::uint64_t> history_;  // position hashes of the game being made
};

// Games per tournament: game i belongs to tournament i / kGamesPerTournament
// (a 10-player round robin: 9 rounds of 5 games).
constexpr int kPlayersPerTournament = 10;
constexpr int kGamesPerTournament = kPlayersPerTournament * (kPlayersPerTournament - 1) / 2;

}  // namespace virrey::generate
