// The analysis of games by engines: the position before and after every
// main-line move chosen (--plies, --side) is evaluated once per run and once
// per database (the cache, keyed by variant, position, engine and limits),
// on `jobs` engine processes; each move is judged (judgement.hpp). An engine
// that crashes, hangs past its timeout or answers an illegal or malformed
// move is restarted, and the position is reported as a finding, unevaluated.
// An engine that does not play a variant is started once for it: the games
// of that variant are each reported as a finding, their positions
// unevaluated.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "virrey/analyse/judgement.hpp"
#include "virrey/engine/engine.hpp"
#include "virrey/engine/search.hpp"
#include "virrey/game/game_record.hpp"
#include "virrey/store/database.hpp"

namespace virrey::analyse {

struct Options {
  // The engine for every variant; without a path, the variant's default
  // (engine::default_engine), with the other fields kept.
  engine::EngineConfig engine;
  engine::Limits limits;
  int jobs = 1;
  std::uint32_t ply_from = 1;  // the moves judged: plies ply_from..ply_to (1-based)
  std::uint32_t ply_to = 0xffffffffu;
  std::optional<Color> side;  // only this side's moves
  bool cache_only = false;    // no engine: what the cache holds
};

struct MoveAnalysis {
  std::uint32_t ply = 0;
  Color mover = Color::White;
  std::string san;
  std::string fen;        // before the move
  std::string fen_after;  // after it
  // Before: from the mover's side; after: from the opponent's (to move then).
  std::optional<engine::Evaluation> before, after;
  bool judged = false;  // both evaluations known
  double loss = 0;      // in winning chances, >= 0
  int cp_loss = 0;      // model centipawns lost, >= 0
  double accuracy = 100;
  Judgement judgement = Judgement::Good;
};

// A side's (or a player's) moves summed. Every figure is an integer, so that
// sums over parts of a collection (shards) add up to the same bytes whatever
// the grouping: the accuracy is summed in millionths of a percent.
struct SideSummary {
  static constexpr double kAccuracyUnit = 1e-6;
  std::uint64_t moves = 0;     // judged moves
  std::uint64_t unjudged = 0;  // moves with a position left unevaluated (not in the cache)
  std::uint64_t cp_loss = 0;
  std::uint64_t accuracy_sum = 0;  // in kAccuracyUnit
  std::uint64_t inaccuracies = 0, mistakes = 0, blunders = 0;
  void add(const MoveAnalysis& m);
  void add(const SideSummary& s);
  double average_cp_loss() const { return moves ? double(cp_loss) / double(moves) : 0; }
  double accuracy() const { return moves ? double(accuracy_sum) * kAccuracyUnit / double(moves) : 0; }
};

struct GameAnalysis {
  std::uint64_t number = 0;  // 1-based in the run
  game::GameRecord record;
  std::vector<MoveAnalysis> moves;
  std::string engine;  // name and version
  SideSummary white, black;
};

struct Finding {
  std::uint64_t game = 0;
  std::uint32_t ply = 0;  // 0: the start position
  std::string code;       // engine-crashed, engine-timeout, engine-illegal-move, ...
  std::string message;
};

// The positions, each counted in exactly one of the buckets after it.
struct Counters {
  std::uint64_t positions = 0;   // positions the judged moves need, counted in every game
  std::uint64_t searched = 0;    // searched by an engine in this run
  std::uint64_t from_run = 0;    // a score found earlier in this run (transpositions, openings)
  std::uint64_t from_cache = 0;  // found in the database's cache
  std::uint64_t game_over = 0;   // mate or stalemate: nothing to search
  std::uint64_t failed = 0;      // left without a score (unevaluated)
  std::uint64_t restarts = 0;
  std::uint64_t games_refused = 0;  // games of a variant the engine does not play
};

class Analyser {
 public:
  // `cache`: the database whose cache is read and, when writable, written.
  Analyser(Options options, store::Database* cache);
  ~Analyser();
  Analyser(const Analyser&) = delete;
  Analyser& operator=(const Analyser&) = delete;

  // Checks that an engine can be found for the variant (with the package to
  // install when not).
  Status check_engine(Variant v) const;
  // Analyses a batch of games in place (their number and record set),
  // adding findings; an error for the database only.
  Status analyse(std::vector<GameAnalysis>& games, std::vector<Finding>& findings);
  const Counters& counters() const { return counters_; }

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  Counters counters_;
};

// The record written back with the analysis: the main line with an
// [%eval] comment after each judged move (from White's side: "0.35", "#-3"),
// the NAG of its judgement, and for a mistake or a blunder the engine's line
// as a variation. The game's own comments and variations are left out.
game::GameRecord annotated_record(const GameAnalysis& g);
// "0.35", "-1.20", "#3", "#-2" from White's side, of a score from the side to move.
std::string eval_text(engine::Score s, Color to_move);

}  // namespace virrey::analyse
