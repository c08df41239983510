// The tag index entries of the games of one ingest group, gathered by tag
// value and written in key order: a group repeats the same players, events
// and dates many times, so sorting the distinct values is far less work than
// sorting every entry.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "virrey/store/game_index.hpp"
#include "virrey/store/keys.hpp"

namespace virrey::store {

class IngestGroup;

class TagIndexBuilder {
 public:
  // Games are added in id order.
  void add(GameId id, const std::vector<TagEntry>& tags);
  std::size_t bytes() const { return bytes_; }
  // Adds everything to the group, then starts empty.
  void write(IngestGroup& group);

 private:
  std::unordered_map<std::string, std::vector<GameId>> games_;  // by tag_exact_prefix
  std::size_t bytes_ = 0;
  std::string key_;  // the key being looked up, kept from tag to tag
};

}  // namespace virrey::store
