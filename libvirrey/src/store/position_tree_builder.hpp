// The position index and the opening tree of the games of one ingest group:
// positions gathered into postings, tree counters summed per (position,
// move) so that each reaches the database as one merge operand. Import and
// `db upgrade` build them alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "position_postings.hpp"
#include "virrey/store/game_index.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store {

class IngestGroup;

using TreeKey = decltype(tree_key(Variant{}, 0, Move{}));

class PositionTreeBuilder {
 public:
  void add(GameId id, const GameIndex& ix);
  // The memory the group's entries take, to bound a group.
  std::size_t bytes() const;
  // Adds everything to the group, then starts empty; `counts`: the
  // database's, once the group is in (position_postings.hpp).
  void write(IngestGroup& group, const std::array<VariantCounts, kVariantCount>& counts);

 private:
  // The tree counters of one (position, move) of the group, narrower than
  // TreeCounters: a group holds far fewer than 2^32 games.
  struct Entry {
    TreeKey key;
    std::uint32_t games = 0, white_wins = 0, draws = 0, black_wins = 0;
    std::uint32_t white_elo_games = 0, black_elo_games = 0, last_date = 0;
    std::uint64_t white_elo_sum = 0, black_elo_sum = 0;
    void add(const TreeCounters& c);
    TreeCounters counters() const;
  };
  // An index to the entries by key: open addressing, linear probing, at most
  // half full; a slot holds a few bits of the key's hash, so that most
  // probes that miss never read an entry.
  struct Slot {
    std::uint32_t tag = 0;
    std::uint32_t entry = 0;  // 1 + index into entries_; 0: empty
  };
  Entry& entry_of(const TreeKey& key);
  void grow();

  PostingsBuilder postings_;
  std::vector<Slot> slots_;
  std::vector<Entry> entries_;
};

}  // namespace virrey::store
