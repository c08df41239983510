// Engine-against-engine games for test data: a few opening plies chosen at
// random from the seed (so games differ), then the engine's best move at a
// small node count, for two players: the engine at the limits and at four
// times them (colours alternate game by game), each checked by our rules, until mate,
// stalemate, insufficient material, the 50-move rule, threefold repetition or
// a ply cap (a draw). The same seed, engine and limits give the same games
// when the engine searches deterministically (one thread, a node limit).
#pragma once

#include <cstdint>
#include <string>

#include "virrey/base/error.hpp"
#include "virrey/engine/engine.hpp"
#include "virrey/game/game_record.hpp"

namespace virrey::analyse {

struct SelfPlayOptions {
  Variant variant = Variant::Virrey;
  engine::EngineConfig engine;  // without a path: the variant's default engine
  engine::Limits limits{2000, 0, 0};
  std::uint64_t seed = 1;
  int opening_plies = 4;  // random legal moves first
  int max_plies = 300;    // then a draw
};

class SelfPlay {
 public:
  explicit SelfPlay(SelfPlayOptions options);
  ~SelfPlay();
  // Game `index` (from 0) of the collection.
  Result<game::GameRecord> game(std::uint64_t index);

 private:
  engine::Limits strong_limits() const;
  SelfPlayOptions options_;
  engine::Engine engine_;
  bool started_ = false;
};

}  // namespace virrey::analyse
