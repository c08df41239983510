// The material index (keys.hpp: material): per variant and balance, the
// games that reach it with the plies where it holds, one value per balance
// and span of 2^20 games (material_key_first): every ingest of an import adds
// a run of games to it as a merge operand, and the family's merge operator
// joins the runs (re-coded as one while small).
//
// A value is one or more runs, each of games in id order, later runs of
// later games. A run of n games:
//   varint(n) | varint(first game - the key's game), then for n <= 2:
//   varint(first ply) | varint(plies) of the first game and, for the
//   second, varint(gap) | varint(first ply) | varint(plies); for more:
//   a byte each for the Rice parameters of the gaps, first plies and
//   plies, varint(least first ply), then Rice(first ply - least) |
//   Rice(plies - 1) of the first game and Rice(gap - 1) | Rice(first ply -
//   least) | Rice(plies - 1) of each later one, bits from the least
//   significant (bit_stream.hpp), the last byte padded.
// A gap is a game's id minus the previous game's.
//
// The layout before (kind 1): per game varint(game - previous game) |
// varint(first ply) | varint(plies), the first game's previous game being
// the key's first game.
//
// A balance holds in one run of plies in a game (material only decreases:
// every capture takes a man, every promotion a pawn), so a game appears once
// in a balance's postings. Frozen with the schema.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "virrey/store/database.hpp"
#include "virrey/store/game_index.hpp"
#include "virrey/store/keys.hpp"

namespace rocksdb {
class MergeOperator;
}

namespace virrey::store {

class IngestGroup;

// The key an import starting at `first` adds its runs to: its first game
// rounded down to a multiple of kMaterialKeyGames, so that a balance has a
// value for every so many games, however many imports wrote them (runs of
// later imports follow those of earlier ones in the value).
constexpr GameId kMaterialKeyGames = GameId(1) << 20;
constexpr GameId material_key_first(GameId first) { return first & ~(kMaterialKeyGames - 1); }
// Appends a run of games (in id order, each at or after `first`) to a value.
void encode_material_run(std::string& out, GameId first, std::span<const MaterialHit> hits);
// Appends one game to a value of the layout before runs (and to the digests
// of `db check`).
void append_material_posting(std::string& value, GameId previous, const MaterialHit& hit);
// Visits a value's games in id order; false when it does not decode (or the
// visitor stopped: `stopped` says which). `runs`: kind 5's coding, else kind 1's.
bool decode_material_postings(std::string_view value, GameId first,
                              const std::function<bool(const MaterialHit&)>& visit, bool* stopped = nullptr,
                              bool runs = true);
// Joins the runs an import's ingests add to one key.
std::shared_ptr<rocksdb::MergeOperator> make_material_merge_operator();

// The material entries of the games of one ingest group.
class MaterialIndexBuilder {
 public:
  // Games are added in id order.
  void add(GameId id, const GameIndex& ix);
  std::size_t bytes() const { return bytes_; }
  // Adds the postings and dictionary entries to the group, then starts empty.
  // Under keys naming `key_first`, the first game of the import.
  void write(IngestGroup& group, GameId key_first);

 private:
  using List = std::vector<MaterialHit>;
  // By variant and material (the ingest group sorts the keys): a game's
  // handful of balances are looked up among tens of thousands.
  struct KeyHash {
    std::size_t operator()(const std::pair<Variant, std::uint64_t>& k) const {
      return std::size_t((k.second ^ (std::uint64_t(k.first) << 61)) * 0x9e3779b97f4a7c15ull >> 7);
    }
  };
  std::unordered_map<std::pair<Variant, std::uint64_t>, List, KeyHash> lists_;
  std::size_t bytes_ = 0;
};

}  // namespace virrey::store
