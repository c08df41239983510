// GameFilter: which games a search (or a statistic) is about, as plain data,
// and the one function that finds them in a store::Database.
//
// Conditions combine with AND; an empty filter matches every game. The
// command line turns text into a filter with the parse_* helpers below (they
// return errors as values, never throw); library callers may fill the struct
// directly.
//
// Exactness. Candidates come from the store's indexes, which key positions by
// a 64-bit Zobrist hash. A hash collision never produces a false hit: every
// candidate of a position condition is confirmed by replaying the game's main
// line and comparing the full position (every piece on every square, side to
// move, castling rights, en-passant square; the move clocks are ignored), and
// the reported ply is the first ply where that exact position occurs. Tag
// conditions compare the normalised tag values themselves (store::
// normalize_tag_value), promotion conditions the promotion index entries
// (exact keys, no hashing).
//
// Planning (game_filter.cpp, make_plan). Every condition that has an index
// is a source: position, promotion, material (and the material a pattern
// implies), the square index of a pattern, exact, prefix and range tag
// scans. Each is probed: its entries are read up to a small cap (patterns
// have their own). Sources whose entries all fit under the cap are exact
// candidate sets and are intersected; if there is none, the most selective
// source that runs in id order streams candidates (position, promotion,
// material, then the tags), else the first source is read whole, else every
// game summary is scanned. Every candidate is then checked against the
// conditions its source did not prove, from the game's summary and record.
// Streaming in id order lets a page of the first 50 matches stop early,
// however common the position.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/base/error.hpp"
#include "virrey/game/game_record.hpp"
#include "virrey/query/board_pattern.hpp"
#include "virrey/query/game_features.hpp"
#include "virrey/query/material_spec.hpp"
#include "virrey/rules/position.hpp"
#include "virrey/rules/types.hpp"
#include "virrey/rules/variant.hpp"
#include "virrey/store/database.hpp"

namespace virrey::query {

using store::GameId;

// One exact position of one variant: what a position condition compares.
// Made by position_target() (validated, so `setup` is a legal position).
struct PositionTarget {
  Variant variant = Variant::Standard;
  std::uint64_t hash = 0;  // Zobrist hash (virrey/rules/zobrist.hpp)
  Setup setup;             // pieces, side, castling, en passant; clocks ignored
};

// Games whose main line contains promotions. A game matches when one side
// (`by`, or either side when absent) made at least `min_count` promotions
// that pass piece, file and plies.
struct PromotionCondition {
  std::optional<PieceType> piece;  // V, Q, R, B, N, M
  std::optional<Color> by;
  std::optional<int> file;  // 0 = a-file
  std::uint32_t min_count = 1;
  PlyRange plies;  // ply of the promoting move
};

// Tag conditions. Values compare after store::normalize_tag_value (case-
// insensitive, trimmed, inner blanks collapsed). Absent or "?" tags never
// match a condition on them.
struct TagConditions {
  std::optional<std::string> white;   // exact (normalised)
  std::optional<std::string> black;   // exact
  std::optional<std::string> player;  // White or Black, starting with this
  std::optional<std::string> event;   // exact
  std::optional<std::string> site;    // exact
  std::optional<std::string> round;   // exact
  std::optional<GameResult> result;   // the game's termination marker
  // Dates as "yyyy", "yyyy.mm" or "yyyy.mm.dd" (parse_date_bound), a bound
  // standing for its whole year, month or day. A game matches when every day
  // its Date may stand for is in the range: "--date-to 2003.06" takes all of
  // June 2003, "2003.06.??" included; "2003.??.??" (or "2003") is in 2003,
  // not in "--date-from 2003.06". A Date not written as PGN writes it
  // ("yyyy.mm.dd", "??" for an unknown month or day) is in no range.
  std::optional<std::string> date_from;
  std::optional<std::string> date_to;
  std::optional<std::string> eco;  // exact, e.g. "b90"
  std::optional<Variant> variant;
  bool empty() const;
};

// Games by opening: the opening `db classify` stored for the game, or, for a
// game without one, its ECO tag and its Opening (": " Variation ", "
// SubVariation) tags. A game with neither never matches.
struct OpeningCondition {
  // A part of the name, compared case-blind (store::normalize_tag_value on both sides).
  std::optional<std::string> name;
  // ECO codes from..to, upper-case: "A00".."B99"; a code that starts with `eco_to`
  // counts as <= it (so "B99" takes Scid's "B99a2" too).
  std::optional<std::string> eco_from, eco_to;
  bool matches(std::string_view eco, std::string_view name) const;
};

struct GameFilter {
  // The games that pass through one of these positions (several only when
  // the variant was left open and the position is one of several variants,
  // e.g. a FEN without viceroys: Standard and Virrey). Empty: no position
  // condition.
  std::vector<PositionTarget> positions;
  std::optional<PromotionCondition> promotion;
  TagConditions tags;
  // A material balance the main line reaches (material_spec.hpp): from the
  // material index, or by replay in a database without one.
  std::optional<MaterialCondition> material;
  // How the game ends, its length, ratings, clock, Termination
  // (game_features.hpp): from the summary, some from the record's tags.
  FeatureConditions features;
  std::optional<OpeningCondition> opening;
  // Men on squares (board_pattern.hpp): confirmed by replay, after the
  // material index has ruled out games without the men the pattern needs.
  std::optional<PatternCondition> pattern;
  bool empty() const {
    return positions.empty() && !promotion && tags.empty() && !material && features.empty() && !opening &&
           !pattern;
  }
};

// One matching game.
struct GameMatch {
  GameId id = 0;
  // The position condition's first ply (0 = the start position); without a
  // position condition, the first ply where the pattern holds; else the ply
  // of the promotion that completed the promotion condition; else the first
  // ply of the material condition's stretch; else none.
  std::optional<std::uint32_t> ply;
  Variant variant = Variant::Standard;
};

// What a run of a filter did (for --explain): candidates taken from the
// indexes and checked, how many matched, and how many of the others were
// ruled out by their summaries, without reading their records. A run that
// stops early (a page filled) counts what it checked until then.
struct MatchCounts {
  std::uint64_t checked = 0;
  std::uint64_t matched = 0;
  std::uint64_t ruled_out = 0;
};

// Knobs of the planner, for tests and benchmarks (the defaults suit use).
struct PlanOptions {
  std::size_t probe_cap = 4096;   // an index range of at most this many entries is read whole
  std::size_t first_window = 96;  // entries per index range in the first streaming round
  // Entries of the material a pattern needs that are read to narrow its
  // candidates; past this, every game is replayed. 0: half the collection.
  std::size_t pattern_cap = 0;
  MatchCounts* counts = nullptr;  // when set, added to
};

// Calls visit for every matching game in ascending id order; visit returns
// false to stop. Database errors come back as the Status (ErrorKind).
Status for_each_match(const store::Database& db, const GameFilter& filter,
                      const store::Visit<const GameMatch&>& visit, const PlanOptions& plan = {});

// Every match, in id order.
Result<std::vector<GameMatch>> find_matches(const store::Database& db, const GameFilter& filter,
                                            const PlanOptions& plan = {});

// How for_each_match would run the filter, in one line (for --explain and
// tests): "stream the position index in id order; white: 12 games; verify:
// tags from the record, replay of the main line".
Result<std::string> explain_plan(const store::Database& db, const GameFilter& filter,
                                 const PlanOptions& plan = {});

// ---------------------------------------------------------------------------
// Text -> filter parts. Errors are InvalidArgument errors whose message names
// the problem ("bad FEN: ...", "move 3 (Nf6): illegal ...").

// The variants a position may belong to: `variant` when given, else every
// variant with rules on an 8x8 board (Standard and Virrey) that accepts it.
Result<std::vector<PositionTarget>> position_from_fen_text(std::string_view fen,
                                                           std::optional<Variant> variant);
// SAN moves from the variant's start position, separated by blanks; move
// numbers ("1.", "12...") and a trailing result are skipped.
Result<std::vector<PositionTarget>> position_from_moves(std::string_view moves,
                                                        std::optional<Variant> variant);
// A validated position as a target.
template <class G>
PositionTarget position_target(const Position<G>& pos);
// True when pos is exactly the target's position (clocks aside).
template <class G>
bool same_position(const Position<G>& pos, const PositionTarget& target);

// "A-B", "A-", "-B" or "A" (A..A), plies >= 0, A <= B.
Result<PlyRange> parse_ply_range(std::string_view text);
// "V", "Q", "R", "B", "N", "M" (any case; "viceroy", "queen", ... too).
Result<PieceType> parse_promotion_piece(std::string_view text);
// "white"/"w", "black"/"b".
Result<Color> parse_side(std::string_view text);
// "a".."i" -> 0..8.
Result<int> parse_file(std::string_view text);
// "1-0", "0-1", "1/2-1/2" (also "1/2", "draw", "white", "black"), "*".
Result<GameResult> parse_result_option(std::string_view text);
// resolve_variant, as an error value for unknown names.
Result<Variant> parse_variant(std::string_view text);
// "B90" or a range "A00-B99" (also "A00-", "-B99"; any case; Scid's "D37a"
// too): the ECO part of an opening condition, upper-case.
Result<OpeningCondition> parse_eco_range(std::string_view text);
// The name a game's tags give its opening: Opening, then ": " Variation,
// then ", " SubVariation (as opening_book.hpp names pgn-extract's lines).
std::string tagged_opening_name(const game::GameRecord& game);

// "yyyy", "yyyy.mm", "yyyy.mm.dd" (or with '-' or '/'): normalised to dots.
Result<std::string> parse_date_bound(std::string_view text);

extern template PositionTarget position_target<Board8>(const Position<Board8>&);
extern template bool same_position<Board8>(const Position<Board8>&, const PositionTarget&);
extern template PositionTarget position_target<Board9>(const Position<Board9>&);
extern template bool same_position<Board9>(const Position<Board9>&, const PositionTarget&);

}  // namespace virrey::query
