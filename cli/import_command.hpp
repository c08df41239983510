// `virrey import`: validates PGN inputs and stores the valid games, with every
// position, tag and promotion indexed, in a virrey database.
#pragma once

#include <string>
#include <vector>

#include "output.hpp"

namespace virrey::cli {

struct ImportOptions {
  std::vector<std::string> inputs;  // empty: standard input
  std::string db;                   // empty: $VIRREY_DB, else ./virrey.db
  std::string variant;              // for games without a Variant tag
  int threads = 0;                  // 0: every core
  std::string rejects;              // games with errors, bytes as read
  Format format = Format::Text;     // text, json
  bool force = false;               // read inputs imported before all the same
  bool compact = false;             // compact the database afterwards
  double commit_interval = 2.0;     // seconds between commits
  std::string openings;             // an ECO file: name the stored games' openings (db classify)
};

int run_import(const ImportOptions& options);

}  // namespace virrey::cli
