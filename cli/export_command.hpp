// `virrey export`: writes stored games back as PGN (export format, the same
// game as imported: tags, moves, comments, NAGs, variations) or JSON Lines.
#pragma once

#include <cstdint>
#include <string>

#include "output.hpp"

namespace virrey::cli {

struct ExportOptions {
  std::string db;               // empty: $VIRREY_DB, else ./virrey.db
  std::string variant;          // only games of this variant
  std::uint64_t limit = 0;      // at most this many games (0: all)
  Format format = Format::Pgn;  // pgn, jsonl
  std::string output;           // empty: standard output
};

int run_export(const ExportOptions& options);

}  // namespace virrey::cli
