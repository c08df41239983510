// The players of analysed games, named by the White and Black tags as
// written: the games each played and the summary of their moves. What
// `analyse` prints per player and `stats players` reads from the cache.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "virrey/analyse/analyser.hpp"

namespace virrey::analyse {

struct PlayerSummary {
  std::string name;
  std::uint64_t games = 0;
  SideSummary moves;
};

class PlayerTable {
 public:
  // Both sides of a game.
  void add(const GameAnalysis& g);
  // A player's figures from elsewhere (another part of a collection).
  void add(const PlayerSummary& p);
  // In the order first met.
  const std::vector<PlayerSummary>& players() const { return players_; }
  // Most games first, then most judged moves, then by name.
  std::vector<PlayerSummary> by_games() const;

 private:
  PlayerSummary& player(const std::string& name);
  std::vector<PlayerSummary> players_;
  std::unordered_map<std::string, std::size_t> index_;
};

}  // namespace virrey::analyse
