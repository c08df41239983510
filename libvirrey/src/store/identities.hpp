// Duplicate detection's keys (`identities`) under the roster rule of
// game/identity.hpp. Databases written before the rule hashed a missing
// roster tag as empty; the first writer to open one brings its keys up to
// date (MetaKey::IdentityFormat records that it was done).
#pragma once

#include <cstdint>

#include "rocks.hpp"

namespace virrey::store {

// The IdentityFormat of databases whose identities follow the roster rule.
constexpr std::uint32_t kRosterIdentities = 2;

// Rewrites the key of every game the two rules tell apart, then marks the
// database. Idempotent (a run cut short is completed by the next); nothing
// to do when the mark is there. Returns the games whose key changed.
Result<std::uint64_t> update_identities(Database::Impl& d);

}  // namespace virrey::store
