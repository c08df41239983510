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
  std::string round;  // "round.board"
  PlayerTag white;
  PlayerTag black;
};

// The pairing of game `index` of the collection of this variant and seed.
Pairing tournament_pairing(Variant variant, std::uint64_t seed, std::uint64_t index);

}  // namespace virrey::generate
