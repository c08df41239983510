// Conditions on what a game is as a whole: how its main line ends (checkmate,
// and by which piece; stalemate), its length, its players' ratings, its clock
// and its Termination tag. The game summary (store/game_summary.hpp) answers
// all but the exact TimeControl value and the Termination tag, which come from
// the record's tags; summaries written before the mate and the time class were
// recorded (format 1) send those to the record too (the mate by a replay).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "virrey/base/error.hpp"
#include "virrey/game/game_record.hpp"
#include "virrey/game/time_control.hpp"
#include "virrey/store/game_summary.hpp"

namespace virrey::query {

// Inclusive range of whole numbers; an absent bound is open.
struct Range {
  std::optional<std::uint32_t> from;
  std::optional<std::uint32_t> to;
  bool contains(std::uint32_t v) const { return (!from || v >= *from) && (!to || v <= *to); }
  bool open() const { return !from && !to; }
  friend bool operator==(const Range&, const Range&) = default;
};
// Plies are 1-based move numbers of the main line (ply 0 is the start position).
using PlyRange = Range;

// Which ratings a rating range is about. A missing (or unreadable) Elo tag
// is in no range: Both and Average need the two, Either needs one.
enum class EloOf : std::uint8_t {
  Both,     // White's and Black's Elo are both in the range
  Either,   // at least one of them is
  Average,  // (White + Black) / 2, rounded down, is
};

struct EloCondition {
  Range range;
  EloOf of = EloOf::Both;
};

// A TimeControl tag: its class (game/time_control.hpp), or its value exactly
// (normalised as tags are, store::normalize_tag_value).
struct TimeControlCondition {
  std::optional<game::TimeClass> time_class;
  std::string value;  // when no class
};

struct FeatureConditions {
  std::optional<store::Ending> ending;
  // The pieces (game::piece_type_bit) of which one gives the final
  // checkmate: the piece that checks, so a discovered mate is the
  // uncovered piece's, and a double check is either checker's. 0: none.
  std::uint8_t mate_by = 0;
  Range plies;  // main-line length
  std::optional<EloCondition> elo;
  std::optional<TimeControlCondition> time_control;
  std::optional<std::string> termination;  // normalised Termination tag
  bool empty() const {
    return !ending && mate_by == 0 && plies.open() && !elo && !time_control && !termination;
  }
};

// What a summary settles: false when it rules the game out. Conditions it
// cannot settle (tags_needed, replay_needed) pass here.
bool summary_passes(const FeatureConditions& c, const store::GameSummary& s);
// The conditions that need the record's tags for this game.
bool tags_needed(const FeatureConditions& c, const store::GameSummary& s);
// The mate condition needs a replay (a format-1 summary of a checkmate).
bool replay_needed(const FeatureConditions& c, const store::GameSummary& s);
// The tag conditions, on the record (for tags_needed games).
bool tags_pass(const FeatureConditions& c, const game::GameRecord& rec);
// The rating a game is counted under: (White + Black) / 2 rounded down, or
// nullopt when a rating is missing.
std::optional<std::uint32_t> average_elo(const store::GameSummary& s);

// ---------------------------------------------------------------------------
// Text -> conditions (filter_parse.cpp). Errors are InvalidArgument values.

// "checkmate", "stalemate", "other" (also "mate").
Result<store::Ending> parse_ending(std::string_view text);
// One piece letter K Q R B N P V M, or its name ("viceroy", "minister", ...).
Result<std::uint8_t> parse_mate_by(std::string_view text);
// "A-B", "A-", "-B" or "A", `what` naming the numbers in errors ("ply", "rating").
Result<Range> parse_range(std::string_view text, std::string_view what);
// "both", "either", "average".
Result<EloOf> parse_elo_of(std::string_view text);
// A class name (ultrabullet, bullet, blitz, rapid, classical,
// correspondence) or a TimeControl value ("300+3", "40/7200:3600", "-").
Result<TimeControlCondition> parse_time_control(std::string_view text);

}  // namespace virrey::query
