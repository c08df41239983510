// A game's identity, what duplicate detection compares: variant, start
// position, main line and the Seven Tag Roster as the PGN writer writes it (a
// missing roster tag counts as its unknown value, "?" or "????.??.??",
// Result is the game's termination marker, and a value stored as an older
// version read it is taken as the reader reads it now: bytes not UTF-8 as
// Windows-1252, control characters as spaces), so that a game and its export
// are one game. Two games are the same game exactly when their identity
// bytes are equal; the hash of those bytes is frozen (the store keeps it in
// its `identities` family) for every value the reader reads now.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "virrey/game/game_record.hpp"

namespace virrey::game {

// Roster: the tags as the PGN writer writes them. RosterAsBytes: the same,
// but a value not as the reader reads it now (not UTF-8, or holding a
// control character) as its bytes (databases written before tags were read
// as UTF-8 hold such values). AsRead: the tags as read, a missing
// one empty (databases written before the roster rule). The store reads the
// older rules to bring such databases' identities up to date.
enum class IdentityRule : std::uint8_t { Roster, AsRead, RosterAsBytes };

std::string identity_bytes(const GameRecord& record, IdentityRule rule = IdentityRule::Roster);
std::uint64_t identity_hash(std::string_view identity_bytes);
std::uint64_t game_identity(const GameRecord& record, IdentityRule rule = IdentityRule::Roster);

// Whether the rule `before` and Roster give the game different identities:
// some roster value is not as the reader reads it now, or (AsRead) is missing or Result differs from
// the termination marker.
bool identity_rules_differ(const GameRecord& record, IdentityRule before = IdentityRule::AsRead);

// True when two records are the same game by that definition.
bool same_game(const GameRecord& a, const GameRecord& b);

}  // namespace virrey::game
