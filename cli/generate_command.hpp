// `virrey generate`: writes legal games made from a seed, as PGN.
#pragma once

#include <cstdint>
#include <string>

namespace virrey::cli {

struct GenerateOptions {
  std::string variant = "virrey";  // standard, virrey or modern
  std::uint64_t games = 100;
  std::uint64_t seed = 1;
  std::uint64_t first = 0;  // index of the first game (collections can be made in parts)
  std::string output;       // empty or "-": standard output
  int threads = 1;          // the output does not depend on it
  bool stats = false;       // endings, results and promotions on stderr
  std::string system = "round-robin";  // or "swiss": one tournament of `players` and `rounds`
  int players = 20;
  int rounds = 7;
};

int run_generate(const GenerateOptions& options);

}  // namespace virrey::cli
