// A Swiss tournament made from a seed: invented players, pairings by score
// groups in the Dutch manner (the upper half of a group meets the lower half,
// no pairing twice, colours balanced, a one-point bye to the lowest player
// without one when the count is odd), and each pairing's game generated as
// `virrey generate` makes games. About one game in fifty is a forfeit (a
// result and no move). The same options give the same games.
#pragma once

#include <cstdint>
#include <functional>

#include "virrey/game/game_record.hpp"
#include "virrey/rules/variant.hpp"

namespace virrey::generate {

struct SwissOptions {
  Variant variant = Variant::Virrey;
  std::uint64_t seed = 1;
  int players = 20;  // 2 and more
  int rounds = 7;    // 1 and more, fewer than players
};

// Every game of the tournament, round by round, board by board (a bye is a
// game against "BYE" with no move).
void swiss_tournament(const SwissOptions& options, const std::function<void(game::GameRecord&)>& game);

}  // namespace virrey::generate
