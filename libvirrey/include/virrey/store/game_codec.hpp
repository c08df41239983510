// The compact game record stored in the `games` family, and its decoding back
// to a GameRecord that write_pgn turns into the same PGN as at import.
//
// Layout (varints are LEB128):
//   format (1) = 2 | variant (1) | result (1) | flags (1: bit 0 = annotated)
//   start FEN: varint length + bytes (empty: the variant's start position)
//   tags: varint count, then per tag: name code (1; 0 = literal name, then
//         varint length + bytes), value as varint length + bytes
//   main line: varint ply count, then each move as its move number
//         (rules/move_numbers.hpp): 1 byte when the position has at most
//         256 numbers, else 2 bytes big-endian. In a Modern game with
//         [BishopSwap "Yes"] the numbers include the bishop swaps.
//         Format 1 (still read) stored instead each move's index among the
//         legal moves sorted by their 3 move bytes (keys.hpp), in 2 bytes
//         when there were more than 256.
//   annotated games only, the movetext as tokens (main-line moves implicit):
//         0x01..0x3f run of n moves (at depth 0 taken from the main line;
//                   inside a variation followed by n move indices)
//         0x40 nag (1) | 0x41 comment (varint length + bytes)
//         0x42 begin variation | 0x43 end variation
//         0x44 a null move (in a variation; written since null moves are kept)
//         main-line moves after the last token are implicit too.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "virrey/base/error.hpp"
#include "virrey/game/game_record.hpp"

namespace virrey::store {

// What decode_game fills; the rest of the record is left empty. Moves are
// cheap, SAN text (movetext) costs a replay with move generation.
enum DecodeParts : unsigned {
  kDecodeTags = 1,      // tags (and variant, result, start FEN always)
  kDecodeMainLine = 2,  // main_line
  kDecodeMovetext = 4,  // movetext with SAN, NAGs, comments, variations
  kDecodeAll = 7,
};

// Fails (InvalidArgument) only for a record whose moves are not legal.
// `main_line_numbers`: the main line's moves as a trace of this record holds
// them (MainLineTrace::move_numbers), which spares replaying it.
Result<std::string> encode_game(const game::GameRecord& record,
                                const std::string* main_line_numbers = nullptr);
// `main_line_plies`: with kDecodeMainLine but not kDecodeMovetext, the main
// line stops after that many plies (a query confirming a position the index
// places early in the game needs no more); the movetext always has them all.
// `main_line_min_men`: likewise, the main line stops at the first position
// with fewer men on the board (no move adds a man: a query confirming a
// position of that many men needs no more).
inline constexpr std::uint32_t kWholeMainLine = 0xffffffffu;
Result<game::GameRecord> decode_game(std::string_view bytes, unsigned parts = kDecodeAll,
                                     std::uint32_t main_line_plies = kWholeMainLine,
                                     int main_line_min_men = 0);

}  // namespace virrey::store
