// The position index and the opening tree of the games of one ingest group:
// positions gathered into postings, tree counters summed per (position,
// move) so that each reaches the database as one merge operand. Import and
// `db upgrade` build them alike.
#pragma once

#include <cstddef>
#include <unordered_map>

#include "position_postings.hpp"
#include "virrey/store/game_index.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store {

class IngestGroup;

class PositionTreeBuilder {
 public:
  void add(GameId id, const GameIndex& ix);
  // Memory held, to bound a group.
  std::size_t bytes() const;
  // Adds everything to the group, then starts empty.
  void write(IngestGroup& group);

 private:
  // Tree keys end in a position hash and a move: their middle bytes hash well.
  struct KeyHash {
    std::size_t operator()(const Key<12>& k) const {
      return std::size_t(get_be(k.data() + 1, 8) ^ get_be(k.data() + 9, 3) * 0x9e3779b97f4a7c15ULL);
    }
  };
  PostingsBuilder postings_;
  std::unordered_map<Key<12>, TreeCounters, KeyHash> tree_;
};

}  // namespace virrey::store
