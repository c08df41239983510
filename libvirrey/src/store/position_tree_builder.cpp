#include "position_tree_builder.hpp"

#include "ingest_group.hpp"

namespace virrey::store {

void PositionTreeBuilder::add(GameId id, const GameIndex& ix) {
  for (const PositionEntry& p : ix.positions) postings_.add(ix.variant, p.hash, id);
  for (const TreeEntry& t : ix.tree) tree_[tree_key(ix.variant, t.hash, t.move)].add(ix.counters);
}

std::size_t PositionTreeBuilder::bytes() const {
  // A node of the map: key, counters, hash and next pointer.
  return postings_.bytes() + tree_.size() * (sizeof(Key<12>) + sizeof(TreeCounters) + 2 * sizeof(void*));
}

void PositionTreeBuilder::write(IngestGroup& group) {
  postings_.write(group);
  for (const auto& [key, c] : tree_) group.merge(Family::Tree, view(key), encode_tree_counters(c));
  tree_.clear();
}

}  // namespace virrey::store
