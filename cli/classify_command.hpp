// `virrey db classify --openings FILE`, and the same classification after
// `virrey import --openings FILE`: games' openings named from an ECO file.
#pragma once

#include <optional>
#include <string>

#include "virrey/query/opening_book.hpp"
#include "virrey/store/database.hpp"

#include "output.hpp"

namespace virrey::cli {

// The ECO file, or nullopt after logging why it cannot be used (*exit_code:
// 2 for a malformed file, 3 for one that cannot be read).
std::optional<query::OpeningBook> read_opening_book(const std::string& path, int& exit_code);

// Classifies the games from `first` on and prints what it did (`quiet`: only
// a log line, as after an import). Returns the exit code.
int classify_and_report(store::Database& db, const query::OpeningBook& book, store::GameId first,
                        Format format, bool quiet);

}  // namespace virrey::cli
