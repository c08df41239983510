// A chess engine as a child process, spoken to over UCI or XBoard/CECP
// behind one interface: start it for a variant, set a position (FEN and
// moves), search with a node, depth or time limit, and read its score (from
// the side to move), best move and principal variation as the engine wrote
// them. checked_search (search.hpp) checks the moves against our rules.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "virrey/base/error.hpp"
#include "virrey/rules/variant.hpp"

namespace virrey::engine {

enum class Protocol : std::uint8_t { Uci, Xboard };

struct Limits {
  std::uint64_t nodes = 0;     // 0: no node limit
  int depth = 0;               // 0: no depth limit
  std::uint32_t movetime = 0;  // milliseconds; 0: none
  // "nodes 1000", "depth 12", "movetime 200": part of the cache key.
  std::string describe() const;
};

struct EngineConfig {
  std::string path;
  Protocol protocol = Protocol::Uci;
  int hash_mb = 0;                                           // 0: the engine's default
  std::vector<std::pair<std::string, std::string>> options;  // --engine-option NAME=VALUE
  std::vector<std::string> arguments;                        // after the program
  // How long a start or a search may take beyond its own limit.
  std::chrono::milliseconds timeout{10000};
};

// The engine for a variant when none is named: program, protocol and the
// Debian package it comes from.
struct DefaultEngine {
  std::string_view program;
  Protocol protocol;
  std::string_view package;
};
DefaultEngine default_engine(Variant v);
// The program on $PATH or in /usr/games, or nullopt.
std::optional<std::string> find_program(std::string_view program);

// A score from the side to move's point of view: centipawns, or a mate in
// `value` moves (negative: the side to move is mated; 0 with mate: mated now).
struct Score {
  bool mate = false;
  int value = 0;
  friend bool operator==(const Score&, const Score&) = default;
};

// One search as the engine answered it: its words, not yet checked.
struct RawResult {
  Score score;
  bool has_score = false;
  std::string best;             // the move text
  std::vector<std::string> pv;  // move texts (coordinates or SAN, as the engine writes them)
  std::uint64_t nodes = 0;
  int depth = 0;
  // An XBoard engine that answered a result ("1/2-1/2 {insufficient
  // material}") instead of a move: that text (the search then fails as
  // Malformed).
  std::string claim;
};

// What went wrong with an engine: it may be restarted and asked again, but
// for Variant: at its start, it does not offer the variant (a UCI engine
// without it among its UCI_Variant values, an XBoard engine without it among
// its `variants` feature or refusing the `variant` command).
// Option: an --engine-option the engine does not offer, or a value it does
// not take (its announced type and bounds).
enum class Failure : std::uint8_t { None, Crashed, Timeout, Malformed, IllegalMove, Variant, Option };
std::string_view failure_name(Failure f);  // "engine-crashed", ...

struct EngineError {
  Failure failure = Failure::None;
  std::string message;
};

class Driver;
class Engine;

// Why an engine that failed to start with Failure::Variant cannot play v,
// and the engine to use instead: "stockfish (Stockfish 15.1) does not play
// Modern chess: it has no UCI_Variant option; use --engine fairy-stockfish,
// the default for Modern games".
std::string variant_refusal(const Engine& e, Variant v, const EngineError& error);

class Engine {
 public:
  explicit Engine(EngineConfig config);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Starts (or restarts) the process and sets it up for the variant.
  std::optional<EngineError> start(Variant v);
  // Searches the position `fen` after `moves` (coordinate notation).
  std::optional<EngineError> search(const std::string& fen, const std::vector<std::string>& moves,
                                    const Limits& limits, RawResult& out);
  void stop();  // kills the process
  // The engine's own name and version ("Stockfish 15.1"), once started.
  const std::string& name() const;
  int pid() const;
  const EngineConfig& config() const { return config_; }

 private:
  EngineConfig config_;
  std::unique_ptr<Driver> driver_;
};

}  // namespace virrey::engine
