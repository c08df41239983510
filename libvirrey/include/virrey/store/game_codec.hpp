// The compact game record stored in the `games` family, and its decoding back
// to a GameRecord that write_pgn turns into the same PGN as at import.
//
// Layout (varints are LEB128):
//   format (1) = 1 | variant (1) | result (1) | flags (1: bit 0 = annotated)
//   start FEN: varint length + bytes (empty: the variant's start position)
//   tags: varint count, then per tag: name code (1; 0 = literal name, then
//         varint length + bytes), value as varint length + bytes
//   main line: varint ply count, then each move as its index among the legal
//         moves of its position in canonical order (sorted by the 3 move
//         bytes of keys.hpp): 1 byte when there are at most 256 legal moves,
//         else 2 bytes big-endian. Canonical order keeps the record
//         independent of the move generator's order. In a Modern game with
//         [BishopSwap "Yes"] the legal moves include the bishop swaps.
//   annotated games only, the movetext as tokens (main-line moves implicit):
//         0x01..0x3f run of n moves (at depth 0 taken from the main line;
//                   inside a variation followed by n move indices)
//         0x40 nag (1) | 0x41 comment (varint length + bytes)
//         0x42 begin variation | 0x43 end variation
//         main-line moves after the last token are implicit too.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "virrey/store/error.hpp"
#include "virrey/validate/game_record.hpp"

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
Result<std::string> encode_game(const validate::GameRecord& record);
// `main_line_plies`: with kDecodeMainLine but not kDecodeMovetext, the main
// line stops after that many plies (a query confirming a position the index
// places early in the game needs no more); the movetext always has them all.
inline constexpr std::uint32_t kWholeMainLine = 0xffffffffu;
Result<validate::GameRecord> decode_game(std::string_view bytes, unsigned parts = kDecodeAll,
                                         std::uint32_t main_line_plies = kWholeMainLine);

}  // namespace virrey::store
