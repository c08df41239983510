// `virrey perft`: counts the legal move tree of a position.
#pragma once

#include <string>

#include "output.hpp"

namespace virrey::cli {

struct PerftOptions {
  std::string variant = "standard";
  std::string fen;  // empty: the variant's start position
  bool startpos = false;
  int depth = 1;
  bool divide = false;
  int threads = 1;
  Format format = Format::Text;  // text, json
};

int run_perft(const PerftOptions& options);

}  // namespace virrey::cli
