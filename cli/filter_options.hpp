// The game filters every database subcommand takes, as option text, and their
// conversion to a query::GameFilter (the parsing itself is in
// query/game_filter.hpp). The option names are the same for search and stats.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "virrey/query/game_filter.hpp"

namespace virrey::cli {

// --material, --material-plies, --either-colour.
struct MaterialOptions {
  std::string spec;  // query/material_spec.hpp; empty: none
  std::optional<long> plies;  // not given: 1
  bool either_colour = false;
};

// --ending, --mate-by, --plies, --elo, --elo-of, --time-control, --termination.
struct FeatureOptions {
  std::string ending;        // checkmate, stalemate, other
  std::string mate_by;       // K Q R B N P V M
  std::string plies;         // game length A-B
  std::string elo;           // A-B
  std::string elo_of;        // both (default), either, average
  std::string time_control;  // a class or a TimeControl value
  std::string termination;   // the Termination tag
};

// --pattern, --fenpattern, --to-move, --pattern-plies (and --either-colour).
struct PatternOptions {
  std::vector<std::string> pieces;  // --pattern texts: every term of each
  std::vector<std::string> fen;     // --fenpattern texts: any one of them
  std::string to_move;              // white, black
  std::string plies;                // A-B
};

// Empty strings are absent filters.
struct FilterOptions {
  // Position: at most one of these.
  std::string fen;
  std::string moves;  // SAN from the variant's start position
  // Promotion: any of these makes a promotion condition.
  std::string promotion;  // V, Q, R, B, N, M
  std::string by;         // white, black
  std::string file;       // a..i
  static constexpr long kNoMinCount = -(1L << 62);
  long min_count = kNoMinCount;  // not given: 1
  std::string ply;        // A-B
  // Tags.
  std::string white, black, player, event, site, round, result, date_from, date_to, eco, variant;
  MaterialOptions material;
  PatternOptions pattern;
  FeatureOptions features;
  // Opening: the stored classification (db classify), else the ECO/Opening tags.
  std::string opening;  // a part of the name, case-blind
  // (eco, above: a code or a range A00-B99)
};

// The material condition of the options, if any (a usage error names the
// column of the spec that is wrong).
Result<std::optional<query::MaterialCondition>> material_condition(const MaterialOptions& options);
// A log line when the filter asks for material and the database has no index of it.
void note_material_scan(const query::GameFilter& filter, const store::Database& db);
// The same line for a command that reads every game's material.
void note_material_replay(const store::Database& db);

// A log line when the position of --fen or --moves is one only of variants
// the database holds no game of (e.g. moves that play only as Virrey chess,
// asked of a database of standard games).
void note_position_variants(const query::GameFilter& filter, const store::Database& db);

// The pattern condition of the options, if any (a usage error names the
// option, the text and the column that is wrong).
Result<std::optional<query::PatternCondition>> pattern_condition(const PatternOptions& options,
                                                                 bool either_colour);

// The game-feature conditions of the options (a usage error names the
// option and its bad value).
Result<query::FeatureConditions> feature_conditions(const FeatureOptions& options);
// A log line when a feature condition meets summaries that predate it.
void note_feature_scan(const query::GameFilter& filter, const store::Database& db);

// The opening condition of --opening and --eco, if any.
Result<std::optional<query::OpeningCondition>> opening_condition(const FilterOptions& options);

// The filter, or a message for a usage error (exit 2) naming the problem.
Result<query::GameFilter> build_filter(const FilterOptions& options);

}  // namespace virrey::cli
