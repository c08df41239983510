// The Seven Tag Roster as virrey writes it: every exported game carries the
// seven tags in this order, a missing one as its unknown value, and Result
// as the game's termination marker. Duplicate detection compares the roster
// the same way, so a game and its export are one game.
#pragma once

#include <array>
#include <string_view>

#include "virrey/game/game_record.hpp"

namespace virrey::game {

struct RosterTag {
  std::string_view name;
  std::string_view unknown;  // what PGN writes when the value is unknown
};

constexpr std::array<RosterTag, 7> kSevenTagRoster = {{
    {"Event", "?"},
    {"Site", "?"},
    {"Date", "????.??.??"},
    {"Round", "?"},
    {"White", "?"},
    {"Black", "?"},
    {"Result", "*"},
}};

constexpr bool in_seven_tag_roster(std::string_view name) {
  for (const RosterTag& t : kSevenTagRoster)
    if (t.name == name) return true;
  return false;
}

// The value of a roster tag as written: Result from the termination marker,
// another tag's own value, or its unknown value when the game lacks it.
inline std::string_view roster_value(const GameRecord& rec, const RosterTag& tag) {
  if (tag.name == "Result") return result_text(rec.result);
  for (const TagPair& t : rec.tags)  // the first of the name, as GameRecord::tag
    if (t.name == tag.name) return t.value;
  return tag.unknown;
}

}  // namespace virrey::game
