// A MANIFEST cut short: RocksDB reads a MANIFEST that ends inside a record as
// if it ended before that record, so a truncated file would open as an older
// (often empty) database, and a writer would then delete the table files it
// no longer lists. Checking the record framing first turns that into an error.
#pragma once

#include <optional>
#include <string>

namespace virrey::store {

// What is wrong with the MANIFEST that CURRENT names in the database at
// `path` when it ends inside a record; nullopt when it ends cleanly (or
// cannot be read: opening reports that).
std::optional<std::string> truncated_manifest(const std::string& path);

}  // namespace virrey::store
