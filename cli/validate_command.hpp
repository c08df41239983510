// `virrey validate`: checks every move of every game of PGN inputs.
#pragma once

#include <string>
#include <vector>

#include "output.hpp"

namespace virrey::cli {

struct ValidateOptions {
  std::vector<std::string> inputs;  // empty: standard input
  std::string variant;              // for games without a Variant tag
  bool strict = false;              // warnings count as errors
  bool export_notation = false;     // warn about notation PGN export format forbids
  bool no_event_checks = false;     // leave out the checks of tournaments as wholes
  Format format = Format::Text;     // text, json, jsonl
  int threads = 1;
  long max_errors = 0;  // stop printing after this many errors (0: no limit)
  std::string output;   // valid games, normalised PGN
  std::string rejects;  // games with errors, bytes as read
};

int run_validate(const ValidateOptions& options);

}  // namespace virrey::cli
