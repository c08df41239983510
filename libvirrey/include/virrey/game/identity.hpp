// A game's identity, what duplicate detection compares: variant, start
// position, main line and the Seven Tag Roster as the PGN writer writes it (a
// missing roster tag counts as its unknown value, "?" or "????.??.??", and
// Result is the game's termination marker), so that a game and its export
// are one game. Two games are the same game exactly when their identity
// bytes are equal; the hash of those bytes is frozen (the store keeps it in
// its `identities` family).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "virrey/game/game_record.hpp"

namespace virrey::game {

// Roster: the tags as the PGN writer writes them. AsRead: the tags as read,
// a missing one empty (databases written before the roster rule; the store
// reads it to bring their identities up to date).
enum class IdentityRule : std::uint8_t { Roster, AsRead };

std::string identity_bytes(const GameRecord& record, IdentityRule rule = IdentityRule::Roster);
std::uint64_t identity_hash(std::string_view identity_bytes);
std::uint64_t game_identity(const GameRecord& record, IdentityRule rule = IdentityRule::Roster);

// Whether the two rules give the game different identities: some roster tag
// is missing or Result differs from the termination marker.
bool identity_rules_differ(const GameRecord& record);

// True when two records are the same game by that definition.
bool same_game(const GameRecord& a, const GameRecord& b);

}  // namespace virrey::game
