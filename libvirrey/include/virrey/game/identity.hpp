// A game's identity, what duplicate detection compares: variant, start
// position, main line and the Seven Tag Roster. Two games are the same game
// exactly when their identity bytes are equal; the hash of those bytes is
// frozen (the store keeps it in its `identities` family).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "virrey/game/game_record.hpp"

namespace virrey::game {

std::string identity_bytes(const GameRecord& record);
std::uint64_t identity_hash(std::string_view identity_bytes);
std::uint64_t game_identity(const GameRecord& record);

// True when two records are the same game by that definition.
bool same_game(const GameRecord& a, const GameRecord& b);

}  // namespace virrey::game
