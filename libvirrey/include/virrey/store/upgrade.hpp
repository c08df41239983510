// `virrey db upgrade`: brings a database written by an older virrey to the
// current schema. Game records, tags, promotions and imported inputs keep
// their layout; the position index and the opening tree are rebuilt from the
// game records. The schema version changes last, in one write, so an upgrade
// killed midway leaves a database that still reads as the older schema (and
// is refused as such), and running the upgrade again completes it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "virrey/base/error.hpp"

namespace virrey::store {

struct UpgradeReport {
  std::uint32_t from_version = 0;
  std::uint32_t to_version = 0;
  std::uint64_t games = 0;  // games re-indexed (0: nothing to do)
  bool material_index = false;  // the material index was built
  bool summaries = false;       // the game summaries were rewritten (mate and time class added)
  bool material_order = false;  // the material dictionary was written in search order
  bool identities = false;      // duplicate detection was brought to the roster rule
  std::uint64_t identities_rewritten = 0;  // games whose identity changed under it
};

// `progress` (optional) is called now and then with the games re-indexed.
Result<UpgradeReport> upgrade_database(const std::string& path,
                                       const std::function<void(std::uint64_t)>& progress = {});

}  // namespace virrey::store
