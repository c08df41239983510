// Duplicate detection's keys (`identities`) under the rule of
// game/identity.hpp. Databases written before it keep keys of an older rule
// (MetaKey::IdentityFormat): 1 (absent), a missing roster tag hashed as
// empty and tags as read; 2, the roster rule with tags that are not UTF-8
// (stored by versions before tags were read as UTF-8) as their bytes. The
// first writer to open one brings its keys up to date and records it.
#pragma once

#include <cstdint>

#include "rocks.hpp"
#include "virrey/game/identity.hpp"

namespace virrey::store {

// The IdentityFormat of databases whose identities follow game_identity's rule.
constexpr std::uint32_t kIdentityFormat = 3;

// The rule of an older IdentityFormat.
constexpr game::IdentityRule identity_rule_of_format(std::uint32_t format) {
  return format >= kIdentityFormat ? game::IdentityRule::Roster
         : format == 2             ? game::IdentityRule::RosterAsBytes
                                   : game::IdentityRule::AsRead;
}

// Rewrites the key of every game whose identity the older rules tell apart
// from this one, then marks the database. Idempotent (a run cut short is
// completed by the next); nothing to do when the mark is there. Returns the
// games whose key changed.
Result<std::uint64_t> update_identities(Database::Impl& d);

}  // namespace virrey::store
