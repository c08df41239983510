// The material index (keys.hpp: material): per variant, a dictionary of the
// balances that occur, and per balance and import segment the games that
// reach it with the plies where it holds.
//
//   postings value = per game, by id: varint(game - previous game) |
//                    varint(first ply) | varint(plies), where the first
//                    game's previous game is the key's first game.
//
// A balance holds in one run of plies in a game (material only decreases:
// every capture takes a man, every promotion a pawn), so a game appears once
// in a balance's postings. Frozen with the schema.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "virrey/store/database.hpp"
#include "virrey/store/game_index.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store {

class IngestGroup;

// Appends one game to a postings value.
void append_material_posting(std::string& value, GameId previous, const MaterialHit& hit);
// Visits a value's games in id order; false when it does not decode (or the
// visitor stopped: `stopped` says which).
bool decode_material_postings(std::string_view value, GameId first, const std::function<bool(const MaterialHit&)>& visit,
                              bool* stopped = nullptr);

// The material entries of the games of one ingest group.
class MaterialIndexBuilder {
 public:
  // Games are added in id order.
  void add(GameId id, const GameIndex& ix);
  std::size_t bytes() const { return bytes_; }
  // Adds the postings and dictionary entries to the group, then starts empty.
  void write(IngestGroup& group);

 private:
  struct List {
    GameId first = 0, last = 0;
    std::string value;
  };
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
