// The invented world generated games are played in: players with names and
// ratings, and 10-player round robins with an event, a site and dates.
#pragma once

#include <cstdint>
#include <string>

#include "virrey/rules/variant.hpp"

namespace virrey::generate {

struct PlayerTag {
  std::string name;  // "Surname, Given"
  int elo = 0;
};

// Everything the tags of one game say about where, when and who.
struct Pairing {
  std::string event;
  std::string site;
  std::string date;   // YYYY.MM.DD
  std::string event_date;  // the first round's, YYYY.MM.DD: tells apart events of one name
  std::string round;  // "round.board"
  PlayerTag white;
  PlayerTag black;
};

// The pairing of game `index` of the collection of this variant and seed.
Pairing tournament_pairing(Variant variant, std::uint64_t seed, std::uint64_t index);

// How many distinct players the invented world holds, and player `id` of it
// (its rating as in the events of number `tournament`).
std::uint64_t player_pool_size();
PlayerTag pool_player(std::uint64_t seed, std::uint64_t id, std::uint64_t tournament);

}  // namespace virrey::generate
