// Everything a game adds to the indexes, computed from its record and a trace
// of its main line (the validator's, or one replayed from the record): pure
// and thread-safe, so import prepares games on several threads and `db check`
// recomputes what the indexes must hold.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "virrey/base/error.hpp"
#include "virrey/game/game_record.hpp"
#include "virrey/game/main_line_trace.hpp"
#include "virrey/rules/material.hpp"
#include "virrey/rules/types.hpp"
#include "virrey/store/game_summary.hpp"
#include "virrey/store/schema.hpp"
#include "virrey/store/tree_counters.hpp"

namespace virrey::store {

struct PositionEntry {
  std::uint64_t hash = 0;
  std::uint32_t first_ply = 0;  // 0: the start position
};

struct TreeEntry {
  std::uint64_t hash = 0;  // the position the move is played from
  Move move{};
};

// Promotion flags, the value of a promotions entry (one byte).
enum PromotionFlag : std::uint8_t {
  kCapturedLater = 1,  // the promoted piece was captured later in the main line
  kGaveMate = 2,       // it is among the pieces giving the final checkmate
};

struct PromotionEntry {
  PieceType piece = PieceType::None;
  Color colour = Color::White;
  int file = 0;            // 0 = a-file
  std::uint32_t ply = 0;   // 1-based ply of the promoting move
  std::uint8_t flags = 0;  // PromotionFlag bits
};

// A material balance of the main line and the positions where it holds:
// plies first_ply .. first_ply + plies - 1 (each balance holds in one run).
struct MaterialEntry {
  Material material;
  std::uint32_t first_ply = 0;
  std::uint32_t plies = 1;
};

struct TagEntry {
  TagField field;
  std::string value;  // normalised
};

struct GameIndex {
  Variant variant = Variant::Standard;
  std::uint64_t identity = 0;            // identity_hash(identity_bytes)
  std::string identity_bytes;            // what duplicate detection compares
  std::vector<PositionEntry> positions;  // distinct positions, in the order they first occur
  std::vector<TreeEntry> tree;           // distinct (position, move) of plies < kTreePlies
  TreeCounters counters;                 // what this game adds to each tree entry
  std::vector<PromotionEntry> promotions;
  std::vector<TagEntry> tags;  // distinct (field, value)
  std::vector<MaterialEntry> materials;  // in the order they occur
  GameSummary summary;
};

// Replays the main line of a record into `trace` (its move numbers only when
// `with_numbers`). Fails (InvalidArgument) only when a main-line move is not
// legal.
Status trace_main_line(const game::GameRecord& record, game::MainLineTrace& trace, bool with_numbers);

// From a complete trace of the record's main line: no replay.
GameIndex index_game(const game::GameRecord& record, const game::MainLineTrace& trace);
// The same, replaying the record (trace_main_line).
Result<GameIndex> index_game(const game::GameRecord& record);

}  // namespace virrey::store
