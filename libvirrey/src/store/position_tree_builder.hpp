// The position index and the opening tree of the games of one ingest group:
// positions gathered into postings, tree counters summed per (position,
// move) so that each reaches the database as one merge operand. Import and
// `db upgrade` build them alike.
#pragma once

#include <cstddef>
#include <vector>

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
  // The tree counters of the group, and an index to them by key: open
  // addressing, linear probing, at most half full, small slots (keys end in
  // a position hash and a move, so their middle bytes hash well).
  struct Slot {
    Key<12> key;
    std::uint32_t entry = 0;  // 1 + index into counters_; 0: empty
  };
  TreeCounters& counters_of(const Key<12>& key);
  void grow();

  PostingsBuilder postings_;
  std::vector<Slot> slots_;
  std::vector<std::pair<Key<12>, TreeCounters>> counters_;
};

}  // namespace virrey::store
