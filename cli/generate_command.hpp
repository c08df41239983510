// `virrey generate`: writes legal games made from a seed, as PGN.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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
  // Self-play: engine-against-engine games instead of the random generator.
  std::string engine;          // program; "default": the variant's Debian engine
  std::string protocol;        // uci or xboard (with a named engine)
  std::uint64_t nodes = 2000;  // per move (the stronger player: four times)
  int opening_plies = 4;       // random plies first
  // Every option the command line gave, by its long name: those of one way
  // of making games given to another are refused.
  std::vector<std::string> given;
};

int run_generate(const GenerateOptions& options);

}  // namespace virrey::cli
