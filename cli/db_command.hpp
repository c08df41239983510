// `virrey db info`, `db check`, `db upgrade`, `db merge` and `db squares`, and the one way every subcommand
// opens the database (the path rule and the report of why it did not open).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "virrey/store/database.hpp"

#include "output.hpp"

namespace virrey::cli {

struct DbOptions {
  std::string action;                // "info", "check", "upgrade", "merge", "classify" or "squares"
  std::string db;                    // empty: $VIRREY_DB, else ./virrey.db
  Format format = Format::Text;      // text, json
  std::vector<std::string> sources;  // merge: the databases to fold into --db
  int threads = 1;                   // merge: indexing threads (0: every core)
  std::string openings;              // classify: the ECO file
  bool drop = false;                 // squares: remove the square index
};

int run_db(const DbOptions& options);

// The database at --db, $VIRREY_DB or ./virrey.db; nullptr after logging why
// it did not open (callers exit with code 3).
// Create::No: a missing database is an error (a command that only adds to
// what is there, such as the analysis cache).
enum class Create : bool { No, Yes };
std::unique_ptr<store::Database> open_database(const std::string& flag, store::OpenMode mode,
                                               Create create = Create::Yes);

// Logs a store error, one line: its message (the same as search and stats give).
void log_store_error(const Error& e);

}  // namespace virrey::cli
