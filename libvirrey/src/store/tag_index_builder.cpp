#include "tag_index_builder.hpp"

#include <algorithm>

#include "ingest_group.hpp"

namespace virrey::store {

void TagIndexBuilder::add(GameId id, const std::vector<TagEntry>& tags) {
  for (const TagEntry& t : tags) {
    key_.clear();
    append_tag_exact_prefix(key_, t.field, t.value);
    auto it = games_.find(key_);
    if (it == games_.end()) {
      it = games_.emplace(key_, std::vector<GameId>{}).first;
      bytes_ += key_.size() + 64;  // the node and its list
    }
    it->second.push_back(id);
    bytes_ += sizeof(GameId);
  }
}

void TagIndexBuilder::write(IngestGroup& group) {
  std::vector<const std::pair<const std::string, std::vector<GameId>>*> order;
  order.reserve(games_.size());
  for (const auto& entry : games_) order.push_back(&entry);
  std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
  std::string key;
  for (const auto* entry : order) {
    key = entry->first;
    const std::size_t prefix = key.size();
    for (GameId id : entry->second) {
      const Key<4> g = game_key(id);
      key.resize(prefix);
      key.append(g.data(), g.size());
      group.put(Family::Tags, key, {});
    }
  }
  games_.clear();
  bytes_ = 0;
}

}  // namespace virrey::store
