// Writes a GameRecord in PGN export format: the Seven Tag Roster first and in
// its order, then the other tags as read; escaped tag values without control
// characters; movetext with canonical SAN, move numbers, NAGs ($n), comments
// and variations, in lines of at most 79 characters; the result last.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "virrey/game/game_record.hpp"

namespace virrey::game {

// A tag as the PGN export writes it (the value not escaped).
struct ExportTag {
  std::string_view name;  // into the record or static text
  std::string value;
};

// The tags write_pgn writes, in its order: the Seven Tag Roster ("?" where
// the game lacks one), the variant's name where the game's tags do not name
// it, then the game's other tags as read, with [SetUp "1"] before a FEN and
// the FEN's fields parted by single spaces (PGN standard 16.1: the reader
// takes runs of blanks, other readers refuse them).
std::vector<ExportTag> export_tags(const GameRecord& record);

// The game followed by one blank line.
std::string write_pgn(const GameRecord& record);

// Its movetext and result as write_pgn writes them, on one line.
std::string write_movetext(const GameRecord& record);

// A tag value with '"' and '\' escaped, and each control character (C0, DEL,
// C1), which PGN strings may not hold, a space.
std::string escape_tag_value(std::string_view value);

}  // namespace virrey::game
