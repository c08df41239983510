#include "virrey/analyse/players.hpp"

#include <algorithm>
#include <tuple>

namespace virrey::analyse {

PlayerSummary& PlayerTable::player(const std::string& name) {
  auto [it, fresh] = index_.emplace(name, players_.size());
  if (fresh) players_.push_back({name, 0, {}});
  return players_[it->second];
}

void PlayerTable::add(const GameAnalysis& g) {
  const std::string_view white = g.record.tag("White"), black = g.record.tag("Black");
  PlayerSummary& w = player(std::string(white));
  ++w.games;
  w.moves.add(g.white);
  PlayerSummary& b = player(std::string(black));  // (w may be moved by now)
  if (black != white) ++b.games;  // one game, even when both sides bear one name ("?" against "?")
  b.moves.add(g.black);
}

void PlayerTable::add(const PlayerSummary& from) {
  PlayerSummary& p = player(from.name);
  p.games += from.games;
  p.moves.add(from.moves);
}

std::vector<PlayerSummary> PlayerTable::by_games() const {
  std::vector<PlayerSummary> out = players_;
  std::sort(out.begin(), out.end(), [](const PlayerSummary& a, const PlayerSummary& b) {
    return std::tie(b.games, b.moves.moves, a.name) < std::tie(a.games, a.moves.moves, b.name);
  });
  return out;
}

}  // namespace virrey::analyse
